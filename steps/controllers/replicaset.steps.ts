/**
 * Steps about ReplicaSets and the reconcile loop (features/controllers/replicaset.feature,
 * reconcile-loop.feature): creating and scaling ReplicaSets, what they own, what was created for
 * them, and the controller manager's writes in the request trace.
 */
import { passSeconds } from '../kubelet/support.ts';
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess, traceSinceMark } from '../kube/api.ts';
import {
  isControllerManager, eventually, get, isDeleting, labelsOf, list, markPodsReady, mergePatch, ownedBy, podsEverCreatedFor, podsOfReplicaSet, podsPath, podTemplate, recorder, rsPath,
} from './support.ts';

async function createReplicaSet(world: KubespecWorld, name: string, replicas: number, selector: string): Promise<void> {
  const labels = labelsOf(selector);
  const body = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name }, spec: { replicas, selector: { matchLabels: labels }, template: podTemplate(labels) } };
  expectSuccess(await world.kube().request({ method: 'POST', path: rsPath(world.kube()), body }), `create ReplicaSet "${name}"`);
}

async function ownsExactly(world: KubespecWorld, name: string, count: number, seconds: number): Promise<any[]> {
  let pods: any[] = [];
  await eventually(world, `ReplicaSet "${name}" to own exactly ${count} pods`, async () => (pods = await podsOfReplicaSet(world, name)).length === count, seconds * 1000);
  world.note(`pods of ReplicaSet ${name}`, pods);
  return pods;
}

async function scale(world: KubespecWorld, name: string, replicas: number): Promise<void> {
  await mergePatch(world, rsPath(world.kube(), name), { spec: { replicas } }, `scale ReplicaSet "${name}" to ${replicas}`);
}

When('ReplicaSet {string} is created with {int} replicas and selector {string}', async function (this: KubespecWorld, name: string, replicas: number, selector: string) {
  await recorder(this);
  await createReplicaSet(this, name, replicas, selector);
});

Given('ReplicaSet {string} exists with {int} replicas and selector {string}', async function (this: KubespecWorld, name: string, replicas: number, selector: string) {
  await createReplicaSet(this, name, replicas, selector);
  await ownsExactly(this, name, replicas, 30);
});

Given('ReplicaSet {string} exists with 1 replica', async function (this: KubespecWorld, name: string) {
  await createReplicaSet(this, name, 1, `app=${name}`);
  await ownsExactly(this, name, 1, 30);
});

Then(/^within (\d+) s ReplicaSet "([^"]*)" owns exactly (\d+) pods(?: that are not marked for deletion)?$/, async function (this: KubespecWorld, seconds: string, name: string, count: string) {
  await ownsExactly(this, name, Number(count), Number(seconds));
});

Then('within {int} s ReplicaSet {string} owns exactly {int} pods, each labelled {string}', async function (this: KubespecWorld, seconds: number, name: string, count: number, label: string) {
  const pods = await ownsExactly(this, name, count, seconds);
  const [k, v] = label.split('=') as [string, string];
  assert.deepEqual(pods.filter((p) => p.metadata.labels?.[k] !== v).map((p) => p.metadata.name), [], `pods without ${label}`);
});

Then('ReplicaSet {string} reports status.replicas {int}', async function (this: KubespecWorld, name: string, replicas: number) {
  await eventually(this, `ReplicaSet "${name}" to report status.replicas ${replicas}`, async () => (await get(this, rsPath(this.kube(), name), name)).status?.replicas === replicas, 10_000);
});

When('ReplicaSet {string} is scaled to {int}', async function (this: KubespecWorld, name: string, replicas: number) {
  await recorder(this);
  await scale(this, name, replicas);
});

When(/^ReplicaSet "([^"]*)" is scaled back to (\d+)$/, async function (this: KubespecWorld, name: string, replicas: string) {
  await scale(this, name, Number(replicas));
});

When(/^ReplicaSet "([^"]*)" is scaled to ((?:\d+, )*\d+ and \d+) within 50 ms$/, async function (this: KubespecWorld, name: string, sizes: string) {
  await recorder(this);
  // Back to back, with no wait between: the events arrive while the first change is handled.
  for (const n of sizes.split(/, | and /).map(Number)) await scale(this, name, n);
});

When(/^within (\d+) s it owns (\d+) pods$/, async function (this: KubespecWorld, seconds: string, count: string) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  await ownsExactly(this, rs.metadata.name, Number(count), Number(seconds));
});

Then('exactly {int} pods were created for it in total', async function (this: KubespecWorld, count: number) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const created = await podsEverCreatedFor(this, rs.metadata.uid);
  assert.equal(created.size, count, `pods created for ReplicaSet "${rs.metadata.name}" (by uid): ${[...created].join(', ')}`);
});

// ---- adoption and release ------------------------------------------------------------------

Given('Pod {string} exists with label {string} and no owner', async function (this: KubespecWorld, name: string, label: string) {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: labelsOf(label) }, spec: podTemplate({}).spec };
  expectSuccess(await this.kube().request({ method: 'POST', path: podsPath(this.kube()), body }), `create Pod "${name}"`);
});

Then('within {int} s Pod {string} has an ownerReference to ReplicaSet {string} with controller true', async function (this: KubespecWorld, seconds: number, pod: string, rs: string) {
  const uid = (await get(this, rsPath(this.kube(), rs), rs)).metadata.uid;
  await eventually(this, `Pod "${pod}" to be controlled by ReplicaSet "${rs}"`, async () => ownedBy([await get(this, podsPath(this.kube(), pod), pod)], uid).length === 1, seconds * 1000);
});

Then('ReplicaSet {string} owns exactly {int} pods, of which {string} is one', async function (this: KubespecWorld, rs: string, count: number, pod: string) {
  const pods = await ownsExactly(this, rs, count, 10);
  assert.ok(pods.some((p) => p.metadata.name === pod), `owned: ${pods.map((p) => p.metadata.name).join(', ')}`);
});

When('one of its pods is relabelled {string}', async function (this: KubespecWorld, label: string) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const [pod] = await podsOfReplicaSet(this, rs.metadata.name);
  this.note('relabelled pod', pod);
  this.note('pods before', (await podsOfReplicaSet(this, rs.metadata.name)).map((p) => p.metadata.uid));
  await mergePatch(this, podsPath(this.kube(), pod.metadata.name), { metadata: { labels: labelsOf(label) } }, `relabel Pod "${pod.metadata.name}"`);
});

Then('within {int} s that pod has no ownerReference', async function (this: KubespecWorld, seconds: number) {
  const pod = this.recall<any>('relabelled pod');
  await eventually(this, `Pod "${pod.metadata.name}" to lose its ownerReference`, async () => ((await get(this, podsPath(this.kube(), pod.metadata.name), pod.metadata.name)).metadata.ownerReferences ?? []).length === 0, seconds * 1000);
});

Then('ReplicaSet {string} owns exactly {int} pods labelled {string}, one of them new', async function (this: KubespecWorld, rs: string, count: number, label: string) {
  const pods = await ownsExactly(this, rs, count, 10);
  const [k, v] = label.split('=') as [string, string];
  assert.ok(pods.every((p) => p.metadata.labels?.[k] === v), `labels: ${JSON.stringify(pods.map((p) => p.metadata.labels))}`);
  const before = new Set(this.recall<string[]>('pods before'));
  assert.equal(pods.filter((p) => !before.has(p.metadata.uid)).length, 1);
});

// ---- which pod goes first ------------------------------------------------------------------

Given('one of its pods is bound to Node {string} by the test', async function (this: KubespecWorld, node: string) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const [pod, other] = await podsOfReplicaSet(this, rs.metadata.name);
  this.note('pod without a node', other?.metadata.name);
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
  expectSuccess(await this.kube().request({ method: 'POST', path: `${podsPath(this.kube(), pod.metadata.name)}/binding`, body: binding }), `bind Pod "${pod.metadata.name}"`);
  // The controller ranks pods from its informer, which on real time may not have seen the binding
  // yet, and no status of the ReplicaSet reflects it: let one second pass (virtual on the reference).
  await passSeconds(this, 1);
});

Given('the test marks both of its pods Running, one Ready and one not Ready', async function (this: KubespecWorld) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const readyReplicas = (n: number) => eventually(this, `ReplicaSet "${rs.metadata.name}" to report ${n} ready`, async () => (await get(this, rsPath(this.kube(), rs.metadata.name), rs.metadata.name)).status?.readyReplicas === n, 10_000);
  await markPodsReady(this);
  // The controller's readyReplicas comes from its informer: once it says 2 and then 1, the
  // controller has seen both marks before the scale-down (on real time it may lag behind the test).
  await readyReplicas(2);
  const [notReady] = await podsOfReplicaSet(this, rs.metadata.name);
  notReady.status.conditions = [{ type: 'Ready', status: 'False', lastTransitionTime: notReady.status.conditions[0].lastTransitionTime }];
  expectSuccess(await this.kube().request({ method: 'PUT', path: `${podsPath(this.kube(), notReady.metadata.name)}/status`, body: notReady }), 'mark a pod not ready');
  this.note('not-ready pod', notReady.metadata.name);
  await readyReplicas(1);
});

Then(/^within (\d+) s the (pod without a node|not-ready pod) is deleted or marked for deletion$/, async function (this: KubespecWorld, seconds: string, which: string) {
  const pods = await list(this, podsPath(this.kube()));
  const victim = this.recall<string>(which);
  assert.ok(victim, `no ${which} among ${pods.map((p) => p.metadata.name).join(', ')}`);
  this.note('victim', victim);
  await eventually(this, `${which} "${victim}" to go`, async () => {
    const res = await this.kube().request({ method: 'GET', path: podsPath(this.kube(), victim) });
    return res.status === 404 || isDeleting(res.json);
  }, Number(seconds) * 1000);
});

Then('the other pod is not marked for deletion', async function (this: KubespecWorld) {
  const victim = this.recall<string>('victim');
  const others = (await list(this, podsPath(this.kube()))).filter((p) => p.metadata.name !== victim);
  assert.equal(others.length, 1, `pods besides ${victim}: ${others.map((p) => p.metadata.name).join(', ')}`);
  assert.ok(!isDeleting(others[0]), `Pod "${others[0].metadata.name}" is marked for deletion`);
});

// ---- reconciling from current state ----------------------------------------------------------

When('{int} of its pods are deleted', async function (this: KubespecWorld, count: number) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const pods = await podsOfReplicaSet(this, rs.metadata.name);
  this.note('uids seen', pods.map((p) => p.metadata.uid));
  for (const pod of pods.slice(0, count)) expectSuccess(await this.kube().request({ method: 'DELETE', path: podsPath(this.kube(), pod.metadata.name) }), `delete Pod "${pod.metadata.name}"`);
});

Then('{int} of them have uids never seen before', async function (this: KubespecWorld, count: number) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const seen = new Set(this.recall<string[]>('uids seen'));
  assert.equal((await podsOfReplicaSet(this, rs.metadata.name)).filter((p) => !seen.has(p.metadata.uid)).length, count);
});

Given('ReplicaSet {string} with {int} replicas was created and then scaled to {int} and then to {int}', async function (this: KubespecWorld, name: string, first: number, second: number, third: number) {
  await recorder(this);
  await createReplicaSet(this, name, first, `app=${name}`);
  await scale(this, name, second);
  await scale(this, name, third);
});

Then('at no time did it own more than {int} pods', async function (this: KubespecWorld, max: number) {
  const rs = (await list(this, rsPath(this.kube())))[0];
  const { pods } = await recorder(this);
  const live = new Set<string>();
  let peak = 0;
  for (const e of pods.events) {
    if (ownedBy([e.object], rs.metadata.uid).length === 0) continue;
    if (e.type === 'DELETED' || isDeleting(e.object)) live.delete(e.object.metadata.uid);
    else live.add(e.object.metadata.uid);
    peak = Math.max(peak, live.size);
  }
  assert.ok(peak <= max, `it owned ${peak} pods at one point`);
});

Given('ReplicaSet {string} exists with {int} replicas, all marked Ready by the test', async function (this: KubespecWorld, name: string, replicas: number) {
  await createReplicaSet(this, name, replicas, `app=${name}`);
  await ownsExactly(this, name, replicas, 30);
  await markPodsReady(this);
  await eventually(this, `ReplicaSet "${name}" to report ${replicas} ready`, async () => (await get(this, rsPath(this.kube(), name), name)).status?.readyReplicas === replicas, 10_000);
});

// ---- what the controller manager wrote -------------------------------------------------------

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

Then(/^the request trace holds no create, update, patch or delete by the controller manager in the scenario's namespace$/, async function (this: KubespecWorld) {
  const prefix = new RegExp(`^/(api|apis/[^/]+)/v1/namespaces/${this.kube().namespace}/`);
  const writes = (await traceSinceMark(this)).filter((t) => WRITES.has(t.method) && isControllerManager(t.user) && prefix.test(t.path));
  assert.deepEqual(writes.map((t) => `${t.method} ${t.path} ${t.code}`), []);
});

Then('the request trace holds no write by the controller manager to ReplicaSet {string} or its pods', async function (this: KubespecWorld, name: string) {
  const ns = this.kube().namespace;
  const mine = new RegExp(`^/(apis/apps/v1/namespaces/${ns}/replicasets/${name}|api/v1/namespaces/${ns}/pods)(/|$)`);
  const writes = (await traceSinceMark(this)).filter((t) => WRITES.has(t.method) && isControllerManager(t.user) && mine.test(t.path));
  assert.deepEqual(writes.map((t) => `${t.method} ${t.path} ${t.code}`), []);
});

Then(/^within (\d+\.\d+) s ReplicaSet "([^"]*)" owns (\d+) pods again$/, async function (this: KubespecWorld, seconds: string, name: string, count: string) {
  let pods: any[] = [];
  await this.eventually(`ReplicaSet "${name}" to own ${count} pods again`, async () => (pods = await podsOfReplicaSet(this, name)).length === Number(count), Number(seconds) * 1000);
  this.note(`pods of ReplicaSet ${name}`, pods);
});
