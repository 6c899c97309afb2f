/**
 * Steps about the controller manager as a process and a client (features/apiserver/informer.feature,
 * storage-interaction.feature, single-entry.feature, overview/controller-manager.feature): stopping
 * and starting it (`controllers.stoppable`), and what its requests look like in the request trace.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { RequestTraceEntry } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess, traceSinceMark } from '../kube/api.ts';
import { isControllerManager } from './support.ts';

function controllerManager(world: KubespecWorld) {
  assert.ok(world.session.controllerManager, 'this scenario needs @requires:controllers.stoppable');
  return world.session.controllerManager;
}

const isWatch = (t: RequestTraceEntry) => ['true', '1'].includes((new URLSearchParams(t.query ?? '').get('watch') ?? '').toLowerCase());
const podCollection = /^\/api\/v1(\/namespaces\/[^/]+)?\/pods$/;

async function podReads(world: KubespecWorld): Promise<{ lists: RequestTraceEntry[]; watches: RequestTraceEntry[] }> {
  const reads = (await traceSinceMark(world)).filter((t) => t.method === 'GET' && isControllerManager(t.user) && podCollection.test(t.path));
  return { lists: reads.filter((t) => !isWatch(t)), watches: reads.filter(isWatch) };
}

async function podListVersion(world: KubespecWorld): Promise<string> {
  return expectSuccess(await world.kube().request({ method: 'GET', path: '/api/v1/pods?limit=1' }), 'list pods').metadata.resourceVersion;
}

Given('a cluster whose controller manager is stopped', async function (this: KubespecWorld) {
  await controllerManager(this).stop();
});

When('the controller manager starts', async function (this: KubespecWorld) {
  this.note('pods version before start', await podListVersion(this));
  this.note('controller manager started at', this.session.clock?.now_ms() ?? Date.now());
  await controllerManager(this).start();
});

Then('within {int} s the controller manager has made at most one list of pods', async function (this: KubespecWorld, seconds: number) {
  await this.eventually('the controller manager to read pods', async () => {
    const { lists, watches } = await podReads(this);
    return lists.length + watches.length > 0 && watches.length > 0;
  }, seconds * 1000);
  const { lists } = await podReads(this);
  assert.ok(lists.length <= 1, `it listed pods ${lists.length} times: ${lists.map((t) => t.query).join('; ')}`);
});

Then('if it listed pods, its first pod watch asks for the resourceVersion that list returned', async function (this: KubespecWorld) {
  const { lists, watches } = await podReads(this);
  if (lists.length === 0) return;
  const asked = new URLSearchParams(watches[0]!.query ?? '').get('resourceVersion') ?? '';
  const before = Number(this.recall<string>('pods version before start'));
  const after = Number(await podListVersion(this));
  // A list returns the store's revision when it was read: no earlier than before the start, no later than now.
  assert.ok(/^\d+$/.test(asked) && Number(asked) >= before && Number(asked) <= after, `first pod watch asked for resourceVersion "${asked}"; the list was read between ${before} and ${after}`);
  if (before === after) assert.equal(Number(asked), before, 'nothing changed since the list, so its resourceVersion is known');
});

Then(/^if it did not list pods, its first pod watch sets "sendInitialEvents=true"$/, async function (this: KubespecWorld) {
  const { lists, watches } = await podReads(this);
  if (lists.length > 0) return;
  assert.equal(new URLSearchParams(watches[0]!.query ?? '').get('sendInitialEvents'), 'true');
});

Then('{int} s after it started the controller manager has made exactly one watch of pods', async function (this: KubespecWorld, seconds: number) {
  const started = this.recall<number>('controller manager started at');
  const clock = this.session.clock;
  if (clock) await clock.advance(Math.max(0, started + seconds * 1000 - clock.now_ms()));
  const { lists, watches } = await podReads(this);
  assert.equal(watches.length, 1, `pod watches: ${watches.map((t) => t.query).join('; ')}`);
  assert.ok(lists.length <= 1, `pod lists: ${lists.length}`);
});

/**
 * The process's leader election on its own Lease (kube-system/kube-controller-manager, GET and
 * PUT every RetryPeriod, 2 s): not a controller reading objects, and on every kube-controller-
 * manager with --leader-elect (upstream's default) — the same user, a separate client.
 */
const isOwnLeaseRenewal = (t: RequestTraceEntry) => t.path === '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager' && (t.method === 'GET' || t.method === 'PUT');

Then('the request trace holds no request by the controller manager other than watches', async function (this: KubespecWorld) {
  const others = (await traceSinceMark(this)).filter((t) => isControllerManager(t.user) && !(t.method === 'GET' && isWatch(t)) && !isOwnLeaseRenewal(t));
  assert.deepEqual(others.map((t) => `${t.method} ${t.path}${t.query ? `?${t.query}` : ''} ${t.code}`), [], 'a quiet controller manager should only hold its watches open');
});

Then(/^within (\d+) s the request trace holds a POST to "([^"]*)" made by the controller manager$/, async function (this: KubespecWorld, seconds: string, rawPath: string) {
  const p = rawPath.replaceAll('{ns}', this.kube().namespace);
  await this.eventually(`a POST to ${p} by the controller manager`, async () => (await traceSinceMark(this)).some((t) => t.method === 'POST' && t.path === p && isControllerManager(t.user) && t.code === 201), Number(seconds) * 1000);
});

Then(/^within (\d+) s the request trace holds a watch of ([a-z]+) by the controller manager$/, async function (this: KubespecWorld, seconds: string, resource: string) {
  const collection = new RegExp(`^/(api|apis/[^/]+)/v1(/namespaces/[^/]+)?/${resource}$`);
  await this.eventually(`a watch of ${resource} by the controller manager`, async () => (await traceSinceMark(this)).some((t) => t.method === 'GET' && isWatch(t) && collection.test(t.path) && isControllerManager(t.user)), Number(seconds) * 1000);
});

