/**
 * Steps about the endpoint controllers (EPS-POPULATE, PROBE-READINESS-ENDPOINTS,
 * PROBE-NO-READINESS-READY-AT-START): Services with a selector, pods they select, and the
 * EndpointSlices and Endpoints the controllers write for them.
 *
 * Where a scenario needs no kubelet, its pods are bound to a node registered through the API with
 * no kubelet behind it, and the test writes their status (Running, Ready, their IP) through the
 * status subresource as their kubelet would — a stand-in for the kubelet, never for the
 * controller under test (as upstream's endpointslice integration tests do).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expectSuccess } from '../kube/api.ts';
import { labelsOf, nodePath, podsPath, UNSCHEDULED } from './support.ts';
import type { ProxyConnectResult } from '../../contract/contract.ts';
import { container, createPod, defaultNode } from '../kubelet/support.ts';
import { proxy } from '../proxy/support.ts';

const SERVICE_NAME = 'kubernetes.io/service-name';

async function createSelectorService(world: KubespecWorld, name: string, selector: string, port: any): Promise<void> {
  const kube = world.kube();
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: labelsOf(selector), ports: [{ protocol: 'TCP', ...port }] } };
  expectSuccess(await kube.request({ method: 'POST', path: collectionPath('', 'services', kube.namespace), body }), `create Service "${name}"`);
}

/** A node with no kubelet behind it, registered once per scenario (named after the namespace: node names are cluster-wide). */
async function apiNode(world: KubespecWorld): Promise<string> {
  const name = world.recallOr<string | undefined>('api node', undefined);
  if (name) return name;
  const kube = world.kube();
  const node = `${kube.namespace}-n1`;
  const body = { apiVersion: 'v1', kind: 'Node', metadata: { name: node, labels: { 'topology.kubernetes.io/zone': 'zone-a' } } };
  expectSuccess(await kube.request({ method: 'POST', path: nodePath(kube), body }), `register Node "${node}"`);
  world.onCleanup(() => kube.request({ method: 'DELETE', path: nodePath(kube, node) }));
  world.note('api node', node);
  return node;
}

/** Creates the pod bound to the API-only node, then writes its status as a kubelet would: Running, Ready, with its IP. */
async function readyPod(world: KubespecWorld, name: string, labels: string, ip: string, port: { name: string; containerPort: number }): Promise<void> {
  const kube = world.kube();
  const nodeName = await apiNode(world);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: labelsOf(labels) }, spec: { nodeName, schedulerName: UNSCHEDULED, containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', ports: [{ ...port, protocol: 'TCP' }] }] } };
  const created = expectSuccess(await kube.request({ method: 'POST', path: podsPath(kube), body: pod }), `create Pod "${name}"`);
  // No kubelet will confirm its deletion: the test does, as it plays the kubelet (else the scenario's namespace never empties).
  world.onCleanup(() => kube.request({ method: 'DELETE', path: podsPath(kube, name), body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 } }));
  await setPodStatus(world, created, ip, true);
}

async function setPodStatus(world: KubespecWorld, pod: any, ip: string, ready: boolean): Promise<void> {
  const kube = world.kube();
  const t = new Date(world.session.clock?.now_ms() ?? Date.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const cond = (type: string, status: boolean) => ({ type, status: status ? 'True' : 'False', lastTransitionTime: t });
  const status = {
    phase: 'Running', hostIP: '192.0.2.1', podIP: ip, podIPs: [{ ip }], startTime: t,
    conditions: [cond('Initialized', true), cond('Ready', ready), cond('ContainersReady', ready), cond('PodScheduled', true)],
    containerStatuses: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', imageID: '', ready, restartCount: 0, started: true, state: { running: { startedAt: t } } }],
  };
  expectSuccess(await kube.request({ method: 'PUT', path: `${podsPath(kube, pod.metadata.name)}/status`, body: { ...pod, status } }), `write the status of Pod "${pod.metadata.name}"`);
}


Given('a Service {string} selecting {string} with port named {string} {int} targetPort {string}', async function (this: KubespecWorld, name: string, selector: string, portName: string, port: number, target: string) {
  await createSelectorService(this, name, selector, { name: portName, port, targetPort: /^\d+$/.test(target) ? Number(target) : target });
});

Given('running ready pods {string} and {string} labelled {string} with IPs {string} and {string} and container port {string} {int}', async function (this: KubespecWorld, a: string, b: string, labels: string, ipA: string, ipB: string, portName: string, port: number) {
  await readyPod(this, a, labels, ipA, { name: portName, containerPort: port });
  await readyPod(this, b, labels, ipB, { name: portName, containerPort: port });
});

Given('a running ready pod {string} labelled {string} with IP {string} and container port {string} {int}', async function (this: KubespecWorld, name: string, labels: string, ip: string, portName: string, port: number) {
  await readyPod(this, name, labels, ip, { name: portName, containerPort: port });
});

/** The k-th made-up pod address (10.244.2.0/23 and up, clear of the addresses the scenarios name). */
const podIp = (k: number) => `10.244.${2 + Math.floor(k / 250)}.${(k % 250) + 2}`;

Given('a Service {string} selecting {string} with ready pods {string} and {string}', async function (this: KubespecWorld, name: string, selector: string, a: string, b: string) {
  await createSelectorService(this, name, selector, { port: 80, targetPort: 8080 });
  await readyPod(this, a, selector, podIp(0), { name: 'http', containerPort: 8080 });
  await readyPod(this, b, selector, podIp(1), { name: 'http', containerPort: 8080 });
});

Given('a Service {string} selecting {string} with {int} ready pods', async function (this: KubespecWorld, name: string, selector: string, n: number) {
  await createSelectorService(this, name, selector, { port: 80, targetPort: 8080 });
  await apiNode(this);
  // In batches, as a Deployment's pods would come: the scenario is about where they land, not the order.
  for (let k = 0; k < n; k += 10) {
    await Promise.all(Array.from({ length: Math.min(10, n - k) }, (_, i) => readyPod(this, `${name}-${k + i}`, selector, podIp(k + i), { name: 'http', containerPort: 8080 })));
  }
});

// ---- reading the slices --------------------------------------------------------------------------

async function slicesOf(world: KubespecWorld, service: string): Promise<any[]> {
  const kube = world.kube();
  const path = `${collectionPath('discovery.k8s.io', 'endpointslices', kube.namespace)}?labelSelector=${encodeURIComponent(`${SERVICE_NAME}=${service}`)}`;
  return expectSuccess(await kube.request({ method: 'GET', path }), `list the EndpointSlices of "${service}"`).items ?? [];
}

Then('within {int} seconds there is an EndpointSlice labelled {string} and {string}', async function (this: KubespecWorld, secs: number, a: string, b: string) {
  const kube = this.kube();
  const selector = encodeURIComponent(`${a},${b}`);
  let found: any;
  await this.eventually(`an EndpointSlice labelled ${a} and ${b} with endpoints`, async () => {
    const res = await kube.request({ method: 'GET', path: `${collectionPath('discovery.k8s.io', 'endpointslices', kube.namespace)}?labelSelector=${selector}` });
    found = (res.json?.items ?? []).find((s: any) => (s.endpoints ?? []).length >= 2);
    return !!found;
  }, secs * 1000);
  this.note('endpointslice', found);
});

Then('it has addressType {string}, port {string} {int}, and endpoints {string} and {string} whose targetRef names pods {string} and {string}', function (this: KubespecWorld, type: string, portName: string, port: number, ipA: string, ipB: string, podA: string, podB: string) {
  const slice = this.recall<any>('endpointslice');
  assert.equal(slice.addressType, type);
  assert.deepEqual(slice.ports.map((p: any) => [p.name, p.port, p.protocol]), [[portName, port, 'TCP']], JSON.stringify(slice.ports));
  const seen = slice.endpoints.map((e: any) => [e.addresses.join(','), e.targetRef?.kind, e.targetRef?.name]).sort();
  assert.deepEqual(seen, [[ipA, 'Pod', podA], [ipB, 'Pod', podB]].sort(), JSON.stringify(slice.endpoints));
  for (const e of slice.endpoints) assert.deepEqual(e.conditions, { ready: true, serving: true, terminating: false }, JSON.stringify(e));
});

Then('it has an ownerReference to Service {string} with controller true', async function (this: KubespecWorld, service: string) {
  const kube = this.kube();
  const svc = expectSuccess(await kube.request({ method: 'GET', path: `${collectionPath('', 'services', kube.namespace)}/${service}` }), `get Service "${service}"`);
  const refs = this.recall<any>('endpointslice').metadata.ownerReferences ?? [];
  assert.ok(refs.some((r: any) => r.apiVersion === 'v1' && r.kind === 'Service' && r.name === service && r.uid === svc.metadata.uid && r.controller === true), JSON.stringify(refs));
});

Then('within {int} seconds the EndpointSlices of Service {string} list {int} endpoints, each pod once, at most {int} in a slice', async function (this: KubespecWorld, secs: number, service: string, n: number, max: number) {
  let seen: any[] = [];
  await this.eventually(`the slices of "${service}" to list ${n} endpoints`, async () => {
    seen = await slicesOf(this, service);
    return seen.reduce((k, s) => k + (s.endpoints ?? []).length, 0) === n;
  }, secs * 1000);
  const sizes = seen.map((s) => (s.endpoints ?? []).length);
  assert.ok(sizes.every((k) => k <= max), `slice sizes ${sizes.join(', ')}`);
  assert.ok(seen.length >= Math.ceil(n / max), `${seen.length} slices`);
  const names = seen.flatMap((s) => (s.endpoints ?? []).map((e: any) => e.targetRef?.name));
  assert.equal(new Set(names).size, n, 'a pod listed twice');
});

Then(/^(?:within (\d+) seconds )?the EndpointSlices of Service "([^"]+)" list pod "([^"]+)" with ready "(true|false)"(?: and pod "([^"]+)" with ready "(true|false)")?$/, async function (this: KubespecWorld, secs: string | undefined, service: string, podA: string, readyA: string, podB?: string, readyB?: string) {
  const want = [[podA, readyA], ...(podB ? [[podB, readyB!]] : [])];
  let seen = '';
  const describe = (slices: any[]) => JSON.stringify(slices.flatMap((s) => (s.endpoints ?? []).map((e: any) => [e.targetRef?.name, e.conditions])));
  await this.eventually(`the slices of "${service}" to list ${JSON.stringify(want)}`, async () => {
    const slices = await slicesOf(this, service);
    seen = describe(slices);
    const eps = slices.flatMap((s) => s.endpoints ?? []);
    return want.every(([pod, ready]) => eps.filter((e: any) => e.targetRef?.name === pod).length === 1 && eps.some((e: any) => e.targetRef?.name === pod && String(e.conditions?.ready) === ready));
  }, Number(secs ?? 5) * 1000).catch((e) => assert.fail(`${(e as Error).message}; seen ${seen}`));
});

Then('the Endpoints of Service {string} list pod {string} under addresses and pod {string} under notReadyAddresses', async function (this: KubespecWorld, service: string, ready: string, notReady: string) {
  const kube = this.kube();
  let seen: any;
  await this.eventually(`Endpoints "${service}" to list ${ready} ready and ${notReady} not ready`, async () => {
    const res = await kube.request({ method: 'GET', path: `${collectionPath('', 'endpoints', kube.namespace)}/${service}` });
    seen = res.json?.subsets;
    const names = (field: string) => (seen ?? []).flatMap((s: any) => (s[field] ?? []).map((a: any) => a.targetRef?.name));
    return res.status === 200 && names('addresses').join() === ready && names('notReadyAddresses').join() === notReady;
  }, 5_000).catch((e) => assert.fail(`${(e as Error).message}; seen ${JSON.stringify(seen)}`));
});

When('the test marks pod {string} not ready, as its kubelet would after failed readiness probes', async function (this: KubespecWorld, name: string) {
  const kube = this.kube();
  const pod = expectSuccess(await kube.request({ method: 'GET', path: podsPath(kube, name) }), `get Pod "${name}"`);
  await setPodStatus(this, pod, pod.status.podIP, false);
});


// ---- pods a kubelet runs, and kube-proxy in front of them ----------------------------------------

Given('a Service {string} selecting {string} on port {int} targeting port {int}', async function (this: KubespecWorld, name: string, selector: string, port: number, targetPort: number) {
  await createSelectorService(this, name, selector, { port, targetPort });
});

When('I create pod {string} labelled {string} whose container {string} runs {string} with no readiness probe', async function (this: KubespecWorld, pod: string, labels: string, name: string, command: string) {
  await createPod(this, pod, { containers: [container(name, command)] }, { labels: labelsOf(labels) });
});

Then('a new connection from node {string} to the clusterIP of Service {string} port {int} is sent to pod {string} port {int}', async function (this: KubespecWorld, node: string, service: string, port: number, pod: string, targetPort: number) {
  const kube = this.kube();
  const svc = expectSuccess(await kube.request({ method: 'GET', path: `${collectionPath('', 'services', kube.namespace)}/${service}` }), `get Service "${service}"`);
  const ip = expectSuccess(await kube.request({ method: 'GET', path: podsPath(kube, pod) }), `get Pod "${pod}"`).status?.podIP;
  const p = proxy(this);
  assert.ok(p.connect, 'this target declares proxy.dataplane but offers no connect()');
  let result: unknown;
  await this.eventually(`node "${node}" to send ${svc.spec.clusterIP}:${port} to ${ip}:${targetPort}`, async () => {
    const r = await p.connect!(node, { src: await p.nodeAddress(node), dst: svc.spec.clusterIP, port, fromNode: true });
    result = r;
    return r.outcome === 'forwarded' && r.backend === `${ip}:${targetPort}`;
  }, 10_000).catch((e) => assert.fail(`${(e as Error).message}; last answer ${JSON.stringify(result)}`));
});

// ---- real traffic (`proxy.traffic`): HTTP requests through a node's rules to real pods ------------

/** Sends `n` requests, each on a new connection, to the Service's clusterIP from the scenario's node; keeps the answers. */
async function sendToService(world: KubespecWorld, service: string, port: number, n: number): Promise<ProxyConnectResult[]> {
  const kube = world.kube();
  const svc = expectSuccess(await kube.request({ method: 'GET', path: `${collectionPath('', 'services', kube.namespace)}/${service}` }), `get Service "${service}"`);
  const p = proxy(world);
  assert.ok(p.http, 'this target declares proxy.traffic but offers no http()');
  const answers = await p.http(defaultNode(world) ?? world.recall<string>('proxy node'), { dst: svc.spec.clusterIP, port, requests: n, keepAlive: false });
  world.note('answers', answers);
  return answers;
}

async function podAddress(world: KubespecWorld, pod: string): Promise<string> {
  const kube = world.kube();
  return expectSuccess(await kube.request({ method: 'GET', path: podsPath(kube, pod) }), `get Pod "${pod}"`).status?.podIP;
}

const answeredBy = (answers: ProxyConnectResult[], ip: string) => answers.filter((a) => a.outcome === 'forwarded' && a.backend?.startsWith(`${ip}:`)).length;

When('I open {int} new connections to Service {string} port {int}', async function (this: KubespecWorld, n: number, service: string, port: number) {
  await sendToService(this, service, port, n);
});

Then('pod {string} received {int} connections and pod {string} received {int}', async function (this: KubespecWorld, a: string, na: number, b: string, nb: number) {
  const answers = this.recall<ProxyConnectResult[]>('answers');
  assert.deepEqual([answeredBy(answers, await podAddress(this, a)), answeredBy(answers, await podAddress(this, b))], [na, nb], JSON.stringify(answers.slice(0, 5)));
});

Then('pod {string} received at least {int} of the last {int} connections', async function (this: KubespecWorld, pod: string, min: number, n: number) {
  const answers = this.recall<ProxyConnectResult[]>('answers');
  assert.equal(answers.length, n);
  assert.ok(answeredBy(answers, await podAddress(this, pod)) >= min, JSON.stringify(answers.slice(0, 5)));
});

Then('a connection to Service {string} port {int} made now is refused or reset', async function (this: KubespecWorld, service: string, port: number) {
  const [answer] = await sendToService(this, service, port, 1);
  // Forwarded to the pod, whose closed port answers with a reset: the client sees it refused.
  assert.equal(answer?.outcome, 'rejected', JSON.stringify(answer));
});
