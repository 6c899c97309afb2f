/**
 * Steps about CustomResourceDefinitions (features/etcd/key-layout.feature ETCD-VALUE-ENCODING-CRD):
 * a CRD made for the scenario (removed afterwards: CRDs are cluster-scoped), its custom
 * resources, and what the store keeps for them. `{ns}` stands for the scenario's namespace, which
 * also makes the CRD's group unique to the scenario.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from './api.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

interface NotedCrd {
  group: string;
  plural: string;
  kind: string;
}

function expand(world: KubespecWorld, text: string): string {
  return text.replaceAll('{ns}', world.kube().namespace);
}

function freeFormCrd(group: string, kind: string): { name: string; plural: string; body: unknown } {
  const plural = `${kind.toLowerCase()}s`;
  const name = `${plural}.${group}`;
  const body = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name },
    spec: {
      group, scope: 'Namespaced', names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
    },
  };
  return { name, plural, body };
}

Given('a CustomResourceDefinition for kind {string} in group {string} with a free-form spec', async function (this: KubespecWorld, kind: string, rawGroup: string) {
  const group = expand(this, rawGroup);
  const crd = freeFormCrd(group, kind);
  expectSuccess(await this.kube().request({ method: 'POST', path: CRDS, body: crd.body }), `create CustomResourceDefinition ${crd.name}`);
  this.onCleanup(() => this.kube().request({ method: 'DELETE', path: `${CRDS}/${crd.name}` }));
  // A CRD serves its resource once Established (upstream sets the condition asynchronously).
  await this.eventually(`CustomResourceDefinition ${crd.name} Established`, async () => {
    const got = await this.kube().request({ method: 'GET', path: `${CRDS}/${crd.name}` });
    return (got.json?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
  });
  this.note('crd', { group, plural: crd.plural, kind } satisfies NotedCrd);
});

When(/^(\w+) "([^"]*)" is created in the scenario's namespace$/, async function (this: KubespecWorld, kind: string, name: string) {
  const crd = this.recall<NotedCrd>('crd');
  assert.equal(kind, crd.kind, `the scenario's CRD is for ${crd.kind}, not ${kind}`);
  const path = `/apis/${crd.group}/v1/namespaces/${this.kube().namespace}/${crd.plural}`;
  const body = { apiVersion: `${crd.group}/v1`, kind, metadata: { name }, spec: { size: 1 } };
  // Discovery and the handler may lag the Established condition for a moment on a real cluster.
  await this.eventually(`create ${kind} "${name}"`, async () => (await this.kube().request({ method: 'POST', path, body })).status !== 404);
});

Then('the value at key {string} parses as JSON', async function (this: KubespecWorld, rawKey: string) {
  const key = expand(this, rawKey);
  const kube = this.kube();
  assert.ok(kube.storageGet, 'this target declares kube.storage but offers no storageGet()');
  const value = await kube.storageGet(key);
  assert.notEqual(value, undefined, `the store has no key ${key}`);
  let parsed: unknown;
  assert.doesNotThrow(() => (parsed = JSON.parse(value!)), `the value at ${key} is not JSON: ${JSON.stringify(value!.slice(0, 80))}`);
  this.note('stored json', parsed);
});

Then('that JSON has {string} equal to {string}', function (this: KubespecWorld, field: string, expected: string) {
  const json = this.recall<Record<string, unknown>>('stored json');
  assert.equal(json[field], expected, `stored ${field}: ${JSON.stringify(json[field])}`);
});
