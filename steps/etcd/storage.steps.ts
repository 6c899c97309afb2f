/**
 * Steps about what the API server writes into its store (features/etcd/key-layout.feature,
 * mvcc-watch.feature MVCC-RESOURCEVERSION): the keys objects land at (`kube.storage`), and how
 * resourceVersions relate to the store's revisions (the store read directly through `kv`).
 * `{ns}` in a string stands for the namespace the scenario owns.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeFacet, KubeWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath, createConfigMap, expectSuccess, getConfigMap } from '../kube/api.ts';
import { currentRevision } from './support.ts';

function expand(world: KubespecWorld, text: string): string {
  return text.replaceAll('{ns}', world.kube().namespace);
}

function storageGet(kube: KubeFacet): (key: string) => Promise<string | undefined> {
  assert.ok(kube.storageGet, 'this target declares kube.storage but offers no storageGet()');
  return kube.storageGet.bind(kube);
}

/** The smallest valid object of each kind these steps create. */
function manifest(kind: string, name: string, namespace: string): { path: string; body: unknown } {
  const meta = { name };
  switch (kind) {
    case 'Secret':
      return { path: `/api/v1/namespaces/${namespace}/secrets`, body: { apiVersion: 'v1', kind, metadata: meta, type: 'Opaque', data: { k: 'dg==' } } };
    case 'Pod':
      return { path: `/api/v1/namespaces/${namespace}/pods`, body: { apiVersion: 'v1', kind, metadata: meta, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } };
    case 'Namespace':
      return { path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind, metadata: meta } };
    case 'Service':
      return { path: `/api/v1/namespaces/${namespace}/services`, body: { apiVersion: 'v1', kind, metadata: meta, spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 'http' }] } } };
    case 'Deployment': {
      const labels = { app: name };
      const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } };
      return { path: `/apis/apps/v1/namespaces/${namespace}/deployments`, body: { apiVersion: 'apps/v1', kind, metadata: meta, spec: { replicas: 0, selector: { matchLabels: labels }, template } } };
    }
    case 'Node':
      return { path: '/api/v1/nodes', body: { apiVersion: 'v1', kind, metadata: { name, labels: { 'kubernetes.io/hostname': name } } } };
    case 'Lease':
      return { path: `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, body: { apiVersion: 'coordination.k8s.io/v1', kind, metadata: meta, spec: { holderIdentity: name, leaseDurationSeconds: 40 } } };
    case 'Event': {
      const involvedObject = { apiVersion: 'v1', kind: 'Pod', namespace, name: 'p' };
      return { path: `/api/v1/namespaces/${namespace}/events`, body: { apiVersion: 'v1', kind, metadata: meta, involvedObject, reason: 'Tested', message: 'm', type: 'Normal', source: { component: 'kubespec' } } };
    }
    case 'EndpointSlice': {
      const endpoints = [{ addresses: ['10.0.0.1'], conditions: { ready: true } }];
      return { path: `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, body: { apiVersion: 'discovery.k8s.io/v1', kind, metadata: meta, addressType: 'IPv4', endpoints, ports: [{ port: 80 }] } };
    }
    default:
      throw new Error(`no manifest for kind ${kind}`);
  }
}

When(/^(Secret|Pod|Namespace|Service|Deployment|Node|Lease|Event|EndpointSlice) "([^"]*)" is created$/, async function (this: KubespecWorld, kind: string, rawName: string) {
  const { path, body } = manifest(kind, expand(this, rawName), this.kube().namespace);
  expectSuccess(await this.kube().request({ method: 'POST', path, body }), `create ${kind} "${rawName}"`);
});

When('Deployment {string} is created with {int} replica(s)', async function (this: KubespecWorld, rawName: string, replicas: number) {
  const name = expand(this, rawName);
  const labels = { app: name };
  const body = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } },
  };
  const path = `/apis/apps/v1/namespaces/${this.kube().namespace}/deployments`;
  expectSuccess(await this.kube().request({ method: 'POST', path, body }), `create Deployment "${name}"`);
});

When('Service {string} is created with port {int}', async function (this: KubespecWorld, rawName: string, port: number) {
  const name = expand(this, rawName);
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port, protocol: 'UDP' }] } };
  const path = `/api/v1/namespaces/${this.kube().namespace}/services`;
  expectSuccess(await this.kube().request({ method: 'POST', path, body }), `create Service "${name}"`);
});

When('Node {string} is registered through the API', async function (this: KubespecWorld, rawName: string) {
  const name = expand(this, rawName);
  const body = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } } };
  expectSuccess(await this.kube().request({ method: 'POST', path: '/api/v1/nodes', body }), `register Node "${name}"`);
});

Then('the store holds key {string}', async function (this: KubespecWorld, rawKey: string) {
  const key = expand(this, rawKey);
  assert.notEqual(await storageGet(this.kube())(key), undefined, `the store has no key ${key}`);
});

Then('the store holds no key {string}', async function (this: KubespecWorld, rawKey: string) {
  const key = expand(this, rawKey);
  assert.equal(await storageGet(this.kube())(key), undefined, `the store has a key ${key}`);
});

Then('the store holds exactly {int} key(s) under {string}', async function (this: KubespecWorld, count: number, rawPrefix: string) {
  const prefix = expand(this, rawPrefix);
  const { kvs } = await this.kv().range(prefix);
  assert.equal(kvs.length, count, `keys under ${prefix}: ${kvs.map((kv) => kv.key).join(', ')}`);
});

// ---- resourceVersion is the store's revision --------------------------------------------------

Given('a cluster whose store is also reachable directly', async function (this: KubespecWorld) {
  // The scenario's namespace was created through the API; the store must show it.
  const key = `/registry/namespaces/${this.kube().namespace}`;
  assert.ok((await this.kv().get(key)).kv, `the store read directly has no ${key}: kv and kube are not the same store`);
});

When('ConfigMap {string} is created and its resourceVersion is noted as {string}', async function (this: KubespecWorld, name: string, label: string) {
  this.note(label, (await createConfigMap(this.kube(), name)).metadata.resourceVersion);
});

When('ConfigMap {string} is updated and its resourceVersion is noted as {string}', async function (this: KubespecWorld, name: string, label: string) {
  const current = await getConfigMap(this.kube(), name);
  const res = await this.kube().request({ method: 'PUT', path: configMapsPath(this.kube(), name), body: { ...current, data: { v: 'updated' } } });
  this.note(label, expectSuccess(res, `update ConfigMap "${name}"`).metadata.resourceVersion);
});

Then('the store key {string} has modRevision {string}', async function (this: KubespecWorld, rawKey: string, label: string) {
  const key = expand(this, rawKey);
  const { kv } = await this.kv().get(key);
  assert.ok(kv, `the store has no key ${key}`);
  assert.equal(String(kv.modRevision), this.recall<string>(label), `modRevision of ${key} vs resourceVersion ${label}`);
});

Then('{string} is greater than {string}', function (this: KubespecWorld, a: string, b: string) {
  assert.ok(BigInt(this.recall<string>(a)) > BigInt(this.recall<string>(b)), `${a}=${this.recall<string>(a)} is not above ${b}=${this.recall<string>(b)}`);
});

Given('a client watches ConfigMaps from the current resourceVersion', async function (this: KubespecWorld) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: configMapsPath(this.kube()) }), 'list ConfigMaps');
  const rv = list.metadata.resourceVersion as string;
  this.note('watch', await this.kube().watch(`${configMapsPath(this.kube())}?watch=true&resourceVersion=${encodeURIComponent(rv)}`));
});

When('ConfigMap {string} is created and then deleted', async function (this: KubespecWorld, name: string) {
  await createConfigMap(this.kube(), name);
  const key = `/registry/configmaps/${this.kube().namespace}/${name}`;
  const { kv } = await this.kv().get(key);
  assert.ok(kv, `the store has no key ${key} after the create`);
  this.note(`createRevision ${name}`, kv.createRevision);
  expectSuccess(await this.kube().request({ method: 'DELETE', path: configMapsPath(this.kube(), name) }), `delete ConfigMap "${name}"`);
  // Nothing else writes to this store meanwhile: its revision now is the delete's.
  this.note(`delete revision ${name}`, await currentRevision(this.kv()));
  assert.equal((await this.kv().get(key)).kv, undefined, `${key} is still in the store after the delete`);
});

function eventFor(watch: KubeWatch, type: string, name: string) {
  return watch.events.find((e) => e.type === type && e.object?.metadata?.name === name);
}

Then('within {int} s the watch delivers ADDED {string} and DELETED {string}', async function (this: KubespecWorld, seconds: number, added: string, deleted: string) {
  const watch = this.recall<KubeWatch>('watch');
  await this.eventually(`ADDED ${added} and DELETED ${deleted}`, () => eventFor(watch, 'ADDED', added) !== undefined && eventFor(watch, 'DELETED', deleted) !== undefined, seconds * 1000);
  this.note('added event', eventFor(watch, 'ADDED', added));
  this.note('deleted event', eventFor(watch, 'DELETED', deleted));
  await watch.close();
});

Then("the ADDED event's resourceVersion equals the store's createRevision of {string}", function (this: KubespecWorld, rawKey: string) {
  const name = expand(this, rawKey).split('/').at(-1)!;
  const event = this.recall<{ object: any }>('added event');
  assert.equal(event.object.metadata.resourceVersion, String(this.recall<number>(`createRevision ${name}`)));
});

Then("the DELETED event's resourceVersion equals the store revision of the delete", function (this: KubespecWorld) {
  const event = this.recall<{ object: any }>('deleted event');
  const name = event.object.metadata.name as string;
  assert.equal(event.object.metadata.resourceVersion, String(this.recall<number>(`delete revision ${name}`)));
});

// ---- how values are encoded ---------------------------------------------------------------------

Then('the value at key {string} begins with the {int} bytes {string}', async function (this: KubespecWorld, rawKey: string, count: number, hex: string) {
  const key = expand(this, rawKey);
  const expected = Buffer.from(hex.replace(/\s+/g, ''), 'hex');
  assert.equal(expected.length, count, `the step names ${count} bytes but gives ${expected.length}`);
  const value = await storageGet(this.kube())(key);
  assert.notEqual(value, undefined, `the store has no key ${key}`);
  const head = Buffer.from(value!, 'latin1').subarray(0, count);
  assert.deepEqual([...head], [...expected], `the value at ${key} begins ${head.toString('hex')} (${JSON.stringify(value!.slice(0, 12))}), not ${expected.toString('hex')}`);
});

