import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchedulerCore, type Effect } from './scheduler.ts';
import { numFeasibleNodesToFind, fitErrorMessage } from './cycle.ts';
import { toleratesTaint } from '../tolerations.ts';
import { SchedulingQueue } from './queue.ts';
import { prioritySort } from './plugins/queuesort/index.ts';
import { node, pod, seeded } from './testing.ts';
import type { Node, Pod } from './types.ts';

/** A core fed with nodes and already-placed pods; returns where `incoming` went or the failure. */
function schedule(nodes: Node[], placed: Pod[], incoming: Pod) {
  const core = new SchedulerCore({ random: seeded(7) });
  for (const n of nodes) core.onNode('ADDED', n, 0);
  for (const p of placed) core.onPod('ADDED', p, 0);
  core.onPod('ADDED', incoming, 0);
  const attempt = core.scheduleOne(0)!;
  const bind = attempt.effects.find((e): e is Extract<Effect, { kind: 'bind' }> => e.kind === 'bind');
  const failure = attempt.effects.find((e): e is Extract<Effect, { kind: 'unschedulable' }> => e.kind === 'unschedulable');
  return { node: bind?.node, message: failure?.message, effects: attempt.effects, core };
}

const gpu = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

const tolerations: [string, object, boolean][] = [
  ['an Equal toleration with the same key, value and effect tolerates the taint', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, true],
  ['an Exists toleration with the same key tolerates any value', { key: 'dedicated', operator: 'Exists' }, true],
  ['an empty key with Exists tolerates every taint', { operator: 'Exists' }, true],
  ['a toleration without an effect matches every effect', { key: 'dedicated', value: 'gpu' }, true],
  ['a different value does not tolerate the taint', { key: 'dedicated', operator: 'Equal', value: 'tpu', effect: 'NoSchedule' }, false],
  ['a different effect does not tolerate the taint', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoExecute' }, false],
  ['a different key with Exists does not tolerate the taint', { key: 'other', operator: 'Exists' }, false],
];
for (const [name, t, want] of tolerations) test(name, () => assert.equal(toleratesTaint(t, gpu), want));

test('a pod with no tolerations cannot land on a node with a NoSchedule taint', () => {
  const r = schedule([node('n1', { taints: [gpu] }), node('n2')], [], pod('web', { cpu: '100m' }));
  assert.equal(r.node, 'n2');
});

test('PreferNoSchedule outweighs a resource score difference, not only a tie', () => {
  const r = schedule([node('n1', { taints: [{ key: 'spare', value: 'true', effect: 'PreferNoSchedule' }] }), node('n2')], [pod('load', { cpu: '2', memory: '4Gi', nodeName: 'n2' })], pod('web', { cpu: '100m' }));
  assert.equal(r.node, 'n2');
});

test('the less loaded of two equal nodes is chosen (LeastAllocated)', () => {
  const r = schedule([node('n1'), node('n2')], [pod('load', { cpu: '3', memory: '6Gi', nodeName: 'n1' })], pod('web', { cpu: '500m', memory: '512Mi' }));
  assert.equal(r.node, 'n2');
});

test('an unschedulable pod gets upstream\'s message, reasons counted per node and sorted', () => {
  const r = schedule([node('n1', { cpu: '1', taints: [{ key: 'maintenance', value: 'true', effect: 'NoSchedule' }] }), node('n2', { cpu: '1' }), node('n3', { cpu: '1' })], [], pod('huge', { cpu: '2' }));
  assert.equal(r.message, '0/3 nodes are available: 1 node(s) had untolerated taint {maintenance: true}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
});

test('required node affinity with In picks the only matching node', () => {
  const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'accelerator', operator: 'In', values: ['a100', 'h100'] }] }] } } };
  assert.equal(schedule([node('cpu1'), node('gpu1', { labels: { accelerator: 'a100' } })], [], pod('train', { affinity })).node, 'gpu1');
});

test('required anti-affinity on hostname keeps a second replica off the first one\'s node', () => {
  const affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'ha' } } }] } };
  const r = schedule([node('n1'), node('n2')], [pod('ha-1', { labels: { app: 'ha' }, affinity, nodeName: 'n1' })], pod('ha-2', { labels: { app: 'ha' }, affinity }));
  assert.equal(r.node, 'n2');
});

test('required pod affinity on zone joins the zone of the selected pod', () => {
  const affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchLabels: { app: 'shop' } } }] } };
  const r = schedule([node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } })], [pod('app', { labels: { app: 'shop' }, nodeName: 'b1' })], pod('collector', { affinity }));
  assert.equal(r.node, 'b1');
});

test('a topology spread constraint with DoNotSchedule fills the emptier domain', () => {
  const tsc = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'w' } } }];
  const r = schedule([node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } })], [pod('w1', { labels: { app: 'w' }, nodeName: 'a1' })], pod('w2', { labels: { app: 'w' }, topologySpreadConstraints: tsc }));
  assert.equal(r.node, 'b1');
});

test('preemption evicts the lower-priority pod and nominates its node', () => {
  const r = schedule([node('n1', { cpu: '2' })], [pod('batch', { cpu: '1500m', priority: 10, nodeName: 'n1' })], pod('urgent', { cpu: '1', priority: 1000 }));
  assert.deepEqual(r.effects.filter((e) => e.kind === 'evict').map((e) => (e as any).pod.metadata.name), ['batch']);
  assert.ok(r.effects.some((e) => e.kind === 'nominate' && e.node === 'n1'));
});

test('a pod never preempts pods of equal priority', () => {
  const r = schedule([node('n1', { cpu: '2' })], [pod('first', { cpu: '1500m', priority: 1000, nodeName: 'n1' })], pod('second', { cpu: '1', priority: 1000 }));
  assert.equal(r.effects.filter((e) => e.kind === 'evict').length, 0);
});

test('preemption picks the node needing the fewest and lowest victims', () => {
  const r = schedule(
    [node('n1', { cpu: '2' }), node('n2', { cpu: '2' })],
    [pod('a', { cpu: '1', priority: 500, nodeName: 'n1' }), pod('b', { cpu: '1', priority: 5, nodeName: 'n1' }), pod('c', { cpu: '2', priority: 100, nodeName: 'n2' })],
    pod('urgent', { cpu: '1', priority: 1000 }),
  );
  assert.deepEqual(r.effects.filter((e) => e.kind === 'evict').map((e) => (e as any).pod.metadata.name), ['b']);
});

test('preemptionPolicy Never waits instead of evicting', () => {
  const r = schedule([node('n1', { cpu: '2' })], [pod('batch', { cpu: '1500m', priority: 10, nodeName: 'n1' })], pod('patient', { cpu: '1', priority: 1000, preemptionPolicy: 'Never' }));
  assert.equal(r.effects.filter((e) => e.kind === 'evict').length, 0);
});

test('pods without requests spread over nodes rather than piling on one', () => {
  const core = new SchedulerCore({ random: seeded(3) });
  for (const n of ['n1', 'n2', 'n3']) core.onNode('ADDED', node(n), 0);
  const counts = new Map<string, number>();
  for (let i = 0; i < 9; i++) {
    core.onPod('ADDED', pod(`p${i}`), 0);
    const bind = core.scheduleOne(0)!.effects.find((e) => e.kind === 'bind') as any;
    counts.set(bind.node, (counts.get(bind.node) ?? 0) + 1);
  }
  assert.deepEqual([...counts.values()], [3, 3, 3]);
});

test('numFeasibleNodesToFind: all below 100 nodes, 10 % of 5,000, a 5 % floor, never under 100', () => {
  assert.equal(numFeasibleNodesToFind(50), 50);
  assert.equal(numFeasibleNodesToFind(5000), 500);
  assert.equal(numFeasibleNodesToFind(200), 100);
  assert.equal(numFeasibleNodesToFind(10000), 500);
});

test('the FitError message sorts the "count reason" strings, not the nodes\' order', () => {
  const r = schedule([node('n1', { cpu: '1', taints: [{ key: 'maintenance', value: 'true', effect: 'NoSchedule' }] }), node('n2', { cpu: '1' })], [], pod('huge', { cpu: '2' }));
  assert.match(r.message!, /^0\/2 nodes are available: 1 Insufficient cpu, 1 node\(s\) had untolerated taint \{maintenance: true\}\. preemption: /);
});

test('the FitError message with one reason', () => {
  const m = fitErrorMessage(2, new Map([['a', { code: 'Unschedulable', reasons: ['Insufficient cpu'] }], ['b', { code: 'Unschedulable', reasons: ['Insufficient cpu'] }]]));
  assert.equal(m, '0/2 nodes are available: 2 Insufficient cpu.');
});

test('backoff starts at 1 s and doubles to 10 s', () => {
  const q = new SchedulingQueue({ queueSort: prioritySort(), eventsOf: () => new Set() });
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((a) => q.backoffDuration(a)), [1000, 2000, 4000, 8000, 10000, 10000]);
});

test('the queue pops higher priority first, then the earlier pod', () => {
  const q = new SchedulingQueue({ queueSort: prioritySort(), eventsOf: () => new Set() });
  q.add(pod('early-low', { priority: 10 }), 0);
  q.add(pod('late-high', { priority: 1000 }), 1);
  q.add(pod('later-low', { priority: 10 }), 2);
  assert.deepEqual([q.pop(), q.pop(), q.pop()].map((i) => i!.pod.metadata.name), ['late-high', 'early-low', 'later-low']);
});

test('an unschedulable pod moves back only on an event one of its rejecting plugins registered for', () => {
  const core = new SchedulerCore({ random: seeded(1) });
  core.onNode('ADDED', node('n1', { taints: [gpu] }), 0);
  core.onPod('ADDED', pod('web'), 0);
  core.scheduleOne(0);
  assert.equal(core.queue.lengths.unschedulable, 1);
  core.onPod('ADDED', pod('other', { nodeName: 'n1' }), 100);
  assert.equal(core.queue.lengths.unschedulable, 1, 'a pod added elsewhere cannot help with a taint');
  core.onNode('MODIFIED', node('n1'), 5000);
  assert.equal(core.queue.lengths.active, 1, 'removing the taint moves it back');
});

test('a failed binding takes the assumed pod back off its node and retries after backoff', () => {
  const core = new SchedulerCore({ random: seeded(1) });
  core.onNode('ADDED', node('n1', { cpu: '1' }), 0);
  core.onPod('ADDED', pod('web', { cpu: '800m' }), 0);
  const attempt = core.scheduleOne(0)!;
  assert.equal(core.get('n1')!.requested.milliCPU, 800);
  core.bindingDone(attempt, false, 10, 'conflict');
  assert.equal(core.get('n1')!.requested.milliCPU, 0);
  assert.equal(core.queue.lengths.backoff, 1);
});

test('a binding whose answer was lost after it went through (the informer already shows the pod bound) is not undone nor retried', () => {
  const core = new SchedulerCore({ random: seeded(1) });
  core.onNode('ADDED', node('n1', { cpu: '1' }), 0);
  core.onPod('ADDED', pod('web', { cpu: '800m' }), 0);
  const attempt = core.scheduleOne(0)!;
  // The API server bound it and the watch said so; then the connection broke before the 201 came back.
  core.onPod('MODIFIED', pod('web', { cpu: '800m', nodeName: 'n1' }), 5);
  const effects = core.bindingDone(attempt, false, 10, 'read ECONNRESET');
  assert.equal(core.get('n1')!.requested.milliCPU, 800, 'still counted on its node');
  assert.deepEqual(core.queue.lengths, { active: 0, backoff: 0, unschedulable: 0 }, 'not queued to be scheduled again');
  assert.deepEqual(effects, []);
});
