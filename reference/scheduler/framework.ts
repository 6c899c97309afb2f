/**
 * The framework: a registry from plugin name to factory, profiles that say which plugins run at
 * which extension point with which score weight (KubeSchedulerConfiguration's `profiles`), and
 * one Framework per profile that runs the points in order.
 *
 * The default profile is upstream's (pkg/scheduler/apis/config/v1/default_plugins.go,
 * getDefaultPlugins: one MultiPoint list, in this order): PrioritySort, NodeUnschedulable,
 * NodeName, TaintToleration (weight 3), NodeAffinity (2), NodeResourcesFit (1),
 * PodTopologySpread (2), InterPodAffinity (2), DefaultPreemption, NodeResourcesBalancedAllocation
 * (1), ImageLocality (1), DefaultBinder. (NodePorts and the volume plugins are not in the
 * reference: it has no host ports or volumes to check.) A MultiPoint plugin takes part in every
 * point it implements; a profile may disable a plugin at one point or everywhere (`*`) and add
 * plugins at a point, as KubeSchedulerConfiguration allows.
 */
import type {
  BindPlugin, CycleState, FilterPlugin, Plugin, PermitPlugin, Pod, PostBindPlugin, PostFilterPlugin, PostFilterResult,
  PreBindPlugin, PreFilterPlugin, PreScorePlugin, QueueSortPlugin, ReservePlugin, ScorePlugin, Status, Action,
} from './types.ts';
import { isRejection } from './types.ts';
import { MAX_PERMIT_TIMEOUT_MS, type WaitingPod, type WaitingPodEntry } from './waiting-pods.ts';
import type { NodeInfo, Snapshot } from './node-info.ts';
import { prioritySort } from './plugins/queuesort/index.ts';
import { nodeUnschedulable } from './plugins/nodeunschedulable/index.ts';
import { nodeName } from './plugins/nodename/index.ts';
import { taintToleration } from './plugins/tainttoleration/index.ts';
import { nodeAffinity } from './plugins/nodeaffinity/index.ts';
import { nodeResourcesFit, type FitArgs } from './plugins/noderesources/index.ts';
import { podTopologySpread, type SpreadArgs } from './plugins/podtopologyspread/index.ts';
import { interPodAffinity } from './plugins/interpodaffinity/index.ts';
import { defaultPreemption } from './plugins/defaultpreemption/index.ts';
import { balancedAllocation } from './plugins/balancedallocation/index.ts';
import { imageLocality } from './plugins/imagelocality/index.ts';
import { defaultBinder } from './plugins/defaultbinder/index.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';

export const EXTENSION_POINTS = ['queueSort', 'preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'bind', 'postBind'] as const;
export type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

/** What a factory may use of the framework it is built into (framework.Handle). */
export interface Handle {
  /** Runs every Filter plugin on the node; the first rejection, or undefined when it fits. */
  runFilters(state: CycleState, pod: Pod, node: NodeInfo): Status | undefined;
  /** A pod held at Permit, by uid (GetWaitingPod). */
  getWaitingPod(uid: string): WaitingPod | undefined;
  /** Every pod held at Permit in this profile (IterateOverWaitingPods). */
  iterateWaitingPods(fn: (pod: WaitingPod) => void): void;
}

/** What RunPermitPlugins answers: a refusal, or the plugins that asked to wait and for how long. */
export interface PermitOutcome {
  refused?: Status;
  waits?: Map<string, number>;
}

export type PluginFactory = (args: any, handle: Handle) => Plugin;
export type Registry = Record<string, PluginFactory>;

/** The in-tree registry (pkg/scheduler/framework/plugins/registry.go). */
/** The in-tree plugins; `faults` (reference/faults.ts) reach the plugins that have a seam. */
export function inTreeRegistry(faults: Faults = NO_FAULTS): Registry {
  return {
    PrioritySort: () => prioritySort(),
    NodeUnschedulable: () => nodeUnschedulable(),
    NodeName: () => nodeName(),
    TaintToleration: () => taintToleration(faults),
    NodeAffinity: () => nodeAffinity(),
    NodeResourcesFit: (args: FitArgs) => nodeResourcesFit(args),
    PodTopologySpread: (args: SpreadArgs) => podTopologySpread(args),
    InterPodAffinity: () => interPodAffinity(),
    DefaultPreemption: (_args, handle) => defaultPreemption(handle, faults),
    NodeResourcesBalancedAllocation: () => balancedAllocation(),
    ImageLocality: () => imageLocality(),
    DefaultBinder: () => defaultBinder(),
  };
}

export interface PluginRef {
  name: string;
  weight?: number;
}

export interface PluginSet {
  enabled?: PluginRef[];
  disabled?: { name: string }[];
}

/** One entry of KubeSchedulerConfiguration.profiles. */
export interface Profile {
  schedulerName: string;
  plugins?: Partial<Record<ExtensionPoint | 'multiPoint', PluginSet>>;
  pluginConfig?: { name: string; args: unknown }[];
  /** Overrides the configuration-wide percentageOfNodesToScore (0 = the adaptive default). */
  percentageOfNodesToScore?: number;
}

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export const DEFAULT_MULTI_POINT: readonly PluginRef[] = [
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' },
];

export function defaultProfile(schedulerName = DEFAULT_SCHEDULER_NAME): Profile {
  return { schedulerName, plugins: { multiPoint: { enabled: [...DEFAULT_MULTI_POINT] } } };
}

const IMPLEMENTS: Record<ExtensionPoint, string> = {
  queueSort: 'less', preFilter: 'preFilter', filter: 'filter', postFilter: 'postFilter', preScore: 'preScore', score: 'score',
  reserve: 'reserve', permit: 'permit', preBind: 'preBind', bind: 'bind', postBind: 'postBind',
};

export class Framework {
  readonly queueSort: QueueSortPlugin;
  readonly preFilter: PreFilterPlugin[] = [];
  readonly filter: FilterPlugin[] = [];
  readonly postFilter: PostFilterPlugin[] = [];
  readonly preScore: PreScorePlugin[] = [];
  readonly score: { plugin: ScorePlugin; weight: number }[] = [];
  readonly reserve: ReservePlugin[] = [];
  readonly permit: PermitPlugin[] = [];
  readonly preBind: PreBindPlugin[] = [];
  readonly bind: BindPlugin[] = [];
  readonly postBind: PostBindPlugin[] = [];
  /** Every plugin instance by name: which events each one registered for. */
  readonly plugins = new Map<string, Plugin>();
  /** Pods held at Permit, by uid (the framework's waitingPods map). */
  readonly waitingPods = new Map<string, WaitingPodEntry>();

  constructor(readonly profile: Profile, registry: Registry = inTreeRegistry(), private readonly faults: Faults = NO_FAULTS) {
    const args = new Map((profile.pluginConfig ?? []).map((c) => [c.name, c.args]));
    const instance = (name: string): Plugin => {
      let p = this.plugins.get(name);
      if (!p) {
        const factory = registry[name];
        if (!factory) throw new Error(`plugin "${name}" is not in the registry`);
        p = factory(args.get(name) ?? {}, this);
        this.plugins.set(name, p);
      }
      return p;
    };
    const sets = profile.plugins ?? {};
    const multi = sets.multiPoint ?? {};
    for (const point of EXTENSION_POINTS) {
      const set = sets[point] ?? {};
      const disabled = new Set([...(set.disabled ?? []), ...(multi.disabled ?? [])].map((d) => d.name));
      const explicit = set.enabled ?? [];
      const fromMulti = disabled.has('*') ? [] : (multi.enabled ?? []).filter((r) => !disabled.has(r.name) && !explicit.some((e) => e.name === r.name));
      for (const ref of [...fromMulti, ...explicit]) {
        const plugin = instance(ref.name) as any;
        if (typeof plugin[IMPLEMENTS[point]] !== 'function') {
          if (explicit.includes(ref)) throw new Error(`plugin "${ref.name}" does not implement ${point}`);
          continue;
        }
        if (point === 'score') this.score.push({ plugin, weight: ref.weight ?? 1 });
        else if (point !== 'queueSort') (this as any)[point].push(plugin);
        else (this as any)._queueSort ??= plugin;
      }
    }
    const qs = (this as any)._queueSort as QueueSortPlugin | undefined;
    if (!qs) throw new Error(`profile "${profile.schedulerName}" enables no QueueSort plugin`);
    this.queueSort = qs;
  }

  get name(): string {
    return this.profile.schedulerName;
  }

  runPreFilter(state: CycleState, pod: Pod, snapshot: Snapshot): Status | undefined {
    for (const p of this.preFilter) {
      const s = p.preFilter(state, pod, snapshot);
      if (s && s.code === 'Skip') state.skipFilter.add(p.name);
      else if (s && s.code !== 'Success') return { ...s, plugin: p.name };
    }
    return undefined;
  }

  runFilters(state: CycleState, pod: Pod, node: NodeInfo): Status | undefined {
    for (const p of this.filter) {
      if (state.skipFilter.has(p.name)) continue;
      const s = p.filter(state, pod, node);
      if (s && s.code !== 'Success') return { ...s, plugin: p.name };
    }
    return undefined;
  }

  runPostFilter(state: CycleState, pod: Pod, snapshot: Snapshot, filtered: ReadonlyMap<string, Status>): PostFilterResult {
    let last: PostFilterResult = { status: { code: 'Unschedulable', reasons: [] } };
    for (const p of this.postFilter) {
      const r = p.postFilter(state, pod, snapshot, filtered);
      if (!isRejection(r.status) && r.status?.code !== 'Error') return r;
      last = r;
    }
    return last;
  }

  /** PreScore, Score, NormalizeScore and weights: the total per feasible node. */
  runScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], snapshot: Snapshot): number[] {
    for (const p of this.preScore) {
      const s = p.preScore(state, pod, nodes, snapshot);
      if (s?.code === 'Skip') state.skipScore.add(p.name);
    }
    // Arrays aligned with `nodes`: a cycle scores hundreds of nodes, so no per-plugin maps.
    const totals = new Array<number>(nodes.length).fill(0);
    const scores = new Array<number>(nodes.length);
    for (const { plugin, weight } of this.score) {
      if (state.skipScore.has(plugin.name)) continue;
      for (let i = 0; i < nodes.length; i++) scores[i] = plugin.score(state, pod, nodes[i]!);
      // Fault scores-not-normalized: raw Score results summed as they are.
      if (!this.faults.has('scores-not-normalized')) plugin.normalize?.(state, pod, scores);
      for (let i = 0; i < nodes.length; i++) totals[i]! += scores[i]! * weight;
    }
    return totals;
  }

  runReserve(state: CycleState, pod: Pod, node: string): Status | undefined {
    for (let i = 0; i < this.reserve.length; i++) {
      const s = this.reserve[i]!.reserve(state, pod, node);
      if (s && s.code !== 'Success') {
        this.runUnreserve(state, pod, node, i);
        return { ...s, plugin: this.reserve[i]!.name };
      }
    }
    return undefined;
  }

  /** Unreserve, in reverse order, of the plugins that reserved (all of them by default). */
  runUnreserve(state: CycleState, pod: Pod, node: string, upTo = this.reserve.length): void {
    for (let i = upTo - 1; i >= 0; i--) this.reserve[i]!.unreserve(state, pod, node);
  }

  /** Every Permit plugin; a refusal ends it, Waits are collected with their timeouts (capped at 15 min). */
  runPermit(state: CycleState, pod: Pod, node: string): PermitOutcome {
    let waits: Map<string, number> | undefined;
    for (const p of this.permit) {
      const s = p.permit(state, pod, node);
      if (!s || s.code === 'Success') continue;
      if (s.code === 'Wait') (waits ??= new Map()).set(p.name, Math.min(s.timeout_ms ?? 0, MAX_PERMIT_TIMEOUT_MS));
      else return { refused: { ...s, plugin: p.name } };
    }
    return waits ? { waits } : {};
  }

  getWaitingPod(uid: string): WaitingPod | undefined {
    return this.waitingPods.get(uid);
  }

  iterateWaitingPods(fn: (pod: WaitingPod) => void): void {
    for (const w of [...this.waitingPods.values()]) fn(w);
  }

  /** PreBind and Bind: the writes that bind the pod, in order. */
  bindingActions(state: CycleState, pod: Pod, node: string): Action[] {
    const actions = this.preBind.flatMap((p) => p.preBind(state, pod, node));
    for (const p of this.bind) {
      const a = p.bind(state, pod, node);
      if (a !== 'Skip') return [...actions, ...a];
    }
    throw new Error(`no Bind plugin bound pod ${pod.metadata.name}`);
  }

  postBindActions(state: CycleState, pod: Pod, node: string): Action[] {
    return this.postBind.flatMap((p) => p.postBind(state, pod, node));
  }

  /** The events that could help a pod these plugins rejected. */
  eventsOf(pluginNames: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const name of pluginNames) for (const e of this.plugins.get(name)?.events ?? []) out.add(e);
    return out;
  }
}
