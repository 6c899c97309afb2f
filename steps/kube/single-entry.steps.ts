/**
 * Steps for "everyone talks to the API server, only the API server talks to etcd"
 * (features/apiserver/single-entry.feature, storage-interaction.feature): the store's client log
 * (`kube.storage.clients`) and the components' requests in the API server's request trace.
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import type { KubeFacet, RequestTraceEntry, StoreClientRequest } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, traceSinceMark } from './api.ts';
import { isControllerManager } from '../controllers/support.ts';
import { shownTrace, thosePods, WRITES } from '../flow/support.ts';

function clientLog(kube: KubeFacet): () => Promise<StoreClientRequest[]> {
  assert.ok(kube.storeClientLog, 'this target declares kube.storage.clients but offers no storeClientLog()');
  return kube.storeClientLog.bind(kube);
}

async function clientLogSinceMark(world: KubespecWorld): Promise<StoreClientRequest[]> {
  const mark = world.recall<number>('store client log mark');
  return (await clientLog(world.kube())()).filter((r) => r.id > mark);
}

const shownLog = (requests: StoreClientRequest[]) => requests.slice(-40).map((r) => `#${r.id} ${r.client} ${r.op} ${r.key}`).join('\n  ');

Given('the store\'s client log is recording', async function (this: KubespecWorld) {
  this.note('store client log mark', Math.max(0, ...(await clientLog(this.kube())()).map((r) => r.id)));
});

Then('the store\'s client log holds writes under {string} and {string}', async function (this: KubespecWorld, a: string, b: string) {
  const log = await clientLogSinceMark(this);
  for (const prefix of [a, b].map((p) => expandNs(this.kube(), p))) {
    assert.ok(log.some((r) => (r.op === 'put' || r.op === 'txn') && r.key.startsWith(prefix)), `no write under ${prefix} in the store's client log:\n  ${shownLog(log)}`);
  }
});

Then('every request in the store\'s client log was made by {string}', async function (this: KubespecWorld, client: string) {
  const log = await clientLogSinceMark(this);
  assert.ok(log.length > 0, 'the store\'s client log holds no request in the window: the check would prove nothing');
  const others = log.filter((r) => r.client !== client);
  assert.deepEqual(others.map((r) => `${r.client} ${r.op} ${r.key}`), [], `store clients other than ${client}:\n  ${shownLog(others)}`);
});

// ---- each component under its own identity ----------------------------------------------------

function created(entries: RequestTraceEntry[], path: string, who: (user?: string) => boolean): RequestTraceEntry[] {
  return entries.filter((t) => t.method === 'POST' && t.path === path && t.code === 201 && who(t.user));
}

Then('the request trace holds a 201 POST to {string} made by the controller manager', async function (this: KubespecWorld, rawPath: string) {
  const entries = await traceSinceMark(this);
  assert.ok(created(entries, expandNs(this.kube(), rawPath), isControllerManager).length >= 1, shownTrace(entries));
});

Then('the request trace holds {int} 201 POSTs to {string} made by the controller manager', async function (this: KubespecWorld, count: number, rawPath: string) {
  const entries = await traceSinceMark(this);
  assert.equal(created(entries, expandNs(this.kube(), rawPath), isControllerManager).length, count, shownTrace(entries));
});

Then('the request trace holds a 201 POST to the binding of each of those pods made by user {string}', async function (this: KubespecWorld, user: string) {
  const entries = await traceSinceMark(this);
  for (const pod of thosePods(this)) {
    const path = `/api/v1/namespaces/${this.kube().namespace}/pods/${pod.metadata.name}/binding`;
    assert.equal(created(entries, path, (u) => u === user).length, 1, `binding of ${pod.metadata.name}:\n  ${shownTrace(entries)}`);
  }
});

Then('the request trace holds a status write of each of those pods made by user {string}', async function (this: KubespecWorld, user: string) {
  const entries = await traceSinceMark(this);
  for (const pod of thosePods(this)) {
    const path = `/api/v1/namespaces/${this.kube().namespace}/pods/${pod.metadata.name}/status`;
    assert.ok(entries.some((t) => WRITES.has(t.method) && t.path === path && t.code === 200 && t.user === user), `status of ${pod.metadata.name}:\n  ${shownTrace(entries)}`);
  }
});

// ---- lists and watches ----------------------------------------------------------------------

const COLLECTION = /^\/(?:api|apis\/[^/]+)\/v1(?:\/namespaces\/[^/]+)?\/([a-z]+)$/;
const isWatch = (t: RequestTraceEntry) => ['true', '1'].includes((new URLSearchParams(t.query ?? '').get('watch') ?? '').toLowerCase());

/** Lists (not watches) of each resource's collection, any namespace, by the users `who` accepts. */
function lists(entries: RequestTraceEntry[], resource: string, who: (user?: string) => boolean): RequestTraceEntry[] {
  return entries.filter((t) => t.method === 'GET' && COLLECTION.exec(t.path)?.[1] === resource && !isWatch(t) && who(t.user));
}

Then('the request trace holds no list of pods, nodes, deployments or replicasets by user {string} or the controller manager', async function (this: KubespecWorld, user: string) {
  const entries = await traceSinceMark(this);
  // The positive control: both components acted in this window, so their reads would be here.
  assert.ok(entries.some((t) => t.user === user) && entries.some((t) => isControllerManager(t.user)), `the window holds no request of ${user} or of the controller manager:\n  ${shownTrace(entries)}`);
  const who = (u?: string) => u === user || isControllerManager(u);
  const found = ['pods', 'nodes', 'deployments', 'replicasets'].flatMap((r) => lists(entries, r, who));
  assert.deepEqual(found.map((t) => `${t.user} GET ${t.path}?${t.query ?? ''}`), [], 'a component listed again instead of watching');
});

Then('since the session opened the request trace holds a list of pods and of nodes by user {string}, and of deployments, replicasets and pods by the controller manager', async function (this: KubespecWorld, user: string) {
  const kube = this.kube();
  assert.ok(kube.traces, 'this target declares kube.audit but offers no traces()');
  const entries = await kube.traces();
  for (const r of ['pods', 'nodes']) assert.ok(lists(entries, r, (u) => u === user).length > 0, `no list of ${r} by ${user}`);
  for (const r of ['deployments', 'replicasets', 'pods']) assert.ok(lists(entries, r, isControllerManager).length > 0, `no list of ${r} by the controller manager`);
});
