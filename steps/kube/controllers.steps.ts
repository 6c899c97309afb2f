/**
 * Steps about the controller manager as a client of the API server (features/apiserver/
 * informer.feature, single-entry.feature, storage-interaction.feature): what its requests look
 * like in the request trace (`kube.audit`), what it stores (`kube.storage`), what admission
 * webhooks see of it, and ReplicaSets it keeps whole.
 *
 * "The controller manager" is recognised by the user it acts as: system:kube-controller-manager,
 * or — when kube-controller-manager runs with --use-service-account-credentials, as kubeadm
 * configures it — one ServiceAccount per controller in kube-system, named "<name>-controller"
 * (cmd/kube-controller-manager/app/controllermanager.go, the clientBuilder's per-controller
 * identities).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { RequestTraceEntry } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expandNs, expectSuccess, traceSinceMark } from './api.ts';
import { creates, type Kind } from './webhook.steps.ts';

export function isControllerManager(user: string | undefined): boolean {
  return user === 'system:kube-controller-manager' || /^system:serviceaccount:kube-system:[a-z0-9-]+-controller$/.test(user ?? '');
}

function stagesOf(entry: RequestTraceEntry): string {
  return entry.stages.map((s) => `${s.stage}:${s.outcome}`).join(', ');
}

Given('a cluster with the controllers running', function (this: KubespecWorld) {
  // The scenario's @requires tags already ask for them; this says so where a reader looks.
  assert.ok([...this.target.capabilities].some((c) => c === 'cluster.controllers' || c.startsWith('controllers.')), 'this target runs no controllers');
});

// ---- what is stored, and the requests that stored it ---------------------------------------

/** A registry prefix of a namespaced core resource: /registry/<resource>/<namespace>/. */
function parsePrefix(prefix: string): { resource: string; namespace: string } {
  const m = /^\/registry\/(pods|serviceaccounts|configmaps)\/([^/]+)\/$/.exec(prefix);
  assert.ok(m, `say a prefix as /registry/<pods|serviceaccounts|configmaps>/<namespace>/, not "${prefix}"`);
  return { resource: m[1]!, namespace: m[2]! };
}

/** The keys under the prefix, read from the store itself: an object the API would not list still counts. */
async function storedKeys(world: KubespecWorld, prefix: string): Promise<string[]> {
  const kube = world.kube();
  assert.ok(kube.storageKeys, 'this target declares kube.storage but offers no storageKeys()');
  return (await kube.storageKeys(prefix)).sort();
}

Then('within {int} s the store holds {int} key(s) under {string}', async function (this: KubespecWorld, seconds: number, count: number, rawPrefix: string) {
  const prefix = expandNs(this.kube(), rawPrefix);
  let keys: string[] = [];
  if (count === 0) {
    // "None" must hold for the whole window, not only at its first instant.
    await this.holdsFor(`no key under ${prefix}`, async () => (keys = await storedKeys(this, prefix)).length === 0, seconds * 1000);
  } else {
    await this.eventually(`${count} keys under ${prefix}`, async () => (keys = await storedKeys(this, prefix)).length === count, seconds * 1000);
  }
  this.note('stored keys', { prefix, keys });
});

Then(/^for each of those keys the request trace holds a completed POST creating that (pod|ServiceAccount), answered 201$/, async function (this: KubespecWorld, _kind: string) {
  const { prefix, keys } = this.recall<{ prefix: string; keys: string[] }>('stored keys');
  assert.ok(keys.length > 0, `no keys under ${prefix}: nothing to match against the trace`);
  const { resource, namespace } = parsePrefix(prefix);
  const path = collectionPath('', resource, namespace);
  const created = (await traceSinceMark(this)).filter((t) => t.method === 'POST' && t.path === path && t.code === 201);
  // One 201 POST per stored name (audit's objectRef.name, filled from the stored object even when
  // the name came from generateName): two creates of one name cannot stand for two objects.
  for (const key of keys) {
    const name = key.slice(prefix.length);
    const mine = created.filter((t) => t.objectName === name);
    assert.equal(mine.length, 1, `key ${key}: the trace holds ${mine.length} POST ${path} answered 201 creating "${name}" (creates seen: ${created.map((t) => t.objectName ?? '?').join(', ') || 'none'})`);
  }
});

// ---- the controller manager's requests pass the same pipeline as anyone's ------------------------

Then('the controller manager\'s POST to {string} in the request trace passed the same stages as the client\'s', async function (this: KubespecWorld, rawPath: string) {
  const path = expandNs(this.kube(), rawPath);
  const client = this.kube().identity?.user;
  assert.ok(client, 'this target does not say who its default identity is (KubeFacet.identity)');
  const posts = (await traceSinceMark(this)).filter((t) => t.method === 'POST' && t.path === path && t.code === 201);
  const byManager = posts.find((t) => isControllerManager(t.user));
  const byClient = posts.find((t) => t.user === client);
  const seen = posts.map((t) => `${t.user}: ${stagesOf(t)}`).join('\n  ');
  assert.ok(byManager && byClient, `the trace should hold a 201 POST ${path} by the controller manager and one by ${client}; it holds:\n  ${seen}`);
  assert.ok(byClient.stages.some((s) => s.stage === 'authentication') && byClient.stages.some((s) => s.stage === 'authorization'), `the client's create passed no authentication or authorization: ${stagesOf(byClient)}`);
  assert.equal(stagesOf(byManager), stagesOf(byClient));
});

Then(/^within (\d+) s webhook "([^"]*)" has recorded exactly (\d+) (configmap|pod|serviceaccount) creates?$/, async function (this: KubespecWorld, seconds: string, name: string, count: string, kind: Kind) {
  assert.ok(Number(count) > 0, 'a wait for 0 creates would end at once: say "records no … create while … " with a positive control instead');
  await this.eventually(`webhook "${name}" to record ${count} ${kind} creates`, () => creates(this, name, kind).length >= Number(count), Number(seconds) * 1000);
  const seen = creates(this, name, kind);
  assert.equal(seen.length, Number(count), `webhook "${name}" saw: ${JSON.stringify(seen.map((r) => r.object?.metadata?.name))}`);
});

Then('the serviceaccount create of {string} recorded by webhook {string} was made by the controller manager', function (this: KubespecWorld, saName: string, name: string) {
  const seen = creates(this, name, 'serviceaccount').filter((r) => r.object?.metadata?.name === saName);
  assert.equal(seen.length, 1, `webhook "${name}" recorded ${seen.length} creates of ServiceAccount "${saName}"`);
  assert.ok(isControllerManager(seen[0]!.userInfo?.username), `made by ${JSON.stringify(seen[0]!.userInfo)}`);
});

// ---- ReplicaSets, for the claims whose example is a controller keeping its pods -----------------

function replicaSetsPath(world: KubespecWorld, name?: string): string {
  const base = collectionPath('apps', 'replicasets', world.kube().namespace);
  return name ? `${base}/${encodeURIComponent(name)}` : base;
}

/** Live pods (not being deleted) whose controller owner is the ReplicaSet. */
async function podsOwnedBy(world: KubespecWorld, name: string): Promise<any[]> {
  const kube = world.kube();
  const rs = expectSuccess(await kube.request({ method: 'GET', path: replicaSetsPath(world, name) }), `get ReplicaSet "${name}"`);
  const pods = expectSuccess(await kube.request({ method: 'GET', path: collectionPath('', 'pods', kube.namespace) }), 'list pods');
  return (pods.items ?? []).filter((p: any) => !p.metadata.deletionTimestamp && (p.metadata.ownerReferences ?? []).some((o: any) => o.uid === rs.metadata.uid && o.controller));
}

async function eventuallyOwns(world: KubespecWorld, name: string, count: number, seconds: number): Promise<void> {
  let owned: any[] = [];
  await world.eventually(`ReplicaSet "${name}" to own ${count} pods`, async () => (owned = await podsOwnedBy(world, name)).length === count, seconds * 1000);
  world.note(`pods of ReplicaSet ${name}`, owned);
}

Given('ReplicaSet {string} exists with {int} replicas', async function (this: KubespecWorld, name: string, replicas: number) {
  const labels = { app: name };
  const body = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } },
  };
  expectSuccess(await this.kube().request({ method: 'POST', path: replicaSetsPath(this), body }), `create ReplicaSet "${name}"`);
  await eventuallyOwns(this, name, replicas, 30);
  // Converged means its status says so too: the controller's status write may come after the pods.
  await this.eventually(`ReplicaSet "${name}" to report ${replicas} replicas`, async () =>
    (await this.kube().request({ method: 'GET', path: `${replicaSetsPath(this)}/${name}` })).json?.status?.replicas === replicas, 10_000);
});

When('one pod of ReplicaSet {string} is deleted', async function (this: KubespecWorld, name: string) {
  const [pod] = this.recall<any[]>(`pods of ReplicaSet ${name}`);
  assert.ok(pod, `ReplicaSet "${name}" owns no pod to delete`);
  const path = `${collectionPath('', 'pods', this.kube().namespace)}/${encodeURIComponent(pod.metadata.name)}`;
  expectSuccess(await this.kube().request({ method: 'DELETE', path }), `delete Pod "${pod.metadata.name}"`);
});

Then('within {int} s ReplicaSet {string} owns {int} pods again', async function (this: KubespecWorld, seconds: number, name: string, count: number) {
  await eventuallyOwns(this, name, count, seconds);
});

// ---- informers: list once, then watch --------------------------------------------------------

/** GETs of a resource's collection (any namespace) by the controller manager, split into lists and watches. */
function collectionReads(entries: RequestTraceEntry[], resource: string): { lists: RequestTraceEntry[]; watches: RequestTraceEntry[] } {
  const collection = new RegExp(`^/(api|apis/[^/]+)/[^/]+(/namespaces/[^/]+)?/${resource}$`);
  const reads = entries.filter((t) => t.method === 'GET' && isControllerManager(t.user) && collection.test(t.path));
  const isWatch = (t: RequestTraceEntry) => ['true', '1'].includes(new URLSearchParams(t.query ?? '').get('watch') ?? '');
  return { lists: reads.filter((t) => !isWatch(t)), watches: reads.filter(isWatch) };
}

function resourceList(text: string): string[] {
  return text.split(/, | or /).map((r) => r.trim()).filter(Boolean);
}

Then(/^the request trace holds no list of ([a-z, ]+) by the controller manager$/, async function (this: KubespecWorld, resources: string) {
  const entries = await traceSinceMark(this);
  for (const resource of resourceList(resources)) {
    const { lists, watches } = collectionReads(entries, resource);
    // The positive control: the controller manager is in the window, recognised, and reading this
    // resource (its watches time out and are re-opened); an empty trace or an identity the steps
    // do not know would otherwise show "no list" too.
    const users = [...new Set(entries.map((t) => t.user ?? '(unauthenticated)'))].join(', ');
    assert.ok(watches.length > 0, `the trace window holds no watch of ${resource} by the controller manager (${entries.length} entries, users: ${users || 'none'}): "no list" would prove nothing`);
    assert.deepEqual(lists.map((t) => `GET ${t.path}?${t.query ?? ''}`), [], `the controller manager listed ${resource} while nothing changed`);
  }
});

Then(/^every watch of ([a-z, ]+) by the controller manager sets "([a-zA-Z]+)"$/, async function (this: KubespecWorld, resources: string, parameter: string) {
  const entries = await traceSinceMark(this);
  for (const resource of resourceList(resources)) {
    const { watches } = collectionReads(entries, resource);
    // Watches end at their timeoutSeconds and are re-opened, so a quiet half hour holds some.
    assert.ok(watches.length > 0, `no watch of ${resource} by the controller manager in the trace window`);
    const without = watches.filter((t) => !new URLSearchParams(t.query ?? '').get(parameter));
    assert.deepEqual(without.map((t) => `GET ${t.path}?${t.query ?? ''}`), [], `watches of ${resource} without ${parameter}`);
  }
});

Given('Deployment {string} exists with {int} replicas, all available', async function (this: KubespecWorld, name: string, replicas: number) {
  const labels = { app: name };
  const body = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } },
  };
  const path = collectionPath('apps', 'deployments', this.kube().namespace);
  expectSuccess(await this.kube().request({ method: 'POST', path, body }), `create Deployment "${name}"`);
  await this.eventually(`Deployment "${name}" to have ${replicas} available replicas`, async () => {
    const res = await this.kube().request({ method: 'GET', path: `${path}/${encodeURIComponent(name)}` });
    return res.status === 200 && res.json?.status?.availableReplicas === replicas;
  }, 120_000);
});
