/**
 * Probe steps (features/kubelet/probes.feature). A probe's outcome is driven the way one would
 * drive it on any cluster: exec probes read a file in the container (`cat /tmp/live`), and the
 * scenario creates or removes that file with exec into the container (`kubelet.probes`).
 * Probe runs are counted from the kubelet's Unhealthy events (one per failed probe; a real
 * cluster aggregates them into `count`).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { argv, container, eventually, createPod, passSeconds, podPath, seconds, tryGetPod } from './support.ts';

type Kind = 'liveness' | 'readiness' | 'startup';
const FILE: Record<Kind, string> = { liveness: '/tmp/live', readiness: '/tmp/ready', startup: '/tmp/started' };
/**
 * Handles SIGTERM (so a kill is quick), makes the liveness and readiness files, then runs for ever.
 * `sleep & wait`, not a foreground `sleep`: sh runs a trap only once its foreground command ends.
 */
const HEALTHY = `sh -c 'trap "exit 143" TERM; touch ${FILE.liveness}; touch ${FILE.readiness}; sleep 3600 & wait'`;
const fileProbe = (kind: Kind, extra: Record<string, number> = {}) => ({ exec: { command: ['cat', FILE[kind]] }, ...extra });

async function runningPod(world: KubespecWorld, pod: string, spec: any, waitReady = false, labels?: Record<string, string>): Promise<void> {
  await createPod(world, pod, { containers: [spec] }, labels ? { labels } : {});
  await eventually(world, `pod "${pod}" Running`, async () => {
    const got = await tryGetPod(world, pod);
    return got?.status?.phase === 'Running' && (!waitReady || got.status.containerStatuses?.[0]?.ready === true);
  }, seconds(30));
}

Given('a running pod {string} whose container {string} has a liveness probe with periodSeconds {int} and failureThreshold {int}', async function (this: KubespecWorld, pod: string, name: string, period: number, failure: number) {
  await runningPod(this, pod, container(name, HEALTHY, { livenessProbe: fileProbe('liveness', { periodSeconds: period, failureThreshold: failure }) }));
  this.note(`period of ${pod}/${name}/liveness`, period);
});

Given('a running pod {string} whose container {string} has an exec liveness probe with periodSeconds {int}', async function (this: KubespecWorld, pod: string, name: string, period: number) {
  await runningPod(this, pod, container(name, HEALTHY, { livenessProbe: fileProbe('liveness', { periodSeconds: period }) }));
});

Given('a running pod {string} whose container {string} has a startup probe with periodSeconds {int} and failureThreshold {int} and a liveness probe that always fails', async function (this: KubespecWorld, pod: string, name: string, period: number, failure: number) {
  await runningPod(this, pod, container(name, HEALTHY, {
    startupProbe: fileProbe('startup', { periodSeconds: period, failureThreshold: failure }),
    livenessProbe: { exec: { command: ['sh', '-c', 'exit 1'] }, periodSeconds: period, failureThreshold: 1 },
  }));
});

Given('a running pod {string} whose container {string} has a startup probe and a liveness probe with periodSeconds {int} and failureThreshold {int}', async function (this: KubespecWorld, pod: string, name: string, period: number, failure: number) {
  await runningPod(this, pod, container(name, HEALTHY, {
    startupProbe: fileProbe('startup', { periodSeconds: period, failureThreshold: 30 }),
    livenessProbe: fileProbe('liveness', { periodSeconds: period, failureThreshold: failure }),
  }));
  this.note(`period of ${pod}/${name}/liveness`, period);
  this.note(`period of ${pod}/${name}/startup`, period);
});

Given('a running pod {string} whose container {string} runs image {string} with an httpGet readiness probe on path {string} port {int} and failureThreshold {int}', async function (this: KubespecWorld, pod: string, name: string, image: string, path: string, port: number, failure: number) {
  await runningPod(this, pod, { name, image, readinessProbe: { httpGet: { path, port }, failureThreshold: failure } });
});

Given('a running pod {string} whose container {string} runs image {string} with an httpGet readiness probe on port {int} and timeoutSeconds {int}', async function (this: KubespecWorld, pod: string, name: string, image: string, port: number, timeout: number) {
  await runningPod(this, pod, { name, image, readinessProbe: { httpGet: { path: '/', port }, timeoutSeconds: timeout, failureThreshold: 1 } });
});

Given('a running pod {string} whose container {string} runs image {string} with a tcpSocket readiness probe on port {int}', async function (this: KubespecWorld, pod: string, name: string, image: string, port: number) {
  await runningPod(this, pod, { name, image, readinessProbe: { tcpSocket: { port }, failureThreshold: 1 } });
});

Given('a running pod {string} whose container {string} has an exec readiness probe running {string} with failureThreshold {int}', async function (this: KubespecWorld, pod: string, name: string, command: string, failure: number) {
  await runningPod(this, pod, container(name, HEALTHY, { readinessProbe: { exec: { command: argv(command) }, failureThreshold: failure } }));
});

Given('a running pod {string} whose container {string} has an exec readiness probe running {string} with timeoutSeconds {int}', async function (this: KubespecWorld, pod: string, name: string, command: string, timeout: number) {
  await runningPod(this, pod, container(name, HEALTHY, { readinessProbe: { exec: { command: argv(command) }, timeoutSeconds: timeout, failureThreshold: 1 } }));
});

Given('a running pod {string} whose container {string} has a readiness probe with initialDelaySeconds {int} and periodSeconds {int}', async function (this: KubespecWorld, pod: string, name: string, delay: number, period: number) {
  await runningPod(this, pod, container(name, HEALTHY, { readinessProbe: fileProbe('readiness', { initialDelaySeconds: delay, periodSeconds: period }) }));
});

Given('a running pod {string} whose container {string} has a readiness probe with periodSeconds {int} and successThreshold {int}', async function (this: KubespecWorld, pod: string, name: string, period: number, success: number) {
  await runningPod(this, pod, container(name, HEALTHY, { readinessProbe: fileProbe('readiness', { periodSeconds: period, successThreshold: success }) }));
});

Given('a running pod {string} whose container {string} ignores SIGTERM, has terminationGracePeriodSeconds {int} on the pod and a liveness probe with terminationGracePeriodSeconds {int}', async function (this: KubespecWorld, pod: string, name: string, podGrace: number, probeGrace: number) {
  await createPod(this, pod, {
    terminationGracePeriodSeconds: podGrace,
    containers: [container(name, `sh -c 'touch ${FILE.liveness}; sleep 3600'`, { livenessProbe: fileProbe('liveness', { periodSeconds: 10, failureThreshold: 1, terminationGracePeriodSeconds: probeGrace }) })],
  });
  await eventually(this, `pod "${pod}" Running`, async () => (await tryGetPod(this, pod))?.status?.phase === 'Running', seconds(30));
  this.note(`period of ${pod}/${name}/liveness`, 10);
});

Given('a running pod {string} whose container {string} has no readiness probe and runs {string}', async function (this: KubespecWorld, pod: string, name: string, command: string) {
  await runningPod(this, pod, container(name, command));
});

// ---- driving outcomes -----------------------------------------------------------------------------

async function exec(world: KubespecWorld, pod: string, name: string, script: string): Promise<void> {
  const nodes = world.nodes();
  assert.ok(nodes.exec, 'this target declares kubelet.probes but offers no exec()');
  const res = await nodes.exec(world.kube().namespace, pod, name, ['sh', '-c', script]);
  assert.equal(res.exitCode, 0, `exec "${script}" in ${pod}/${name} exited ${res.exitCode}`);
}

async function failures(world: KubespecWorld, pod: string, kind: Kind): Promise<number> {
  const events = expectSuccess(await world.kube().request({ method: 'GET', path: `/api/v1/namespaces/${world.kube().namespace}/events` }), 'list events');
  const label = `${kind[0]!.toUpperCase()}${kind.slice(1)} probe failed`;
  return events.items.filter((e: any) => e.involvedObject?.name === pod && e.reason === 'Unhealthy' && String(e.message).startsWith(label)).reduce((n: number, e: any) => n + (e.count ?? 1), 0);
}

When(/^the (liveness|readiness|startup) probe of container "([^"]*)" in pod "([^"]*)" fails (?:(\d+) times? in a row|once)$/, async function (this: KubespecWorld, kind: Kind, name: string, pod: string, count: string | undefined) {
  const n = count ?? '1';
  const before = await failures(this, pod, kind);
  await exec(this, pod, name, `rm -f ${FILE[kind]}`);
  const period = this.recall<number>(`period of ${pod}/${name}/${kind}`);
  await eventually(this, `${n} ${kind} probe failures of ${pod}/${name}`, async () => (await failures(this, pod, kind)) >= before + Number(n), seconds(period * (Number(n) + 1)));
});

When(/^the (liveness|readiness|startup) probe of container "([^"]*)" in pod "([^"]*)" succeeds once$/, async function (this: KubespecWorld, kind: Kind, name: string, pod: string) {
  await exec(this, pod, name, `touch ${FILE[kind]}`);
  // One period: exactly one more probe runs, and it finds the file.
  await passSeconds(this, this.recall<number>(`period of ${pod}/${name}/${kind}`));
});

When('{int} seconds pass with the startup probe of container {string} failing', async function (this: KubespecWorld, s: number, _name: string) {
  await passSeconds(this, s);
});

When('{int} seconds pass with every probe of container {string} succeeding', async function (this: KubespecWorld, s: number, _name: string) {
  await passSeconds(this, s);
});

Then(/^the (liveness|readiness|startup) probe of container "([^"]*)" in pod "([^"]*)" has been run 0 times$/, async function (this: KubespecWorld, kind: Kind, _name: string, pod: string) {
  // That probe always fails: every run it made would be an Unhealthy event.
  assert.equal(await failures(this, pod, kind), 0);
});

// ---- the API's side --------------------------------------------------------------------------------

When('I create a pod whose container {string} has a readiness probe with both exec and tcpSocket', async function (this: KubespecWorld, name: string) {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'two-handlers' }, spec: { containers: [container(name, 'sleep 3600', { readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } })] } };
  this.note('create answer', await this.kube().request({ method: 'POST', path: podPath(this), body }));
});

When('I create a pod whose container {string} has a {word} probe with successThreshold {int}', async function (this: KubespecWorld, name: string, kind: string, n: number) {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `threshold-${kind.toLowerCase()}` }, spec: { containers: [container(name, 'sleep 3600', { [`${kind}Probe`]: { exec: { command: ['true'] }, successThreshold: n } })] } };
  this.note('create answer', await this.kube().request({ method: 'POST', path: podPath(this), body }));
});

// "the create answer is 422 Invalid with a cause on field … saying …" and "the create answer is N":
// steps/proxy/service-api.steps.ts (one step for every create answer).

Given('a running pod {string} whose container {string} has a readiness probe with periodSeconds {int} and failureThreshold {int}', async function (this: KubespecWorld, pod: string, name: string, period: number, failure: number) {
  await runningPod(this, pod, container(name, HEALTHY, { readinessProbe: fileProbe('readiness', { periodSeconds: period, failureThreshold: failure }) }), true);
  this.note(`period of ${pod}/${name}/readiness`, period);
});

Given(/^running pods "([^"]+)" and "([^"]+)" labelled "([^"]+)" whose container "([^"]+)" has a readiness probe with failureThreshold (\d+)$/, async function (this: KubespecWorld, a: string, b: string, labels: string, name: string, failure: string) {
  const labelMap = Object.fromEntries(labels.split(',').map((kv) => kv.split('=') as [string, string]));
  for (const pod of [a, b]) {
    // periodSeconds 10: the default, said here because the failure step waits in periods.
    await runningPod(this, pod, container(name, HEALTHY, { readinessProbe: fileProbe('readiness', { periodSeconds: 10, failureThreshold: Number(failure) }) }), true, labelMap);
    this.note(`period of ${pod}/${name}/readiness`, 10);
  }
});

// grpc probes: the fake runtime serves no gRPC health service; targets that run them declare kubelet.probes.grpc.
Given('a running pod {string} whose container {string} serves the gRPC health service on port {int} answering {string}', async function (this: KubespecWorld, pod: string, name: string, port: number, status: string) {
  this.note(`grpc container ${pod}`, { name, image: `kubespec/grpc-health:${status}`, port });
});

Given('container {string} of pod {string} has a grpc readiness probe on port {int} with failureThreshold {int}', async function (this: KubespecWorld, name: string, pod: string, port: number, failure: number) {
  const c = this.recall<{ image: string }>(`grpc container ${pod}`);
  await runningPod(this, pod, { name, image: c.image, readinessProbe: { grpc: { port }, failureThreshold: failure } });
});

When('I create pod {string} with containers {string} and {string} running {string}', async function (this: KubespecWorld, pod: string, a: string, b: string, command: string) {
  await createPod(this, pod, { containers: [container(a, command), container(b, command)] });
});

async function execOut(world: KubespecWorld, pod: string, name: string, command: string): Promise<string> {
  const res = await world.nodes().exec!(world.kube().namespace, pod, name, argv(command));
  assert.equal(res.exitCode, 0, `"${command}" in ${pod}/${name} exited ${res.exitCode}`);
  assert.ok(res.stdout.trim() !== '', `"${command}" printed nothing`);
  return res.stdout;
}

Then('{string} prints the same in containers {string} and {string} of pod {string}', async function (this: KubespecWorld, command: string, a: string, b: string, pod: string) {
  assert.equal(await execOut(this, pod, a, command), await execOut(this, pod, b, command));
});

Then('{string} prints different things in containers {string} and {string} of pod {string}', async function (this: KubespecWorld, command: string, a: string, b: string, pod: string) {
  assert.notEqual(await execOut(this, pod, a, command), await execOut(this, pod, b, command));
});
