/**
 * The disruption controller (kubernetes/kubernetes pkg/controller/disruption/disruption.go):
 * keeps each PodDisruptionBudget's status, which the Eviction API
 * (reference/apiserver/handlers/pod-subresources.ts) reads and spends.
 *
 * - Pods: those in the budget's namespace its selector matches (an empty selector, in policy/v1,
 *   matches every pod there).
 * - expectedPods and desiredHealthy (getExpectedPodCount): minAvailable as a number — the pods
 *   found, and that number; minAvailable as a percentage or maxUnavailable — the scale of the
 *   pods' controllers (a ReplicaSet's replicas, or its Deployment's), the percentage rounded up.
 * - currentHealthy (countHealthyPods): pods Ready and not being deleted, except those an eviction
 *   has just spent a disruption on (status.disruptedPods) and whose deletion is not seen yet.
 * - disruptedPods: an entry stays until its pod is seen deleted or gone, or for DeletionTimeout
 *   (2 minutes) at most; the budget is looked at again when the oldest would expire.
 * - disruptionsAllowed = max(0, currentHealthy - desiredHealthy); the DisruptionAllowed condition
 *   True/SufficientPods or False/InsufficientPods; observedGeneration. Written only when changed.
 */
import { isBeingDeleted, isPodReady, keyOf, parseTime, rfc3339, splitKey, controllerOf, clone } from '../shared/objects.ts';
import { selectorMatches } from '../shared/selector.ts';
import { RESOURCES, type Cache, type CacheEvent, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';

export const DISRUPTION_CONTROLLER = 'disruption-controller';
/** DeletionTimeout in disruption.go: how long an eviction's entry in disruptedPods is believed. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

export function disruptionController(): ControllerDef {
  return {
    name: DISRUPTION_CONTROLLER,
    aliases: ['disruption'],
    capability: 'controllers.disruption',
    watches: [RESOURCES.poddisruptionbudgets, RESOURCES.pods, RESOURCES.replicasets, RESOURCES.deployments],
    keysFor,
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms()),
  };
}

/** A policy/v1 selector: empty matches everything, absent nothing. */
function selects(pdb: Readonly<KubeObject>, pod: Readonly<KubeObject>): boolean {
  const selector = (pdb as any).spec?.selector;
  if (selector && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0) return true;
  return selectorMatches(selector, (pod.metadata as any).labels);
}

export function keysFor(event: CacheEvent, cache: Cache): string[] {
  if (event.resource === 'poddisruptionbudgets') return event.type === 'DELETED' ? [] : [keyOf(event.object)];
  const budgets = cache.list('poddisruptionbudgets', event.object.metadata.namespace ?? '');
  if (event.resource !== 'pods') return budgets.map((b) => keyOf(b));
  return budgets.filter((b) => selects(b, event.object) || (event.oldObject && selects(b, event.oldObject))).map((b) => keyOf(b));
}

/** intstr.GetScaledValueFromIntOrPercent with rounding up, as the controller resolves both fields. */
function scaled(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value));
  return m ? Math.ceil((Number(m[1]) * total) / 100) : 0;
}

/** The summed scale of the pods' controllers (getExpectedScale): ReplicaSets, or their Deployments. */
function expectedScale(pods: readonly Readonly<KubeObject>[], cache: Cache, namespace: string): number {
  const scales = new Map<string, number>();
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'ReplicaSet') continue;
    const rs = cache.get('replicasets', namespace, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) continue;
    const owner = controllerOf(rs);
    const deployment = owner?.kind === 'Deployment' ? cache.get('deployments', namespace, owner.name) : undefined;
    const scaleOwner = deployment && deployment.metadata.uid === owner!.uid ? deployment : rs;
    scales.set(String(scaleOwner.metadata.uid), (scaleOwner as any).spec?.replicas ?? 1);
  }
  return [...scales.values()].reduce((a, b) => a + b, 0);
}

export function reconcile(key: string, cache: Cache, now_ms: number): SyncResult {
  const { namespace, name } = splitKey(key);
  const pdb = cache.get('poddisruptionbudgets', namespace, name);
  if (!pdb) return { actions: [] };
  const spec = (pdb as any).spec ?? {};
  const old = (pdb as any).status ?? {};
  const pods = cache.list('pods', namespace).filter((p) => selects(pdb, p));
  let expectedPods: number;
  let desiredHealthy: number;
  if (spec.maxUnavailable !== undefined) {
    expectedPods = expectedScale(pods, cache, namespace);
    desiredHealthy = Math.max(0, expectedPods - scaled(spec.maxUnavailable, expectedPods));
  } else if (typeof spec.minAvailable === 'number') {
    expectedPods = pods.length;
    desiredHealthy = spec.minAvailable;
  } else {
    expectedPods = expectedScale(pods, cache, namespace);
    desiredHealthy = scaled(spec.minAvailable ?? 1, expectedPods);
  }
  // disruptedPods: kept for pods still there and not yet seen deleted, for DeletionTimeout at most.
  const disrupted: Record<string, string> = {};
  let recheck_ms: number | undefined;
  for (const pod of pods) {
    const at = parseTime(old.disruptedPods?.[pod.metadata.name]);
    if (at === undefined || isBeingDeleted(pod)) continue;
    if (at + DELETION_TIMEOUT_MS <= now_ms) continue;
    disrupted[pod.metadata.name] = old.disruptedPods[pod.metadata.name];
    recheck_ms = Math.min(recheck_ms ?? Infinity, at + DELETION_TIMEOUT_MS - now_ms);
  }
  const currentHealthy = pods.filter((p) => !isBeingDeleted(p) && !(p.metadata.name in disrupted) && isPodReady(p)).length;
  const disruptionsAllowed = expectedPods > 0 ? Math.max(0, currentHealthy - desiredHealthy) : 0;
  const status: any = {
    ...old,
    observedGeneration: (pdb.metadata as any).generation ?? 1,
    disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods,
    conditions: [disruptionAllowedCondition(old.conditions, disruptionsAllowed > 0, (pdb.metadata as any).generation ?? 1, now_ms)],
  };
  if (Object.keys(disrupted).length > 0) status.disruptedPods = disrupted;
  else delete status.disruptedPods;
  const actions = JSON.stringify(status) === JSON.stringify(old) ? [] : [{ verb: 'update' as const, subresource: 'status' as const, resource: RESOURCES.poddisruptionbudgets, namespace, object: { ...clone(pdb), status } as KubeObject }];
  return recheck_ms !== undefined ? { actions, requeueAfter_ms: recheck_ms } : { actions };
}

/** DisruptionAllowed, its lastTransitionTime kept while its status does not change (apimeta.SetStatusCondition). */
function disruptionAllowedCondition(conditions: any[] | undefined, allowed: boolean, observedGeneration: number, now_ms: number): any {
  const prev = (conditions ?? []).find((c) => c.type === 'DisruptionAllowed');
  const status = allowed ? 'True' : 'False';
  const reason = allowed ? 'SufficientPods' : 'InsufficientPods';
  const lastTransitionTime = prev?.status === status ? prev.lastTransitionTime : rfc3339(now_ms);
  return { type: 'DisruptionAllowed', status, reason, message: '', observedGeneration, lastTransitionTime };
}
