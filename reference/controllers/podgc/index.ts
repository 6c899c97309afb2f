/**
 * The pod garbage collector (kubernetes/kubernetes pkg/controller/podgc/gc_controller.go): every
 * gcCheckPeriod (20 s) it looks at all pods and nodes in its caches and force-deletes
 * (gracePeriodSeconds 0) —
 * - terminated pods (phase neither Pending, Running nor Unknown) beyond
 *   --terminated-pod-gc-threshold (default 12500; 0 turns this pass off), evicted ones first,
 *   then the oldest (byEvictionAndCreationTimestamp: creationTimestamp, name as tie-break);
 * - terminating pods on a node that is not Ready and carries the node.kubernetes.io/out-of-service
 *   taint (gcTerminating);
 * - orphaned pods, bound to a node that does not exist: a missing node is quarantined for 40 s
 *   (quarantineTime) and then checked by a live GET, so a node the cache has not seen yet is
 *   not taken for a deleted one (gcOrphaned, discoverDeletedNodes); their pods get the
 *   DisruptionTarget condition, reason DeletionByPodGC;
 * - terminating pods that were never scheduled (gcUnscheduledTerminating).
 * A pod not yet terminal is first patched to phase Failed (markFailedAndDeletePodWithCondition),
 * since no kubelet will ever do it.
 *
 * One key, "gc", is the periodic pass (wait.UntilWithContext): the first cache event queues it,
 * and each pass asks to run again 20 s later. The quarantine is the controller's own
 * bookkeeping (upstream's delaying nodeQueue).
 */
import { isBeingDeleted } from '../shared/objects.ts';
import { RESOURCES, type Action, type Cache, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';

export const POD_GC_CONTROLLER = 'pod-garbage-collector-controller';
/** gcCheckPeriod. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime: how long a missing node may take to show up in the cache. */
export const QUARANTINE_MS = 40_000;
/** kube-controller-manager's --terminated-pod-gc-threshold default. */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12_500;
/** v1.TaintNodeOutOfService. */
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';
const GC_KEY = 'gc';

type Pod = Readonly<KubeObject> & { spec?: any; status?: any };

export interface PodGcOptions {
  /** --terminated-pod-gc-threshold. */
  terminatedPodThreshold?: number;
}

export function podGcController(opts: PodGcOptions = {}): ControllerDef {
  const threshold = opts.terminatedPodThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD;
  const quarantine = new Map<string, number>();
  let started = false;
  return {
    name: POD_GC_CONTROLLER,
    aliases: ['podgc'],
    capability: 'controllers.podgc',
    watches: [RESOURCES.pods, RESOURCES.nodes],
    // No event handlers upstream: the pass is periodic. The first event only starts the period.
    keysFor: () => (started ? [] : ((started = true), [GC_KEY])),
    reconcile: (_key, cache, ctx) => gcPass(cache, ctx.now_ms(), threshold, quarantine),
  };
}

/** One gc(): the four passes' writes, deduplicated by pod, and the next pass in 20 s. */
export function gcPass(cache: Cache, now_ms: number, threshold: number, quarantine: Map<string, number>): SyncResult {
  const pods = cache.list('pods') as Pod[];
  const nodes = new Map(cache.list('nodes').map((n) => [n.metadata.name, n as any]));
  const actions: Action[] = [];
  const seen = new Set<string>();
  const add = (pod: Pod, extra: { condition?: object; nodeGone?: string } = {}) => {
    const uid = String(pod.metadata.uid);
    if (seen.has(uid)) return;
    seen.add(uid);
    actions.push(...markFailedAndDelete(pod, extra.condition, extra.nodeGone));
  };
  if (threshold > 0) for (const pod of terminatedOverThreshold(pods, threshold)) add(pod);
  for (const pod of pods) if (isBeingDeleted(pod) && onOutOfServiceNode(pod, nodes)) add(pod);
  for (const [pod, node] of orphaned(pods, nodes, now_ms, quarantine)) add(pod, { condition: DELETION_BY_POD_GC, nodeGone: node });
  for (const pod of pods) if (isBeingDeleted(pod) && !pod.spec?.nodeName) add(pod);
  return { actions, requeueAfter_ms: GC_CHECK_PERIOD_MS };
}

/** isPodTerminated: any phase but Pending, Running and Unknown. */
export function isTerminated(pod: Pod): boolean {
  return !['Pending', 'Running', 'Unknown'].includes(pod.status?.phase);
}

/** eviction.PodIsEvicted: Failed with reason Evicted. */
function isEvicted(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status?.reason === 'Evicted';
}

/** byEvictionAndCreationTimestamp: evicted first, then oldest, then by name. */
export function byEvictionAndCreation(a: Pod, b: Pod): number {
  if (isEvicted(a) !== isEvicted(b)) return isEvicted(a) ? -1 : 1;
  const ta = Date.parse(String(a.metadata.creationTimestamp ?? ''));
  const tb = Date.parse(String(b.metadata.creationTimestamp ?? ''));
  if (ta !== tb) return ta - tb;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** gcTerminated: the terminated pods beyond the threshold, in deletion order. */
export function terminatedOverThreshold(pods: readonly Pod[], threshold: number): Pod[] {
  const terminated = pods.filter(isTerminated);
  const excess = terminated.length - threshold;
  if (excess <= 0) return [];
  return [...terminated].sort(byEvictionAndCreation).slice(0, excess);
}

function onOutOfServiceNode(pod: Pod, nodes: Map<string, any>): boolean {
  const node = nodes.get(pod.spec?.nodeName ?? '');
  if (!node) return false;
  const ready = (node.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
  return !ready && (node.spec?.taints ?? []).some((t: any) => t.key === OUT_OF_SERVICE_TAINT);
}

/**
 * gcOrphaned: every node a pod names that the cache lacks is quarantined (the earliest time
 * kept, as the delaying queue's AddAfter); a node out of quarantine and still missing is
 * treated as deleted — subject to the live GET each action carries. Nodes whose quarantine ended
 * leave it either way: if still missing at a later pass, they are quarantined again.
 */
export function orphaned(pods: readonly Pod[], nodes: Map<string, unknown>, now_ms: number, quarantine: Map<string, number>): Array<[Pod, string]> {
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (node && !nodes.has(node) && !quarantine.has(node)) quarantine.set(node, now_ms + QUARANTINE_MS);
  }
  const gone = new Set<string>();
  for (const [node, due_ms] of quarantine) {
    if (due_ms > now_ms) continue;
    quarantine.delete(node);
    if (!nodes.has(node)) gone.add(node);
  }
  return pods.filter((p) => gone.has(p.spec?.nodeName)).map((p) => [p, p.spec.nodeName]);
}

const DELETION_BY_POD_GC = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' };

/**
 * markFailedAndDeletePodWithCondition: a pod not yet terminal goes to Failed (with the condition,
 * if any) by a strategic-merge patch of its status, then a force delete with its uid as
 * precondition. `nodeGone`: both writes are skipped if a live GET finds that node after all.
 */
function markFailedAndDelete(pod: Pod, condition?: object, nodeGone?: string): Action[] {
  const { namespace = '', name, uid } = pod.metadata;
  const guard = nodeGone ? { unlessExists: [{ resource: RESOURCES.nodes, namespace: '', name: nodeGone }] } : {};
  const actions: Action[] = [];
  if (pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') {
    const status: Record<string, unknown> = { phase: 'Failed' };
    if (condition) status.conditions = [{ ...condition }];
    actions.push({ verb: 'patch', resource: RESOURCES.pods, namespace, name, subresource: 'status', type: 'strategic', patch: { status }, ...guard });
  }
  actions.push({ verb: 'delete', resource: RESOURCES.pods, namespace, name, uid: String(uid), gracePeriodSeconds: 0, ...guard });
  return actions;
}
