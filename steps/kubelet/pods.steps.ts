/**
 * Steps about pods a kubelet runs (features/kubelet/): nodes with kubelets behind them, pods
 * bound to them by spec.nodeName, and what their status says.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { parse } from 'yaml';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { container, eventually, containerStatus, createPod, describeStatus, getPod, passSeconds, podPath, seconds, statusOf, tryGetPod } from './support.ts';

async function withNodes(world: KubespecWorld, names: string[]): Promise<void> {
  for (const name of names) await world.nodes().ensureNode(name);
  world.note('kubelet node', names[0]);
}

Given('a cluster with node {string}', async function (this: KubespecWorld, node: string) {
  await withNodes(this, [node]);
});

Given('a cluster with nodes {string} and {string}', async function (this: KubespecWorld, a: string, b: string) {
  await withNodes(this, [a, b]);
});

Given('a cluster with nodes {string} and {string} and no scheduler', async function (this: KubespecWorld, a: string, b: string) {
  // The scenario's pods name their node (or none); nothing here binds pods.
  await withNodes(this, [a, b]);
});

Given('a cluster with no nodes', async function (this: KubespecWorld) {
  const nodes = expectSuccess(await this.kube().request({ method: 'GET', path: '/api/v1/nodes' }), 'list nodes');
  assert.deepEqual(nodes.items.map((n: any) => n.metadata.name), [], 'this cluster already has nodes');
});

When('I add node {string}', async function (this: KubespecWorld, node: string) {
  await this.nodes().ensureNode(node);
});

When('node {string} stops sending heartbeats', async function (this: KubespecWorld, node: string) {
  const nodes = this.nodes();
  assert.ok(nodes.stopNode, 'this target declares cluster.nodes but offers no stopNode()');
  await nodes.stopNode(node);
});

// ---- creating pods ----------------------------------------------------------------------------

When('I create pod {string} with one container {string} running {string}', async function (this: KubespecWorld, pod: string, name: string, command: string) {
  await createPod(this, pod, { containers: [container(name, command)] });
});

When('I create pod {string} with restartPolicy {string} and one container {string} running {string}', async function (this: KubespecWorld, pod: string, policy: string, name: string, command: string) {
  await createPod(this, pod, { restartPolicy: policy, containers: [container(name, command)] });
});

When('I create pod {string} with spec.nodeName {string} and one container {string} running {string}', async function (this: KubespecWorld, pod: string, node: string, name: string, command: string) {
  await createPod(this, pod, { containers: [container(name, command)] }, { node });
});

When('I create pod {string} with no spec.nodeName and one container {string} running {string}', async function (this: KubespecWorld, pod: string, name: string, command: string) {
  await createPod(this, pod, { containers: [container(name, command)] }, { node: null });
});

When('I create pod {string} with restartPolicy {string} and containers {string} running {string} and {string} running {string}', async function (this: KubespecWorld, pod: string, policy: string, a: string, ca: string, b: string, cb: string) {
  await createPod(this, pod, { restartPolicy: policy, containers: [container(a, ca), container(b, cb)] });
});

When('I create the pod:', async function (this: KubespecWorld, yaml: string) {
  const body = parse(yaml);
  body.metadata = { ...(body.metadata ?? {}), namespace: this.kube().namespace };
  const res = await this.kube().request({ method: 'POST', path: podPath(this), body });
  this.note('create answer', res);
  if (res.status === 201) this.note(`uid of pod ${body.metadata.name}`, res.json.metadata.uid);
});

Then('the create answer is {int} with status.phase {string}', function (this: KubespecWorld, code: number, phase: string) {
  const res = this.recall<any>('create answer');
  assert.equal(res.status, code, res.text);
  assert.equal(res.json?.status?.phase, phase);
});

Given('a running pod {string} on node {string} with one container {string} running {string} and no restartPolicy set', async function (this: KubespecWorld, pod: string, node: string, name: string, command: string) {
  await createPod(this, pod, { containers: [container(name, command)] }, { node });
  await eventually(this, `pod "${pod}" Running`, async () => (await tryGetPod(this, pod))?.status?.phase === 'Running', seconds(30));
});

Given('a running pod {string} on node {string}', async function (this: KubespecWorld, pod: string, node: string) {
  await createPod(this, pod, { containers: [container('app', 'sleep 3600')] }, { node });
  await eventually(this, `pod "${pod}" Running`, async () => (await tryGetPod(this, pod))?.status?.phase === 'Running', seconds(30));
});

Given('pod {string} with restartPolicy {string} whose only container {string} ran {string} and has phase {string}', async function (this: KubespecWorld, pod: string, policy: string, name: string, command: string, phase: string) {
  await createPod(this, pod, { restartPolicy: policy, containers: [container(name, command)] });
  await eventually(this, `pod "${pod}" in phase ${phase}`, async () => (await tryGetPod(this, pod))?.status?.phase === phase, seconds(30));
});

When('I delete pod {string} with gracePeriodSeconds {int}', async function (this: KubespecWorld, pod: string, grace: number) {
  const res = await this.kube().request({ method: 'DELETE', path: `${podPath(this, pod)}?gracePeriodSeconds=${grace}` });
  expectSuccess(res, `delete pod "${pod}"`);
});

When('I delete pod {string}', async function (this: KubespecWorld, pod: string) {
  expectSuccess(await this.kube().request({ method: 'DELETE', path: podPath(this, pod) }), `delete pod "${pod}"`);
});

// ---- time ---------------------------------------------------------------------------------------

When('{int} seconds pass', async function (this: KubespecWorld, s: number) {
  await passSeconds(this, s);
});

// ---- phase and conditions ---------------------------------------------------------------------

async function phaseIs(world: KubespecWorld, pod: string, phase: string): Promise<boolean> {
  return (await tryGetPod(world, pod))?.status?.phase === phase;
}

Then('within {int} seconds pod {string} has phase {string}', async function (this: KubespecWorld, s: number, pod: string, phase: string) {
  await eventually(this, `pod "${pod}" in phase ${phase}`, () => phaseIs(this, pod, phase), seconds(s));
});

When('pod {string} reaches phase {string}', async function (this: KubespecWorld, pod: string, phase: string) {
  await eventually(this, `pod "${pod}" in phase ${phase}`, () => phaseIs(this, pod, phase), seconds(30));
});

Then('pod {string} has phase {string}', async function (this: KubespecWorld, pod: string, phase: string) {
  const got = await getPod(this, pod);
  assert.equal(got.status?.phase, phase, describeStatus(got));
});

Then('pod {string} is marked for deletion', async function (this: KubespecWorld, pod: string) {
  const got = await getPod(this, pod);
  assert.ok(got.metadata?.deletionTimestamp, `pod "${pod}" has no deletionTimestamp: ${describeStatus(got)}`);
});

Then('pod {string} does not have phase {string}', async function (this: KubespecWorld, pod: string, phase: string) {
  assert.notEqual((await getPod(this, pod)).status?.phase, phase);
});

Then('no pod in the cluster ever has phase {string}', async function (this: KubespecWorld, phase: string) {
  // Every pod the scenario's node runs, now (the scenario's other steps watched the moments before).
  const pods = expectSuccess(await this.kube().request({ method: 'GET', path: '/api/v1/pods' }), 'list pods');
  assert.ok(pods.items.every((p: any) => p.status?.phase !== phase), `a pod has phase ${phase}`);
});

async function conditionIs(world: KubespecWorld, pod: string, type: string, status: string): Promise<boolean> {
  const c = (await tryGetPod(world, pod))?.status?.conditions?.find((x: any) => x.type === type);
  return c?.status === status;
}

Then('pod {string} has condition {string} with status {string}', async function (this: KubespecWorld, pod: string, type: string, status: string) {
  const got = await getPod(this, pod);
  assert.ok(await conditionIs(this, pod, type, status), `pod "${pod}" has no ${type}=${status}: ${describeStatus(got)}`);
});

Then('within {int} seconds pod {string} has condition {string} with status {string}', async function (this: KubespecWorld, s: number, pod: string, type: string, status: string) {
  await eventually(this, `pod "${pod}" ${type}=${status}`, () => conditionIs(this, pod, type, status), seconds(s));
});

Then('pod {string} has the same metadata.uid as before', async function (this: KubespecWorld, pod: string) {
  assert.equal((await getPod(this, pod)).metadata.uid, this.recall<string>(`uid of pod ${pod}`));
});

Then('pod {string} has spec.restartPolicy {string}', async function (this: KubespecWorld, pod: string, policy: string) {
  assert.equal((await getPod(this, pod)).spec.restartPolicy, policy);
});

Then('pod {string} is gone from the API', async function (this: KubespecWorld, pod: string) {
  assert.equal(await tryGetPod(this, pod), undefined);
});

Then('within {int} seconds pod {string} is gone from the API', async function (this: KubespecWorld, s: number, pod: string) {
  await eventually(this, `pod "${pod}" deleted`, async () => (await tryGetPod(this, pod)) === undefined, seconds(s));
});

// ---- container states ---------------------------------------------------------------------------

Then('container {string} of pod {string} is running', async function (this: KubespecWorld, name: string, pod: string) {
  const s = await containerStatus(this, pod, name);
  assert.ok(s?.state?.running, `container "${name}" is not running: ${JSON.stringify(s)}`);
});

async function waitingReason(world: KubespecWorld, pod: string, name: string): Promise<string | undefined> {
  return (await containerStatus(world, pod, name))?.state?.waiting?.reason;
}

Then('within {int} seconds container {string} of pod {string} is waiting with reason {string}', async function (this: KubespecWorld, s: number, name: string, pod: string, reason: string) {
  await eventually(this, `container "${name}" waiting with ${reason}`, async () => (await waitingReason(this, pod, name)) === reason, seconds(s));
});

Then('within {int} seconds container {string} of pod {string} is waiting with reason {string} or {string}', async function (this: KubespecWorld, s: number, name: string, pod: string, a: string, b: string) {
  await eventually(this, `container "${name}" waiting with ${a} or ${b}`, async () => [a, b].includes((await waitingReason(this, pod, name)) ?? ''), seconds(s));
});

Then('container {string} of pod {string} is waiting with reason {string}', async function (this: KubespecWorld, name: string, pod: string, reason: string) {
  assert.equal(await waitingReason(this, pod, name), reason, JSON.stringify(await containerStatus(this, pod, name)));
});

Then('within {int} seconds container {string} of pod {string} is terminated with exitCode {int}', async function (this: KubespecWorld, s: number, name: string, pod: string, code: number) {
  await eventually(this, `container "${name}" terminated with ${code}`, async () => (await containerStatus(this, pod, name))?.state?.terminated?.exitCode === code, seconds(s));
});

Then('within {int} seconds container {string} of pod {string} is terminated with reason {string}', async function (this: KubespecWorld, s: number, name: string, pod: string, reason: string) {
  await eventually(this, `container "${name}" terminated with reason ${reason}`, async () => {
    const st = await containerStatus(this, pod, name);
    return (st?.state?.terminated?.reason ?? st?.lastState?.terminated?.reason) === reason;
  }, seconds(s));
});

async function restarts(world: KubespecWorld, pod: string, name: string): Promise<number | undefined> {
  return (await containerStatus(world, pod, name))?.restartCount;
}

Then('container {string} of pod {string} has restartCount {int}', async function (this: KubespecWorld, name: string, pod: string, n: number) {
  assert.equal(await restarts(this, pod, name), n);
});

Then('container {string} of pod {string} has restartCount at least {int}', async function (this: KubespecWorld, name: string, pod: string, n: number) {
  const got = await restarts(this, pod, name);
  assert.ok((got ?? -1) >= n, `restartCount is ${got}, expected at least ${n}`);
});

Then('within {int} seconds container {string} of pod {string} has restartCount {int}', async function (this: KubespecWorld, s: number, name: string, pod: string, n: number) {
  await eventually(this, `restartCount ${n}`, async () => (await restarts(this, pod, name)) === n, seconds(s));
});

Then('within {int} seconds container {string} of pod {string} has restartCount at least {int}', async function (this: KubespecWorld, s: number, name: string, pod: string, n: number) {
  await eventually(this, `restartCount at least ${n}`, async () => ((await restarts(this, pod, name)) ?? -1) >= n, seconds(s));
});

Then('within {int} seconds container {string} of pod {string} has restartCount {int} and is running', async function (this: KubespecWorld, s: number, name: string, pod: string, n: number) {
  await eventually(this, `restartCount ${n} and running`, async () => {
    const st = await containerStatus(this, pod, name);
    return st?.restartCount === n && !!st?.state?.running;
  }, seconds(s));
});

Then('container {string} of pod {string} has ready {string}', async function (this: KubespecWorld, name: string, pod: string, ready: string) {
  const st = await containerStatus(this, pod, name);
  assert.equal(String(!!st?.ready), ready, JSON.stringify(st));
});

Then('pod {string} has an event with reason {string} mentioning {string}', async function (this: KubespecWorld, pod: string, reason: string, text: string) {
  await eventually(this, `event ${reason}`, async () => {
    const events = expectSuccess(await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${this.kube().namespace}/events` }), 'list events');
    return events.items.some((e: any) => e.involvedObject?.name === pod && e.reason === reason && String(e.message).includes(text));
  }, seconds(5));
});

Then('the last termination of container {string} of pod {string} was caused by the kubelet killing it', async function (this: KubespecWorld, name: string, pod: string) {
  // Killed by a signal: SIGTERM (143) when the process handles it, SIGKILL (137) after the grace period.
  const last = (await containerStatus(this, pod, name))?.lastState?.terminated;
  assert.ok(last && [137, 143].includes(last.exitCode), `last termination: ${JSON.stringify(last)}`);
});

// ---- what a watch saw -------------------------------------------------------------------------------

Given('I watch the pods of the scenario', async function (this: KubespecWorld) {
  this.note('pod watch', await this.kube().watch(`${podPath(this)}?watch=true`));
});

function phasesSeen(world: KubespecWorld, pod: string): string[] {
  const watch = world.recall<{ events: readonly { type: string; object: any }[] }>('pod watch');
  const phases: string[] = [];
  for (const e of watch.events) {
    if (e.object?.metadata?.name !== pod || e.type === 'DELETED') continue;
    const phase = e.object?.status?.phase;
    if (phase && phases[phases.length - 1] !== phase) phases.push(phase);
  }
  return phases;
}

Then('the phases seen for pod {string} are exactly {string}', function (this: KubespecWorld, pod: string, expected: string) {
  assert.deepEqual(phasesSeen(this, pod), expected.split(',').map((p) => p.trim()));
});

Then('pod {string} has never had phase {string}', function (this: KubespecWorld, pod: string, phase: string) {
  const seen = phasesSeen(this, pod);
  assert.ok(seen.length > 0, 'the watch saw no phase at all');
  assert.ok(!seen.includes(phase), `phases seen: ${seen.join(', ')}`);
});

Then('no pod of the scenario was ever seen with phase {string}', function (this: KubespecWorld, phase: string) {
  const watch = this.recall<{ events: readonly { type: string; object: any }[] }>('pod watch');
  assert.ok(watch.events.length > 0, 'the watch saw nothing');
  assert.ok(!watch.events.some((e) => e.object?.status?.phase === phase));
});

Then('within {int} seconds pod {string} has condition {string} with status {string} and reason {string}', async function (this: KubespecWorld, s: number, pod: string, type: string, status: string, reason: string) {
  await eventually(this, `pod "${pod}" ${type}=${status} (${reason})`, async () => {
    const c = (await tryGetPod(this, pod))?.status?.conditions?.find((x: any) => x.type === type);
    return c?.status === status && c?.reason === reason;
  }, seconds(s));
});

Then('within {int} seconds container {string} of pod {string} has ready {string}', async function (this: KubespecWorld, s: number, name: string, pod: string, ready: string) {
  await eventually(this, `container "${name}" ready=${ready}`, async () => String(!!(await containerStatus(this, pod, name))?.ready) === ready, seconds(s));
});

Given('a running pod {string} on node {string} with terminationGracePeriodSeconds {int} and one container {string} running {string}', async function (this: KubespecWorld, pod: string, node: string, grace: number, name: string, command: string) {
  await createPod(this, pod, { terminationGracePeriodSeconds: grace, containers: [container(name, command)] }, { node });
  await eventually(this, `pod "${pod}" Running`, async () => (await tryGetPod(this, pod))?.status?.phase === 'Running', seconds(30));
});

Then('pod {string} is still in the API, marked for deletion', async function (this: KubespecWorld, pod: string) {
  const got = await tryGetPod(this, pod);
  assert.ok(got?.metadata?.deletionTimestamp, `pod "${pod}": ${JSON.stringify(got?.metadata)}`);
});

Then('the last status seen for container {string} of pod {string} is terminated with exitCode {int}', function (this: KubespecWorld, name: string, pod: string, code: number) {
  const watch = this.recall<{ events: readonly { type: string; object: any }[] }>('pod watch');
  const seen = watch.events.filter((e) => e.object?.metadata?.name === pod).map((e) => statusOf(e.object, name)).filter(Boolean);
  const last = seen[seen.length - 1];
  assert.equal(last?.state?.terminated?.exitCode, code, JSON.stringify(last));
});
