import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priorityAdmission, systemPriorityClasses } from './priority.ts';
import { podAttrs } from './testutil.ts';

const classes = [
  ...systemPriorityClasses(),
  { metadata: { name: 'high' }, value: 1000000, preemptionPolicy: 'PreemptLowerPriority' },
  { metadata: { name: 'polite' }, value: 500, preemptionPolicy: 'Never' },
];
const plugin = (extra: any[] = []) => priorityAdmission({ getPriorityClass: (n) => [...classes, ...extra].find((c) => c.metadata.name === n), listPriorityClasses: () => [...classes, ...extra] });

test('a pod naming a class gets its value and preemptionPolicy', async () => {
  const pod = { metadata: { name: 'p' }, spec: { priorityClassName: 'polite' } as any };
  await plugin().admit!(podAttrs(pod));
  assert.deepEqual([pod.spec.priority, (pod.spec as any).preemptionPolicy], [500, 'Never']);
});

test('system-node-critical and system-cluster-critical exist with upstream\'s values', async () => {
  const pod = { metadata: { name: 'p' }, spec: { priorityClassName: 'system-node-critical' } };
  await plugin().admit!(podAttrs(pod));
  assert.equal((pod.spec as any).priority, 2000001000);
});

test('a pod naming a missing class is forbidden with upstream\'s message', async () => {
  await assert.rejects(plugin().admit!(podAttrs({ metadata: { name: 'p' }, spec: { priorityClassName: 'nope' } })) as Promise<void>, /pods "p" is forbidden: no PriorityClass with name nope was found/);
});

test('a pod naming no class gets 0, or the global default\'s value when one exists', async () => {
  const plain = { metadata: { name: 'p' }, spec: {} as any };
  await plugin().admit!(podAttrs(plain));
  assert.equal(plain.spec.priority, 0);
  const defaulted = { metadata: { name: 'q' }, spec: {} as any };
  await plugin([{ metadata: { name: 'everyone' }, value: 7, globalDefault: true }]).admit!(podAttrs(defaulted));
  assert.deepEqual([defaulted.spec.priority, defaulted.spec.priorityClassName], [7, 'everyone']);
});

test('a pod stating a priority different from its class is forbidden', async () => {
  await assert.rejects(plugin().admit!(podAttrs({ metadata: { name: 'p' }, spec: { priorityClassName: 'high', priority: 5 } })) as Promise<void>, /must not be provided in pod spec/);
});
