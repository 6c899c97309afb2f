/**
 * Steps about the controller manager as one process (features/controllers/reconcile-loop.feature,
 * CTRL-ONE-PER-KIND): the work of several controllers, the one leader Lease that covers it, and a
 * process restarted with another --controllers list (`controllers.flags`).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expandNs, expectSuccess } from '../kube/api.ts';
import { deployPath, list, ownedBy, path, podsPath, podTemplate, rsPath } from './support.ts';

/**
 * Upstream's controller names (cmd/kube-controller-manager/names/controller_names.go): a Lease
 * named after one of them (or "<name>-controller", or "kube-controller-manager-<anything>") would
 * be a controller electing itself apart from the process.
 */
const CONTROLLER_NAMES = [
  'serviceaccount', 'serviceaccount-token', 'replicaset', 'deployment', 'garbage-collector', 'garbagecollector', 'node-lifecycle',
  'nodelifecycle', 'taint-eviction', 'job', 'cronjob', 'ttl-after-finished', 'disruption', 'endpointslice', 'endpoint', 'namespace',
  'clusterrole-aggregation', 'daemonset', 'statefulset', 'pod-garbage-collector', 'podgc', 'resourcequota', 'replicationcontroller',
];
const KCM_LEASE = 'kube-controller-manager';

function isControllerManagerLease(name: string): boolean {
  if (name === KCM_LEASE || name.startsWith(`${KCM_LEASE}-`)) return true;
  return CONTROLLER_NAMES.some((c) => name === c || name === `${c}-controller`);
}

const nsPath = (name: string) => `/api/v1/namespaces/${encodeURIComponent(name)}`;

When(/^I create Deployment "([^"]+)", Job "([^"]+)" and Namespace "([^"]+)"$/, async function (this: KubespecWorld, deployment: string, job: string, rawNs: string) {
  const kube = this.kube();
  const spec = { replicas: 2, selector: { matchLabels: { app: deployment } }, template: podTemplate({ app: deployment }) };
  expectSuccess(await kube.request({ method: 'POST', path: deployPath(kube), body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: deployment }, spec } }), `create Deployment "${deployment}"`);
  const template = podTemplate({ job }); template.spec.restartPolicy = 'Never';
  expectSuccess(await kube.request({ method: 'POST', path: path(kube, 'batch', 'jobs'), body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: job }, spec: { template } } }), `create Job "${job}"`);
  const ns = expandNs(kube, rawNs);
  expectSuccess(await kube.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } }), `create Namespace "${ns}"`);
  this.onCleanup(() => kube.request({ method: 'DELETE', path: nsPath(ns) }));
});

async function ownedCount(world: KubespecWorld, ownerPath: string, dependents: string): Promise<number> {
  const owner = await world.kube().request({ method: 'GET', path: ownerPath });
  if (owner.status !== 200) return 0;
  return ownedBy(await list(world, dependents), owner.json.metadata.uid).length;
}

const hasReplicaSetFor = (w: KubespecWorld, d: string) => ownedCount(w, deployPath(w.kube(), d), rsPath(w.kube())).then((n) => n > 0);
const hasPodFor = (w: KubespecWorld, j: string) => ownedCount(w, path(w.kube(), 'batch', 'jobs', j), podsPath(w.kube())).then((n) => n > 0);
const hasServiceAccount = async (w: KubespecWorld, ns: string, name: string) => (await w.kube().request({ method: 'GET', path: `${nsPath(ns)}/serviceaccounts/${encodeURIComponent(name)}` })).status === 200;

Then(/^within (\d+) seconds a ReplicaSet for Deployment "([^"]+)", a Pod for Job "([^"]+)" and ServiceAccount "([^"]+)" in Namespace "([^"]+)" exist$/, async function (this: KubespecWorld, s: string, d: string, j: string, sa: string, rawNs: string) {
  const ns = expandNs(this.kube(), rawNs);
  await this.eventually(`a ReplicaSet for "${d}", a Pod for Job "${j}" and ServiceAccount ${ns}/${sa}`, async () => (await hasReplicaSetFor(this, d)) && (await hasPodFor(this, j)) && (await hasServiceAccount(this, ns, sa)), Number(s) * 1000);
});

Then(/^within (\d+) seconds a ReplicaSet for Deployment "([^"]+)" and a Pod for Job "([^"]+)" exist$/, async function (this: KubespecWorld, s: string, d: string, j: string) {
  await this.eventually(`a ReplicaSet for "${d}" and a Pod for Job "${j}"`, async () => (await hasReplicaSetFor(this, d)) && (await hasPodFor(this, j)), Number(s) * 1000);
});

Then(/^after (\d+) seconds Namespace "([^"]+)" still has no ServiceAccount "([^"]+)"$/, async function (this: KubespecWorld, s: string, rawNs: string, sa: string) {
  const ns = expandNs(this.kube(), rawNs);
  if (this.session.clock) await this.session.clock.advance(Number(s) * 1000);
  else await new Promise((r) => setTimeout(r, Number(s) * 1000));
  assert.equal(await hasServiceAccount(this, ns, sa), false, `ServiceAccount ${ns}/${sa} exists: the disabled serviceaccount controller made it`);
});

Then(/^kube-system has exactly one Lease for the controller manager, "([^"]+)", and it is held$/, async function (this: KubespecWorld, name: string) {
  const leases = await list(this, collectionPath('coordination.k8s.io', 'leases', 'kube-system'));
  const ours = leases.filter((l) => isControllerManagerLease(l.metadata.name));
  assert.deepEqual(ours.map((l) => l.metadata.name), [name], `Leases in kube-system for the controller manager or one of its controllers: ${ours.map((l) => l.metadata.name).join(', ') || 'none'}`);
  const spec = ours[0]!.spec ?? {};
  assert.ok(spec.holderIdentity, `Lease kube-system/${name} has no holder: ${JSON.stringify(spec)}`);
  const now_ms = this.session.clock?.now_ms() ?? Date.now();
  const age_ms = now_ms - Date.parse(spec.renewTime);
  // Held: renewed within its duration (a little slack for the request that read it).
  assert.ok(age_ms <= (spec.leaseDurationSeconds ?? 15) * 1000 + 2_000, `Lease kube-system/${name} was last renewed ${age_ms} ms ago (duration ${spec.leaseDurationSeconds} s): nobody holds it`);
});

Given('the controller manager restarted with controllers {string}', async function (this: KubespecWorld, flag: string) {
  const facet = this.session.controllerManager;
  assert.ok(facet, 'this scenario needs @requires:controllers.flags');
  await facet.start({ controllers: flag.split(',').map((e) => e.trim()) });
});
