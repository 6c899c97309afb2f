/**
 * The kubelet: the node's agent. It registers its Node, renews its Lease, watches the pods bound
 * to it — through the API server only, as `system:node:<name>` — and runs one pod worker per
 * pod against its CRI runtime. Upstream: pkg/kubelet/kubelet.go (syncLoop), kubelet_node_status.go
 * (registerWithAPIServer, node status every 5 min with leases on), pkg/kubelet/nodelease
 * (renew every 10 s, a quarter of the 40 s lease), pkg/kubelet/pleg/generic.go (relist every 1 s).
 *
 * Pure core: the API, runtime, clock and probe network are injected (types.ts).
 */
import { Informer } from '../controllers/informer.ts';
import { LABEL_CONTAINER_NAME, LABEL_POD_NAME, LABEL_POD_NAMESPACE, LABEL_POD_UID } from '../../contract/cri.ts';
import { CrashBackoff } from './backoff.ts';
import { NO_FAULTS } from '../faults.ts';
import { PodWorker } from './pod-worker.ts';
import { rfc3339 } from './status.ts';
import { KUBELET_VERSION, type KubeletOptions } from './types.ts';
import { EVENT_RECORDER, eventName, microTime, rfc3339Nano } from '../timestamps.ts';
import { EVICTED_REASON, EVICTION_MONITORING_MS, parseBytes, type PodUsage } from './eviction/memory.ts';
import { EvictionManager } from './eviction/manager.ts';

export const LEASE_DURATION_S = 40;
export const LEASE_RENEW_MS = 10_000;
export const NODE_STATUS_REPORT_MS = 5 * 60_000;
export const RELIST_MS = 1_000;
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Upstream's default --pod-logs-dir (pkg/kubelet/kubelet.go podLogsRootDirectory). */
export const POD_LOGS_DIR = '/var/log/pods';
const DEFAULT_CAPACITY: Record<string, string> = { cpu: '4', memory: '8Gi', pods: '110' };

export class Kubelet {
  private readonly workers = new Map<string, PodWorker>();
  private informer?: Informer;
  private readonly cancels: (() => void)[] = [];
  private readonly backoff = new CrashBackoff();
  private readonly imageBackoff = new CrashBackoff();
  private lastStates = new Map<string, string>();
  private runtimeName = 'unknown';
  private runtimeVersion = '';
  private stopped = false;
  private relisting = false;
  private eventCount = 0;
  private readonly eviction: EvictionManager;
  /** A pass of the eviction loop is under way: upstream's loop is serial (eviction_manager.go Start). */
  private synchronizing = false;
  /** The Lease as this kubelet last wrote it, for the next renewal's optimistic update. */
  private latestLease: any;
  private memoryPressure = false;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: KubeletOptions) {
    this.log = opts.log ?? (() => {});
    // A bad eviction configuration stops the kubelet before it starts (ParseThresholdConfig in kubelet's run).
    this.eviction = new EvictionManager(opts);
  }

  get nodeName(): string {
    return this.opts.nodeName;
  }

  /** The node's address: its name, as `kubespec serve`'s nodes have no other. */
  get hostIp(): string {
    return '127.0.0.1';
  }

  async start(): Promise<void> {
    // The kubelet speaks CRI v1 only: a runtime that does not serve runtime.v1.RuntimeService
    // (a Docker Engine socket, a v1alpha2-only runtime) ends its start (remote_runtime.go
    // validateServiceConnection: "validate CRI v1 runtime API for endpoint").
    const version = await this.opts.runtime.version({ version: 'v1' }).catch((error: Error) => {
      throw new Error(`validate service connection: validate CRI v1 runtime API (runtime.v1.RuntimeService) for the runtime endpoint: ${error.message}`);
    });
    this.runtimeName = version.runtimeName;
    await this.registerNode(`${version.runtimeName}://${version.runtimeVersion}`);
    await this.renewLease();
    this.every(this.opts.leaseRenew_ms ?? LEASE_RENEW_MS, () => this.renewLease());
    this.every(NODE_STATUS_REPORT_MS, () => this.reportNodeStatus());
    this.informer = new Informer({
      resource: 'pods',
      listWatcher: this.opts.api.pods,
      timers: this.opts.clock,
      random: this.opts.random,
      onEvent: (e) => this.onPod(e.type === 'DELETED' ? undefined : e.object, e.object),
      log: this.log,
    });
    await this.informer.start();
    this.every(this.opts.relist_ms ?? RELIST_MS, () => this.relist());
    if (this.eviction.enabled) this.every(EVICTION_MONITORING_MS, () => this.synchronizeEviction());
  }

  stop(): void {
    this.stopped = true;
    this.informer?.stop();
    for (const cancel of this.cancels.splice(0)) cancel();
  }

  /**
   * The kubelet's /containerLogs/{namespace}/{pod}/{container} (server/server.go getContainerLogs):
   * the newest instance's output, or the one before it with `previous`; 400 with upstream's
   * wording when there is nothing to show yet.
   */
  async containerLogs(namespace: string, pod: string, container: string, opts: { previous: boolean; tailLines?: number; timestamps: boolean }): Promise<{ status: number; text: string }> {
    const { containers } = await this.opts.runtime.listContainers({ filter: { labelSelector: { [LABEL_POD_NAMESPACE]: namespace, [LABEL_POD_NAME]: pod, [LABEL_CONTAINER_NAME]: container } } });
    const sorted = containers.sort((a, b) => b.metadata.attempt - a.metadata.attempt);
    const chosen = opts.previous ? sorted[1] : sorted[0];
    if (!chosen) {
      return { status: 400, text: opts.previous ? `previous terminated container "${container}" in pod "${pod}" not found` : `container "${container}" in pod "${pod}" is waiting to start: ContainerCreating` };
    }
    let lines = (this.opts.readLog?.(chosen.id) ?? []).map((l) => (opts.timestamps ? `${rfc3339Nano(l.at_ms)} ${l.text}` : l.text));
    if (opts.tailLines !== undefined) lines = lines.slice(Math.max(0, lines.length - opts.tailLines));
    return { status: 200, text: lines.map((l) => `${l}\n`).join('') };
  }


  private every(interval_ms: number, fn: () => Promise<void> | void): void {
    let cancel = () => {};
    const arm = () => {
      cancel = this.opts.clock.after(interval_ms, () => {
        if (this.stopped) return;
        arm();
        void Promise.resolve(fn()).catch((e) => this.log(`kubelet ${this.nodeName}: ${(e as Error).message}`));
      });
    };
    arm();
    this.cancels.push(() => cancel());
  }

  // ---- pods --------------------------------------------------------------------------------

  private onPod(pod: any | undefined, last: any): void {
    const uid = last?.metadata?.uid;
    if (!uid) return;
    let worker = this.workers.get(uid);
    if (!worker) {
      if (!pod) return;
      worker = new PodWorker(uid, {
        nodeName: this.nodeName, hostIp: this.hostIp, api: this.opts.api, runtime: this.opts.runtime, runtimeName: this.runtimeName,
        podLogsDir: this.opts.podLogsDir ?? POD_LOGS_DIR,
        clock: this.opts.clock, network: this.opts.network, backoff: this.backoff, imageBackoff: this.imageBackoff, faults: this.opts.faults ?? NO_FAULTS,
        ...(this.opts.defer ? { defer: this.opts.defer } : {}),
        enqueue: (id) => this.enqueue(id),
        event: (p, type, reason, message, fieldPath) => this.event(p, type, reason, message, fieldPath),
        log: this.log,
      });
      this.workers.set(uid, worker);
    }
    worker.update(pod);
  }

  private enqueue(uid: string): void {
    if (this.stopped) return;
    const w = this.workers.get(uid);
    if (!w) return;
    if (w.done) this.workers.delete(uid);
    else w.kick();
  }

  /**
   * PLEG: list the runtime's containers, and wake the worker of every pod whose containers
   * changed state. Sandboxes and containers without the kubelet's pod-uid label are not its
   * own and are left alone; its own whose pod is unknown are removed.
   */
  private async relist(): Promise<void> {
    if (this.relisting) return;
    this.relisting = true;
    try {
      for (const [uid, w] of this.workers) if (w.done) this.workers.delete(uid);
      const { containers } = await this.opts.runtime.listContainers({});
      const states = new Map<string, string>();
      for (const c of containers) {
        const uid = c.labels[LABEL_POD_UID];
        if (!uid) continue;
        states.set(c.id, c.state);
        if (this.lastStates.get(c.id) !== c.state) this.enqueue(uid);
      }
      this.lastStates = states;
      await this.removeOrphans();
    } finally {
      this.relisting = false;
    }
  }

  private async removeOrphans(): Promise<void> {
    const { items } = await this.opts.runtime.listPodSandbox({});
    for (const s of items) {
      const uid = s.labels[LABEL_POD_UID];
      if (!uid || this.workers.has(uid)) continue;
      await this.opts.runtime.stopPodSandbox({ podSandboxId: s.id });
      await this.opts.runtime.removePodSandbox({ podSandboxId: s.id });
    }
  }

  private event(pod: any, type: string, reason: string, message: string, fieldPath?: string): void {
    const now = rfc3339(this.opts.clock.now_ms());
    const m = pod.metadata;
    const name = eventName(m.name, this.opts.clock.now_ms(), EVENT_RECORDER.kubelet, this.eventCount++);
    const event = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name, namespace: m.namespace },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: m.namespace, name: m.name, uid: m.uid, ...(fieldPath ? { fieldPath } : {}) },
      reason, message, type, count: 1, firstTimestamp: now, lastTimestamp: now,
      source: { component: 'kubelet', host: this.nodeName }, reportingComponent: 'kubelet', reportingInstance: this.nodeName,
    };
    void this.opts.api.createEvent(m.namespace, event).catch(() => {});
  }

  // ---- node-pressure eviction (eviction/memory.ts) -------------------------------------------

  private memoryCapacity_bytes(): number {
    return parseBytes(this.opts.capacity?.memory ?? DEFAULT_CAPACITY.memory!) ?? 0;
  }

  /**
   * eviction_manager.go synchronize, for memory.available (eviction/manager.ts): observe, update
   * the MemoryPressure condition, and once a threshold has held for its grace period evict one
   * pod per period. A pass that evicts waits for the pod's containers to stop before the next
   * pass runs, as upstream's killPodNow and waitForPodsCleanup hold the loop.
   */
  private async synchronizeEviction(): Promise<void> {
    if (this.synchronizing) return;
    this.synchronizing = true;
    try {
      await this.synchronizeEvictionOnce();
    } finally {
      this.synchronizing = false;
    }
  }

  private async synchronizeEvictionOnce(): Promise<void> {
    const capacity = this.memoryCapacity_bytes();
    const available = capacity - (await this.opts.machineMemory?.() ?? 0);
    const { memoryPressure, acting } = this.eviction.observe(available, capacity, this.opts.clock.now_ms());
    if (memoryPressure !== this.memoryPressure) {
      this.memoryPressure = memoryPressure;
      await this.reportNodeStatus();
    }
    if (!acting) return;
    const chosen = this.eviction.choose(acting, await this.podUsage(), available);
    for (const s of chosen?.skipped ?? []) this.log(`kubelet ${this.nodeName}: eviction manager: cannot evict a critical pod ${s.pod.metadata.namespace}/${s.pod.metadata.name}`);
    if (!chosen) return;
    this.event(chosen.candidate.pod, 'Warning', EVICTED_REASON, chosen.message);
    await this.workers.get(chosen.candidate.pod.metadata.uid)?.evict(EVICTED_REASON, chosen.message, chosen.grace_s);
  }

  /** The active pods with their containers' working sets from the runtime (CRI ListContainerStats). */
  private async podUsage(): Promise<PodUsage[]> {
    const byPod = new Map<string, Map<string, number>>();
    const { stats } = (await this.opts.runtime.listContainerStats?.({})) ?? { stats: [] };
    for (const s of stats) {
      const uid = s.attributes.labels[LABEL_POD_UID];
      if (!uid || !s.memory) continue;
      const name = s.attributes.labels[LABEL_CONTAINER_NAME] ?? s.attributes.metadata.name;
      const usage = byPod.get(uid) ?? new Map<string, number>();
      usage.set(name, (usage.get(name) ?? 0) + s.memory.workingSetBytes.value);
      byPod.set(uid, usage);
    }
    return [...this.workers.values()].filter((w) => w.active).map((w) => ({ pod: w.pod, ...(byPod.has(w.uid) ? { usage: byPod.get(w.uid)! } : {}) }));
  }

  // ---- the Node and its Lease ----------------------------------------------------------------

  private nodeStatus(runtimeVersion?: string): any {
    const now = rfc3339(this.opts.clock.now_ms());
    const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now });
    const capacity = this.opts.capacity ?? DEFAULT_CAPACITY;
    // setters.go MemoryPressureCondition.
    const memory = this.memoryPressure
      ? cond('MemoryPressure', 'True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available')
      : cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available');
    return {
      capacity, allocatable: capacity,
      addresses: [{ type: 'InternalIP', address: this.hostIp }, { type: 'Hostname', address: this.nodeName }],
      conditions: [
        memory,
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      nodeInfo: {
        kubeletVersion: this.opts.version ?? KUBELET_VERSION, kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64',
        containerRuntimeVersion: runtimeVersion ?? '', machineID: this.nodeName, systemUUID: this.nodeName, bootID: this.nodeName,
        kernelVersion: '', osImage: 'kubespec fake node',
      },
    };
  }

  private async registerNode(runtimeVersion: string): Promise<void> {
    const name = this.nodeName;
    const node = {
      apiVersion: 'v1', kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
      spec: this.opts.registerWithTaints?.length ? { taints: this.opts.registerWithTaints } : {},
      status: this.nodeStatus(runtimeVersion),
    };
    const res = await this.opts.api.createNode(node);
    if (res.status !== 201 && res.status !== 409) throw new Error(`kubelet ${name}: registering the node answered ${res.status}: ${JSON.stringify(res.body?.message ?? '')}`);
    this.runtimeVersion = runtimeVersion;
    await this.reportNodeStatus();
  }

  private async reportNodeStatus(): Promise<void> {
    const res = await this.opts.api.patchNodeStatus(this.nodeName, this.nodeStatus(this.runtimeVersion));
    if (res.status !== 200) this.log(`kubelet ${this.nodeName}: node status answered ${res.status}`);
  }

  /**
   * The node lease controller's sync (k8s.io/component-helpers/apimachinery/lease/controller.go):
   * the Lease this kubelet last wrote is updated as it was ("we can optimistically assume it
   * didn't change since our last update ... Thanks to it we avoid GET call"), one PUT a renewal;
   * when that fails (409: another agent wrote it; any error) it is read, or created, first.
   */
  private async renewLease(): Promise<void> {
    const renewTime = microTime(this.opts.clock.now_ms());
    const latest = this.latestLease;
    this.latestLease = undefined;
    if (latest && (await this.updateLease(latest, renewTime))) return;
    const got = await this.opts.api.getLease(this.nodeName);
    if (got.status === 404) {
      const node = await this.opts.api.getNode(this.nodeName);
      const owner = node.body?.metadata?.uid ? [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: node.body.metadata.uid }] : undefined;
      const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.nodeName, namespace: NODE_LEASE_NAMESPACE, ...(owner ? { ownerReferences: owner } : {}) }, spec: { holderIdentity: this.nodeName, leaseDurationSeconds: LEASE_DURATION_S, renewTime } };
      const res = await this.opts.api.createLease(lease);
      if (res.status === 201) this.latestLease = res.body;
      else if (res.status !== 409) this.log(`kubelet ${this.nodeName}: lease create answered ${res.status}`);
      return;
    }
    if (got.status !== 200) return this.log(`kubelet ${this.nodeName}: lease get answered ${got.status}`);
    if (!(await this.updateLease(got.body, renewTime))) this.log(`kubelet ${this.nodeName}: lease update failed`);
  }

  /** PUT the Lease with this renewal (at its resourceVersion); remembers what the server answered. */
  private async updateLease(current: any, renewTime: string): Promise<boolean> {
    const lease = { ...current, spec: { ...(current.spec ?? {}), holderIdentity: this.nodeName, leaseDurationSeconds: LEASE_DURATION_S, renewTime } };
    const res = await this.opts.api.updateLease(lease);
    if (res.status !== 200) return false;
    this.latestLease = res.body;
    return true;
  }
}
