/**
 * Node-pressure eviction (features/practices/ PRACTICE-PRIORITY-EVICTION-ORDER): a node whose
 * kubelet has a hard memory threshold, pods that take memory (`kubespec/alloc:SIZE`), and memory
 * taken on the node outside any pod.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { createPod, describeStatus, eventually, getPod, passSeconds, seconds, tryGetPod } from './support.ts';

Given('a cluster with node {string} of memory {string} whose kubelet evicts at memory.available below {string}', async function (this: KubespecWorld, node: string, memory: string, threshold: string) {
  await this.nodes().ensureNode(node, { memory, evictionHard: { 'memory.available': threshold } });
  this.note('kubelet node', node);
});

Given('a running pod {string} with priorityClassName {string} requesting memory {string} whose container allocates {string}', async function (this: KubespecWorld, pod: string, priorityClassName: string, request: string, size: string) {
  await createPod(this, pod, { priorityClassName, containers: [{ name: 'app', image: `kubespec/alloc:${size}`, resources: { requests: { memory: request } } }] });
  await eventually(this, `pod "${pod}" Running`, async () => (await tryGetPod(this, pod))?.status?.phase === 'Running', seconds(30));
  // kubespec/alloc takes its memory one second after it starts.
  await passSeconds(this, 2);
});

When('processes outside the pods on node {string} take {string} of memory', async function (this: KubespecWorld, node: string, size: string) {
  const bytes = /^(\d+)Mi$/.exec(size);
  assert.ok(bytes, `a size in Mi: ${size}`);
  await this.nodes().holdNodeMemory!(node, Number(bytes[1]) * 2 ** 20);
});

Then('within {int} seconds pod {string} has phase {string} with reason {string} and a message starting {string}', async function (this: KubespecWorld, s: number, pod: string, phase: string, reason: string, message: string) {
  await eventually(this, `pod "${pod}" ${phase} with reason ${reason}`, async () => (await tryGetPod(this, pod))?.status?.phase === phase, seconds(s));
  const got = await getPod(this, pod);
  assert.equal(got.status?.reason, reason, describeStatus(got));
  assert.ok(String(got.status?.message ?? '').startsWith(message), `status.message: ${JSON.stringify(got.status?.message)}`);
});

Then('{int} seconds later pod {string} still has phase {string}', async function (this: KubespecWorld, s: number, pod: string, phase: string) {
  await passSeconds(this, s);
  const got = await getPod(this, pod);
  assert.equal(got.status?.phase, phase, `${describeStatus(got)} reason=${got.status?.reason ?? ''} message=${got.status?.message ?? ''}`);
});
