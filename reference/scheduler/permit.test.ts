import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchedulerCore, type Attempt, type Effect } from './scheduler.ts';
import { defaultProfile, inTreeRegistry, type Handle } from './framework.ts';
import { node, pod, seeded } from './testing.ts';
import type { PermitPlugin, Pod } from './types.ts';
import { goDuration } from './waiting-pods.ts';

/**
 * A gang plugin, as coscheduling does it: pods labelled gang=<name> wait at Permit (10 s) until
 * `size` of the gang are waiting, then the last one allows them all. A pod labelled
 * gang-reject=true is rejected by the next pod of its gang.
 */
function gang(size: number) {
  return (_args: unknown, handle: Handle): PermitPlugin => ({
    name: 'Gang',
    permit(_state, p) {
      const group = p.metadata.labels?.['gang'];
      if (!group) return undefined;
      const waiting: string[] = [];
      handle.iterateWaitingPods((w) => {
        if (w.pod.metadata.labels?.['gang'] !== group) return;
        if (w.pod.metadata.labels?.['gang-reject'] === 'true') w.reject('Gang', `gang ${group} gave up on ${w.pod.metadata.name}`);
        else waiting.push(w.pod.metadata.uid!);
      });
      if (waiting.length + 1 < size) return { code: 'Wait', reasons: [], timeout_ms: 10_000 };
      for (const uid of waiting) handle.getWaitingPod(uid)!.allow('Gang');
      return undefined;
    },
  });
}

function core(size = 2, timeout_ms?: number): SchedulerCore {
  const profile = defaultProfile();
  profile.plugins!.permit = { enabled: [{ name: 'Gang' }] };
  const registry = { ...inTreeRegistry(), Gang: timeout_ms === undefined ? gang(size) : () => ({ name: 'Gang', permit: () => ({ code: 'Wait' as const, reasons: [], timeout_ms }) }) };
  const c = new SchedulerCore({ random: seeded(5), profiles: [profile], registry });
  c.onNode('ADDED', node('n1', { cpu: '1' }), 0);
  return c;
}

const bindOf = (a: Attempt) => a.effects.find((e): e is Extract<Effect, { kind: 'bind' }> => e.kind === 'bind');
const member = (name: string, extra: Record<string, string> = {}): Pod => pod(name, { cpu: '300m', labels: { gang: 'g', ...extra } });

test('a pod held at Permit is not bound; it is bound once the plugin allows it', () => {
  const c = core();
  c.onPod('ADDED', member('a'), 0);
  const first = c.scheduleOne(0)!;
  assert.equal(first.waiting, true);
  assert.deepEqual(first.effects, []);
  assert.deepEqual(c.resolveWaiting(1_000), []);
  c.onPod('ADDED', member('b'), 1_000);
  const second = c.scheduleOne(1_000)!;
  assert.equal(bindOf(second)?.node, 'n1');
  const released = c.resolveWaiting(1_000);
  assert.deepEqual(released.map((a) => [a.info.pod.metadata.name, bindOf(a)?.node]), [['a', 'n1']]);
  assert.ok(released[0]!.binding, 'an allowed pod goes on to binding');
});

test('a waiting pod holds its room on the node: a pod that needs it does not fit', () => {
  const c = core(3);
  c.onPod('ADDED', pod('a', { cpu: '800m', labels: { gang: 'g' } }), 0);
  assert.equal(c.scheduleOne(0)!.waiting, true);
  c.onPod('ADDED', pod('other', { cpu: '300m' }), 0);
  const other = c.scheduleOne(0)!;
  assert.equal(bindOf(other), undefined);
  assert.match(other.effects.find((e) => e.kind === 'unschedulable')!.kind === 'unschedulable' ? (other.effects.find((e) => e.kind === 'unschedulable') as any).message : '', /Insufficient cpu/);
});

test('the timeout rejects a waiting pod with upstream\'s message, frees its room and queues it again', () => {
  const c = core(2);
  c.onPod('ADDED', pod('a', { cpu: '800m', labels: { gang: 'g' } }), 0);
  c.scheduleOne(0);
  assert.deepEqual(c.resolveWaiting(9_999), []);
  assert.equal(c.nextPermitDeadline(), 10_000);
  const [rejected] = c.resolveWaiting(10_000);
  const failure = rejected!.effects.find((e) => e.kind === 'unschedulable') as Extract<Effect, { kind: 'unschedulable' }>;
  assert.equal(failure.message, 'rejected due to timeout after waiting 10s at plugin Gang');
  assert.equal(rejected!.binding, undefined);
  assert.equal(c.nextPermitDeadline(), undefined);
  assert.equal(c.get('n1')!.requested.milliCPU, 0, 'the assumed pod is taken off its node');
  assert.equal(c.queue.lengths.unschedulable + c.queue.lengths.backoff + c.queue.lengths.active, 1);
});

test('a plugin can reject a waiting pod through the handle', () => {
  const c = core(3);
  c.onPod('ADDED', member('a', { 'gang-reject': 'true' }), 0);
  c.scheduleOne(0);
  c.onPod('ADDED', member('b'), 0);
  c.scheduleOne(0);
  const [rejected] = c.resolveWaiting(0);
  assert.equal(rejected!.info.pod.metadata.name, 'a');
  assert.equal((rejected!.effects.find((e) => e.kind === 'unschedulable') as any).message, 'gang g gave up on a');
});

test('a waiting pod that is deleted is rejected and leaves its node', () => {
  const c = core(3);
  const a = member('a');
  c.onPod('ADDED', a, 0);
  c.scheduleOne(0);
  c.onPod('DELETED', a, 0);
  assert.equal(c.resolveWaiting(0).length, 1);
  assert.equal(c.get('n1')!.requested.milliCPU, 0);
});

test('a Permit timeout is capped at 15 minutes', () => {
  const c = core(2, 60 * 60_000);
  c.onPod('ADDED', member('a'), 0);
  c.scheduleOne(0);
  assert.equal(c.nextPermitDeadline(), 15 * 60_000);
});

test('durations print as Go prints them', () => {
  assert.deepEqual([500, 10_000, 90_000, 900_000].map(goDuration), ['500ms', '10s', '1m30s', '15m0s']);
});
