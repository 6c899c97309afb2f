/**
 * Steps for the overview's claims about the cluster as a whole (features/overview/): where state
 * lives (the store), where pods run (a node's runtime), who decides (the control plane, seen in
 * the request trace), and what the scheduler's constraints leave unbound.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess, traceSinceMark } from '../kube/api.ts';
import { containersOf, sandboxesOf } from '../runtime/cri.steps.ts';
import { eventually, getPod, seconds } from '../kubelet/support.ts';
import { shownTrace, WRITES } from '../flow/support.ts';
import { STORED_FIELDS, storedString } from '../support/stored-value.ts';

const quoted = (text: string) => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);

// ---- the store holds the state ------------------------------------------------------------------

Then('the store key {string} holds the object the API serves at {string}', async function (this: KubespecWorld, rawKey: string, rawPath: string) {
  const kube = this.kube();
  assert.ok(kube.storageGet, 'this target declares kube.storage but offers no storageGet()');
  const key = expandNs(kube, rawKey);
  const served = expectSuccess(await kube.request({ method: 'GET', path: expandNs(kube, rawPath) }), `GET ${rawPath}`);
  const value = await kube.storageGet(key);
  assert.ok(value, `the store has no key ${key}`);
  // The protobuf envelope (kube-apiserver's default for built-ins) or JSON, read by field.
  const shown = JSON.stringify(value.slice(0, 300));
  assert.equal(storedString(value, STORED_FIELDS.uid), served.metadata.uid, `${key} holds another object: ${shown}`);
  assert.equal(storedString(value, STORED_FIELDS.kind), served.kind, `${key}: ${shown}`);
});

// ---- a node's runtime runs the pod ----------------------------------------------------------

Then('the runtime of the node pod {string} is bound to has a running container {string} for it', async function (this: KubespecWorld, pod: string, container: string) {
  const node = (await getPod(this, pod)).spec?.nodeName;
  assert.ok(node, `pod "${pod}" is not bound`);
  const [c] = await containersOf(this, node, pod, container);
  assert.equal(c?.state, 'CONTAINER_RUNNING', `container "${container}" of "${pod}" in the runtime of ${node}: ${JSON.stringify(c ?? null)}`);
});

Then('the runtime of every other node has no sandbox for pod {string}', async function (this: KubespecWorld, pod: string) {
  const node = (await getPod(this, pod)).spec?.nodeName;
  const nodes = expectSuccess(await this.kube().request({ method: 'GET', path: '/api/v1/nodes' }), 'list nodes').items.map((n: any) => n.metadata.name);
  const others = nodes.filter((n: string) => n !== node);
  assert.ok(others.length > 0, 'the scenario needs more than one node');
  for (const other of others) assert.deepEqual(await sandboxesOf(this, other, pod), [], `node ${other} runs a sandbox for ${pod}`);
});

Then('pod {string} reports as status.hostIP an address of the node it is bound to, and a containerID for container {string}', async function (this: KubespecWorld, pod: string, container: string) {
  const got = await getPod(this, pod);
  const node = expectSuccess(await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${got.spec.nodeName}` }), 'get node');
  const addresses = (node.status?.addresses ?? []).map((a: any) => a.address);
  assert.ok(addresses.includes(got.status?.hostIP), `hostIP ${got.status?.hostIP} is not among node ${got.spec.nodeName}'s addresses ${addresses.join(', ')}`);
  const status = (got.status?.containerStatuses ?? []).find((s: any) => s.name === container);
  assert.match(String(status?.containerID ?? ''), /^[a-z0-9-]+:\/\/\S+$/, `container "${container}" status: ${JSON.stringify(status)}`);
});

// ---- the control plane decides --------------------------------------------------------------

Then('the request trace holds exactly one binding of pod {string}, made by user {string}', async function (this: KubespecWorld, pod: string, user: string) {
  const path = `/api/v1/namespaces/${this.kube().namespace}/pods/${pod}/binding`;
  const entries = await traceSinceMark(this);
  const bindings = entries.filter((t) => t.method === 'POST' && t.path === path);
  assert.equal(bindings.length, 1, `bindings of ${pod}:\n  ${shownTrace(bindings)}`);
  assert.equal(bindings[0]!.user, user, shownTrace(bindings));
  assert.equal(bindings[0]!.code, 201, shownTrace(bindings));
});

/**
 * What a kubelet may write (upstream's Node authorizer, plugin/pkg/auth/authorizer/node): its
 * Node and Node status, its Lease, Events, and the status of pods bound to it. Anything else it
 * wrote would be a decision taken on the node.
 */
Then('every write by a node in the request trace is to its own Node, its Lease, an Event or the status of a pod bound to it', async function (this: KubespecWorld) {
  const entries = (await traceSinceMark(this)).filter((t) => WRITES.has(t.method) && t.user?.startsWith('system:node:'));
  assert.ok(entries.length > 0, 'no write by any node in the trace window: the check would prove nothing');
  for (const t of entries) {
    const node = t.user!.slice('system:node:'.length);
    const podStatus = /^\/api\/v1\/namespaces\/[^/]+\/pods\/([^/]+)\/status$/.exec(t.path);
    const allowed = t.path === `/api/v1/nodes/${node}` || t.path === `/api/v1/nodes/${node}/status` || (t.method === 'POST' && t.path === '/api/v1/nodes')
      || t.path.startsWith('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases')
      || /\/events(\/[^/]+)?$/.test(t.path)
      || (podStatus !== null && (await podNode(this, t.path.replace(/\/status$/, ''))) === node);
    assert.ok(allowed, `node ${node} wrote ${t.method} ${t.path} (${t.code}):\n  ${shownTrace(entries)}`);
  }
});

async function podNode(world: KubespecWorld, path: string): Promise<string | undefined> {
  return (await world.kube().request({ method: 'GET', path })).json?.spec?.nodeName;
}

// ---- what the constraints leave unbound ---------------------------------------------------------

async function nodesOf(world: KubespecWorld, pods: string[]): Promise<Map<string, string>> {
  const bound = new Map<string, string>();
  for (const pod of pods) {
    const node = (await world.kube().request({ method: 'GET', path: `/api/v1/namespaces/${world.kube().namespace}/pods/${pod}` })).json?.spec?.nodeName;
    if (node) bound.set(pod, node);
  }
  return bound;
}

Then(/^within (\d+) s pods ((?:"[^"]*"(?:, | and )?)+) are all on Node "([^"]*)"$/, async function (this: KubespecWorld, s: string, names: string, node: string) {
  const pods = quoted(names);
  let bound = new Map<string, string>();
  await eventually(this, `${pods.join(', ')} bound`, async () => (bound = await nodesOf(this, pods)).size === pods.length, seconds(Number(s)));
  assert.deepEqual([...bound.values()], pods.map(() => node), JSON.stringify(Object.fromEntries(bound)));
});

/**
 * The condition holds at each look over the budget. On virtual time the looks are a second apart
 * (a binding, once made, stays, so a finer grain would only cost requests); elsewhere the
 * session's own sampling.
 */
async function stillHolds(world: KubespecWorld, what: string, condition: () => Promise<boolean>, budget_ms: number): Promise<void> {
  const clock = world.session.clock;
  if (!clock) return world.holdsFor(what, condition, budget_ms);
  for (let waited = 0; ; waited += 1000) {
    assert.ok(await condition(), `${what} stopped holding after ${waited} ms`);
    if (waited >= budget_ms) return;
    await clock.advance(1000);
  }
}

async function someStayUnbound(world: KubespecWorld, s: number, count: number, names: string, hold: number, placed: (bound: Map<string, string>) => void): Promise<void> {
  const pods = quoted(names);
  let bound = new Map<string, string>();
  await eventually(world, `${count} of ${pods.join(', ')} bound`, async () => (bound = await nodesOf(world, pods)).size >= count, seconds(s));
  await stillHolds(world, `no more than ${count} of ${pods.join(', ')} bound`, async () => (bound = await nodesOf(world, pods)).size === count, seconds(hold));
  placed(bound);
}

Then(/^within (\d+) s exactly (\d+) of the pods ((?:"[^"]*"(?:, | and )?)+) (?:is|are) bound to Node "([^"]*)", and the others? stays? unbound for (\d+) s$/, async function (this: KubespecWorld, s: string, count: string, names: string, node: string, hold: string) {
  await someStayUnbound(this, Number(s), Number(count), names, Number(hold), (bound) => {
    assert.ok([...bound.values()].every((n) => n === node), JSON.stringify(Object.fromEntries(bound)));
  });
});

Then(/^within (\d+) s exactly (\d+) of the pods ((?:"[^"]*"(?:, | and )?)+) are bound, each to a different node, and the others? stays? unbound for (\d+) s$/, async function (this: KubespecWorld, s: string, count: string, names: string, hold: string) {
  await someStayUnbound(this, Number(s), Number(count), names, Number(hold), (bound) => {
    assert.equal(new Set(bound.values()).size, bound.size, `two pods on one node: ${JSON.stringify(Object.fromEntries(bound))}`);
  });
});
