/**
 * The Deployment controller (pkg/controller/deployment/): a Deployment owns ReplicaSets, one
 * per pod template, named `<deployment>-<pod-template-hash>`; the one whose template equals the
 * Deployment's (ignoring the hash label) is the new one, the rest are old.
 *
 * One sync does one step and lets the resulting events bring the next (level-based):
 *  1. no new ReplicaSet → create it (revision = highest old revision + 1; RollingUpdate: sized
 *     within maxSurge; Recreate: only once every old pod is gone);
 *  2. the new ReplicaSet's revision is not the highest (a rollback to an old template) → give
 *     it the next revision; mirror that revision onto the Deployment's annotation;
 *  3. scale: RollingUpdate grows the new ReplicaSet within maxSurge and shrinks old ones while
 *     replicas - maxUnavailable stay available (rolling.ts); Recreate scales old ones to 0,
 *     waits for their pods to go, then sizes the new one;
 *  4. once no old ReplicaSet has replicas, delete the oldest zero-sized ones beyond
 *     revisionHistoryLimit (10 by default);
 *  5. status and conditions (status.ts).
 * `kubectl rollout undo` needs nothing here: kubectl copies the old ReplicaSet's template into
 * the Deployment, whose template then equals that ReplicaSet's — step 2 makes it current again.
 */
import { Expectations } from '../expectations.ts';
import { clone, controllerOf, controllerRef, isBeingDeleted, isPodActive, keyOf, parseTime, splitKey } from '../shared/objects.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';
import { equalIgnoringHash, podTemplateHash } from './hash.ts';
import { fenceposts, newReplicaSetSize, oldReplicaSetSizes, type RsView } from './rolling.ts';
import { nextStatus } from './status.ts';

export const DEPLOYMENT_CONTROLLER = 'deployment-controller';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const DESIRED_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
const MAX_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

export function deploymentController(): ControllerDef {
  const expectations = new Expectations();
  return {
    name: DEPLOYMENT_CONTROLLER,
    aliases: ['deployment'],
    capability: 'controllers.deployment',
    watches: [RESOURCES.deployments, RESOURCES.replicasets, RESOURCES.pods],
    // --concurrent-deployment-syncs defaults to 5.
    workers: 5,
    keysFor: (event, cache) => keysFor(event, cache, expectations),
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), expectations),
    onActionFailed(action) {
      if (action.verb === 'create' && action.key) expectations.creationObserved(action.key);
    },
  };
}

function ownerKey(o: Readonly<KubeObject>, kind: string): string | undefined {
  const ref = controllerOf(o);
  return ref?.kind === kind ? `${o.metadata.namespace}/${ref.name}` : undefined;
}

export function keysFor(event: CacheEvent, cache: Cache, expectations: Expectations): string[] {
  if (event.resource === 'deployments') {
    if (event.type === 'DELETED') expectations.delete(keyOf(event.object));
    return [keyOf(event.object)];
  }
  if (event.resource === 'replicasets') {
    const owner = ownerKey(event.object, 'Deployment');
    if (owner && event.type === 'ADDED') expectations.creationObserved(owner);
    return owner ? [owner] : [];
  }
  // Pods matter only to Recreate, which waits for the old ones to go (deletePod in deployment_controller.go).
  if (event.type !== 'DELETED' && isPodActive(event.object)) return [];
  const rsKey = ownerKey(event.object, 'ReplicaSet');
  if (!rsKey) return [];
  const { namespace, name } = splitKey(rsKey);
  const rs = cache.get('replicasets', namespace, name);
  const owner = rs && ownerKey(rs, 'Deployment');
  return owner ? [owner] : [];
}

function revision(rs: Readonly<KubeObject>): number {
  return Number((rs.metadata as any).annotations?.[REVISION_ANNOTATION] ?? 0) || 0;
}

/**
 * A ReplicaSet as the rolling arithmetic sees it. Its status may lag its spec (the ReplicaSet
 * controller has not yet deleted the pods a scale-down asked for): one scaled to N will soon have
 * at most N pods, so no more than N of them count as available.
 */
function view(rs: Readonly<KubeObject>): RsView {
  const replicas = (rs as any).spec?.replicas ?? 0;
  return { name: rs.metadata.name, replicas, available: Math.min(replicas, (rs as any).status?.availableReplicas ?? 0) };
}

function created(o: Readonly<KubeObject>): number {
  return parseTime((o.metadata as any).creationTimestamp) ?? 0;
}

function scaleRs(rs: Readonly<KubeObject>, replicas: number, d: any, maxSurge: number): Action {
  const next = clone(rs) as any;
  next.spec.replicas = replicas;
  next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [DESIRED_ANNOTATION]: String(d.spec?.replicas ?? 1), [MAX_ANNOTATION]: String((d.spec?.replicas ?? 1) + maxSurge) };
  return { verb: 'update', resource: RESOURCES.replicasets, namespace: rs.metadata.namespace ?? '', object: next };
}

function newReplicaSet(d: any, replicas: number, rev: number, maxSurge: number): KubeObject {
  const hash = podTemplateHash(d.spec.template, d.status?.collisionCount);
  const template = clone(d.spec.template ?? {});
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash } };
  const selector = clone(d.spec.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), 'pod-template-hash': hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      labels: template.metadata.labels,
      annotations: { [REVISION_ANNOTATION]: String(rev), [DESIRED_ANNOTATION]: String(d.spec.replicas ?? 1), [MAX_ANNOTATION]: String((d.spec.replicas ?? 1) + maxSurge) },
      ownerReferences: [controllerRef(d, 'apps/v1', 'Deployment')],
    },
    spec: { replicas, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
  };
}

/** Pods of the old ReplicaSets that have not finished (oldPodsRunning in recreate.go). */
function oldPodsRunning(olds: readonly Readonly<KubeObject>[], cache: Cache): boolean {
  return olds.some((rs) => cache.byIndex('pods', 'owner', String(rs.metadata.uid)).some((p: any) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed'));
}

export function reconcile(key: string, cache: Cache, now_ms: number, expectations: Expectations): SyncResult {
  const { namespace, name } = splitKey(key);
  const d = cache.get('deployments', namespace, name) as any;
  if (!d || isBeingDeleted(d)) return { actions: [] };
  const owned = cache.byIndex('replicasets', 'owner', String(d.metadata.uid)).filter((rs) => controllerOf(rs)?.uid === d.metadata.uid);
  const newRs = owned.find((rs) => equalIgnoringHash((rs as any).spec?.template, d.spec?.template));
  const olds = owned.filter((rs) => rs !== newRs).sort((a, b) => created(a) - created(b) || (a.metadata.name < b.metadata.name ? -1 : 1));
  const want = d.spec?.replicas ?? 1;
  const recreate = d.spec?.strategy?.type === 'Recreate';
  const { maxSurge, maxUnavailable } = recreate ? { maxSurge: 0, maxUnavailable: want } : fenceposts(d.spec?.strategy, want);
  const maxOldRevision = Math.max(0, ...olds.map(revision));

  // 1. The new ReplicaSet.
  if (!newRs) {
    if (!expectations.satisfied(key, now_ms)) return { actions: [] };
    if (recreate && olds.some((rs) => view(rs).replicas > 0)) return { actions: olds.filter((rs) => view(rs).replicas > 0).map((rs) => scaleRs(rs, 0, d, maxSurge)) };
    if (recreate && oldPodsRunning(olds, cache)) return { actions: [] };
    const size = recreate ? want : newReplicaSetSize(want, maxSurge, undefined, owned.map(view));
    expectations.expect(key, 1, 0, now_ms);
    return { actions: [{ verb: 'create', resource: RESOURCES.replicasets, namespace, object: newReplicaSet(d, size, maxOldRevision + 1, maxSurge), key }] };
  }
  // 2. Revisions.
  if (revision(newRs) <= maxOldRevision) {
    const next = clone(newRs) as any;
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(maxOldRevision + 1) };
    return { actions: [{ verb: 'update', resource: RESOURCES.replicasets, namespace, object: next }] };
  }
  if (d.metadata.annotations?.[REVISION_ANNOTATION] !== String(revision(newRs))) {
    const next = clone(d);
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(revision(newRs)) };
    return { actions: [{ verb: 'update', resource: RESOURCES.deployments, namespace, object: next }] };
  }
  // 3. Scale.
  const actions = recreate ? recreateStep(d, newRs, olds, cache, want) : rollingStep(d, newRs, olds, owned, want, maxSurge, maxUnavailable);
  // 4. History.
  if (actions.length === 0 && olds.every((rs) => view(rs).replicas === 0)) actions.push(...cleanup(d, olds));
  // 5. Status.
  const sum = (f: (s: any) => number) => owned.reduce((n, rs) => n + f((rs as any).status ?? {}), 0);
  const counts = {
    replicas: sum((s) => s.replicas ?? 0),
    updatedReplicas: (newRs as any).status?.replicas ?? 0,
    readyReplicas: sum((s) => s.readyReplicas ?? 0),
    availableReplicas: sum((s) => s.availableReplicas ?? 0),
  };
  const { status, deadlineIn_ms } = nextStatus({ deployment: d, counts, newRsName: newRs.metadata.name, maxUnavailable, now_ms });
  if (JSON.stringify(status) !== JSON.stringify(d.status ?? {})) {
    actions.push({ verb: 'update', subresource: 'status', resource: RESOURCES.deployments, namespace, object: { ...clone(d), status } });
  }
  return deadlineIn_ms === undefined ? { actions } : { actions, requeueAfter_ms: deadlineIn_ms + 1 };
}

function rollingStep(d: any, newRs: Readonly<KubeObject>, olds: readonly Readonly<KubeObject>[], all: readonly Readonly<KubeObject>[], want: number, maxSurge: number, maxUnavailable: number): Action[] {
  const nv = view(newRs);
  if (nv.replicas > want) return [scaleRs(newRs, want, d, maxSurge)];
  const size = newReplicaSetSize(want, maxSurge, nv, all.map(view));
  if (size !== nv.replicas) return [scaleRs(newRs, size, d, maxSurge)];
  const sizes = oldReplicaSetSizes(want, maxUnavailable, nv, olds.map(view));
  return olds.filter((rs) => sizes.get(rs.metadata.name) !== view(rs).replicas).map((rs) => scaleRs(rs, sizes.get(rs.metadata.name)!, d, maxSurge));
}

function recreateStep(d: any, newRs: Readonly<KubeObject>, olds: readonly Readonly<KubeObject>[], cache: Cache, want: number): Action[] {
  const active = olds.filter((rs) => view(rs).replicas > 0);
  if (active.length > 0) return active.map((rs) => scaleRs(rs, 0, d, 0));
  if (oldPodsRunning(olds, cache)) return [];
  return view(newRs).replicas === want ? [] : [scaleRs(newRs, want, d, 0)];
}

/** cleanupDeployment in sync.go: the oldest empty old ReplicaSets beyond revisionHistoryLimit. */
function cleanup(d: any, olds: readonly Readonly<KubeObject>[]): Action[] {
  const limit = d.spec?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  const cleanable = olds.filter((rs) => !isBeingDeleted(rs)).sort((a, b) => revision(a) - revision(b));
  const excess = Math.max(0, cleanable.length - limit);
  const empty = cleanable.filter((rs) => view(rs).replicas === 0 && ((rs as any).status?.replicas ?? 0) === 0);
  return empty.slice(0, excess).map((rs) => ({ verb: 'delete' as const, resource: RESOURCES.replicasets, namespace: rs.metadata.namespace ?? '', name: rs.metadata.name, uid: String(rs.metadata.uid) }));
}
