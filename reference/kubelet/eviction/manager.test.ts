import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EvictionManager } from './manager.ts';

const Mi = 2 ** 20;
const GI = 1024 * Mi;
const pod = (name: string, priority: number, terminationGracePeriodSeconds?: number) => ({
  pod: { metadata: { name, namespace: 'default', uid: name }, spec: { priority, ...(terminationGracePeriodSeconds !== undefined ? { terminationGracePeriodSeconds } : {}), containers: [{ name: 'app', resources: { requests: { memory: '64Mi' } } }] } },
  usage: new Map([['app', 200 * Mi]]),
});
const soft = { evictionSoft: { 'memory.available': '300Mi' }, evictionSoftGracePeriod: { 'memory.available': '1m' }, evictionMaxPodGracePeriod: 20 };

test('no threshold configured: the loop does not run; a soft one without a grace period stops the kubelet', () => {
  assert.equal(new EvictionManager({}).enabled, false);
  assert.throws(() => new EvictionManager({ evictionSoft: { 'memory.available': '300Mi' } }), /grace period must be specified/);
});

test('a soft threshold sets MemoryPressure at once but acts only after its grace period', () => {
  const m = new EvictionManager(soft);
  assert.deepEqual(m.observe(200 * Mi, GI, 0), { memoryPressure: true });
  assert.deepEqual(m.observe(200 * Mi, GI, 50_000), { memoryPressure: true });
  const later = m.observe(200 * Mi, GI, 60_000);
  assert.equal(later.acting?.hard, false);
});

test('MemoryPressure holds for the transition period after the last pass a threshold was met', () => {
  const m = new EvictionManager({ ...soft, evictionPressureTransitionPeriod: '30s' });
  m.observe(200 * Mi, GI, 0);
  assert.equal(m.observe(500 * Mi, GI, 10_000).memoryPressure, true);
  assert.equal(m.observe(500 * Mi, GI, 29_999).memoryPressure, true);
  assert.equal(m.observe(500 * Mi, GI, 30_000).memoryPressure, false);
});

test('a soft eviction gives min(evictionMaxPodGracePeriod, the pod\'s terminationGracePeriodSeconds); a hard one 1 s', () => {
  const m = new EvictionManager({ ...soft, evictionHard: { 'memory.available': '100Mi' } });
  const softT = m.thresholds.find((t) => !t.hard)!;
  const hardT = m.thresholds.find((t) => t.hard)!;
  assert.equal(m.choose(softT, [pod('a', 0, 120)], 200 * Mi)?.grace_s, 20);
  assert.equal(m.choose(softT, [pod('a', 0, 5)], 200 * Mi)?.grace_s, 5);
  assert.equal(m.choose(hardT, [pod('a', 0, 120)], 50 * Mi)?.grace_s, 1);
});

test('the choice skips critical pods and names the threshold in the message', () => {
  const m = new EvictionManager(soft);
  // batch is within its requests, so the critical pod above its own ranks first.
  const chosen = m.choose(m.thresholds[0]!, [pod('dns', 2_000_000_000), { ...pod('batch', 100), usage: new Map([['app', 50 * Mi]]) }], 200 * Mi)!;
  assert.equal(chosen.candidate.pod.metadata.name, 'batch');
  assert.deepEqual(chosen.skipped.map((p) => p.pod.metadata.name), ['dns']);
  assert.match(chosen.message, /^The node was low on resource: memory\. Threshold quantity: 300Mi, available: 200Mi\. /);
  assert.equal(m.choose(m.thresholds[0]!, [pod('dns', 2_000_000_000)], 200 * Mi), undefined);
});
