/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps
 * .spec.replicas pods matching the selector.
 *
 * - Handlers: a ReplicaSet change makes it dirty; a pod change makes its controller dirty, and
 *   an orphan pod every ReplicaSet in its namespace whose selector matches it (so it can be
 *   adopted). Pod adds and deletes also settle the expectations of their owner.
 * - Claim (ClaimPods in pkg/controller/controller_ref_manager.go): pods it controls that still
 *   match stay; those that stopped matching are released (ownerReference removed); matching
 *   orphans are adopted (ownerReference added, with the pod's uid as precondition). A
 *   ReplicaSet being deleted adopts nothing.
 * - Manage: too few active pods → create the difference (at most burstReplicas, 500, per sync);
 *   too many → delete the surplus, worst first (ranking.ts). Nothing is created or deleted
 *   while earlier creates/deletes are still unobserved (expectations.ts).
 * - Status: replicas, fullyLabeledReplicas, readyReplicas, availableReplicas,
 *   observedGeneration — written only when they differ.
 */
import { NO_FAULTS, type Faults } from '../../faults.ts';
import { Expectations } from '../expectations.ts';
import { clone, controllerOf, controllerRef, isBeingDeleted, isPodActive, isPodAvailable, isPodReady, keyOf, splitKey } from '../shared/objects.ts';
import { selectorMatches } from '../shared/selector.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';
import { podsToDelete } from './ranking.ts';

export const REPLICASET_CONTROLLER = 'replicaset-controller';
/** BurstReplicas in replica_set.go: the most pods one sync creates or deletes. */
export const BURST_REPLICAS = 500;

const RS_KIND = 'ReplicaSet';
const RS_API_VERSION = 'apps/v1';

/** `faults`: fault models to inject (reference/faults.ts); default none. */
export function replicaSetController(faults: Faults = NO_FAULTS): ControllerDef {
  const expectations = new Expectations();
  return {
    name: REPLICASET_CONTROLLER,
    aliases: ['replicaset'],
    capability: 'controllers.replicaset',
    watches: [RESOURCES.replicasets, RESOURCES.pods],
    // --concurrent-replicaset-syncs defaults to 5.
    workers: 5,
    keysFor: (event, cache) => keysFor(event, cache, expectations),
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), expectations, faults),
    onActionFailed(action) {
      if (action.verb === 'create' && action.key) expectations.creationObserved(action.key);
      if (action.verb === 'delete' && action.key) expectations.deletionObserved(action.key);
    },
  };
}

function rsKeyOfPod(pod: Readonly<KubeObject>): string | undefined {
  const ref = controllerOf(pod);
  return ref?.kind === RS_KIND ? `${pod.metadata.namespace}/${ref.name}` : undefined;
}

/** ReplicaSets in the pod's namespace whose selector matches it (getPodReplicaSets). */
function matchingReplicaSets(pod: Readonly<KubeObject>, cache: Cache): string[] {
  return cache.list('replicasets', pod.metadata.namespace ?? '')
    .filter((rs: any) => selectorMatches(rs.spec?.selector, (pod.metadata as any).labels))
    .map((rs) => keyOf(rs));
}

export function keysFor(event: CacheEvent, cache: Cache, expectations: Expectations): string[] {
  if (event.resource === 'replicasets') {
    if (event.type === 'DELETED') expectations.delete(keyOf(event.object));
    return [keyOf(event.object)];
  }
  const pod = event.object;
  const owner = rsKeyOfPod(pod);
  if (owner && event.type === 'ADDED') expectations.creationObserved(owner);
  const deletedNow = event.type === 'DELETED' ? !isBeingDeleted(pod) : isBeingDeleted(pod) && !(event.oldObject && isBeingDeleted(event.oldObject));
  if (owner && deletedNow) expectations.deletionObserved(owner);
  const keys = new Set<string>();
  if (owner) keys.add(owner);
  const oldOwner = event.oldObject && rsKeyOfPod(event.oldObject);
  if (oldOwner) keys.add(oldOwner);
  // An orphan may be adopted; a pod whose labels changed may now match another ReplicaSet.
  if (!owner && event.type !== 'DELETED') for (const k of matchingReplicaSets(pod, cache)) keys.add(k);
  return [...keys];
}

function podPatch(pod: Readonly<KubeObject>, ownerReferences: unknown[]): Action {
  // The uid makes the patch fail if the pod was replaced by one of the same name (controller_ref_manager.go).
  return { verb: 'patch', resource: RESOURCES.pods, namespace: pod.metadata.namespace ?? '', name: pod.metadata.name, patch: { metadata: { ownerReferences, uid: pod.metadata.uid } } };
}

/** ClaimPods: the pods this ReplicaSet counts, and the adopt/release patches that make it so. */
export function claimPods(rs: Readonly<KubeObject>, pods: readonly Readonly<KubeObject>[]): { claimed: Readonly<KubeObject>[]; actions: Action[] } {
  const selector = (rs as any).spec?.selector;
  const claimed: Readonly<KubeObject>[] = [];
  const actions: Action[] = [];
  const others = (pod: Readonly<KubeObject>) => ((pod.metadata as any).ownerReferences ?? []).filter((r: any) => r.uid !== rs.metadata.uid);
  for (const pod of pods) {
    const ref = controllerOf(pod);
    const matches = selectorMatches(selector, (pod.metadata as any).labels);
    if (ref?.uid === rs.metadata.uid) {
      if (matches || isBeingDeleted(rs)) claimed.push(pod);
      else if (!isBeingDeleted(pod)) actions.push(podPatch(pod, others(pod)));
      continue;
    }
    if (ref || !matches || isBeingDeleted(rs) || isBeingDeleted(pod)) continue;
    actions.push(podPatch(pod, [...others(pod), controllerRef(rs, RS_API_VERSION, RS_KIND)]));
    claimed.push(pod);
  }
  return { claimed, actions };
}

/**
 * The pods of the ReplicaSet's namespace that ClaimPods can count or adopt: those it controls
 * and those nothing controls; a pod another controller controls is never claimed. Upstream lists
 * the whole namespace and skips the others; two index lookups give the same pods without a
 * scan of the namespace per sync (which, with a hundred ReplicaSets of a hundred pods each in
 * one namespace, is most of the controller's work).
 */
function claimCandidates(rs: Readonly<KubeObject>, cache: Cache): Readonly<KubeObject>[] {
  const uid = String(rs.metadata.uid);
  const namespace = rs.metadata.namespace ?? '';
  const controlled = cache.byIndex('pods', 'owner', uid).filter((p) => (p.metadata.namespace ?? '') === namespace && controllerOf(p)?.uid === uid);
  return [...controlled, ...cache.byIndex('pods', 'uncontrolled', namespace)];
}

function newPod(rs: Readonly<KubeObject>): KubeObject {
  const template = clone((rs as any).spec?.template ?? {});
  const metadata = { ...(template.metadata ?? {}) };
  delete metadata.name;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, generateName: `${rs.metadata.name}-`, namespace: rs.metadata.namespace, ownerReferences: [controllerRef(rs, RS_API_VERSION, RS_KIND)] } as any,
    spec: template.spec ?? {},
  };
}

export function calculateStatus(rs: Readonly<KubeObject>, claimed: readonly Readonly<KubeObject>[], now_ms: number): Record<string, unknown> {
  const spec = (rs as any).spec ?? {};
  const templateLabels = spec.template?.metadata?.labels ?? {};
  const active = claimed.filter(isPodActive);
  const fullyLabeled = active.filter((p) => Object.entries(templateLabels).every(([k, v]) => (p.metadata as any).labels?.[k] === v));
  const status: Record<string, unknown> = {
    ...((rs as any).status ?? {}),
    replicas: active.length,
    fullyLabeledReplicas: fullyLabeled.length,
    readyReplicas: active.filter(isPodReady).length,
    availableReplicas: active.filter((p) => isPodAvailable(p, spec.minReadySeconds ?? 0, now_ms)).length,
    observedGeneration: (rs.metadata as any).generation ?? 0,
  };
  return status;
}

export function reconcile(key: string, cache: Cache, now_ms: number, expectations: Expectations, faults: Faults = NO_FAULTS): SyncResult {
  const { namespace, name } = splitKey(key);
  const rs = cache.get('replicasets', namespace, name);
  if (!rs) {
    expectations.delete(key);
    return { actions: [] };
  }
  const pods = claimCandidates(rs, cache).filter(isPodActive);
  const { claimed, actions } = claimPods(rs, pods);
  const managed = expectations.satisfied(key, now_ms) && !isBeingDeleted(rs) ? manageReplicas(key, rs, claimed, now_ms, expectations, faults) : [];
  actions.push(...managed);
  // Pods this sync deletes are no longer counted: a Deployment reading this status must not
  // believe them still available and scale down further (upstream counts them until the next sync).
  const deleted = new Set(managed.flatMap((a) => (a.verb === 'delete' ? [a.uid] : [])));
  const status = calculateStatus(rs, claimed.filter((p) => !deleted.has(String(p.metadata.uid))), now_ms);
  if (JSON.stringify(status) !== JSON.stringify((rs as any).status ?? {})) {
    actions.push({ verb: 'update', subresource: 'status', resource: RESOURCES.replicasets, namespace, object: { ...clone(rs), status } });
  }
  // Available counts pods ready for minReadySeconds: look again when the next one gets there.
  const minReady = (rs as any).spec?.minReadySeconds ?? 0;
  return minReady > 0 && status.availableReplicas !== status.readyReplicas ? { actions, requeueAfter_ms: minReady * 1000 } : { actions };
}

function manageReplicas(key: string, rs: Readonly<KubeObject>, claimed: readonly Readonly<KubeObject>[], now_ms: number, expectations: Expectations, faults: Faults): Action[] {
  const want = (rs as any).spec?.replicas ?? 1;
  const diff = claimed.length - want;
  if (diff < 0) {
    const count = Math.min(-diff, BURST_REPLICAS);
    expectations.expect(key, count, 0, now_ms);
    return Array.from({ length: count }, () => ({ verb: 'create' as const, resource: RESOURCES.pods, namespace: rs.metadata.namespace ?? '', object: newPod(rs), key }));
  }
  if (diff > 0) {
    // Fault replicaset-deletes-ready-first: the deletion ranking reversed, ready and long-running pods go first.
    const victims = faults.has('replicaset-deletes-ready-first') ? podsToDelete(claimed, claimed.length).reverse().slice(0, Math.min(diff, BURST_REPLICAS)) : podsToDelete(claimed, Math.min(diff, BURST_REPLICAS));
    expectations.expect(key, 0, victims.length, now_ms);
    return victims.map((p) => ({ verb: 'delete' as const, resource: RESOURCES.pods, namespace: p.metadata.namespace ?? '', name: p.metadata.name, uid: String(p.metadata.uid), key }));
  }
  return [];
}
