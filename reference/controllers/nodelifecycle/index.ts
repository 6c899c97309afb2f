/**
 * The node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
 * watches each node's heartbeats and turns silence into conditions and taints.
 *
 * - Heartbeats: the kubelet renews its Lease in kube-node-lease every 10 s and rewrites
 *   NodeStatus on change (KEP-589). Either counts: whenever the controller sees the Ready
 *   condition's lastHeartbeatTime or the Lease's renewTime change, it records its own clock as
 *   the probe time (tryUpdateNodeHealth — the controller's clock, not the kubelet's, so clock
 *   skew cannot fake health). A node seen for the first time is probed now.
 * - After --node-monitor-grace-period (50 s since v1.32; 60 s startup grace for a node that
 *   never reported Ready) with no heartbeat, the conditions Ready, MemoryPressure, DiskPressure
 *   and PIDPressure become Unknown, reason "NodeStatusUnknown", message "Kubelet stopped posting
 *   node status." (or "NodeStatusNeverUpdated" / "Kubelet never posted node status." for a
 *   condition never reported). The controller waits for exactly that instant (AddAfter) rather
 *   than polling every 5 s as upstream's monitor loop does.
 * - Taints follow the conditions (doNoExecuteTaintingPass, doNoScheduleTaintingPass):
 *   Ready=False → node.kubernetes.io/not-ready, Ready=Unknown → node.kubernetes.io/unreachable,
 *   each as NoExecute (timeAdded now) and NoSchedule; MemoryPressure, DiskPressure, PIDPressure,
 *   NetworkUnavailable = True → memory-pressure, disk-pressure, pid-pressure,
 *   network-unavailable NoSchedule; spec.unschedulable → unschedulable NoSchedule. Taints with
 *   other keys are left as they are.
 *
 * - Pods on a node whose Ready condition is not True get their own Ready condition set to False
 *   through the status subresource (MarkPodsNotReady in pkg/controller/util/node/
 *   controller_utils.go, called from monitorNodeHealth and, for a pod seen later, processPod).
 *   Their phase is left alone: PodUnknown "isn't being set since 2015" (k8s.io/api core/v1).
 *
 * - NoExecute tainting is rate-limited per zone (zones.ts: ComputeZoneState, handleDisruption,
 *   setLimiterInZone): a not-Ready node gets its not-ready/unreachable NoExecute taint only when its
 *   zone's limiter gives a token (--node-eviction-rate 0.1 nodes/s, burst 1), never while its zone is
 *   PartialDisruption in a zone of at most --large-cluster-size-threshold nodes, and never while
 *   every zone is FullDisruption ("master disruption mode"): then the controller distrusts its own
 *   view and the NoExecute not-ready/unreachable taints come off every node (markNodeAsReachable).
 *   A one-node cluster with its node down is in that mode: Ready=Unknown and the NoSchedule taint,
 *   but no NoExecute taint and so no eviction. The NoSchedule taints are not rate-limited
 *   (doNoScheduleTaintingPass). Upstream re-evaluates the zones every --node-monitor-period (5 s)
 *   and taints from a 100 ms loop; here the zones are re-evaluated whenever a node's Ready status,
 *   zone or presence changes, and a node waiting for a token is looked at again when it is due.
 *   Not modelled: resetting every node's probe time on leaving master disruption mode (it
 *   changes nothing visible: every node then was already not Ready).
 *   (The taint eviction itself is the taint-eviction controller's, tainteviction/.)
 */
import { clone, rfc3339 } from '../shared/objects.ts';
import type { Taint } from '../../tolerations.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type SyncResult } from '../types.ts';
import { DEFAULT_ZONE_OPTIONS, handleDisruption, newLimiter, swapLimiter, tryAccept, zoneKey, type DisruptionView, type ZoneLimiter, type ZoneOptions, type ZoneState } from './zones.ts';

export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';
/** --node-monitor-grace-period default since v1.32 (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go). */
export const NODE_MONITOR_GRACE_MS = 50_000;
/** nodeStartupGracePeriod: a node that never reported Ready gets this long. */
export const NODE_STARTUP_GRACE_MS = 60_000;
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
/** Condition → the NoSchedule taint it maps to when True (nodeConditionToTaintKeyStatusMap). */
const PRESSURE_TAINTS: Record<string, string> = {
  MemoryPressure: 'node.kubernetes.io/memory-pressure',
  DiskPressure: 'node.kubernetes.io/disk-pressure',
  PIDPressure: 'node.kubernetes.io/pid-pressure',
  NetworkUnavailable: 'node.kubernetes.io/network-unavailable',
};
const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
const MANAGED = new Set([TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE, ...Object.values(PRESSURE_TAINTS)]);
/** A node with this label is left out of its zone's state (isNodeExcludedFromDisruptionChecks). */
const EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';
/** The conditions set to Unknown when the kubelet goes silent. */
const KUBELET_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

interface Health {
  signal: string;
  probe_ms: number;
}

export interface NodeLifecycleOptions {
  grace_ms?: number;
  /** --node-eviction-rate, --secondary-node-eviction-rate, --unhealthy-zone-threshold, --large-cluster-size-threshold. */
  zones?: Partial<ZoneOptions>;
}

/** The controller's own bookkeeping about zones: their last states and limiters (upstream's zoneStates, zoneNoExecuteTainter). */
export interface Zones {
  opts: ZoneOptions;
  states: Map<string, ZoneState>;
  limiters: Map<string, ZoneLimiter>;
  /** The last handleDisruption pass, redone when a node event may have changed it. */
  view?: DisruptionView;
  stale: boolean;
  /** Nodes that took a token, by the NoExecute taint key they are to get, until the cache shows it. */
  granted: Map<string, string>;
}

export function newZones(opts: Partial<ZoneOptions> = {}): Zones {
  return { opts: { ...DEFAULT_ZONE_OPTIONS, ...opts }, states: new Map(), limiters: new Map(), stale: true, granted: new Map() };
}

export function nodeLifecycleController(opts: NodeLifecycleOptions = {}): ControllerDef {
  const health = new Map<string, Health>();
  const zones = newZones(opts.zones);
  return {
    name: NODE_LIFECYCLE_CONTROLLER,
    aliases: ['nodelifecycle'],
    capability: 'controllers.nodelifecycle',
    watches: [RESOURCES.nodes, RESOURCES.leases, RESOURCES.pods],
    keysFor: (event, cache) => keysFor(event, cache, zones),
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), health, opts.grace_ms ?? NODE_MONITOR_GRACE_MS, zones),
  };
}

/** What of a node its zone's state depends on: its zone, whether it counts, its Ready status. */
function zoneFacts(node: any): string {
  const labels = node?.metadata?.labels;
  return `${zoneKey(labels)}|${labels?.[EXCLUDE_DISRUPTION] !== undefined}|${condition(node, 'Ready')?.status ?? ''}`;
}

export function keysFor(event: CacheEvent, cache?: Cache, zones?: Zones): string[] {
  if (event.resource === 'nodes') {
    // A zone's state may have changed: every node's tainting may depend on it.
    if (event.type !== 'MODIFIED' || zoneFacts(event.oldObject) !== zoneFacts(event.object)) {
      if (zones) zones.stale = true;
      if (cache) return cache.list('nodes').map((n) => n.metadata.name).concat(event.type === 'DELETED' ? [event.object.metadata.name] : []);
    }
    return [event.object.metadata.name];
  }
  if (event.resource === 'pods') {
    const node = (event.object as any).spec?.nodeName;
    return event.type !== 'DELETED' && node ? [node] : [];
  }
  return event.object.metadata.namespace === NODE_LEASE_NAMESPACE ? [event.object.metadata.name] : [];
}

function condition(node: any, type: string): any {
  return (node.status?.conditions ?? []).find((c: any) => c.type === type);
}

export function reconcile(name: string, cache: Cache, now_ms: number, health: Map<string, Health>, grace_ms: number, zones: Zones = newZones()): SyncResult {
  const node = cache.get('nodes', '', name) as any;
  if (!node) {
    health.delete(name);
    zones.granted.delete(name);
    return { actions: [] };
  }
  const lease = cache.get('leases', NODE_LEASE_NAMESPACE, name) as any;
  const ready = condition(node, 'Ready');
  const signal = `${ready?.lastHeartbeatTime ?? ''}|${ready?.status ?? ''}|${lease?.spec?.renewTime ?? ''}`;
  let h = health.get(name);
  if (!h || h.signal !== signal) health.set(name, (h = { signal, probe_ms: now_ms }));
  const deadline_ms = h.probe_ms + (ready ? grace_ms : NODE_STARTUP_GRACE_MS);
  if (now_ms > deadline_ms && ready?.status !== 'Unknown') return { actions: [markUnknown(node, now_ms)] };
  const noExecute = noExecuteTaint(node, observeZones(cache, now_ms, zones), zones, now_ms);
  const taints = desiredTaints(node, now_ms, noExecute.key);
  const actions: Action[] = taints ? [{ verb: 'update', resource: RESOURCES.nodes, namespace: '', object: { ...clone(node), spec: { ...(node.spec ?? {}), taints } } }] : [];
  if (ready && ready.status !== 'True') actions.push(...markPodsNotReady(cache.byIndex('pods', 'node', name), now_ms));
  const waits = [...(now_ms > deadline_ms ? [] : [deadline_ms - now_ms + 1]), ...(noExecute.retry_ms !== undefined ? [noExecute.retry_ms] : [])];
  return waits.length > 0 ? { actions, requeueAfter_ms: Math.min(...waits) } : { actions };
}

/**
 * handleDisruption over the cached nodes (monitorNodeHealth's zoneToNodeConditions), then the
 * limiters as setLimiterInZone leaves them: swapped for a zone whose state changed, all to 0 on
 * entering master disruption mode, each to its state's rate on leaving it.
 */
export function observeZones(cache: Cache, now_ms: number, zones: Zones): DisruptionView {
  if (zones.view && !zones.stale) return zones.view;
  const readyByZone = new Map<string, (string | undefined)[]>();
  for (const node of cache.list('nodes') as any[]) {
    if (node.metadata.labels?.[EXCLUDE_DISRUPTION] !== undefined) continue;
    const zone = zoneKey(node.metadata.labels);
    readyByZone.set(zone, [...(readyByZone.get(zone) ?? []), condition(node, 'Ready')?.status]);
  }
  const view = handleDisruption(zones.states, readyByZone, zones.opts);
  for (const [zone, state] of view.states) {
    const limiter = zones.limiters.get(zone) ?? newLimiter(zones.opts.evictionRate, now_ms);
    const changed = (zones.states.get(zone) ?? 'Initial') !== state || view.entered || view.left;
    zones.limiters.set(zone, changed ? swapLimiter(limiter, view.rates.get(zone)!, now_ms) : limiter);
  }
  zones.states = view.states;
  zones.view = view;
  zones.stale = false;
  return view;
}

/**
 * The not-ready/unreachable NoExecute taint the node is to carry (processTaintBaseEviction,
 * doNoExecuteTaintingPass): none while it is Ready or in master disruption mode; the one it has,
 * swapped at once for the other when Ready flips between False and Unknown; a new one only with a
 * token from its zone's limiter — else `retry_ms`, when the next token is due.
 */
export function noExecuteTaint(node: any, view: DisruptionView, zones: Zones, now_ms: number): { key?: string; retry_ms?: number } {
  const name = node.metadata.name;
  const status = condition(node, 'Ready')?.status;
  const key = status === 'False' ? TAINT_NOT_READY : status === 'Unknown' ? TAINT_UNREACHABLE : undefined;
  const has = (node.spec?.taints ?? []).some((t: Taint) => t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE));
  if (!key || view.masterDisruption || has) {
    zones.granted.delete(name);
    return key && !view.masterDisruption ? { key } : {};
  }
  if (zones.granted.get(name) === key) return { key };
  const zone = zoneKey(node.metadata.labels);
  const limiter = zones.limiters.get(zone) ?? newLimiter(zones.opts.evictionRate, now_ms);
  zones.limiters.set(zone, limiter);
  if (tryAccept(limiter, now_ms)) {
    zones.granted.set(name, key);
    return { key };
  }
  return limiter.rate > 0 ? { retry_ms: Math.max(1, limiter.next_ms - now_ms) } : {};
}

/** Ready=False on each pod whose Ready condition says otherwise (UpdatePodCondition: a new lastTransitionTime). */
export function markPodsNotReady(pods: readonly any[], now_ms: number): Action[] {
  const actions: Action[] = [];
  for (const pod of pods) {
    const readyCondition = (pod.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
    if (!readyCondition || readyCondition.status === 'False') continue;
    const next = clone(pod);
    const c = next.status.conditions.find((x: any) => x.type === 'Ready');
    Object.assign(c, { status: 'False', lastTransitionTime: rfc3339(now_ms) });
    actions.push({ verb: 'update', resource: RESOURCES.pods, namespace: pod.metadata.namespace, object: next, subresource: 'status' });
  }
  return actions;
}

function markUnknown(node: any, now_ms: number): Action {
  const next = clone(node);
  const stamp = rfc3339(now_ms);
  const conditions: any[] = [...(next.status?.conditions ?? [])];
  for (const type of KUBELET_CONDITIONS) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: stamp, lastTransitionTime: stamp });
    } else if (c.status !== 'Unknown') {
      Object.assign(c, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: stamp });
    }
  }
  next.status = { ...(next.status ?? {}), conditions };
  return { verb: 'update', subresource: 'status', resource: RESOURCES.nodes, namespace: '', object: next };
}

/**
 * The node's taints as its conditions say they should be, with `noExecute` the not-ready/unreachable
 * NoExecute taint it is to carry (noExecuteTaint), or undefined when they already are.
 */
export function desiredTaints(node: any, now_ms: number, noExecute?: string): Taint[] | undefined {
  const want: Taint[] = [];
  const ready = condition(node, 'Ready')?.status;
  if (noExecute) want.push({ key: noExecute, effect: 'NoExecute' });
  if (ready === 'False') want.push({ key: TAINT_NOT_READY, effect: 'NoSchedule' });
  if (ready === 'Unknown') want.push({ key: TAINT_UNREACHABLE, effect: 'NoSchedule' });
  for (const [type, key] of Object.entries(PRESSURE_TAINTS)) if (condition(node, type)?.status === 'True') want.push({ key, effect: 'NoSchedule' });
  if (node.spec?.unschedulable) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  const current: Taint[] = node.spec?.taints ?? [];
  const same = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
  const managed = current.filter((t) => MANAGED.has(t.key));
  if (managed.length === want.length && want.every((w) => managed.some((m) => same(m, w)))) return undefined;
  const kept = current.filter((t) => !MANAGED.has(t.key) || want.some((w) => same(w, t)));
  const added = want.filter((w) => !current.some((t) => same(t, w))).map((t) => (t.effect === 'NoExecute' ? { ...t, timeAdded: rfc3339(now_ms) } : t));
  return [...kept, ...added];
}
