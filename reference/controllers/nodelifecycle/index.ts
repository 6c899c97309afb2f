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
 * Not modelled yet: per-zone NoExecute tainting rates and zone states. Their pure core is
 * zones.ts (unit-tested), not wired in: here a node is tainted NoExecute at once, whatever its
 * zone. Upstream, a cluster whose every zone is FullDisruption — a one-node cluster with its node
 * down among them — taints nothing NoExecute (master disruption mode), so the scenarios that take
 * one node down and expect NoExecute taints would need a second, healthy node first. (The taint
 * eviction itself is the taint-eviction controller's, tainteviction/.)
 */
import { clone, rfc3339 } from '../shared/objects.ts';
import type { Taint } from '../../tolerations.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type SyncResult } from '../types.ts';

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
/** The conditions set to Unknown when the kubelet goes silent. */
const KUBELET_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

interface Health {
  signal: string;
  probe_ms: number;
}

export interface NodeLifecycleOptions {
  grace_ms?: number;
}

export function nodeLifecycleController(opts: NodeLifecycleOptions = {}): ControllerDef {
  const health = new Map<string, Health>();
  return {
    name: NODE_LIFECYCLE_CONTROLLER,
    aliases: ['nodelifecycle'],
    capability: 'controllers.nodelifecycle',
    watches: [RESOURCES.nodes, RESOURCES.leases, RESOURCES.pods],
    keysFor,
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), health, opts.grace_ms ?? NODE_MONITOR_GRACE_MS),
  };
}

export function keysFor(event: CacheEvent): string[] {
  if (event.resource === 'nodes') return [event.object.metadata.name];
  if (event.resource === 'pods') {
    const node = (event.object as any).spec?.nodeName;
    return event.type !== 'DELETED' && node ? [node] : [];
  }
  return event.object.metadata.namespace === NODE_LEASE_NAMESPACE ? [event.object.metadata.name] : [];
}

function condition(node: any, type: string): any {
  return (node.status?.conditions ?? []).find((c: any) => c.type === type);
}

export function reconcile(name: string, cache: Cache, now_ms: number, health: Map<string, Health>, grace_ms: number): SyncResult {
  const node = cache.get('nodes', '', name) as any;
  if (!node) {
    health.delete(name);
    return { actions: [] };
  }
  const lease = cache.get('leases', NODE_LEASE_NAMESPACE, name) as any;
  const ready = condition(node, 'Ready');
  const signal = `${ready?.lastHeartbeatTime ?? ''}|${ready?.status ?? ''}|${lease?.spec?.renewTime ?? ''}`;
  let h = health.get(name);
  if (!h || h.signal !== signal) health.set(name, (h = { signal, probe_ms: now_ms }));
  const deadline_ms = h.probe_ms + (ready ? grace_ms : NODE_STARTUP_GRACE_MS);
  if (now_ms > deadline_ms && ready?.status !== 'Unknown') return { actions: [markUnknown(node, now_ms)] };
  const taints = desiredTaints(node, now_ms);
  const actions: Action[] = taints ? [{ verb: 'update', resource: RESOURCES.nodes, namespace: '', object: { ...clone(node), spec: { ...(node.spec ?? {}), taints } } }] : [];
  if (ready && ready.status !== 'True') actions.push(...markPodsNotReady(cache.byIndex('pods', 'node', name), now_ms));
  return now_ms > deadline_ms ? { actions } : { actions, requeueAfter_ms: deadline_ms - now_ms + 1 };
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

/** The node's taints as its conditions say they should be, or undefined when they already are. */
export function desiredTaints(node: any, now_ms: number): Taint[] | undefined {
  const want: Taint[] = [];
  const ready = condition(node, 'Ready')?.status;
  if (ready === 'False') want.push({ key: TAINT_NOT_READY, effect: 'NoExecute' }, { key: TAINT_NOT_READY, effect: 'NoSchedule' });
  if (ready === 'Unknown') want.push({ key: TAINT_UNREACHABLE, effect: 'NoExecute' }, { key: TAINT_UNREACHABLE, effect: 'NoSchedule' });
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
