/**
 * Several API servers over one replicated store, and the machines they run on (HA-APISERVER-*,
 * TOPO-*): requests through the load balancer (`kube`) or to one API server (`ha.requestVia`),
 * machines powered off with `ha.killMachine`.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeRequest, KubeResponse, KubeWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath } from '../kube/api.ts';

function via(world: KubespecWorld, machine: string, req: KubeRequest): Promise<KubeResponse> {
  const requestVia = world.ha().requestVia;
  assert.ok(requestVia, 'this target cannot address one API server');
  return requestVia(machine, req);
}

async function expectMachines(world: KubespecWorld, names: string[], what: (m: { apiServer: boolean; etcdMember?: string }) => boolean, described: string): Promise<void> {
  const machines = await world.ha().machines?.();
  assert.ok(machines, 'this target does not show its machines');
  for (const name of names) {
    const m = machines.find((x) => x.name === name);
    assert.ok(m && m.alive && what(m), `machine ${name} is not ${described}: ${JSON.stringify(machines)}`);
  }
}

Given('an HA cluster with API servers on masters {names}', async function (this: KubespecWorld, names: string[]) {
  await expectMachines(this, names, (m) => m.apiServer, 'a live master with an API server');
});

Given(/^an HA cluster with stacked masters (.+), each running an API server and an etcd member$/, async function (this: KubespecWorld, list: string) {
  const names = [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  await expectMachines(this, names, (m) => m.apiServer && m.etcdMember !== undefined, 'a stacked master');
});

Given(/^an HA cluster with masters (.+) and external etcd members (.+)$/, async function (this: KubespecWorld, masters: string, etcd: string) {
  const names = (s: string) => [...s.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  await expectMachines(this, names(masters), (m) => m.apiServer && m.etcdMember === undefined, 'a master without an etcd member');
  await expectMachines(this, names(etcd), (m) => !m.apiServer && m.etcdMember !== undefined, 'an etcd machine');
});

When(/^machines? "([^"]*)"(?: and "([^"]*)")? (?:is|are) killed$/, async function (this: KubespecWorld, a: string, b?: string) {
  const kill = this.ha().killMachine;
  assert.ok(kill, 'this target cannot kill machines');
  for (const name of b ? [a, b] : [a]) await kill(name);
});

When('I create ConfigMap {string} through the API server on {string}', async function (this: KubespecWorld, name: string, machine: string) {
  const res = await via(this, machine, { method: 'POST', path: configMapsPath(this.kube()), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '1' } } });
  assert.equal(res.status, 201, `create through ${machine}: ${res.status} ${res.text.slice(0, 300)}`);
  this.note(`configmap ${name}`, res.json);
});

Then('a quorum read of ConfigMap {string} through the API server on {string} returns the same resourceVersion and data', async function (this: KubespecWorld, name: string, machine: string) {
  const written = this.recall<any>(`configmap ${name}`);
  const res = await via(this, machine, { method: 'GET', path: configMapsPath(this.kube(), name) });
  assert.equal(res.status, 200, `read through ${machine}: ${res.status} ${res.text.slice(0, 300)}`);
  assert.equal(res.json.metadata.resourceVersion, written.metadata.resourceVersion);
  assert.deepEqual(res.json.data, written.data);
});

Then('updating ConfigMap {string} through the API server on {string} succeeds', async function (this: KubespecWorld, name: string, machine: string) {
  const current = (await via(this, machine, { method: 'GET', path: configMapsPath(this.kube(), name) })).json;
  const res = await via(this, machine, { method: 'PUT', path: configMapsPath(this.kube(), name), body: { ...current, data: { v: '2' } } });
  assert.equal(res.status, 200, `update through ${machine}: ${res.status} ${res.text.slice(0, 300)}`);
});

Then(/^the store has (\d+) of (\d+) members alive$/, async function (this: KubespecWorld, alive: string, total: string) {
  const members = await this.members().list();
  assert.equal(members.length, Number(total));
  assert.equal(members.filter((m) => m.alive).length, Number(alive), JSON.stringify(members));
});

/** A create through the load balancer, timed on the target's clock: it must answer (either way) within the budget. */
async function timedCreate(world: KubespecWorld, name: string): Promise<{ res: KubeResponse; took_ms: number }> {
  const start = world.clock().now_ms();
  const res = await world.kube().request({ method: 'POST', path: configMapsPath(world.kube()), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
  return { res, took_ms: world.clock().now_ms() - start };
}

Then(/^creating ConfigMap "([^"]*)" through the load balancer (succeeds|fails) within (\d+) seconds$/, async function (this: KubespecWorld, name: string, outcome: string, seconds: string) {
  const { res, took_ms } = await timedCreate(this, name);
  assert.ok(took_ms <= Number(seconds) * 1000, `the create took ${took_ms} ms`);
  if (outcome === 'succeeds') assert.equal(res.status, 201, `create ${name}: ${res.status} ${res.text.slice(0, 300)}`);
  else assert.ok(res.status >= 500, `create ${name} should fail for want of a quorum, got ${res.status} ${res.text.slice(0, 300)}`);
});

// ---- a watch that outlives its API server -----------------------------------------------------

When('I watch ConfigMaps through the API server on {string}', async function (this: KubespecWorld, machine: string) {
  const list = await via(this, machine, { method: 'GET', path: configMapsPath(this.kube()) });
  const watchVia = this.ha().watchVia;
  assert.ok(watchVia, 'this target cannot watch through one API server');
  const watch = await watchVia(machine, `${configMapsPath(this.kube())}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
  this.note('watches', [watch]);
});

When('I create ConfigMaps {names} through the load balancer', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) assert.equal((await timedCreate(this, name)).res.status, 201);
  // Let the open watch deliver them before anything else happens.
  const [watch] = this.recall<KubeWatch[]>('watches');
  await this.eventually(`the watch delivers ${names.join(', ')}`, () => names.every((n) => watch!.events.some((e) => e.object?.metadata?.name === n)), 5_000);
});

When('I create ConfigMap {string} through the load balancer', async function (this: KubespecWorld, name: string) {
  assert.equal((await timedCreate(this, name)).res.status, 201);
});

When('I resume the watch through the API server on {string} from the last resourceVersion it delivered', async function (this: KubespecWorld, machine: string) {
  const watches = this.recall<KubeWatch[]>('watches');
  const last = watches.flatMap((w) => w.events).filter((e) => e.type !== 'ERROR').at(-1);
  assert.ok(last, 'the first watch delivered nothing');
  const watch = await this.ha().watchVia!(machine, `${configMapsPath(this.kube())}?watch=true&resourceVersion=${last.object.metadata.resourceVersion}`);
  this.note('watches', [...watches, watch]);
});

Then('the watch events, before and after the resume, are exactly ADDED {names} in order', async function (this: KubespecWorld, names: string[]) {
  const watches = this.recall<KubeWatch[]>('watches');
  const seen = () => watches.flatMap((w) => w.events).filter((e) => e.type !== 'BOOKMARK');
  await this.eventually(`events for ${names.join(', ')}`, () => seen().length >= names.length, 5_000);
  assert.deepEqual(seen().map((e) => `${e.type} ${e.object?.metadata?.name}`), names.map((n) => `ADDED ${n}`));
});
