/**
 * The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go; part of the
 * node lifecycle controller before v1.29): a pod on a node with NoExecute taints is deleted
 *
 * - at once, if some NoExecute taint is not tolerated;
 * - after the shortest tolerationSeconds among the tolerations it uses (getMinTolerationTime),
 *   counted from when the controller first saw the pod under those taints; never, if every
 *   used toleration has no tolerationSeconds.
 *
 * Once the node has no NoExecute taint left (the node came back), the pending eviction is
 * cancelled and a later taint starts the count again. Tolerations of 300 s for not-ready and
 * unreachable come from the DefaultTolerationSeconds admission plugin
 * (reference/apiserver/admission/defaulttolerationseconds/), not from here.
 */
import { NO_FAULTS, type Faults } from '../../faults.ts';
import { isBeingDeleted, keyOf, splitKey } from '../shared/objects.ts';
import { taintsOf, tolerationsOf } from '../shared/taints.ts';
import { toleratesTaint, type Taint } from '../../tolerations.ts';
import { RESOURCES, type Cache, type CacheEvent, type ControllerDef, type SyncResult } from '../types.ts';

export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';

/** `faults`: fault models to inject (reference/faults.ts); default none. */
export function taintEvictionController(faults: Faults = NO_FAULTS): ControllerDef {
  const started = new Map<string, { uid: string; start_ms: number }>();
  return {
    name: TAINT_EVICTION_CONTROLLER,
    aliases: ['tainteviction'],
    capability: 'controllers.tainteviction',
    watches: [RESOURCES.nodes, RESOURCES.pods],
    keysFor,
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), started, faults),
  };
}

const noExecute = (node: unknown): Taint[] => taintsOf(node).filter((t) => t.effect === 'NoExecute');

export function keysFor(event: CacheEvent, cache: Cache): string[] {
  if (event.resource === 'pods') return (event.object as any).spec?.nodeName ? [keyOf(event.object)] : [];
  if (event.type === 'DELETED') return [];
  const before = JSON.stringify(noExecute(event.oldObject));
  if (event.type === 'MODIFIED' && before === JSON.stringify(noExecute(event.object))) return [];
  return cache.byIndex('pods', 'node', event.object.metadata.name).map(keyOf);
}

/** Seconds the pod may stay: 0 = now, -1 = for ever (getMinTolerationTime). */
export function minTolerationSeconds(taints: readonly Taint[], pod: unknown): number {
  const tolerations = tolerationsOf(pod);
  let min = Infinity;
  for (const taint of taints) {
    const used = tolerations.filter((t) => toleratesTaint(t, taint));
    if (used.length === 0) return 0;
    for (const t of used) {
      if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
      if (t.tolerationSeconds <= 0) return 0;
      min = Math.min(min, t.tolerationSeconds);
    }
  }
  return min === Infinity ? -1 : min;
}

export function reconcile(key: string, cache: Cache, now_ms: number, started: Map<string, { uid: string; start_ms: number }>, faults: Faults = NO_FAULTS): SyncResult {
  const { namespace, name } = splitKey(key);
  const pod = cache.get('pods', namespace, name) as any;
  const node = pod?.spec?.nodeName ? cache.get('nodes', '', pod.spec.nodeName) : undefined;
  const taints = noExecute(node);
  // Fault noexecute-never-evicts: NoExecute taints are treated as NoSchedule, so running pods stay.
  if (!pod || isBeingDeleted(pod) || taints.length === 0 || faults.has('noexecute-never-evicts')) {
    started.delete(key);
    return { actions: [] };
  }
  // Fault tolerationseconds-ignored: a tolerated NoExecute taint is tolerated forever.
  const min = minTolerationSeconds(taints, pod);
  const seconds = faults.has('tolerationseconds-ignored') && min > 0 ? -1 : min;
  if (seconds < 0) {
    started.delete(key);
    return { actions: [] };
  }
  let s = started.get(key);
  if (!s || s.uid !== pod.metadata.uid) started.set(key, (s = { uid: pod.metadata.uid, start_ms: now_ms }));
  const due_ms = s.start_ms + seconds * 1000;
  if (now_ms < due_ms) return { actions: [], requeueAfter_ms: due_ms - now_ms };
  started.delete(key);
  return { actions: [{ verb: 'delete', resource: RESOURCES.pods, namespace, name, uid: pod.metadata.uid }] };
}
