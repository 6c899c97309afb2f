/**
 * Node-pressure eviction (features/practices/ PRACTICE-PRIORITY-EVICTION-ORDER): a node whose
 * kubelet has a hard or soft memory threshold, pods that take memory (`kubespec/alloc:SIZE`), and
 * memory taken on the node outside any pod.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { containerStatus, createPod, describeStatus, eventually, getPod, passSeconds, seconds, tryGetPod } from './support.ts';

Given('a cluster with node {string} of memory {string} whose kubelet evicts at memory.available below {string}', async function (this: KubespecWorld, node: string, memory: string, threshold: string) {
  await this.nodes().ensureNode(node, { memory, evictionHard: { 'memory.available': threshold } });
  this.note('kubelet node', node);
});

Given('a cluster with node {string} of memory {string} whose kubelet soft-evicts at memory.available below {string} held for {string}, with eviction-max-pod-grace-period {int}', async function (this: KubespecWorld, node: string, memory: string, threshold: string, grace: string, maxPodGrace: number) {
  await this.nodes().ensureNode(node, { memory, evictionSoft: { 'memory.available': threshold }, evictionSoftGracePeriod: { 'memory.available': grace }, evictionMaxPodGracePeriod: maxPodGrace });
  this.note('kubelet node', node);
});

Given('a cluster with node {string} of memory {string} whose kubelet evicts at memory.available below {string} with minimum reclaim {string}', async function (this: KubespecWorld, node: string, memory: string, threshold: string, reclaim: string) {
  await this.nodes().ensureNode(node, { memory, evictionHard: { 'memory.available': threshold }, evictionMinimumReclaim: { 'memory.available': reclaim } });
  this.note('kubelet node', node);
});

Given('a running pod {string} with priorityClassName {string}, terminationGracePeriodSeconds {int}, a container {string} allocating {string} and a container {string} that ignores SIGTERM', async function (this: KubespecWorld, pod: string, priorityClassName: string, grace: number, app: string, size: string, sidecar: string) {
  await createPod(this, pod, {
    priorityClassName, terminationGracePeriodSeconds: grace,
    containers: [
      { name: app, image: `kubespec/alloc:${size}`, resources: { requests: { memory: '64Mi' } } },
      // A shell that traps nothing: SIGTERM does not end it, only the SIGKILL at the end of the grace period.
      { name: sidecar, image: 'busybox', command: ['sh', '-c', 'sleep 3600'], resources: { requests: { memory: '1Mi' } } },
    ],
  });
  await eventually(this, `pod "${pod}" Running`, async () => (await tryGetPod(this, pod))?.status?.phase === 'Running', seconds(30));
  await passSeconds(this, 2);
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

/**
 * The grace period an evicted pod's container had: from the pod's DisruptionTarget condition
 * (set when the kubelet evicts it) to the container's finishedAt, killed (137) at its end.
 * Both are RFC 3339 seconds, hence the 1 s either way.
 */
Then('within {int} seconds container {string} of pod {string} is killed {int} seconds after the pod was evicted', async function (this: KubespecWorld, s: number, name: string, pod: string, grace: number) {
  await eventually(this, `container "${name}" of pod "${pod}" terminated`, async () => !!(await containerStatus(this, pod, name))?.state?.terminated, seconds(s));
  const got = await getPod(this, pod);
  const evicted = (got.status?.conditions ?? []).find((c: any) => c.type === 'DisruptionTarget');
  assert.ok(evicted?.lastTransitionTime, `no DisruptionTarget condition: ${JSON.stringify(got.status?.conditions)}`);
  const terminated = (await containerStatus(this, pod, name)).state.terminated;
  assert.equal(terminated.exitCode, 137, `killed at the end of its grace period: ${JSON.stringify(terminated)}`);
  const took_s = (Date.parse(terminated.finishedAt) - Date.parse(evicted.lastTransitionTime)) / 1000;
  assert.ok(Math.abs(took_s - grace) <= 1, `container "${name}" stopped ${took_s} s after the eviction (${evicted.lastTransitionTime} → ${terminated.finishedAt}), want ${grace} s`);
});
