/**
 * Steps for how the API server uses its store (features/apiserver/storage-interaction.feature):
 * optimistic concurrency on resourceVersion, and reads that are never older than a write the
 * reader saw complete. Data is written "k=v" in the features.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath, createConfigMap, expectSuccess, getConfigMap, LAST_RESPONSE } from './api.ts';

function data(text: string): Record<string, string> {
  const eq = text.indexOf('=');
  assert.ok(eq > 0, `data is written "key=value", got "${text}"`);
  return { [text.slice(0, eq)]: text.slice(eq + 1) };
}

/** A PUT of the ConfigMap with new data, carrying `resourceVersion` (or none). */
function putConfigMap(world: KubespecWorld, name: string, values: Record<string, string>, resourceVersion?: string): Promise<KubeResponse> {
  const metadata: Record<string, string> = { name };
  if (resourceVersion !== undefined) metadata.resourceVersion = resourceVersion;
  return world.kube().request({ method: 'PUT', path: configMapsPath(world.kube(), name), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: values } });
}

Given('a ConfigMap {string} exists with data {string}', async function (this: KubespecWorld, name: string, text: string) {
  await createConfigMap(this.kube(), name, data(text));
});

When(/^writer (\w+) updates ConfigMap "([^"]*)" to data "([^"]*)" with resourceVersion "([^"]*)"$/, async function (this: KubespecWorld, writer: string, name: string, text: string, label: string) {
  this.note(`writer ${writer}`, await putConfigMap(this, name, data(text), this.recall<string>(label)));
});

Then(/^writer (\w+)'s response status is (\d+)(?: with reason "([^"]*)")?$/, function (this: KubespecWorld, writer: string, code: string, reason: string | null) {
  const res = this.recall<KubeResponse>(`writer ${writer}`);
  assert.equal(res.status, Number(code), `writer ${writer}: HTTP ${res.status} ${res.text.slice(0, 400)}`);
  if (reason) assert.equal(res.json?.reason, reason, `writer ${writer}: ${res.text.slice(0, 400)}`);
});

Then('ConfigMap {string} has data {string}', async function (this: KubespecWorld, name: string, text: string) {
  assert.deepEqual((await getConfigMap(this.kube(), name)).data, data(text));
});

When(/^(\d+) writers concurrently update ConfigMap "([^"]*)" to data "([^"=]*)=<writer>" with resourceVersion "([^"]*)"$/, async function (this: KubespecWorld, count: string, name: string, key: string, label: string) {
  const rv = this.recall<string>(label);
  const writers = Array.from({ length: Number(count) }, (_, i) => `w${i + 1}`);
  // All requests are in flight at once: the server, not the client, must serialise them.
  const responses = await Promise.all(writers.map((w) => putConfigMap(this, name, { [key]: w }, rv)));
  this.note('writers', writers.map((w, i) => ({ writer: w, key, res: responses[i]! })));
});

Then('exactly {int} response has status {int} and {int} have status {int}', function (this: KubespecWorld, okCount: number, ok: number, badCount: number, bad: number) {
  const results = this.recall<{ writer: string; res: KubeResponse }[]>('writers');
  const codes = results.map((r) => r.res.status);
  assert.equal(codes.filter((c) => c === ok).length, okCount, `statuses: ${codes.join(', ')}`);
  assert.equal(codes.filter((c) => c === bad).length, badCount, `statuses: ${codes.join(', ')}`);
});

Then('ConfigMap {string} has the data of the writer that got 200', async function (this: KubespecWorld, name: string) {
  const results = this.recall<{ writer: string; key: string; res: KubeResponse }[]>('writers');
  const winner = results.find((r) => r.res.status === 200);
  assert.ok(winner, 'no writer got 200');
  assert.deepEqual((await getConfigMap(this.kube(), name)).data, { [winner.key]: winner.writer });
});

When('ConfigMap {string} is updated to data {string} with no resourceVersion in the body', async function (this: KubespecWorld, name: string, text: string) {
  this.note(LAST_RESPONSE, await putConfigMap(this, name, data(text)));
});

When('ConfigMap {string} is updated to data {string}', async function (this: KubespecWorld, name: string, text: string) {
  const current = await getConfigMap(this.kube(), name);
  expectSuccess(await putConfigMap(this, name, data(text), current.metadata.resourceVersion), `update ConfigMap "${name}"`);
});

When('the client immediately lists ConfigMaps in the scenario\'s namespace without a resourceVersion', async function (this: KubespecWorld) {
  this.note('list', expectSuccess(await this.kube().request({ method: 'GET', path: configMapsPath(this.kube()) }), 'list ConfigMaps'));
});

Then('the list contains ConfigMap {string}', function (this: KubespecWorld, name: string) {
  const list = this.recall<any>('list');
  const names = (list.items ?? []).map((i: any) => i.metadata.name);
  assert.ok(names.includes(name), `the list holds ${names.join(', ')}`);
});

Then('the list\'s resourceVersion is at least {string}', function (this: KubespecWorld, label: string) {
  const list = this.recall<any>('list');
  const rv = this.recall<string>(label);
  assert.ok(BigInt(list.metadata.resourceVersion) >= BigInt(rv), `list resourceVersion ${list.metadata.resourceVersion} is below ${label}=${rv}`);
});

When('the client immediately gets ConfigMap {string}', async function (this: KubespecWorld, name: string) {
  this.note('got', await getConfigMap(this.kube(), name));
});

Then('its data {string} is {string}', function (this: KubespecWorld, key: string, value: string) {
  const obj = this.recall<any>('got');
  assert.equal(obj.data?.[key], value, `data: ${JSON.stringify(obj.data)}`);
});

Then('within {int} s a list of ConfigMaps at resourceVersion {string} contains ConfigMap {string}', async function (this: KubespecWorld, seconds: number, rv: string, name: string) {
  let names: string[] = [];
  await this.eventually(`a resourceVersion=${rv} list to hold "${name}"`, async () => {
    const res = await this.kube().request({ method: 'GET', path: `${configMapsPath(this.kube())}?resourceVersion=${encodeURIComponent(rv)}` });
    assert.equal(res.status, 200, `a resourceVersion=${rv} list is answered: ${res.status} ${res.text.slice(0, 300)}`);
    names = (res.json?.items ?? []).map((i: any) => i.metadata.name);
    return names.includes(name);
  }, seconds * 1000);
});
