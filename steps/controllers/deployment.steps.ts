/**
 * Steps about Deployments (features/controllers/deployment.feature): creating, scaling and
 * updating them, the ReplicaSets they own, and what a rollout looked like as it happened (from a
 * watch on the namespace's ReplicaSets, so every intermediate state counts, not only sampled ones).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import {
  deployPath, eventually, get, imageOf, isDeleting, list, mergePatch, ownedBy, podsPath, podTemplate, recorder, replicaSetsOf, revisionOf, rsPath,
} from './support.ts';

const REVISION = 'deployment.kubernetes.io/revision';

async function createDeployment(world: KubespecWorld, name: string, replicas: number, image: string, extra: Record<string, unknown> = {}): Promise<void> {
  await recorder(world);
  const labels = { app: name };
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas, selector: { matchLabels: labels }, template: podTemplate(labels, image), ...extra } };
  expectSuccess(await world.kube().request({ method: 'POST', path: deployPath(world.kube()), body }), `create Deployment "${name}"`);
}

/** kubectl rollout status's test (kubectl/pkg/polymorphichelpers/rollout_status.go): observed, all updated, old ones gone, all available. */
async function rolledOut(world: KubespecWorld, name: string): Promise<boolean> {
  const d = await get(world, deployPath(world.kube(), name), `Deployment "${name}"`);
  const s = d.status ?? {};
  const want = d.spec.replicas;
  return (s.observedGeneration ?? 0) >= d.metadata.generation && s.updatedReplicas === want && s.replicas === want && s.availableReplicas === want;
}

async function rollOut(world: KubespecWorld, name: string): Promise<void> {
  world.note('test plays kubelet', true);
  await eventually(world, `Deployment "${name}" to be rolled out`, () => rolledOut(world, name), 120_000);
}

async function setImage(world: KubespecWorld, name: string, image: string): Promise<void> {
  const d = await get(world, deployPath(world.kube(), name), `Deployment "${name}"`);
  world.note('rollout began at pod event', (await recorder(world)).pods.events.length);
  world.note('replicasets before', (await replicaSetsOf(world, name)).map((rs) => rs.metadata.uid));
  await mergePatch(world, deployPath(world.kube(), name), { spec: { template: { spec: { containers: [{ ...d.spec.template.spec.containers[0], image }] } } } }, `set image of "${name}"`);
}

async function ownsReplicaSets(world: KubespecWorld, name: string, count: number, seconds: number): Promise<any[]> {
  let owned: any[] = [];
  const show = () => owned.map((rs) => `${rs.metadata.name} (revision ${revisionOf(rs)}, ${rs.spec.replicas} replicas, ${imageOf(rs)})`).join('; ');
  await eventually(world, `Deployment "${name}" to own exactly ${count} replicasets`, async () => (owned = (await replicaSetsOf(world, name)).filter((rs) => !isDeleting(rs))).length === count, seconds * 1000)
    .catch((e: Error) => Promise.reject(new Error(`${e.message}; it owns: ${show()}; kubectl: ${JSON.stringify(world.recallOr('kubectl', undefined))}`)));
  world.note('replicasets', owned);
  return owned;
}

When('Deployment {string} is created with {int} replicas and image {string}', async function (this: KubespecWorld, name: string, replicas: number, image: string) {
  await createDeployment(this, name, replicas, image);
});

Given('Deployment {string} exists with {int} replicas and image {string}, rolled out', async function (this: KubespecWorld, name: string, replicas: number, image: string) {
  await createDeployment(this, name, replicas, image);
  await rollOut(this, name);
});

Given('Deployment {string} exists with {int} replicas, image {string} and revisionHistoryLimit {int}, rolled out', async function (this: KubespecWorld, name: string, replicas: number, image: string, limit: number) {
  await createDeployment(this, name, replicas, image, { revisionHistoryLimit: limit });
  await rollOut(this, name);
});

Given('Deployment {string} was created with {int} replicas and image {string}, then updated to image {string}, rolled out', async function (this: KubespecWorld, name: string, replicas: number, first: string, second: string) {
  await createDeployment(this, name, replicas, first);
  await rollOut(this, name);
  await setImage(this, name, second);
  await rollOut(this, name);
});

Given('Deployment {string} exists with {int} replicas', async function (this: KubespecWorld, name: string, replicas: number) {
  await createDeployment(this, name, replicas, 'registry.k8s.io/pause:3.9');
  await eventually(this, `Deployment "${name}" to have ${replicas} pods and say so in its status`, async () => {
    const d = await get(this, deployPath(this.kube(), name), name);
    return (await ownedByDeployment(this, name)).pods.length === replicas && d.status?.replicas === replicas && d.status?.observedGeneration >= d.metadata.generation;
  }, 30_000);
});

When('Deployment {string} is scaled to {int}', async function (this: KubespecWorld, name: string, replicas: number) {
  this.note('replicasets before', (await replicaSetsOf(this, name)).map((rs) => rs.metadata.uid));
  await mergePatch(this, deployPath(this.kube(), name), { spec: { replicas } }, `scale Deployment "${name}"`);
});

When('Deployment {string} is updated to image {string}', async function (this: KubespecWorld, name: string, image: string) {
  await setImage(this, name, image);
});

When('Deployment {string} is updated to image {string} and rolled out', async function (this: KubespecWorld, name: string, image: string) {
  await setImage(this, name, image);
  await rollOut(this, name);
});

When('Deployment {string} is updated to an image whose containers never become ready', async function (this: KubespecWorld, name: string) {
  this.note('never ready images', new Set(['registry.k8s.io/never-ready:1']));
  await setImage(this, name, 'registry.k8s.io/never-ready:1');
});

Then(/^within (\d+) s Deployment "([^"]*)" (?:still )?owns exactly (\d+) replicasets?$/, async function (this: KubespecWorld, seconds: string, name: string, count: string) {
  await ownsReplicaSets(this, name, Number(count), Number(seconds));
});

Then('within {int} s Deployment {string} owns exactly {int} replicaset, the same one as before', async function (this: KubespecWorld, seconds: number, name: string, count: number) {
  const [rs] = await ownsReplicaSets(this, name, count, seconds);
  assert.deepEqual([rs.metadata.uid], this.recall<string[]>('replicasets before'));
});

Then(/^that replicaset has (\d+) replicas(?:, image "([^"]*)", a "([^"]*)" label,)? and annotation "([^"]*)" = "([^"]*)"$/, async function (this: KubespecWorld, replicas: string, image: string | undefined, label: string | undefined, key: string, value: string) {
  const [noted] = this.recall<any[]>('replicasets');
  let rs: any;
  await eventually(this, `the replicaset to have ${replicas} replicas`, async () => (rs = await get(this, rsPath(this.kube(), noted.metadata.name), noted.metadata.name)).spec.replicas === Number(replicas), 10_000);
  if (image) assert.equal(imageOf(rs), image);
  if (label) assert.ok(rs.metadata.labels?.[label], `labels: ${JSON.stringify(rs.metadata.labels)}`);
  assert.equal(rs.metadata.annotations?.[key], value);
});

Then('its name is {string} followed by the value of its {string} label', function (this: KubespecWorld, prefix: string, label: string) {
  const [rs] = this.recall<any[]>('replicasets');
  assert.equal(rs.metadata.name, `${prefix}${rs.metadata.labels[label]}`);
});

Then('the one with image {string} has annotation {string} = {string} and a different {string}', function (this: KubespecWorld, image: string, key: string, value: string, label: string) {
  const all = this.recall<any[]>('replicasets');
  const mine = all.find((rs) => imageOf(rs) === image);
  assert.ok(mine, `no replicaset with image ${image}`);
  assert.equal(mine.metadata.annotations?.[key], value);
  assert.equal(new Set(all.map((rs) => rs.metadata.labels?.[label])).size, all.length, `${label} values: ${all.map((rs) => rs.metadata.labels?.[label])}`);
});

Then('within {int} s all {int} pods of Deployment {string} run image {string} and are available', async function (this: KubespecWorld, seconds: number, count: number, name: string, image: string) {
  await eventually(this, `all pods of "${name}" on ${image}`, async () => {
    const { pods } = await ownedByDeployment(this, name);
    return pods.length === count && pods.every((p) => p.spec.containers[0].image === image) && (await rolledOut(this, name));
  }, seconds * 1000);
});

/** The deployment's ReplicaSets at each moment the watch saw, from its events (uid → last state). */
async function replicaSetHistory(world: KubespecWorld, name: string): Promise<any[][]> {
  const d = await get(world, deployPath(world.kube(), name), name);
  const { replicasets } = await recorder(world);
  const current = new Map<string, any>();
  const moments: any[][] = [];
  for (const e of replicasets.events) {
    if (ownedBy([e.object], d.metadata.uid).length === 0) continue;
    if (e.type === 'DELETED') current.delete(e.object.metadata.uid);
    else current.set(e.object.metadata.uid, e.object);
    moments.push([...current.values()]);
  }
  return moments;
}

Then('at every observed moment the two replicasets together had at most {int} pods', async function (this: KubespecWorld, max: number) {
  const moments = await replicaSetHistory(this, (await list(this, deployPath(this.kube())))[0].metadata.name);
  const peak = Math.max(...moments.map((m) => m.reduce((n, rs) => n + rs.spec.replicas, 0)));
  assert.ok(peak <= max, `at one moment the replicasets asked for ${peak} pods`);
});

/** Ready pods of the deployment, not being deleted, after each pod event the watch saw. */
async function availableHistory(world: KubespecWorld, name: string): Promise<number[]> {
  const d = await get(world, deployPath(world.kube(), name), name);
  const rsUids = new Set(ownedBy(await list(world, rsPath(world.kube())), d.metadata.uid).map((rs) => rs.metadata.uid));
  const { pods } = await recorder(world);
  const ready = new Map<string, boolean>();
  const counts: number[] = [];
  const from = world.recallOr<number>('rollout began at pod event', 0);
  for (const [i, e] of pods.events.entries()) {
    if (!(e.object.metadata.ownerReferences ?? []).some((r: any) => rsUids.has(r.uid))) continue;
    const isReady = e.type !== 'DELETED' && !isDeleting(e.object) && (e.object.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
    ready.set(e.object.metadata.uid, isReady);
    if (i >= from) counts.push([...ready.values()].filter(Boolean).length);
  }
  return counts;
}

Then('at every observed moment at least {int} pods were available', async function (this: KubespecWorld, min: number) {
  const counts = await availableHistory(this, (await list(this, deployPath(this.kube())))[0].metadata.name);
  // From the moment the rollout began (the pods were all ready before it), every pod event counts.
  const low = Math.min(...counts);
  assert.ok(low >= min, `at one moment only ${low} pods were ready (ready counts after each pod event: ${counts.join(' ')})`);
});

Then('the old replicaset ends with {int} replicas', async function (this: KubespecWorld, replicas: number) {
  const before = new Set(this.recall<string[]>('replicasets before'));
  const old = (await list(this, rsPath(this.kube()))).filter((rs) => before.has(rs.metadata.uid));
  assert.deepEqual(old.map((rs) => rs.spec.replicas), [replicas]);
});

Then('after {int} s the old replicaset still has at least {int} available pods', async function (this: KubespecWorld, seconds: number, min: number) {
  const name = (await list(this, deployPath(this.kube())))[0].metadata.name;
  // The old pods are Ready and the new never become so: time passes with nothing for a kubelet to do.
  await this.clock().advance(seconds * 1000);
  const before = new Set(this.recall<string[]>('replicasets before'));
  const rss = await replicaSetsOf(this, name);
  this.note('replicasets', rss);
  const old = rss.filter((rs) => before.has(rs.metadata.uid));
  assert.ok(old.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0) >= min, `old replicasets: ${JSON.stringify(old.map((rs) => rs.status))}`);
});

Then('the new replicaset has at most {int} pods', function (this: KubespecWorld, max: number) {
  const before = new Set(this.recall<string[]>('replicasets before'));
  const fresh = this.recall<any[]>('replicasets').filter((rs) => !before.has(rs.metadata.uid));
  assert.equal(fresh.length, 1);
  assert.ok(fresh[0].spec.replicas <= max, `the new replicaset asks for ${fresh[0].spec.replicas}`);
});

Then(/^Deployment "([^"]*)" has condition Progressing=False with reason "([^"]*)"$/, async function (this: KubespecWorld, name: string, reason: string) {
  const d = await get(this, deployPath(this.kube(), name), name);
  const c = (d.status?.conditions ?? []).find((x: any) => x.type === 'Progressing');
  assert.deepEqual([c?.status, c?.reason], ['False', reason], JSON.stringify(d.status?.conditions));
});

Then(/^the replicaset with image "([^"]*)" has (\d+) replicas(?: and annotation "([^"]*)" = "([^"]*)")?$/, async function (this: KubespecWorld, image: string, replicas: string, key?: string, value?: string) {
  const rs = this.recall<any[]>('replicasets').find((r) => imageOf(r) === image);
  assert.ok(rs, `no replicaset with image ${image}`);
  await eventually(this, `the ${image} replicaset to have ${replicas} replicas${key ? ` and ${key}=${value}` : ''}`, async () => {
    const now = await get(this, rsPath(this.kube(), rs.metadata.name), rs.metadata.name);
    return now.spec.replicas === Number(replicas) && (!key || now.metadata.annotations?.[key] === value);
  }, 60_000);
});

Then(/^(?:within (\d+) s )?Deployment "([^"]*)" owns exactly (\d+) replicasets, with revisions ((?:\d+, )*\d+ and \d+)$/, async function (this: KubespecWorld, seconds: string | undefined, name: string, count: string, revisions: string) {
  const want = revisions.split(/, | and /);
  let got: string[] = [];
  await eventually(this, `Deployment "${name}" to own replicasets of revisions ${want.join(', ')}`, async () => {
    const rss = (await replicaSetsOf(this, name)).filter((rs) => !isDeleting(rs));
    this.note('replicasets', rss);
    got = rss.map(revisionOf).sort((a, b) => Number(a) - Number(b));
    return rss.length === Number(count) && JSON.stringify(got) === JSON.stringify(want);
  }, Number(seconds ?? 10) * 1000);
});

Then(/^the revision-((?:\d+(?: and revision-)?)+) replicasets have 0 replicas$/, function (this: KubespecWorld, revisions: string) {
  for (const rev of revisions.split(' and revision-')) {
    const rs = this.recall<any[]>('replicasets').find((r) => revisionOf(r) === rev);
    assert.equal(rs?.spec.replicas, 0, `revision ${rev}: ${JSON.stringify(rs?.spec)}`);
  }
});

// ---- the ownership chain -------------------------------------------------------------------

async function ownedByDeployment(world: KubespecWorld, name: string): Promise<{ rss: any[]; pods: any[] }> {
  const res = await world.kube().request({ method: 'GET', path: deployPath(world.kube(), name) });
  const allRs = await list(world, rsPath(world.kube()));
  const pods = (await list(world, podsPath(world.kube()))).filter((p) => !isDeleting(p));
  if (res.status === 404) {
    // Gone: whatever still names it as owner, by name.
    const rss = allRs.filter((rs) => (rs.metadata.ownerReferences ?? []).some((r: any) => r.kind === 'Deployment' && r.name === name));
    return { rss, pods: pods.filter((p) => rss.some((rs) => ownedBy([p], rs.metadata.uid).length > 0)) };
  }
  const rss = ownedBy(allRs, res.json.metadata.uid);
  return { rss, pods: pods.filter((p) => rss.some((rs) => ownedBy([p], rs.metadata.uid).length > 0)) };
}

Then('within {int} s each of its {int} pods has one ownerReference, to its replicaset, with controller true', async function (this: KubespecWorld, seconds: number, count: number) {
  const name = (await list(this, deployPath(this.kube())))[0].metadata.name;
  let pods: any[] = [];
  await eventually(this, `${count} pods of "${name}"`, async () => (pods = (await ownedByDeployment(this, name)).pods).length === count, seconds * 1000);
  const [rs] = (await ownedByDeployment(this, name)).rss;
  for (const p of pods) assert.deepEqual(p.metadata.ownerReferences.map((r: any) => [r.kind, r.name, r.uid, r.controller]), [['ReplicaSet', rs.metadata.name, rs.metadata.uid, true]]);
  this.note('replicasets', [rs]);
});

Then('that replicaset has one ownerReference, to Deployment {string}, with controller true', async function (this: KubespecWorld, name: string) {
  const d = await get(this, deployPath(this.kube(), name), name);
  const [rs] = this.recall<any[]>('replicasets');
  assert.deepEqual(rs.metadata.ownerReferences.map((r: any) => [r.kind, r.name, r.uid, r.controller]), [['Deployment', name, d.metadata.uid, true]]);
});

When('Deployment {string} is deleted with propagationPolicy {string}', async function (this: KubespecWorld, name: string, policy: string) {
  const body = { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: policy };
  expectSuccess(await this.kube().request({ method: 'DELETE', path: deployPath(this.kube(), name), body }), `delete Deployment "${name}"`);
});

Then('within {int} s no replicaset and no pod of Deployment {string} remains', async function (this: KubespecWorld, seconds: number, name: string) {
  await eventually(this, `the replicasets and pods of "${name}" to go`, async () => {
    const { rss, pods } = await ownedByDeployment(this, name);
    return rss.length === 0 && pods.length === 0 && (await this.kube().request({ method: 'GET', path: deployPath(this.kube(), name) })).status === 404;
  }, seconds * 1000);
});

Then('within {int} s Deployment {string} is gone while its replicasets and pods remain, owned by no one', async function (this: KubespecWorld, seconds: number, name: string) {
  await eventually(this, `Deployment "${name}" to go`, async () => (await this.kube().request({ method: 'GET', path: deployPath(this.kube(), name) })).status === 404, seconds * 1000);
  const rss = await list(this, rsPath(this.kube()));
  assert.ok(rss.length > 0, 'no replicaset remains');
  assert.deepEqual(rss.map((rs) => rs.metadata.ownerReferences ?? []), rss.map(() => []));
});

Then('Deployment {string} was deleted only after all of its replicasets and pods', async function (this: KubespecWorld, name: string) {
  // resourceVersions of DELETED events are store revisions: one total order across the three watches.
  const { deployments, replicasets, pods } = await recorder(this);
  const deletedAt = (events: readonly any[], pick: (o: any) => boolean) => events.filter((e) => e.type === 'DELETED' && pick(e.object)).map((e) => Number(e.object.metadata.resourceVersion));
  const [owner] = deletedAt(deployments.events, (o) => o.metadata.name === name);
  assert.ok(owner !== undefined, `no DELETED event for Deployment "${name}"`);
  const dependents = [...deletedAt(replicasets.events, () => true), ...deletedAt(pods.events, () => true)];
  assert.ok(dependents.length > 0, 'no replicaset or pod was deleted');
  assert.ok(dependents.every((rv) => rv < owner), `the Deployment went at revision ${owner}, dependents at ${dependents.join(', ')}`);
});
