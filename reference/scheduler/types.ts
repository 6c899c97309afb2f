/**
 * The scheduling framework's vocabulary, after kube-scheduler's
 * (pkg/scheduler/framework/interface.go): a Status where "no status" means success, a cycle
 * state plugins keep their per-cycle data in under their own key, and one narrow interface per
 * extension point. A plugin implements the points it takes part in; the framework asks each
 * enabled plugin only for the points it implements.
 *
 * Extension points, in the order a pod meets them (the docs page "Scheduling Framework"):
 * QueueSort → PreFilter → Filter → PostFilter → PreScore → Score (+ NormalizeScore) → Reserve
 * (+ Unreserve) → Permit → PreBind → Bind → PostBind.
 *
 * Everything here is pure: plugins read a snapshot and the pod, and the binding points return
 * the API writes they want (Action) rather than making them; the host (reference/wiring/
 * scheduler.ts) sends those to the API server.
 */
import type { Taint, Toleration } from '../tolerations.ts';
import type { NodeInfo, Snapshot } from './node-info.ts';

/** The parts of a Pod the scheduler reads (core/v1 Pod). */
export interface Pod {
  metadata: { name: string; namespace?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string>; creationTimestamp?: string; deletionTimestamp?: string; resourceVersion?: string };
  spec: PodSpec;
  status?: { phase?: string; nominatedNodeName?: string; conditions?: any[] };
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: any;
  tolerations?: Toleration[];
  topologySpreadConstraints?: any[];
  containers?: Container[];
  initContainers?: Container[];
  overhead?: Record<string, string>;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: string;
}

export interface Container {
  name?: string;
  image?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export type { Taint, Toleration };

export interface Node {
  metadata: { name: string; labels?: Record<string, string>; uid?: string; resourceVersion?: string };
  spec?: { unschedulable?: boolean; taints?: Taint[] };
  status?: { allocatable?: Record<string, string>; capacity?: Record<string, string>; images?: { names?: string[]; sizeBytes?: number }[] };
}

/** framework.Code: why a plugin said what it said. */
export type Code = 'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Wait' | 'Skip';

export interface Status {
  code: Code;
  /** Human reasons, e.g. "Insufficient cpu"; counted per node in the FitError message. */
  reasons: string[];
  /** The plugin that answered, filled in by the framework. */
  plugin?: string;
  /** With code Wait (Permit only): how long the plugin lets the pod wait. */
  timeout_ms?: number;
}

export const ok = undefined;
export function status(code: Code, ...reasons: string[]): Status {
  return { code, reasons };
}
export function isSuccess(s: Status | undefined): boolean {
  return s === undefined || s.code === 'Success';
}
export function isRejection(s: Status | undefined): boolean {
  return s !== undefined && (s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable');
}

/** framework.CycleState: per-cycle data, keyed by plugin name. Never shared between cycles. */
export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** PreFilter/PreScore plugins that returned Skip: their Filter/Score is not called this cycle. */
  readonly skipFilter = new Set<string>();
  readonly skipScore = new Set<string>();
  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }
  read<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
}

/** A write the binding points ask the host to make through the API server. */
export type Action =
  | { kind: 'bind'; pod: Pod; node: string; annotations?: Record<string, string> }
  | { kind: 'event'; pod: Pod; type: 'Normal' | 'Warning'; reason: string; message: string };

/** What a cluster change is, for moving unschedulable pods back (framework.ClusterEvent). */
export type ClusterEvent =
  | 'NodeAdd'
  | 'NodeLabelChange'
  | 'NodeTaintChange'
  | 'NodeAllocatableChange'
  | 'NodeSchedulableChange'
  | 'AssignedPodAdd'
  | 'AssignedPodUpdate'
  | 'AssignedPodDelete';

export const MAX_NODE_SCORE = 100;

export interface Plugin {
  readonly name: string;
  /** EnqueueExtensions.EventsToRegister: the changes that could make a pod this plugin rejected fit. */
  readonly events?: readonly ClusterEvent[];
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod, snapshot: Snapshot): Status | undefined;
}
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, node: NodeInfo): Status | undefined;
}
/** Answer of PostFilter: a node to nominate and the pods to evict for it (preemption). */
export interface PostFilterResult {
  status: Status | undefined;
  nominatedNode?: string;
  victims?: Pod[];
  /** Reasons per node, for the "preemption: ..." half of the FitError message. */
  message?: string;
}
export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: Pod, snapshot: Snapshot, filtered: ReadonlyMap<string, Status>): PostFilterResult;
}
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], snapshot: Snapshot): Status | undefined;
}
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, node: NodeInfo): number;
  /** NormalizeScore: rescale this plugin's scores (one per feasible node, in order) into [0, MAX_NODE_SCORE], in place. */
  normalize?(state: CycleState, pod: Pod, scores: number[]): void;
}
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, node: string): Status | undefined;
  unreserve(state: CycleState, pod: Pod, node: string): void;
}
export interface PermitPlugin extends Plugin {
  /**
   * Success, a rejection, or Wait with `timeout_ms`: the pod is held (waiting-pods.ts) until the
   * plugin, through the handle, allows or rejects it, or the timeout runs out.
   */
  permit(state: CycleState, pod: Pod, node: string): Status | undefined;
}
export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, node: string): Action[];
}
export interface BindPlugin extends Plugin {
  /** Skip lets the next bind plugin bind; otherwise the actions that bind. */
  bind(state: CycleState, pod: Pod, node: string): Action[] | 'Skip';
}
export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, node: string): Action[];
}

/** A pod in the scheduling queue (framework.QueuedPodInfo). */
export interface QueuedPodInfo {
  pod: Pod;
  key: string;
  priority: number;
  /** When it was first added to the queue, ms. */
  initialAttempt_ms: number;
  /** When it was last (re)added, ms: the QueueSort tie-break. */
  timestamp_ms: number;
  attempts: number;
  /** Plugins that rejected it in its last attempt: which events can bring it back. */
  unschedulablePlugins: Set<string>;
}

export function podKey(pod: { metadata: { namespace?: string; name: string } }): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`;
}

export function podPriority(pod: Pod): number {
  return typeof pod.spec.priority === 'number' ? pod.spec.priority : 0;
}
