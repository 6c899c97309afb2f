import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchedulerCore, type Effect } from '../../scheduler.ts';
import { defaultProfile } from '../../framework.ts';
import { node, pod, seeded } from '../../testing.ts';
import type { Pod } from '../../types.ts';
import { WorkloadIndex } from '../../default-selector.ts';

const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', controller: true };
const replicaSet = { metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } } } };

function ownedBy(p: Pod, owner: object): Pod {
  return { ...p, metadata: { ...p.metadata, ownerReferences: [owner] } as any };
}

/**
 * n1 holds 2 pods of the ReplicaSet and n2 one, both without requests; n3 holds an unrelated pod
 * with more requests than those, so by resources alone n2 is the best node.
 */
function place(incoming: Pod, opts: { withReplicaSet?: boolean; profile?: ReturnType<typeof defaultProfile> } = {}): string | undefined {
  const core = new SchedulerCore({ random: seeded(3), ...(opts.profile ? { profiles: [opts.profile] } : {}) });
  for (const n of ['n1', 'n2', 'n3']) core.onNode('ADDED', node(n), 0);
  if (opts.withReplicaSet !== false) core.onWorkload('replicasets', 'ADDED', replicaSet);
  const web = (name: string, at: string) => ownedBy(pod(name, { labels: { app: 'web' }, nodeName: at }), RS);
  for (const p of [web('web-a', 'n1'), web('web-b', 'n1'), web('web-c', 'n2'), pod('other', { cpu: '300m', memory: '600Mi', nodeName: 'n3' })]) core.onPod('ADDED', p, 0);
  core.onPod('ADDED', incoming, 0);
  const attempt = core.scheduleOne(0)!;
  return attempt.effects.find((e): e is Extract<Effect, { kind: 'bind' }> => e.kind === 'bind')?.node;
}

test('with no constraints of its own, a ReplicaSet\'s pod is spread by the system default hostname constraint', () => {
  assert.equal(place(ownedBy(pod('web-d', { labels: { app: 'web' } }), RS)), 'n3');
});

test('a pod nothing owns or selects gets no default constraint: resources alone decide', () => {
  assert.equal(place(pod('lonely', { labels: { app: 'web' } })), 'n2');
});

test('a pod whose owner the scheduler has not seen gets no default selector', () => {
  assert.equal(place(ownedBy(pod('web-d', { labels: { app: 'web' } }), RS), { withReplicaSet: false }), 'n2');
});

test('defaultingType List with no defaultConstraints turns the defaults off', () => {
  const profile = defaultProfile();
  profile.pluginConfig = [{ name: 'PodTopologySpread', args: { defaultingType: 'List', defaultConstraints: [] } }];
  assert.equal(place(ownedBy(pod('web-d', { labels: { app: 'web' } }), RS), { profile }), 'n2');
});

test('DefaultSelector merges the selectors of the Services that select the pod, and adds the owning ReplicaSet\'s', () => {
  const index = new WorkloadIndex();
  index.onObject('services', 'ADDED', { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' } } });
  index.onObject('services', 'ADDED', { metadata: { name: 'other', namespace: 'default' }, spec: { selector: { app: 'db' } } });
  index.onObject('services', 'ADDED', { metadata: { name: 'headless-external', namespace: 'default' }, spec: {} });
  index.onObject('replicasets', 'ADDED', { metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web', tier: 'front' } } } });
  const p = ownedBy(pod('x', { labels: { app: 'web', tier: 'front' } }), RS);
  assert.deepEqual(index.selectorFor(p), { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }, { key: 'tier', operator: 'In', values: ['front'] }] });
  assert.equal(index.selectorFor(pod('y', { labels: { app: 'cache' } })), undefined);
});

test('each node\'s count is remembered only until its pods change: later cycles see pods added and pods being deleted', () => {
  const core = new SchedulerCore({ random: seeded(3) });
  for (const n of ['n1', 'n2', 'n3']) core.onNode('ADDED', node(n), 0);
  core.onWorkload('replicasets', 'ADDED', replicaSet);
  const web = (name: string, at?: string) => ownedBy(pod(name, { labels: { app: 'web' }, ...(at ? { nodeName: at } : {}) }), RS);
  for (const p of [web('web-a', 'n1'), web('web-b', 'n1'), web('web-c', 'n2')]) core.onPod('ADDED', p, 0);
  const next = (name: string) => {
    core.onPod('ADDED', web(name), 0);
    return core.scheduleOne(0)!.effects.find((e): e is Extract<Effect, { kind: 'bind' }> => e.kind === 'bind')?.node;
  };
  assert.equal(next('web-d'), 'n3');
  // n3 now holds web-d (assumed) and three more: the fewest are on n2.
  for (const p of [web('web-e', 'n3'), web('web-f', 'n3'), web('web-g', 'n3')]) core.onPod('ADDED', p, 0);
  assert.equal(next('web-h'), 'n2');
  // Both of n1's pods are being deleted: they no longer count, so n1 is the emptiest.
  for (const name of ['web-a', 'web-b']) {
    const p = web(name, 'n1');
    core.onPod('MODIFIED', { ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, 0);
  }
  assert.equal(next('web-i'), 'n1');
});
