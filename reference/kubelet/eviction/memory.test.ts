import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evictionMessage, formatBinarySI, isCritical, rankMemoryPressure, type PodUsage } from './memory.ts';

const Mi = 2 ** 20;
const pod = (name: string, priority: number, request: string, used?: number): PodUsage => ({
  pod: { metadata: { name }, spec: { priority, containers: [{ name: 'app', resources: { requests: { memory: request } } }] } },
  ...(used === undefined ? {} : { usage: new Map([['app', used]]) }),
});
const names = (ps: PodUsage[]) => ps.map((p) => p.pod.metadata.name);

test('pods above their requests rank before pods within them, whatever their priority', () => {
  assert.deepEqual(names(rankMemoryPressure([pod('within', 0, '512Mi', 100 * Mi), pod('above', 1000, '64Mi', 200 * Mi)])), ['above', 'within']);
});

test('among pods above their requests, the lower priority goes first even when it uses less', () => {
  assert.deepEqual(names(rankMemoryPressure([pod('high', 1000, '64Mi', 400 * Mi), pod('low', 100, '64Mi', 200 * Mi)])), ['low', 'high']);
});

test('at equal priority, the larger usage above requests goes first', () => {
  assert.deepEqual(names(rankMemoryPressure([pod('a', 0, '64Mi', 100 * Mi), pod('b', 0, '64Mi', 300 * Mi)])), ['b', 'a']);
});

test('a pod without stats ranks first', () => {
  assert.deepEqual(names(rankMemoryPressure([pod('a', 0, '64Mi', 300 * Mi), pod('nostats', 0, '64Mi')])), ['nostats', 'a']);
});

test('system-cluster-critical priority is critical, 1e9 is not', () => {
  assert.equal(isCritical(pod('dns', 2_000_000_000, '0').pod), true);
  assert.equal(isCritical(pod('user', 1_000_000_000, '0').pod), false);
});

test('the message names the threshold, what was available and each container above its request', () => {
  assert.equal(evictionMessage('100Mi', 24 * Mi, pod('batch', 100, '64Mi', 200 * Mi)),
    'The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. Container app was using 200Mi, request is 64Mi, has larger consumption of memory. ');
  assert.equal(formatBinarySI(1536), '1536');
  assert.equal(formatBinarySI(3 * 1024), '3Ki');
});
