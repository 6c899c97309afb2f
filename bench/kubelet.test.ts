import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runKubeletBench } from './kubelet.ts';

test('the kubelet bench starts every pod and reports p50/p99 with the p99 goal', async () => {
  const result = await runKubeletBench({ pods: 10, nodes: 2, inFlight: 3 });
  assert.equal(result.figures.find((f) => f.name === 'pods Running')?.value, 10);
  const p99 = result.figures.find((f) => f.name.startsWith('pod start latency p99'));
  assert.ok(p99?.goal && Number.isFinite(p99.value) && p99.value > 0, JSON.stringify(p99));
});
