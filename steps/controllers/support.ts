/**
 * What the controller steps share: paths, the pod template every workload here uses, ownership
 * queries, a watch that records what happened to pods and ReplicaSets, and the test standing in
 * for the kubelet when a scenario says so.
 *
 * Workload pods name a scheduler no cluster runs (UNSCHEDULED), so on a real cluster no
 * scheduler binds them and no kubelet writes their status: a scenario decides their fate alone.
 * When it needs them Ready (a rollout), the test marks them Running and Ready through the status
 * subresource, as upstream's own controller integration tests do (test/integration/deployment,
 * markAllPodsReady / markUpdatedPodsReady) — a stand-in for the kubelet, never for the
 * controller under test.
 */
import assert from 'node:assert/strict';
import type { KubeFacet, KubeWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expectSuccess } from '../kube/api.ts';

export const UNSCHEDULED = 'kubespec-no-scheduler';

/**
 * The controller manager, by the user it acts as: system:kube-controller-manager, or with
 * --use-service-account-credentials (as kubeadm runs it) one ServiceAccount per controller in
 * kube-system named "<name>-controller" or "generic-garbage-collector"
 * (cmd/kube-controller-manager/app/controllermanager.go).
 */
export function isControllerManager(user: string | undefined): boolean {
  return user === 'system:kube-controller-manager' || /^system:serviceaccount:kube-system:([a-z0-9-]+-controller|generic-garbage-collector)$/.test(user ?? '');
}

export function path(kube: KubeFacet, group: string, resource: string, name?: string, cluster = false): string {
  const base = collectionPath(group, resource, cluster ? '' : kube.namespace);
  return name ? `${base}/${encodeURIComponent(name)}` : base;
}
export const podsPath = (kube: KubeFacet, name?: string) => path(kube, '', 'pods', name);
export const rsPath = (kube: KubeFacet, name?: string) => path(kube, 'apps', 'replicasets', name);
export const deployPath = (kube: KubeFacet, name?: string) => path(kube, 'apps', 'deployments', name);
export const nodePath = (kube: KubeFacet, name?: string) => path(kube, '', 'nodes', name, true);

export function labelsOf(text: string): Record<string, string> {
  return Object.fromEntries(text.split(',').map((kv) => kv.trim().split('=') as [string, string]));
}

export function podTemplate(labels: Record<string, string>, image = 'registry.k8s.io/pause:3.9'): any {
  return { metadata: { labels }, spec: { schedulerName: UNSCHEDULED, containers: [{ name: 'c', image }] } };
}

export async function get(world: KubespecWorld, p: string, what: string): Promise<any> {
  return expectSuccess(await world.kube().request({ method: 'GET', path: p }), `get ${what}`);
}

export async function list(world: KubespecWorld, p: string): Promise<any[]> {
  return expectSuccess(await world.kube().request({ method: 'GET', path: p }), `list ${p}`).items ?? [];
}

export async function mergePatch(world: KubespecWorld, p: string, patch: unknown, what: string): Promise<any> {
  return expectSuccess(await world.kube().request({ method: 'PATCH', path: p, body: patch, headers: { 'content-type': 'application/merge-patch+json' } }), what);
}

export function ownedBy(items: any[], uid: string): any[] {
  return items.filter((o) => (o.metadata.ownerReferences ?? []).some((r: any) => r.uid === uid && r.controller));
}

export const isDeleting = (o: any) => !!o.metadata.deletionTimestamp;

/** Live pods (not being deleted) controlled by ReplicaSet `name`. */
export async function podsOfReplicaSet(world: KubespecWorld, name: string): Promise<any[]> {
  const rs = await get(world, rsPath(world.kube(), name), `ReplicaSet "${name}"`);
  return ownedBy(await list(world, podsPath(world.kube())), rs.metadata.uid).filter((p) => !isDeleting(p));
}

export async function replicaSetsOf(world: KubespecWorld, deployment: string): Promise<any[]> {
  const d = await get(world, deployPath(world.kube(), deployment), `Deployment "${deployment}"`);
  return ownedBy(await list(world, rsPath(world.kube())), d.metadata.uid);
}

export const revisionOf = (rs: any) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'];
export const imageOf = (o: any) => o.spec?.template?.spec?.containers?.[0]?.image;

/** A watch on the namespace's pods and ReplicaSets from now on, opened once per scenario. */
export async function recorder(world: KubespecWorld): Promise<{ pods: KubeWatch; replicasets: KubeWatch; deployments: KubeWatch }> {
  try {
    return world.recall('recorder');
  } catch {
    const kube = world.kube();
    // From the current resourceVersion: what exists already is not reported as ADDED.
    const from = async (p: string) => {
      const rv = expectSuccess(await kube.request({ method: 'GET', path: p }), `list ${p}`).metadata.resourceVersion;
      return kube.watch(`${p}?watch=true&resourceVersion=${rv}`);
    };
    const rec = { pods: await from(podsPath(kube)), replicasets: await from(rsPath(kube)), deployments: await from(deployPath(kube)) };
    world.note('recorder', rec);
    world.onCleanup(async () => Promise.all([rec.pods.close(), rec.replicasets.close(), rec.deployments.close()]));
    return rec;
  }
}

/** Pods ever created (ADDED) under controller uid, by uid, counted once the watch has caught up. */
export async function podsEverCreatedFor(world: KubespecWorld, ownerUid: string): Promise<Set<string>> {
  const pods = await podWatchCaughtUp(world);
  return new Set(pods.events.filter((e) => e.type === 'ADDED' && ownedBy([e.object], ownerUid).length > 0).map((e) => e.object.metadata.uid));
}

const BARRIER = 'kubespec.io/watch-barrier';

/**
 * The recorder's pod watch, once it has delivered every pod event written before the call. A
 * watch trails the store: a step that waited on a list (5 pods owned) can be followed by a count
 * over the watch that has not yet seen the last ADDED (seen on a loaded machine). The test stamps
 * an annotation on one of the namespace's pods and waits for that write to come back through the
 * watch, which delivers a key range in resourceVersion order, so everything before it has arrived.
 * With no pod left to stamp there is nothing to wait for beyond what the list showed.
 */
export async function podWatchCaughtUp(world: KubespecWorld): Promise<KubeWatch> {
  const { pods } = await recorder(world);
  const kube = world.kube();
  const stamp = String(world.recallOr<number>('watch barriers', 0) + 1);
  world.note('watch barriers', Number(stamp));
  for (const pod of await list(world, podsPath(kube))) {
    const body = { metadata: { annotations: { [BARRIER]: stamp } } };
    const res = await kube.request({ method: 'PATCH', path: podsPath(kube, pod.metadata.name), body, headers: { 'content-type': 'application/merge-patch+json' } });
    if (res.status === 404) continue; // deleted since the list: stamp another
    expectSuccess(res, `stamp Pod "${pod.metadata.name}" to know the pod watch has caught up`);
    const back = () => pods.events.some((e) => e.object?.metadata?.annotations?.[BARRIER] === stamp);
    await world.eventually('the pod watch to deliver the test\'s own stamp', back, 30_000);
    break;
  }
  return pods;
}

/** The test as the pods' kubelet: every pod of the namespace not yet Ready becomes Running and Ready. */
export async function markPodsReady(world: KubespecWorld): Promise<void> {
  const kube = world.kube();
  for (const pod of await list(world, podsPath(kube))) {
    if (isDeleting(pod) || (pod.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')) continue;
    if (world.recallOr<Set<string>>('never ready images', new Set()).has(pod.spec?.containers?.[0]?.image)) continue;
    // The pod a scenario made not ready stays so: the test plays its kubelet, whose probe fails.
    if (pod.metadata.name === world.recallOr<string | undefined>('not-ready pod', undefined)) continue;
    const now = new Date(world.session.clock?.now_ms() ?? Date.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    pod.status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }], containerStatuses: [{ name: 'c', ready: true, restartCount: 0, image: pod.spec.containers[0].image, imageID: '', started: true, state: { running: { startedAt: now } } }] };
    const res = await kube.request({ method: 'PUT', path: `${podsPath(kube, pod.metadata.name)}/status`, body: pod });
    assert.ok(res.status === 200 || res.status === 409 || res.status === 404, `marking Pod "${pod.metadata.name}" ready: ${res.status} ${res.text.slice(0, 300)}`);
  }
}

/** Wait, playing the kubelet on each poll when the scenario asked the test to. */
export async function eventually(world: KubespecWorld, what: string, condition: () => Promise<boolean>, budget_ms: number): Promise<void> {
  const playKubelet = world.recallOr<boolean>('test plays kubelet', false);
  let lastMarked: number | undefined;
  await world.eventually(what, async () => {
    // Once per moment of virtual time (the waiter polls a few times per step), every poll in real time.
    const at = world.session.clock?.now_ms();
    if (playKubelet && (at === undefined || at !== lastMarked)) {
      lastMarked = at;
      await markPodsReady(world);
    }
    return condition();
  }, budget_ms);
}
