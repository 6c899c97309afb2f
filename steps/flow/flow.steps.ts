/**
 * Steps for one `kubectl apply` followed through the cluster (features/flow/): the real kubectl,
 * the objects each controller makes, where the scheduler put the pods, what the kubelet asked
 * of its runtime (the node's CRI call log, `cri`), and the API server's request trace
 * (`kube.audit`) read in completion order.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeWatch, RequestTraceEntry } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess, LAST_RESPONSE, traceSinceMark } from '../kube/api.ts';
import { runKubectl, type KubectlRun } from '../kube/kubectl.steps.ts';
import { deployPath, isControllerManager, nodePath, podsPath } from '../controllers/support.ts';
import { eventually, seconds } from '../kubelet/support.ts';
import { STORED_FIELDS, storedString } from '../support/stored-value.ts';
import { byClient, controllerUid, podNames, podsLabelled, replicaSetsOf, shownTrace, THOSE_PODS, thosePods, WEB_MANIFEST, webDeployment, webManifestPlus, WRITES } from './support.ts';

const KUBECTL_STEP_TIMEOUT_MS = 70_000;

// ---- kubectl ------------------------------------------------------------------------------------

When('I run {string} with the web Deployment manifest', { timeout: KUBECTL_STEP_TIMEOUT_MS }, async function (this: KubespecWorld, command: string) {
  await runKubectl(this, command, WEB_MANIFEST);
});

When('I run {string} with the web Deployment manifest plus the field {string}', { timeout: KUBECTL_STEP_TIMEOUT_MS }, async function (this: KubespecWorld, command: string, field: string) {
  await runKubectl(this, command, webManifestPlus(field));
});

function ran(world: KubespecWorld): KubectlRun {
  return world.recall<KubectlRun>('kubectl');
}

const shownRun = (r: KubectlRun) => `${r.command}\nexit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

Then('kubectl exits with a non-zero code and prints an error mentioning {string}', function (this: KubespecWorld, text: string) {
  const r = ran(this);
  assert.notEqual(r.code, 0, shownRun(r));
  assert.ok(r.stderr.includes(text), `stderr should mention ${JSON.stringify(text)}:\n${shownRun(r)}`);
});

Then('kubectl\'s error mentions {string}', function (this: KubespecWorld, text: string) {
  const r = ran(this);
  assert.ok(r.stderr.includes(text), `stderr should mention ${JSON.stringify(text)}:\n${shownRun(r)}`);
});

Then('Deployment {string} has spec.replicas {int} and annotation {string} naming Deployment {string}', async function (this: KubespecWorld, name: string, replicas: number, key: string, named: string) {
  const d = expectSuccess(await this.kube().request({ method: 'GET', path: deployPath(this.kube(), name) }), `get Deployment "${name}"`);
  assert.equal(d.spec?.replicas, replicas, JSON.stringify(d.spec));
  const applied = JSON.parse(d.metadata?.annotations?.[key] ?? 'null');
  assert.equal(applied?.kind, 'Deployment', `annotation ${key}: ${d.metadata?.annotations?.[key]}`);
  assert.equal(applied?.metadata?.name, named, `annotation ${key}: ${d.metadata?.annotations?.[key]}`);
});

// ---- the API directly -------------------------------------------------------------------------

When('the client creates the web Deployment', async function (this: KubespecWorld) {
  this.note(LAST_RESPONSE, await this.kube().request({ method: 'POST', path: deployPath(this.kube()), body: webDeployment() }));
});

When('{string} creates the web Deployment', async function (this: KubespecWorld, user: string) {
  this.note(LAST_RESPONSE, await this.kube().request({ method: 'POST', path: deployPath(this.kube()), body: webDeployment(), as: { user } }));
});

Then('there is no Deployment {string}', async function (this: KubespecWorld, name: string) {
  const res = await this.kube().request({ method: 'GET', path: deployPath(this.kube(), name) });
  assert.equal(res.status, 404, `Deployment "${name}" should not exist: ${res.status} ${res.text.slice(0, 300)}`);
});

Then('the store key {string} holds the answer\'s uid at a modRevision equal to the answer\'s metadata.resourceVersion', async function (this: KubespecWorld, rawKey: string) {
  const answer = this.recall<any>(LAST_RESPONSE).json;
  const key = expandNs(this.kube(), rawKey);
  const { kv } = await this.kv().get(key);
  assert.ok(kv, `the store has no key ${key}`);
  assert.equal(storedString(kv.value, STORED_FIELDS.uid), answer?.metadata?.uid, `the stored object is not the one answered: ${kv.value.slice(0, 300)}`);
  assert.equal(String(kv.modRevision), answer?.metadata?.resourceVersion, `modRevision of ${key} vs the answer's resourceVersion`);
});

Then('a GET of Deployment {string} right after the answer returns its uid and resourceVersion', async function (this: KubespecWorld, name: string) {
  const answer = this.recall<any>(LAST_RESPONSE).json;
  const got = expectSuccess(await this.kube().request({ method: 'GET', path: deployPath(this.kube(), name) }), `get Deployment "${name}"`);
  assert.equal(got.metadata.uid, answer?.metadata?.uid);
  // The read sees the write the 201 answered for — or a later one: on real time the Deployment
  // controller may already have written status. resourceVersions are opaque to clients, but every
  // etcd-backed server (and the reference) issues them from the store's increasing revision.
  const [read, written] = [got.metadata.resourceVersion, answer?.metadata?.resourceVersion];
  if (read !== written) {
    assert.ok(/^\d+$/.test(read) && /^\d+$/.test(written) && BigInt(read) > BigInt(written), `the read returned resourceVersion ${read}, older than the answer's ${written}`);
  }
});

// ---- the request trace (kube.audit) ---------------------------------------------------------

async function clientWrites(world: KubespecWorld): Promise<RequestTraceEntry[]> {
  return byClient(world, await traceSinceMark(world)).filter((t) => WRITES.has(t.method));
}

Then('the request trace holds no create, update, patch or delete made by the scenario\'s client', async function (this: KubespecWorld) {
  const writes = await clientWrites(this);
  assert.equal(writes.length, 0, `writes by the scenario's client:\n  ${shownTrace(writes)}`);
});

Then('the request trace holds exactly {int} create, update, patch or delete made by the scenario\'s client', async function (this: KubespecWorld, count: number) {
  const writes = await clientWrites(this);
  assert.equal(writes.length, count, `writes by the scenario's client:\n  ${shownTrace(writes)}`);
});

Then('the request trace holds exactly one POST to {string} made by the scenario\'s client, with query parameter {string}, answered {int}', async function (this: KubespecWorld, rawPath: string, parameter: string, code: number) {
  const path = expandNs(this.kube(), rawPath);
  const mine = byClient(this, await traceSinceMark(this));
  const posts = mine.filter((t) => t.method === 'POST' && t.path === path);
  assert.equal(posts.length, 1, `POSTs to ${path} by the scenario's client:\n  ${shownTrace(mine)}`);
  const query = new URLSearchParams(posts[0]!.query ?? '');
  const [name, value] = parameter.split('=') as [string, string];
  assert.equal(query.get(name), value, `query of the POST: ${posts[0]!.query}`);
  assert.equal(posts[0]!.code, code, shownTrace(posts));
});

function onePost(entries: RequestTraceEntry[], path: string, who: (user?: string) => boolean, name?: string): RequestTraceEntry {
  const found = entries.filter((t) => t.method === 'POST' && t.path === path && t.code === 201 && who(t.user) && (name === undefined || t.objectName === name));
  assert.equal(found.length, 1, `one 201 POST to ${path}${name ? ` creating ${name}` : ''} expected; the trace holds:\n  ${shownTrace(entries)}`);
  return found[0]!;
}

Then('the request trace holds a POST to {string} creating that ReplicaSet, made by the controller manager, after the client\'s POST of the Deployment', async function (this: KubespecWorld, rawPath: string) {
  const kube = this.kube();
  const rs = this.recall<any>('flow replicaset');
  const entries = await traceSinceMark(this);
  const deployment = onePost(byClient(this, entries), deployPath(kube), () => true);
  const created = onePost(entries, expandNs(kube, rawPath), isControllerManager, rs.metadata.name);
  assert.ok(created.id > deployment.id, `the ReplicaSet (#${created.id}) was created before the Deployment (#${deployment.id})`);
});

Then('the request trace holds exactly one POST to the binding subresource of each pod labelled {string}, made by user {string}', async function (this: KubespecWorld, selector: string, user: string) {
  const entries = await traceSinceMark(this);
  const pods = await podsLabelled(this, selector);
  const bindings = entries.filter((t) => t.method === 'POST' && t.path.endsWith('/binding'));
  for (const pod of pods) {
    const mine = bindings.filter((t) => t.path === `${podsPath(this.kube(), pod.metadata.name)}/binding`);
    assert.equal(mine.length, 1, `bindings of pod ${pod.metadata.name}:\n  ${shownTrace(bindings)}`);
    assert.equal(mine[0]!.user, user, shownTrace(mine));
    assert.equal(mine[0]!.code, 201, shownTrace(mine));
  }
  assert.equal(bindings.length, pods.length, `bindings in the trace:\n  ${shownTrace(bindings)}`);
});

Then('the status of each of those pods was written by user {string}', async function (this: KubespecWorld, pattern: string) {
  const entries = await traceSinceMark(this);
  for (const pod of thosePods(this)) {
    const user = pattern.replace('<its node>', pod.spec.nodeName);
    const statusPath = `${podsPath(this.kube(), pod.metadata.name)}/status`;
    const writes = entries.filter((t) => (t.method === 'PATCH' || t.method === 'PUT') && t.path === statusPath && t.code === 200);
    assert.ok(writes.length > 0 && writes.every((t) => t.user === user), `status writes of pod ${pod.metadata.name} (expected by ${user}):\n  ${shownTrace(writes)}`);
  }
});

const SEQUENCE = 'the request trace shows, in order: kubectl\'s POST of the Deployment after authentication, authorization and admission; the ReplicaSet\'s POST by the controller manager; then for each pod its POST by the controller manager, its binding by {string} and its status by {string}';

Then(SEQUENCE, async function (this: KubespecWorld, scheduler: string, node: string) {
  const kube = this.kube();
  const entries = await traceSinceMark(this);
  const deployment = onePost(byClient(this, entries), deployPath(kube), () => true);
  const stages = deployment.stages.map((s) => s.stage);
  for (const before of ['authentication', 'authorization', 'mutating-admission', 'validating-admission']) {
    assert.ok(stages.indexOf(before as never) >= 0 && stages.indexOf(before as never) < stages.indexOf('storage'), `the Deployment's stages: ${stages.join(', ')}`);
  }
  const rs = onePost(entries, `/apis/apps/v1/namespaces/${kube.namespace}/replicasets`, isControllerManager);
  assert.ok(rs.id > deployment.id, `ReplicaSet POST #${rs.id} before the Deployment's #${deployment.id}`);
  for (const pod of thosePods(this)) {
    const name = pod.metadata.name;
    const created = onePost(entries, podsPath(kube), isControllerManager, name);
    const bound = onePost(entries, `${podsPath(kube, name)}/binding`, (u) => u === scheduler);
    const status = entries.filter((t) => t.path === `${podsPath(kube, name)}/status` && WRITES.has(t.method) && t.user === node && t.code === 200).at(-1);
    assert.ok(created.id > rs.id && bound.id > created.id && status !== undefined && status.id > bound.id,
      `pod ${name}: ReplicaSet #${rs.id}, create #${created.id}, binding #${bound.id}, last status #${status?.id ?? 'none'}:\n  ${shownTrace(entries)}`);
  }
});

// ---- objects the controllers make -----------------------------------------------------------

Then('within {int} seconds there is exactly one ReplicaSet with an ownerReference to Deployment {string} with controller true', async function (this: KubespecWorld, s: number, name: string) {
  let sets: any[] = [];
  await eventually(this, `one ReplicaSet controlled by Deployment "${name}"`, async () => (sets = await replicaSetsOf(this, name)).length >= 1, seconds(s));
  assert.equal(sets.length, 1, `ReplicaSets of "${name}": ${sets.map((r) => r.metadata.name).join(', ')}`);
  this.note('flow replicaset', sets[0]);
});

Then('that ReplicaSet has spec.replicas {int} and a name {string} followed by its label {string}', function (this: KubespecWorld, replicas: number, prefix: string, label: string) {
  const rs = this.recall<any>('flow replicaset');
  const hash = rs.metadata.labels?.[label];
  assert.equal(rs.spec?.replicas, replicas, JSON.stringify(rs.spec));
  assert.ok(hash, `no label ${label}: ${JSON.stringify(rs.metadata.labels)}`);
  assert.equal(rs.metadata.name, `${prefix}${hash}`);
  assert.equal(rs.spec?.template?.metadata?.labels?.[label], hash, 'the pod template carries the same hash');
});

Given('a watch on the pods of the scenario\'s namespace', async function (this: KubespecWorld) {
  const kube = this.kube();
  const list = expectSuccess(await kube.request({ method: 'GET', path: podsPath(kube) }), 'list pods');
  const watch = await kube.watch(`${podsPath(kube)}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
  this.onCleanup(() => watch.close());
  this.note('flow pod watch', watch);
});

/** Wait until `count` pods carry the label and each satisfies `settled`; note them as "those pods". */
async function podsSettle(world: KubespecWorld, s: number, count: number, selector: string, what: string, settled: (pod: any) => boolean | Promise<boolean>): Promise<void> {
  let pods: any[] = [];
  const done = async () => {
    pods = await podsLabelled(world, selector);
    if (pods.length !== count) return false;
    for (const pod of pods) if (!(await settled(pod))) return false;
    return true;
  };
  await eventually(world, `exactly ${count} pods labelled ${selector}, each ${what}`, done, seconds(s)).catch((error: Error) => {
    throw new Error(`${error.message}\n  pods: ${podNames(pods)}`);
  });
  world.note(THOSE_PODS, pods);
}

Then('within {int} seconds there are exactly {int} pods labelled {string}, each with a controller ownerReference to the ReplicaSet of Deployment {string}', async function (this: KubespecWorld, s: number, count: number, selector: string, name: string) {
  let uid: string | undefined;
  await podsSettle(this, s, count, selector, `controlled by the ReplicaSet of "${name}"`, async (pod) => {
    uid ??= (await replicaSetsOf(this, name))[0]?.metadata.uid;
    return uid !== undefined && controllerUid(pod) === uid;
  });
});

Then('within {int} seconds the pod watch has delivered an ADDED event for each of them, every one with an empty spec.nodeName', async function (this: KubespecWorld, s: number) {
  const watch = this.recall<KubeWatch>('flow pod watch');
  const names = new Set(thosePods(this).map((p) => p.metadata.name));
  const added = () => watch.events.filter((e) => e.type === 'ADDED' && names.has(e.object?.metadata?.name));
  await eventually(this, `ADDED events for ${[...names].join(', ')}`, async () => new Set(added().map((e) => e.object.metadata.name)).size === names.size, seconds(s));
  const bound = added().filter((e) => e.object?.spec?.nodeName);
  assert.deepEqual(bound.map((e) => `${e.object.metadata.name} on ${e.object.spec.nodeName}`), [], 'pods added already bound to a node');
});

Then('every pod labelled {string} has an empty spec.nodeName', async function (this: KubespecWorld, selector: string) {
  const pods = await podsLabelled(this, selector);
  assert.ok(pods.length > 0, `no pod labelled ${selector}`);
  assert.deepEqual(pods.filter((p) => p.spec?.nodeName).map((p) => p.metadata.name), [], podNames(pods));
});

// ---- where the pods went --------------------------------------------------------------------

Then('within {int} seconds there are exactly {int} pods labelled {string}, each bound to node {string} or {string}', async function (this: KubespecWorld, s: number, count: number, selector: string, a: string, b: string) {
  await podsSettle(this, s, count, selector, `bound to ${a} or ${b}`, (p) => p.spec?.nodeName === a || p.spec?.nodeName === b);
});

Then('within {int} seconds there are exactly {int} pods labelled {string}, each bound to node {string}', async function (this: KubespecWorld, s: number, count: number, selector: string, node: string) {
  await podsSettle(this, s, count, selector, `bound to ${node}`, (p) => p.spec?.nodeName === node);
});

Then('within {int} seconds there are exactly {int} pods labelled {string}, each bound to a node that is Ready', async function (this: KubespecWorld, s: number, count: number, selector: string) {
  await podsSettle(this, s, count, selector, 'bound to a Ready node', async (p) => Boolean(p.spec?.nodeName) && (await nodeReady(this, p.spec.nodeName)));
});

Then('within {int} seconds there are exactly {int} pods labelled {string}, each in phase {string}', async function (this: KubespecWorld, s: number, count: number, selector: string, phase: string) {
  await podsSettle(this, s, count, selector, `in phase ${phase}`, (p) => p.status?.phase === phase);
});

Then('every pod labelled {string} has condition {string} with status {string}', async function (this: KubespecWorld, selector: string, type: string, status: string) {
  const pods = await podsLabelled(this, selector);
  assert.ok(pods.length > 0, `no pod labelled ${selector}`);
  for (const pod of pods) {
    const c = (pod.status?.conditions ?? []).find((x: any) => x.type === type);
    assert.equal(c?.status, status, `pod ${pod.metadata.name} conditions: ${JSON.stringify(pod.status?.conditions)}`);
  }
});

Then('the pods labelled {string} are on both nodes {string} and {string}', async function (this: KubespecWorld, selector: string, a: string, b: string) {
  const pods = await podsLabelled(this, selector);
  const nodes = new Set(pods.map((p) => p.spec?.nodeName));
  assert.ok(nodes.has(a) && nodes.has(b), `the scheduler did not spread the pods over equal nodes: ${podNames(pods)}`);
});

async function nodeReady(world: KubespecWorld, name: string): Promise<boolean> {
  const res = await world.kube().request({ method: 'GET', path: nodePath(world.kube(), name) });
  return res.status === 200 && (res.json.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
}

Given('the cluster has a node that runs pods', async function (this: KubespecWorld) {
  // The reference starts one with a kubelet; a real cluster must already have one.
  if (this.session.nodes) await this.session.nodes.ensureNode('node-1');
  const schedulable = async () => {
    const nodes = expectSuccess(await this.kube().request({ method: 'GET', path: '/api/v1/nodes' }), 'list nodes').items ?? [];
    return nodes.some((n: any) => !n.spec?.unschedulable && (n.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True'));
  };
  await eventually(this, 'a Ready, schedulable node', schedulable, seconds(30));
});

// 'within N seconds Deployment "x" has status.availableReplicas N' is defined in steps/ha/masters.steps.ts.

Then('the store value of each of those pods has status.phase {string}', async function (this: KubespecWorld, phase: string) {
  const kube = this.kube();
  assert.ok(kube.storageGet, 'this target declares kube.storage but offers no storageGet()');
  for (const pod of thosePods(this)) {
    const key = `/registry/pods/${kube.namespace}/${pod.metadata.name}`;
    const value = await kube.storageGet(key);
    assert.ok(value, `the store has no key ${key}`);
    assert.equal(storedString(value, STORED_FIELDS.podPhase), phase, `${key}: ${JSON.stringify(value.slice(0, 300))}`);
  }
});
