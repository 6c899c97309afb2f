/**
 * The scheduler's core: its cache of nodes and assigned pods (pkg/scheduler/backend/cache), the
 * scheduling queue, and one Framework per profile. Informer events go in (onNode, onPod, onPdb);
 * `scheduleOne` pops a pod, runs one cycle against the cache and returns what must be written
 * to the API server — the binding, or the PodScheduled=False condition and FailedScheduling
 * event, or a preemption's evictions and nomination. The host (reference/wiring/scheduler.ts)
 * makes those writes and reports how the binding went (`bindingDone`). Pure: time is passed in,
 * randomness injected.
 *
 * "Assume": a pod is counted on its node as soon as its cycle picks the node, before the binding
 * is written, so the next cycle already sees the room it took (upstream's assumed pods). The
 * informer's copy replaces the assumed one when it arrives; a failed binding takes it back off.
 */
import { Framework, type Profile, type Registry, defaultProfile, inTreeRegistry } from './framework.ts';
import { scheduleCycle, type CycleResult } from './cycle.ts';
import { NodeInfo, hasPodAffinityTerms, type Pdb, type Snapshot } from './node-info.ts';
import { SchedulingQueue } from './queue.ts';
import type { Action, ClusterEvent, CycleState, Node, Pod, QueuedPodInfo } from './types.ts';
import { podKey } from './types.ts';
import type { Faults } from '../faults.ts';
import { WorkloadIndex, type WorkloadResource } from './default-selector.ts';
import { WaitingPodEntry } from './waiting-pods.ts';

/** A write the host makes through the API server. */
export type Effect =
  | Action
  | { kind: 'unschedulable'; pod: Pod; message: string }
  | { kind: 'nominate'; pod: Pod; node: string }
  | { kind: 'evict'; pod: Pod; preemptor: Pod; node: string };

export interface Attempt {
  info: QueuedPodInfo;
  profile: string;
  result: CycleResult;
  /** The writes to make now: the binding (PreBind + Bind), or the failure's. */
  effects: Effect[];
  /** Set when the pod was assumed on a node; pass to bindingDone. */
  binding?: { node: string; state: CycleState };
  /** The pod is held at Permit; resolveWaiting says later how it ends. */
  waiting?: boolean;
}

export interface SchedulerCoreOptions {
  profiles?: Profile[];
  registry?: Registry;
  random: () => number;
  percentageOfNodesToScore?: number;
  initialBackoff_ms?: number;
  maxBackoff_ms?: number;
  /** Fault models (reference/faults.ts) for the framework; default none. */
  faults?: Faults;
}

type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

export class SchedulerCore implements Snapshot {
  readonly frameworks = new Map<string, Framework>();
  readonly queue: SchedulingQueue;
  private readonly infos = new Map<string, NodeInfo>();
  private nodeList: NodeInfo[] = [];
  /** Assigned pod key → node it is counted on. */
  private readonly assigned = new Map<string, string>();
  private readonly assumed = new Set<string>();
  /** Pods bound to a node the cache does not know yet. */
  private readonly orphans = new Map<string, Pod>();
  private readonly nominations = new Map<string, Pod>();
  private readonly pdbMap = new Map<string, Pdb>();
  private startIndex = 0;
  // Derived views, rebuilt only when what they depend on changes (not on every binding).
  private affinityLists?: { affinity: NodeInfo[]; anti: NodeInfo[] };
  private nominatedByNode?: Map<string, Pod[]>;
  private pdbList?: Pdb[];
  /** Image name → how many nodes hold it (ImageLocality's spread). */
  private readonly imageNodes = new Map<string, number>();
  /** The cycle that put each pod held at Permit on its node, by uid (reported when it is resolved). */
  private readonly waitingCycles = new Map<string, CycleResult>();
  /** Services and pod controllers, for default spread constraints. */
  private readonly workloads = new WorkloadIndex();

  constructor(private readonly opts: SchedulerCoreOptions) {
    const registry = opts.registry ?? inTreeRegistry(opts.faults);
    for (const p of opts.profiles ?? [defaultProfile()]) this.frameworks.set(p.schedulerName, new Framework(p, registry, opts.faults));
    const first = [...this.frameworks.values()][0]!;
    this.queue = new SchedulingQueue({
      queueSort: first.queueSort,
      eventsOf: (plugins) => {
        const out = new Set<string>();
        for (const fw of this.frameworks.values()) for (const e of fw.eventsOf(plugins)) out.add(e);
        return out;
      },
      ...(opts.initialBackoff_ms !== undefined ? { initialBackoff_ms: opts.initialBackoff_ms } : {}),
      ...(opts.maxBackoff_ms !== undefined ? { maxBackoff_ms: opts.maxBackoff_ms } : {}),
    });
  }

  // ---- Snapshot: the cache as one cycle reads it ------------------------------------------------

  get nodes(): readonly NodeInfo[] {
    return this.nodeList;
  }
  get(name: string): NodeInfo | undefined {
    return this.infos.get(name);
  }
  get pdbs(): readonly Pdb[] {
    return (this.pdbList ??= [...this.pdbMap.values()]);
  }
  nominated(node: string): readonly Pod[] {
    if (this.nominations.size === 0) return [];
    if (!this.nominatedByNode) {
      this.nominatedByNode = new Map();
      for (const p of this.nominations.values()) {
        const name = p.status!.nominatedNodeName!;
        this.nominatedByNode.set(name, [...(this.nominatedByNode.get(name) ?? []), p]);
      }
    }
    return this.nominatedByNode.get(node) ?? [];
  }
  get havePodsWithAffinity(): readonly NodeInfo[] {
    return this.affinity().affinity;
  }
  get havePodsWithRequiredAntiAffinity(): readonly NodeInfo[] {
    return this.affinity().anti;
  }
  nodesWithImage(image: string): number {
    return this.imageNodes.get(image) ?? 0;
  }
  defaultSpreadSelector(pod: Pod): any | undefined {
    return this.workloads.selectorFor(pod);
  }

  private affinity() {
    return (this.affinityLists ??= {
      affinity: this.nodeList.filter((n) => n.podsWithAffinity.size > 0),
      anti: this.nodeList.filter((n) => n.podsWithRequiredAntiAffinity.size > 0),
    });
  }

  private countImages(info: NodeInfo, sign: 1 | -1): void {
    for (const image of info.images.keys()) this.imageNodes.set(image, (this.imageNodes.get(image) ?? 0) + sign);
  }

  // ---- informer events ----------------------------------------------------------------------

  onNode(type: WatchType, node: Node, now_ms: number): void {
    const name = node.metadata.name;
    const info = this.infos.get(name);
    this.affinityLists = undefined;
    if (info) this.countImages(info, -1);
    if (type === 'DELETED') {
      if (!info) return;
      this.infos.delete(name);
      this.nodeList = this.nodeList.filter((n) => n !== info);
      return;
    }
    if (!info) {
      const fresh = new NodeInfo(node);
      this.countImages(fresh, 1);
      this.infos.set(name, fresh);
      this.nodeList.push(fresh);
      for (const [key, pod] of this.orphans) {
        if (pod.spec.nodeName === name) {
          this.orphans.delete(key);
          fresh.addPod(pod);
        }
      }
      return this.queue.moveOnEvent('NodeAdd', now_ms);
    }
    const old = info.node;
    info.setNode(node);
    this.countImages(info, 1);
    for (const event of nodeChanges(old, node)) this.queue.moveOnEvent(event, now_ms);
  }

  onPod(type: WatchType, pod: Pod, now_ms: number): void {
    const key = podKey(pod);
    this.trackNomination(type, pod);
    if (type === 'DELETED') {
      // A deleted pod held at Permit is rejected (RejectWaitingPod in the informer's delete handler).
      for (const fw of this.frameworks.values()) fw.waitingPods.get(pod.metadata.uid ?? key)?.reject('', 'removed');
      this.queue.delete(key);
      if (this.removeAssigned(key)) this.queue.moveOnEvent('AssignedPodDelete', now_ms);
      return;
    }
    const node = pod.spec.nodeName;
    if (node) {
      this.queue.delete(key);
      const wasAssigned = this.assigned.has(key) && !this.assumed.has(key);
      this.assumed.delete(key);
      this.placeAssigned(key, pod, node);
      this.queue.moveOnEvent(wasAssigned ? 'AssignedPodUpdate' : 'AssignedPodAdd', now_ms);
      return;
    }
    if (pod.metadata.deletionTimestamp || !this.frameworks.has(pod.spec.schedulerName ?? 'default-scheduler')) return;
    if (this.assumed.has(key)) return; // our binding is on its way; the informer has not seen it yet
    this.queue.add(pod, now_ms);
  }

  /** A Service, ReplicationController, ReplicaSet or StatefulSet changed (default spread selectors). */
  onWorkload(resource: WorkloadResource, type: WatchType, object: any): void {
    this.workloads.onObject(resource, type, object);
  }

  onPdb(type: WatchType, pdb: Pdb): void {
    const key = `${pdb.metadata.namespace ?? ''}/${pdb.metadata.name}`;
    this.pdbList = undefined;
    if (type === 'DELETED') this.pdbMap.delete(key);
    else this.pdbMap.set(key, pdb);
  }

  /** The backoff timer: move pods whose backoff ran out. */
  flush(now_ms: number): number {
    return this.queue.flush(now_ms);
  }

  // ---- one attempt ------------------------------------------------------------------------

  scheduleOne(now_ms: number): Attempt | undefined {
    const info = this.queue.pop();
    if (!info) return undefined;
    const profile = info.pod.spec.schedulerName ?? 'default-scheduler';
    const fw = this.frameworks.get(profile)!;
    const result = scheduleCycle(fw, this, info.pod, {
      startIndex: this.startIndex,
      random: this.opts.random,
      ...(this.opts.percentageOfNodesToScore !== undefined ? { percentageOfNodesToScore: this.opts.percentageOfNodesToScore } : {}),
    });
    this.startIndex = result.nextStartIndex;
    if (result.kind === 'unschedulable') return { info, profile, result, effects: this.failed(fw, info, result, now_ms) };
    const { node, state } = result;
    const pod = info.pod;
    // A failed Reserve has already unreserved what it reserved; a failed Permit unreserves all.
    let refused = fw.runReserve(state, pod, node);
    let waits: Map<string, number> | undefined;
    if (!refused) {
      ({ refused, waits } = fw.runPermit(state, pod, node));
      if (refused) fw.runUnreserve(state, pod, node);
    }
    if (refused) {
      const message = `0/${this.nodeList.length} nodes are available: ${refused.reasons.join(', ') || `rejected by ${refused.plugin}`}.`;
      this.queue.addUnschedulable(info, refused.plugin ? [refused.plugin] : [], now_ms);
      return { info, profile, result, effects: failureEffects(pod, message) };
    }
    this.assume(pod, node);
    if (waits) {
      // Held at the gate, assumed on its node meanwhile; resolveWaiting binds or returns it.
      fw.waitingPods.set(pod.metadata.uid ?? info.key, new WaitingPodEntry(info, node, state, waits, now_ms));
      this.waitingCycles.set(pod.metadata.uid ?? info.key, result);
      return { info, profile, result, effects: [], waiting: true };
    }
    return { info, profile, result, effects: fw.bindingActions(state, pod, node), binding: { node, state } };
  }

  /**
   * Pods held at Permit whose wait is over: allowed ones go on to binding (an Attempt like
   * scheduleOne's), rejected or timed-out ones are unreserved, taken off their node and queued
   * as unschedulable, with the rejection as their PodScheduled message and FailedScheduling
   * event (handleBindingCycleError; schedule_one.go).
   */
  resolveWaiting(now_ms: number): Attempt[] {
    const out: Attempt[] = [];
    for (const [profile, fw] of this.frameworks) {
      for (const [uid, w] of [...fw.waitingPods]) {
        w.expire(now_ms);
        if (!w.outcome) continue;
        fw.waitingPods.delete(uid);
        const result = this.waitingCycles.get(uid)!;
        this.waitingCycles.delete(uid);
        if (!w.outcome.status) {
          out.push({ info: w.info, profile, result, effects: fw.bindingActions(w.state, w.pod, w.node), binding: { node: w.node, state: w.state } });
          continue;
        }
        fw.runUnreserve(w.state, w.pod, w.node);
        if (this.assumed.delete(w.info.key)) this.removeAssigned(w.info.key);
        const status = w.outcome.status;
        this.queue.addUnschedulable(w.info, status.plugin ? [status.plugin] : [], now_ms);
        // The room it held is free again: pods that did not fit may now.
        this.queue.moveOnEvent('AssignedPodDelete', now_ms);
        out.push({ info: w.info, profile, result, effects: failureEffects(w.pod, status.reasons.join(', ')) });
      }
    }
    return out;
  }

  /** When the next Permit timeout runs out, if any pod waits. */
  nextPermitDeadline(): number | undefined {
    let next: number | undefined;
    for (const fw of this.frameworks.values()) {
      for (const w of fw.waitingPods.values()) {
        const at = w.nextDeadline_ms;
        if (at !== undefined && (next === undefined || at < next)) next = at;
      }
    }
    return next;
  }

  /** The host made the binding writes: PostBind and the Scheduled event, or undo and retry. */
  bindingDone(attempt: Attempt, ok: boolean, now_ms: number, error?: string): Effect[] {
    const { info, binding } = attempt;
    if (!binding) return [];
    const fw = this.frameworks.get(attempt.profile)!;
    const pod = info.pod;
    if (!ok) {
      // The informer already shows the pod bound (onPod dropped the assumption): the binding went
      // through and only its answer was lost (a connection broken after the write). Undoing it
      // would uncount a running pod and queue it to be bound again — a 409 in backoff for ever.
      if (!this.assumed.has(info.key) && this.assigned.has(info.key)) {
        // Bound elsewhere (another scheduler won): what this cycle reserved is released all the same.
        if (this.assigned.get(info.key) !== binding.node) fw.runUnreserve(binding.state, pod, binding.node);
        this.queue.done(info.key);
        return [];
      }
      fw.runUnreserve(binding.state, pod, binding.node);
      if (this.assumed.delete(info.key)) this.removeAssigned(info.key);
      this.queue.addBackoff(info, now_ms);
      return [{ kind: 'event', pod, type: 'Warning', reason: 'FailedScheduling', message: `Binding rejected: ${error ?? 'unknown error'}` }];
    }
    this.queue.done(info.key);
    const scheduled: Effect = { kind: 'event', pod, type: 'Normal', reason: 'Scheduled', message: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${binding.node}` };
    return [scheduled, ...fw.postBindActions(binding.state, pod, binding.node)];
  }

  private failed(fw: Framework, info: QueuedPodInfo, result: Extract<CycleResult, { kind: 'unschedulable' }>, now_ms: number): Effect[] {
    const pod = info.pod;
    const effects: Effect[] = [];
    const pf = result.postFilter;
    if (pf?.nominatedNode) {
      for (const victim of pf.victims ?? []) effects.push({ kind: 'evict', pod: victim, preemptor: pod, node: pf.nominatedNode });
      effects.push({ kind: 'nominate', pod, node: pf.nominatedNode });
      // Counted on the node from now on, so lower-priority pods leave it the room.
      this.setNomination(info.key, { ...pod, status: { ...(pod.status ?? {}), nominatedNodeName: pf.nominatedNode } });
    }
    this.queue.addUnschedulable(info, result.rejectors, now_ms);
    void fw;
    return [...effects, ...failureEffects(pod, result.message)];
  }

  private assume(pod: Pod, node: string): void {
    const key = podKey(pod);
    this.assumed.add(key);
    this.placeAssigned(key, { ...pod, spec: { ...pod.spec, nodeName: node } }, node);
    this.setNomination(key, undefined);
  }

  private placeAssigned(key: string, pod: Pod, node: string): void {
    const previous = this.assigned.get(key);
    if (previous !== undefined && previous !== node) this.removeAssigned(key);
    this.assigned.set(key, node);
    const info = this.infos.get(node);
    if (hasPodAffinityTerms(pod)) this.affinityLists = undefined;
    if (info) info.addPod(pod);
    else this.orphans.set(key, pod);
  }

  private removeAssigned(key: string): boolean {
    const node = this.assigned.get(key);
    if (node === undefined) return false;
    this.assigned.delete(key);
    this.orphans.delete(key);
    const info = this.infos.get(node);
    if (info) {
      const pod = info.pods.get(key);
      if (pod && hasPodAffinityTerms(pod)) this.affinityLists = undefined;
      if (pod) info.removePod(pod);
    }
    return true;
  }

  private trackNomination(type: WatchType, pod: Pod): void {
    const key = podKey(pod);
    if (type === 'DELETED' || pod.spec.nodeName || !pod.status?.nominatedNodeName) {
      if (type === 'DELETED' || pod.spec.nodeName) this.setNomination(key, undefined);
      return;
    }
    this.setNomination(key, pod);
  }

  private setNomination(key: string, pod: Pod | undefined): void {
    if (!pod && !this.nominations.has(key)) return;
    if (pod) this.nominations.set(key, pod);
    else this.nominations.delete(key);
    this.nominatedByNode = undefined;
  }
}

function failureEffects(pod: Pod, message: string): Effect[] {
  return [
    { kind: 'unschedulable', pod, message },
    { kind: 'event', pod, type: 'Warning', reason: 'FailedScheduling', message },
  ];
}

/** Which kinds of change a node update is (framework.NodeLabelChange, NodeTaintChange, …). */
export function nodeChanges(old: Node, next: Node): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (!same(old.metadata.labels, next.metadata.labels)) out.push('NodeLabelChange');
  if (!same(old.spec?.taints, next.spec?.taints)) out.push('NodeTaintChange');
  if (!same(old.status?.allocatable, next.status?.allocatable)) out.push('NodeAllocatableChange');
  if (Boolean(old.spec?.unschedulable) !== Boolean(next.spec?.unschedulable)) out.push('NodeSchedulableChange');
  return out;
}
