/** Steps for the watch mechanism (features/apiserver/watch.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeWatch } from '../../adapters/contract.ts';
import { Reflector } from '../../adapters/kube/reflector.ts';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath, createConfigMap, expectSuccess, getConfigMap } from './api.ts';

Given('a ConfigMap {string} exists', async function (this: KubespecWorld, name: string) {
  await createConfigMap(this.kube(), name);
});

Given('ConfigMaps {names} exist', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) await createConfigMap(this.kube(), name);
});

Given('the resourceVersion of ConfigMap {string} is noted as {string}', async function (this: KubespecWorld, name: string, label: string) {
  this.note(label, (await getConfigMap(this.kube(), name)).metadata.resourceVersion);
});

Given('the ConfigMap {string} is updated {int} times', async function (this: KubespecWorld, name: string, times: number) {
  for (let i = 1; i <= times; i++) {
    const current = await getConfigMap(this.kube(), name);
    const res = await this.kube().request({ method: 'PUT', path: configMapsPath(this.kube(), name), body: { ...current, data: { v: String(i) } } });
    expectSuccess(res, `update ${i} of ConfigMap "${name}"`);
  }
});

When("the API server's store is compacted", async function (this: KubespecWorld) {
  const compact = this.kube().compact;
  assert.ok(compact, 'this target declares kube.compaction but offers no compact()');
  await compact.call(this.kube());
});

When('a client watches ConfigMaps from resourceVersion {string}', async function (this: KubespecWorld, label: string) {
  const rv = this.recall<string>(label);
  this.note('watch', await this.kube().watch(`${configMapsPath(this.kube())}?watch=true&resourceVersion=${encodeURIComponent(rv)}`));
});

Then('the watch is answered with code {int} and reason {string}', async function (this: KubespecWorld, code: number, reason: string) {
  const watch = this.recall<KubeWatch>('watch');
  await this.eventually('the watch to answer', () => watch.status !== 200 ? watch.error !== undefined : watch.events.length > 0);
  const status = watch.status !== 200 ? watch.error : watch.events[0]?.type === 'ERROR' ? watch.events[0].object : undefined;
  assert.ok(status, `expected a ${code} Status, got HTTP ${watch.status} with first event ${JSON.stringify(watch.events[0])}`);
  assert.equal(status.kind, 'Status', `the answer should be a Status: ${JSON.stringify(status)}`);
  assert.equal(status.code, code, `Status code: ${JSON.stringify(status)}`);
  assert.equal(status.reason, reason, `Status reason: ${JSON.stringify(status)}`);
  if (watch.status !== 200) assert.equal(watch.status, code, 'an HTTP error answer must carry the same code as its Status');
});

Then('the watch is not answered with code {int}', function (this: KubespecWorld, code: number) {
  const watch = this.recall<KubeWatch>('watch');
  assert.equal(watch.status, 200, `watch answered HTTP ${watch.status}: ${JSON.stringify(watch.error)}`);
  assert.ok(!watch.events.some((e) => e.type === 'ERROR' && e.object?.code === code), `an ERROR event with code ${code} arrived`);
});

Then('the watch delivers {int} MODIFIED events for {string} with increasing resourceVersions', async function (this: KubespecWorld, count: number, name: string) {
  const watch = this.recall<KubeWatch>('watch');
  const modified = () => watch.events.filter((e) => e.type === 'MODIFIED' && e.object?.metadata?.name === name);
  await this.eventually(`${count} MODIFIED events for "${name}"`, () => modified().length >= count);
  const values = modified().map((e) => e.object.data?.v);
  assert.deepEqual(values, Array.from({ length: count }, (_, i) => String(i + 1)), 'the updates, in order, each once');
  const versions = modified().map((e) => BigInt(e.object.metadata.resourceVersion));
  assert.ok(versions.every((v, i) => i === 0 || v > versions[i - 1]!), `resourceVersions must increase: ${versions.join(', ')}`);
  await watch.close();
});

Given('an informer on ConfigMaps has listed and is watching', async function (this: KubespecWorld) {
  const informer = new Reflector(this.kube(), configMapsPath(this.kube()));
  await informer.list();
  await informer.watchFromLast();
  this.note('informer', informer);
});

When('the informer is disconnected', async function (this: KubespecWorld) {
  await this.recall<Reflector>('informer').disconnect();
});

When('ConfigMap {string} is created and ConfigMap {string} is deleted', async function (this: KubespecWorld, created: string, deleted: string) {
  await createConfigMap(this.kube(), created);
  expectSuccess(await this.kube().request({ method: 'DELETE', path: configMapsPath(this.kube(), deleted) }), `delete ConfigMap "${deleted}"`);
});

When('ConfigMap {string} is created', async function (this: KubespecWorld, name: string) {
  await createConfigMap(this.kube(), name);
});

When('the informer reconnects from its last resourceVersion', async function (this: KubespecWorld) {
  await this.recall<Reflector>('informer').watchFromLast();
});

Then('the informer is told 410 Expired and lists again', async function (this: KubespecWorld) {
  const informer = this.recall<Reflector>('informer');
  const listsBefore = informer.log.lists;
  await this.eventually('the informer to see 410 and re-list', async () => (await informer.sync()) || informer.log.expired > 0);
  assert.equal(informer.log.expired, 1, 'exactly one expiry');
  assert.equal(informer.log.lists, listsBefore + 1, 'one more list after the expiry');
});

Then("the informer's cache holds exactly the ConfigMaps {names}", async function (this: KubespecWorld, names: string[]) {
  const informer = this.recall<Reflector>('informer');
  const expected = names.map((n) => `${this.kube().namespace}/${n}`).sort();
  const cached = () => [...informer.cache.keys()].sort();
  await this.eventually(`the informer's cache to hold ${expected.join(', ')}`, async () => {
    await informer.sync();
    return JSON.stringify(cached()) === JSON.stringify(expected);
  });
  assert.deepEqual(cached(), expected);
});
