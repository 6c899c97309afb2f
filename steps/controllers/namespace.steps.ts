/**
 * Steps about namespace deletion (features/controllers/namespace.feature): namespaces of the
 * scenario's own ("{ns}" expands to the scenario's namespace), their content, and what the API
 * server and the namespace controller make of a DELETE.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs } from '../kube/api.ts';
import { expectSuccess } from '../kube/api.ts';
import { UNSCHEDULED } from './support.ts';

const nsPath = (name: string) => `/api/v1/namespaces/${encodeURIComponent(name)}`;
const KINDS: Record<string, string> = { ConfigMap: 'configmaps', Secret: 'secrets', ServiceAccount: 'serviceaccounts' };
const objectPath = (ns: string, kind: string, name: string) => `${nsPath(ns)}/${KINDS[kind]}/${encodeURIComponent(name)}`;

async function createNamespace(world: KubespecWorld, name: string): Promise<void> {
  const kube = world.kube();
  expectSuccess(await kube.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } }), `create Namespace "${name}"`);
  world.onCleanup(() => kube.request({ method: 'DELETE', path: nsPath(name) }));
}

async function createIn(world: KubespecWorld, ns: string, kind: string, name: string, extra: any = {}): Promise<any> {
  const body = { apiVersion: 'v1', kind, metadata: { name, ...extra.metadata }, ...(kind === 'ConfigMap' ? { data: { k: 'v' } } : {}) };
  return world.kube().request({ method: 'POST', path: `${nsPath(ns)}/${KINDS[kind]}`, body });
}

/** `"a", Secret "b" and ServiceAccount "builder"` after a leading `ConfigMap`: kind/name pairs. */
function objects(text: string): Array<[string, string]> {
  return [...text.matchAll(/(ConfigMap|Secret|ServiceAccount) "([^"]+)"/g)].map((m) => [m[1]!, m[2]!]);
}

Given(/^Namespace "([^"]+)" holding ((?:(?:ConfigMap|Secret|ServiceAccount) "[^"]+"(?:, | and )?)+)$/, async function (this: KubespecWorld, raw: string, list: string) {
  const ns = expandNs(this.kube(), raw);
  await createNamespace(this, ns);
  for (const [kind, name] of objects(list)) expectSuccess(await createIn(this, ns, kind, name), `create ${kind} "${name}"`);
});

Given('ConfigMap {string} in Namespace {string} with finalizer {string}', async function (this: KubespecWorld, name: string, raw: string, finalizer: string) {
  const ns = expandNs(this.kube(), raw);
  expectSuccess(await createIn(this, ns, 'ConfigMap', name, { metadata: { finalizers: [finalizer] } }), `create ConfigMap "${name}"`);
  // Whatever happens, the scenario lets its finalizer go so the namespace can leave.
  this.onCleanup(() => this.kube().request({ method: 'PATCH', path: objectPath(ns, 'ConfigMap', name), body: { metadata: { finalizers: null } }, headers: { 'content-type': 'application/merge-patch+json' } }));
});

Given('Namespace {string} with a Deployment {string} of {int} replicas whose pods exist', async function (this: KubespecWorld, raw: string, name: string, replicas: number) {
  const ns = expandNs(this.kube(), raw);
  await createNamespace(this, ns);
  // The namespace's default ServiceAccount first: ServiceAccount admission refuses pods until it exists.
  await this.eventually(`ServiceAccount ${ns}/default`, async () => (await this.kube().request({ method: 'GET', path: `${nsPath(ns)}/serviceaccounts/default` })).status === 200, 20_000);
  const labels = { app: name };
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { schedulerName: UNSCHEDULED, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } } };
  expectSuccess(await this.kube().request({ method: 'POST', path: `/apis/apps/v1/namespaces/${ns}/deployments`, body }), `create Deployment "${name}"`);
  await this.eventually(`${replicas} pods of Deployment "${name}"`, async () => (await this.kube().request({ method: 'GET', path: `${nsPath(ns)}/pods` })).json?.items?.length === replicas, 20_000);
});

When('I delete Namespace {string}', async function (this: KubespecWorld, raw: string) {
  const ns = expandNs(this.kube(), raw);
  const res = await this.kube().request({ method: 'DELETE', path: nsPath(ns) });
  assert.ok(res.status === 200 || res.status === 202, `DELETE namespace ${ns} answered ${res.status}: ${res.text.slice(0, 300)}`);
});

Then('Namespace {string} has phase {string}, a deletionTimestamp and spec.finalizers {string}', async function (this: KubespecWorld, raw: string, phase: string, finalizer: string) {
  const ns = expectSuccess(await this.kube().request({ method: 'GET', path: nsPath(expandNs(this.kube(), raw)) }), `get Namespace "${raw}"`);
  assert.equal(ns.status?.phase, phase);
  assert.ok(ns.metadata.deletionTimestamp, 'no deletionTimestamp');
  assert.deepEqual(ns.spec?.finalizers, [finalizer]);
});

Then('creating ConfigMap {string} in Namespace {string} is refused {int} Forbidden with message {string}', async function (this: KubespecWorld, name: string, raw: string, code: number, message: string) {
  const kube = this.kube();
  const res = await createIn(this, expandNs(kube, raw), 'ConfigMap', name);
  assert.equal(res.status, code, res.text.slice(0, 300));
  assert.equal(res.json?.reason, 'Forbidden');
  assert.equal(res.json?.message, expandNs(kube, message));
});

Then(/^within (\d+) seconds ((?:(?:ConfigMap|Secret|ServiceAccount) "[^"]+"(?:, | and )?)+) are gone from Namespace "([^"]+)"$/, async function (this: KubespecWorld, secs: string, list: string, raw: string) {
  const ns = expandNs(this.kube(), raw);
  for (const [kind, name] of objects(list)) {
    await this.eventually(`${kind} ${ns}/${name} to be gone`, async () => (await this.kube().request({ method: 'GET', path: objectPath(ns, kind, name) })).status === 404, Number(secs) * 1000);
  }
});

Then('{int} seconds later Namespace {string} still exists, while ConfigMap {string} waits for its finalizer', async function (this: KubespecWorld, secs: number, raw: string, name: string) {
  const ns = expandNs(this.kube(), raw);
  await this.holdsFor(`Namespace ${ns} to stay while ConfigMap ${name} is held`, async () => (await this.kube().request({ method: 'GET', path: nsPath(ns) })).status === 200, secs * 1000);
  const held = expectSuccess(await this.kube().request({ method: 'GET', path: objectPath(ns, 'ConfigMap', name) }), `get ConfigMap "${name}"`);
  assert.ok(held.metadata.deletionTimestamp, 'the held ConfigMap was never deleted');
});

When('the finalizers of ConfigMap {string} in Namespace {string} are removed', async function (this: KubespecWorld, name: string, raw: string) {
  const path = objectPath(expandNs(this.kube(), raw), 'ConfigMap', name);
  expectSuccess(await this.kube().request({ method: 'PATCH', path, body: { metadata: { finalizers: null } }, headers: { 'content-type': 'application/merge-patch+json' } }), `remove the finalizers of ConfigMap "${name}"`);
});

Then('within {int} seconds Namespace {string} is gone', async function (this: KubespecWorld, secs: number, raw: string) {
  const ns = expandNs(this.kube(), raw);
  await this.eventually(`Namespace ${ns} to be gone`, async () => (await this.kube().request({ method: 'GET', path: nsPath(ns) })).status === 404, secs * 1000);
});

Then('no Deployment, ReplicaSet or Pod is left in Namespace {string}', async function (this: KubespecWorld, raw: string) {
  const ns = expandNs(this.kube(), raw);
  for (const path of [`/apis/apps/v1/namespaces/${ns}/deployments`, `/apis/apps/v1/namespaces/${ns}/replicasets`, `${nsPath(ns)}/pods`]) {
    const res = await this.kube().request({ method: 'GET', path });
    assert.deepEqual(res.json?.items ?? [], [], `${path}: ${res.text.slice(0, 200)}`);
  }
});
