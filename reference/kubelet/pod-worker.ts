/**
 * One pod worker per pod (pkg/kubelet/pod_workers.go): syncs run one at a time per pod, and a
 * change that arrives mid-sync makes one more sync afterwards. A sync is level-based: it reads
 * the runtime's view of the pod and the latest PodSpec and moves one step towards it
 * (kuberuntime_manager.go SyncPod / computePodActions), then reports the status
 * (status_manager.go).
 *
 * Status goes out as upstream's status manager sends it: a sync only sets the pod's latest
 * status; the write happens apart from the sync (SetPodStatus caches it and signals the
 * manager's goroutine, which patches the latest one — "Multiple status updates can be generated
 * before we update the API server", pkg/kubelet/status/status_manager.go updateStatusInternal),
 * one write at a time per pod. So a sync does not wait on the API server before starting the
 * sandbox, and a status superseded before its write went out is never sent. A pod's final
 * status is written before the pod is deleted.
 */
import type { ContainerConfig, ContainerStatus as CriStatus, CriRuntime, PodSandboxConfig } from '../../contract/cri.ts';
import { ANNOTATION_RESTART_COUNT, ANNOTATION_TERMINATION_GRACE, LABEL_CONTAINER_NAME, LABEL_POD_NAME, LABEL_POD_NAMESPACE, LABEL_POD_UID } from '../../contract/cri.ts';
import type { Scheduler } from '../wiring/virtual-clock.ts';
import { CrashBackoff } from './backoff.ts';
import { ProbeWorker, type ProbeKind, type ProbeSpec } from './prober.ts';
import { evictedStatus, podStatus, rfc3339, type ContainerView } from './status.ts';
import type { KubeletApi, ProbeNetwork } from './types.ts';
import type { Faults } from '../faults.ts';

export interface PodWorkerDeps {
  nodeName: string;
  hostIp: string;
  api: KubeletApi;
  runtime: CriRuntime;
  runtimeName: string;
  /** The root of the pods' log directories (KubeletOptions.podLogsDir). */
  podLogsDir: string;
  clock: Scheduler;
  network: ProbeNetwork;
  backoff: CrashBackoff;
  /** Fault models (reference/faults.ts). */
  faults: Faults;
  imageBackoff: CrashBackoff;
  /** When a status write goes out (KubeletOptions.defer); none: at once. */
  defer?: (fn: () => void) => void;
  /** Ask for another sync of this pod (timers, probe changes). */
  enqueue(uid: string): void;
  event(pod: any, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): void;
  log(line: string): void;
}

interface RuntimePod {
  sandbox?: { id: string; ready: boolean; ip?: string; attempt: number };
  /** By container name, newest instance first. */
  containers: Map<string, CriStatus[]>;
}

export class PodWorker {
  /** The pod as the API last showed it; undefined once it is gone from the API. */
  pod: any;
  /** semanticKey of `pod`. */
  private podKey?: string;
  private lastPod: any;
  private running = false;
  private dirty = false;
  private terminal = false;
  done = false;
  private readonly probes = new Map<string, ProbeWorker>();
  private readonly waiting = new Map<string, { reason: string; message?: string }>();
  private readonly kills = new Set<string>();
  private lastStatus?: any;
  private lastWritten = '';
  private startTime?: string;
  private timer?: () => void;
  /** Set when the eviction manager killed the pod: its status is Failed with this reason and message. */
  private eviction?: { reason: string; message: string; at_ms: number };
  /** evict() is stopping the containers within their grace period: a sync reports but must not stop the sandbox (which kills them). */
  private evicting = false;
  /** The latest status not yet written (status manager), and the write loop while it runs. */
  private unwritten?: { namespace: string; name: string; status: any; text: string };
  /** The status being written now, as text. */
  private sending?: string;
  /** Why the last write could not be sent (a broken connection), until a settled report hears of it. */
  private writeError?: Error;
  private writing?: Promise<void>;

  constructor(
    readonly uid: string,
    private readonly deps: PodWorkerDeps,
  ) {}

  /**
   * The pod as the API now shows it. A change of its status alone (the echo of the kubelet's own
   * write, most often) is recorded but starts no sync: upstream's pod config calls it a reconcile,
   * not an update (pkg/kubelet/config/config.go checkAndUpdatePod, podsDifferSemantically: spec,
   * labels, annotations, deletionTimestamp, deletionGracePeriodSeconds), and HandlePodReconcile
   * (pkg/kubelet/kubelet.go) syncs only to fix readiness gates, which this kubelet does not have.
   * Runtime changes still reach the pod through PLEG (relist) and the worker's own timers.
   */
  update(pod: any | undefined): void {
    const key = pod ? semanticKey(pod) : undefined;
    const reconcile = !!this.pod && key !== undefined && key === this.podKey;
    this.podKey = key;
    this.pod = pod;
    if (pod) this.lastPod = pod;
    if (!reconcile) this.kick();
  }

  kick(): void {
    if (this.done) return;
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.dirty = false;
        try {
          await this.sync();
        } catch (error) {
          this.deps.log(`pod ${this.describe()}: sync failed: ${(error as Error).message}`);
          this.later(1000);
        }
      } while (this.dirty && !this.done);
    } finally {
      this.running = false;
    }
  }

  /** Still running as far as the eviction manager is concerned: known to the API, not finishing. */
  get active(): boolean {
    return !this.done && !this.terminal && !!this.pod && !this.pod.metadata?.deletionTimestamp;
  }

  /**
   * Kill the pod to reclaim a resource (eviction_manager.go evictPod → killPodFunc with the
   * grace period override): it is Failed with the eviction's reason at once (the status function
   * of the kill, applied before the containers are stopped), its containers get `grace_s` after
   * SIGTERM — no less than kuberuntime's minimumGracePeriodInSeconds (2 s, killContainer) — and
   * it is not restarted. Resolves once they have stopped.
   */
  async evict(reason: string, message: string, grace_s: number): Promise<void> {
    this.eviction = { reason, message, at_ms: this.deps.clock.now_ms() };
    this.terminal = true;
    this.evicting = true;
    this.stopProbes();
    try {
      const rt = await this.runtimePod();
      await this.report(rt);
      const running = [...rt.containers.values()].map((list) => list[0]!).filter((c) => c.state === 'CONTAINER_RUNNING');
      const timeout = Math.max(grace_s, MINIMUM_GRACE_PERIOD_S);
      await Promise.all(running.map((c) => this.deps.runtime.stopContainer({ containerId: c.id, timeout })));
    } finally {
      this.evicting = false;
      this.kick();
    }
  }

  private describe(): string {
    const m = this.lastPod?.metadata ?? {};
    return `${m.namespace}/${m.name}`;
  }

  private later(delay_ms: number): void {
    this.timer?.();
    this.timer = this.deps.clock.after(delay_ms, () => this.deps.enqueue(this.uid));
  }

  private async sync(): Promise<void> {
    const pod = this.pod;
    if (!pod || pod.metadata?.deletionTimestamp) return this.terminate();
    let rt = await this.runtimePod();
    if (this.terminal) return this.finishTerminal(rt);
    if (!rt.sandbox?.ready) {
      await this.report(rt);
      await this.runSandbox(pod, rt.sandbox ? rt.sandbox.attempt + 1 : 0);
      rt = await this.runtimePod();
    }
    // Fault init-containers-not-waited: the app containers start alongside the first init container.
    const initDone = await this.syncInit(pod, rt);
    if (initDone || this.deps.faults.has('init-containers-not-waited')) await this.syncApp(pod, rt);
    rt = await this.runtimePod();
    this.syncProbes(pod, rt);
    const status = await this.report(rt);
    if (status.phase === 'Succeeded' || status.phase === 'Failed') {
      this.terminal = true;
      await this.finishTerminal(rt);
    }
  }

  // ---- the runtime's view ------------------------------------------------------------------

  private async runtimePod(): Promise<RuntimePod> {
    const selector = { [LABEL_POD_UID]: this.uid };
    const { items } = await this.deps.runtime.listPodSandbox({ filter: { labelSelector: selector } });
    const newest = items.sort((a, b) => b.metadata.attempt - a.metadata.attempt)[0];
    const rt: RuntimePod = { containers: new Map() };
    if (newest) {
      const { status } = await this.deps.runtime.podSandboxStatus({ podSandboxId: newest.id });
      rt.sandbox = { id: newest.id, ready: status.state === 'SANDBOX_READY', attempt: newest.metadata.attempt, ...(status.network?.ip ? { ip: status.network.ip } : {}) };
    }
    const { containers } = await this.deps.runtime.listContainers({ filter: { labelSelector: selector } });
    for (const c of containers) {
      const { status } = await this.deps.runtime.containerStatus({ containerId: c.id });
      const name = c.labels[LABEL_CONTAINER_NAME] ?? c.metadata.name;
      rt.containers.set(name, [...(rt.containers.get(name) ?? []), status].sort((a, b) => b.metadata.attempt - a.metadata.attempt));
    }
    return rt;
  }

  // ---- sandbox and containers --------------------------------------------------------------

  private sandboxConfig(pod: any, attempt: number): PodSandboxConfig {
    const m = pod.metadata;
    return {
      metadata: { name: m.name, namespace: m.namespace, uid: m.uid, attempt },
      // A host-network pod gets no hostname of its own: it has the node's UTS namespace
      // (kuberuntime_sandbox.go generatePodSandboxConfig sets Hostname only off the host network).
      ...(pod.spec?.hostNetwork ? {} : { hostname: m.name }),
      logDirectory: `${this.deps.podLogsDir}/${m.namespace}_${m.name}_${m.uid}`,
      labels: { [LABEL_POD_NAME]: m.name, [LABEL_POD_NAMESPACE]: m.namespace, [LABEL_POD_UID]: m.uid, ...(m.labels ?? {}) },
      annotations: { ...(m.annotations ?? {}) },
      // The PID namespace is the pod's only with shareProcessNamespace (kuberuntime_sandbox.go,
      // security_context_others.go pidNamespaceForPod); network and IPC are always the pod's.
      linux: { securityContext: { namespaceOptions: { network: pod.spec?.hostNetwork ? 'NODE' : 'POD', ipc: 'POD', pid: pod.spec?.shareProcessNamespace ? 'POD' : 'CONTAINER' } } },
    };
  }

  private async runSandbox(pod: any, attempt: number): Promise<void> {
    await this.deps.runtime.runPodSandbox({ config: this.sandboxConfig(pod, attempt) });
    this.startTime ??= rfc3339(this.deps.clock.now_ms());
  }

  /** Init containers in order; true when all have succeeded. */
  private async syncInit(pod: any, rt: RuntimePod): Promise<boolean> {
    for (const spec of pod.spec?.initContainers ?? []) {
      const [latest] = rt.containers.get(spec.name) ?? [];
      if (!latest) {
        await this.start(pod, rt, spec, 0);
        return false;
      }
      if (latest.state !== 'CONTAINER_EXITED') return false;
      if (latest.exitCode === 0) continue;
      if ((pod.spec.restartPolicy ?? 'Always') === 'Never') return false;
      await this.restart(pod, rt, spec, latest);
      return false;
    }
    return true;
  }

  private async syncApp(pod: any, rt: RuntimePod): Promise<void> {
    const policy = pod.spec?.restartPolicy ?? 'Always';
    for (const spec of pod.spec?.containers ?? []) {
      const [latest] = rt.containers.get(spec.name) ?? [];
      if (!latest) {
        await this.start(pod, rt, spec, 0);
        continue;
      }
      if (latest.state === 'CONTAINER_RUNNING') {
        await this.killIfUnhealthy(pod, spec, latest);
        continue;
      }
      if (latest.state !== 'CONTAINER_EXITED') continue;
      const restart = policy === 'Always' || (policy === 'OnFailure' && latest.exitCode !== 0);
      if (restart) await this.restart(pod, rt, spec, latest);
    }
  }

  private async restart(pod: any, rt: RuntimePod, spec: any, latest: CriStatus): Promise<void> {
    const key = `${this.uid}/${spec.name}`;
    const finished_ms = Math.floor(latest.finishedAt / 1_000_000);
    const now = this.deps.clock.now_ms();
    // Fault crashloop-no-backoff: every exit restarts at once.
    const remaining = this.deps.faults.has('crashloop-no-backoff') ? 0 : this.deps.backoff.remaining(key, finished_ms, now);
    if (remaining > 0) {
      const delay_s = this.deps.backoff.delay(key) / 1000;
      const message = `back-off ${delay_s}s restarting failed container=${spec.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${this.uid})`;
      if (this.waiting.get(spec.name)?.reason !== 'CrashLoopBackOff') this.deps.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container', fieldPath(pod, spec.name));
      this.waiting.set(spec.name, { reason: 'CrashLoopBackOff', message });
      this.later(remaining);
      return;
    }
    this.deps.backoff.next(key, finished_ms, now);
    await this.start(pod, rt, spec, latest.metadata.attempt + 1);
  }

  private async start(pod: any, rt: RuntimePod, spec: any, attempt: number): Promise<void> {
    // A pod evicted while this sync ran starts nothing more.
    if (!rt.sandbox || this.terminal) return;
    if (!(await this.ensureImage(pod, spec))) return;
    // Keep the newest exited instance (the last state); remove older ones (MaxPerPodContainer 1).
    for (const old of (rt.containers.get(spec.name) ?? []).slice(1)) await this.deps.runtime.removeContainer({ containerId: old.id });
    const sandboxConfig = this.sandboxConfig(pod, rt.sandbox.attempt);
    const { containerId } = await this.deps.runtime.createContainer({ podSandboxId: rt.sandbox.id, config: this.containerConfig(pod, spec, attempt), sandboxConfig });
    this.deps.event(pod, 'Normal', 'Created', `Created container ${spec.name}`, fieldPath(pod, spec.name));
    await this.deps.runtime.startContainer({ containerId });
    this.waiting.delete(spec.name);
    this.deps.event(pod, 'Normal', 'Started', `Started container ${spec.name}`, fieldPath(pod, spec.name));
  }

  private containerConfig(pod: any, spec: any, attempt: number): ContainerConfig {
    const m = pod.metadata;
    const limit = memoryBytes(spec.resources?.limits?.memory);
    return {
      metadata: { name: spec.name, attempt },
      image: { image: spec.image },
      command: spec.command ?? [],
      args: spec.args ?? [],
      ...(spec.workingDir ? { workingDir: spec.workingDir } : {}),
      envs: (spec.env ?? []).filter((e: any) => typeof e.value === 'string').map((e: any) => ({ key: e.name, value: e.value })),
      labels: { [LABEL_POD_NAME]: m.name, [LABEL_POD_NAMESPACE]: m.namespace, [LABEL_POD_UID]: m.uid, [LABEL_CONTAINER_NAME]: spec.name },
      annotations: { [ANNOTATION_RESTART_COUNT]: String(attempt), [ANNOTATION_TERMINATION_GRACE]: String(pod.spec?.terminationGracePeriodSeconds ?? 30) },
      logPath: `${spec.name}/${attempt}.log`,
      linux: { ...(limit ? { resources: { memoryLimitInBytes: limit } } : {}), securityContext: { namespaceOptions: { pid: pod.spec?.shareProcessNamespace ? 'POD' : 'CONTAINER' } } },
    };
  }

  /** Pull unless present (imagePullPolicy is honoured as IfNotPresent); failures back off as ErrImagePull → ImagePullBackOff. */
  private async ensureImage(pod: any, spec: any): Promise<boolean> {
    const image = { image: spec.image };
    if ((await this.deps.runtime.imageStatus({ image })).image) return true;
    const key = `${this.uid}/${spec.name}/image`;
    const now = this.deps.clock.now_ms();
    const remaining = this.deps.imageBackoff.remaining(key, now, now);
    if (remaining > 0 && this.waiting.has(spec.name)) {
      this.waiting.set(spec.name, { reason: 'ImagePullBackOff', message: `Back-off pulling image "${spec.image}"` });
      this.later(remaining);
      return false;
    }
    try {
      this.deps.event(pod, 'Normal', 'Pulling', `Pulling image "${spec.image}"`, fieldPath(pod, spec.name));
      await this.deps.runtime.pullImage({ image });
      this.deps.event(pod, 'Normal', 'Pulled', `Successfully pulled image "${spec.image}"`, fieldPath(pod, spec.name));
      return true;
    } catch (error) {
      this.deps.imageBackoff.next(key, now, now);
      this.waiting.set(spec.name, { reason: 'ErrImagePull', message: (error as Error).message });
      this.deps.event(pod, 'Warning', 'Failed', `Failed to pull image "${spec.image}": ${(error as Error).message}`, fieldPath(pod, spec.name));
      this.later(this.deps.imageBackoff.delay(key));
      return false;
    }
  }

  // ---- probes ------------------------------------------------------------------------------

  private syncProbes(pod: any, rt: RuntimePod): void {
    const live = new Set<string>();
    for (const spec of pod.spec?.containers ?? []) {
      const [latest] = rt.containers.get(spec.name) ?? [];
      if (!latest || latest.state !== 'CONTAINER_RUNNING') continue;
      for (const [kind, probe] of probeSpecs(spec)) {
        const key = `${latest.id}/${kind}`;
        live.add(key);
        if (this.probes.has(key)) continue;
        const target = { containerId: latest.id, podIp: rt.sandbox?.ip ?? '', ports: spec.ports ?? [], startedAt_ms: Math.floor(latest.startedAt / 1_000_000) };
        this.probes.set(key, new ProbeWorker(kind, probe, target, this.deps, {
          onChange: () => this.deps.enqueue(this.uid),
          onFailure: (k, outcome) => this.deps.event(pod, 'Warning', 'Unhealthy', `${capitalised(k)} probe failed: ${outcome.output}`, fieldPath(pod, spec.name)),
          started: () => this.started(latest.id, spec),
        }));
      }
    }
    for (const [key, worker] of this.probes) {
      if (live.has(key)) continue;
      worker.stop();
      this.probes.delete(key);
    }
  }

  private started(containerId: string, spec: any): boolean {
    return !spec.startupProbe || this.probes.get(`${containerId}/startup`)?.result === 'success';
  }

  private ready(containerId: string, spec: any): boolean {
    if (!this.started(containerId, spec)) return false;
    // Fault readiness-ignored: a running container is ready whatever its readiness probe says.
    return !spec.readinessProbe || this.deps.faults.has('readiness-ignored') || this.probes.get(`${containerId}/readiness`)?.result === 'success';
  }

  /** A failed liveness or startup probe: kill with the probe's grace, else the pod's (KEP-2238). */
  private async killIfUnhealthy(pod: any, spec: any, c: CriStatus): Promise<void> {
    if (this.kills.has(c.id)) return;
    // Fault liveness-never-restarts: a failed liveness result is reported but kills nothing.
    const kinds = this.deps.faults.has('liveness-never-restarts') ? (['startup'] as const) : (['liveness', 'startup'] as const);
    const failed = kinds.find((k) => this.probes.get(`${c.id}/${k}`)?.result === 'failure');
    if (!failed) return;
    this.kills.add(c.id);
    const probe = failed === 'liveness' ? spec.livenessProbe : spec.startupProbe;
    const grace = probe?.terminationGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    this.deps.event(pod, 'Normal', 'Killing', `Container ${spec.name} failed ${failed} probe, will be restarted`, fieldPath(pod, spec.name));
    // The stop runs on; the exit reaches the pod worker through the relist.
    void this.deps.runtime.stopContainer({ containerId: c.id, timeout: grace }).catch(() => {});
  }

  // ---- status ------------------------------------------------------------------------------

  private views(pod: any, rt: RuntimePod, specs: any[], isInit: boolean, initDone: boolean): Map<string, ContainerView> {
    const out = new Map<string, ContainerView>();
    for (const spec of specs) {
      const instances = rt.containers.get(spec.name) ?? [];
      const latest = instances[0];
      const running = latest?.state === 'CONTAINER_RUNNING';
      let waiting = this.waiting.get(spec.name);
      if (!waiting && !latest && !isInit && !initDone) waiting = { reason: 'PodInitializing' };
      out.set(spec.name, {
        instances,
        ...(waiting ? { waiting } : {}),
        ready: running && this.ready(latest!.id, spec),
        started: running && this.started(latest!.id, spec),
      });
    }
    return out;
  }

  /** Sets the pod's status from the runtime's view; with `settle`, returns once it is written. */
  private async report(rt: RuntimePod, settle = false): Promise<any> {
    const pod = this.pod ?? this.lastPod;
    const initSpecs = pod.spec?.initContainers ?? [];
    const init = this.views(pod, rt, initSpecs, true, false);
    const initDone = initSpecs.every((s: any) => init.get(s.name)?.instances[0]?.state === 'CONTAINER_EXITED' && init.get(s.name)?.instances[0]?.exitCode === 0);
    const app = this.views(pod, rt, pod.spec?.containers ?? [], false, initDone);
    const base = { ...pod, status: this.lastStatus ?? pod.status };
    let status = podStatus({
      pod: base, hostIp: this.deps.hostIp, runtimeName: this.deps.runtimeName, init, app, sandboxReady: !!rt.sandbox?.ready,
      ...(rt.sandbox?.ip ? { podIp: rt.sandbox.ip } : {}), ...(this.startTime ? { startTime: this.startTime } : {}),
    }, this.deps.clock.now_ms());
    if (this.terminal && this.lastStatus) status.phase = this.lastStatus.phase;
    if (this.eviction) status = evictedStatus(status, this.eviction.reason, this.eviction.message, this.deps.clock.now_ms(), this.eviction.at_ms);
    const text = JSON.stringify(status);
    // The latest status replaces any not yet sent; one equal to what the API has (or is being sent) needs no write.
    this.unwritten = text !== (this.sending ?? this.lastWritten) && this.pod ? { namespace: pod.metadata.namespace, name: pod.metadata.name, status, text } : undefined;
    if (this.unwritten) {
      this.writeError = undefined;
      this.writing ??= this.writeStatuses();
    }
    this.lastStatus = status;
    if (settle) await this.statusWritten();
    return status;
  }

  /**
   * The status manager's loop for this pod: writes the latest status until none is left. A write
   * that fails is logged and the pod synced again in a second, which sets its status again.
   */
  private async writeStatuses(): Promise<void> {
    try {
      if (this.deps.defer) await new Promise<void>((go) => this.deps.defer!(go));
      for (let next = this.unwritten; next; next = this.unwritten) {
        this.unwritten = undefined;
        this.sending = next.text;
        const res = await this.deps.api.patchPodStatus(next.namespace, next.name, this.uid, next.status);
        if (res.status === 200) this.lastWritten = next.text;
        else {
          this.deps.log(`pod ${this.describe()}: status patch answered ${res.status}`);
          // A refusal (429 past the client's retries, a 5xx) leaves the status unwritten, and
          // nothing else may ever sync this pod again (a container that keeps running changes
          // nothing PLEG sees): sync in a second, as after a broken connection, so the status is
          // sent again — upstream's status manager re-sends every status the API does not have yet
          // (status_manager.go syncBatch). Not after 404 (the pod is gone) nor 409 (its uid
          // precondition failed: a pod of that name replaced it), where upstream gives up too.
          if (res.status !== 404 && res.status !== 409 && !this.done) this.later(1000);
        }
        this.sending = undefined;
      }
    } catch (error) {
      this.unwritten = undefined;
      this.writeError = error as Error;
      this.deps.log(`pod ${this.describe()}: status patch failed: ${(error as Error).message}`);
      if (!this.done) this.later(1000);
    } finally {
      this.sending = undefined;
      this.writing = undefined;
    }
  }

  /** Resolves once no status write is pending or under way; rejects if the last one could not be sent. */
  private async statusWritten(): Promise<void> {
    while (this.writing) await this.writing;
    const error = this.writeError;
    this.writeError = undefined;
    if (error) throw error;
  }

  // ---- the end of a pod --------------------------------------------------------------------

  /** Succeeded or Failed: nothing restarts; the sandbox goes (kubelet killPod for terminal pods). */
  private async finishTerminal(rt: RuntimePod): Promise<void> {
    this.stopProbes();
    // Being evicted (a sync that began before evict() too): report, but leave the sandbox, whose
    // stop would kill the containers still in their grace period; evict() finishes the pod.
    if (this.evicting) return void (await this.report(rt));
    if (rt.sandbox?.ready) await this.deps.runtime.stopPodSandbox({ podSandboxId: rt.sandbox.id });
    await this.report(await this.runtimePod(), true);
  }

  /**
   * Deletion: SIGTERM every container with the grace the API gave the pod (deletionGracePeriodSeconds),
   * SIGKILL when it ends (the runtime's StopContainer timeout), stop the sandbox, report, then
   * confirm with a delete of grace 0 (status_manager.go canBeDeleted → DELETE gracePeriod 0, uid precondition).
   */
  private async terminate(): Promise<void> {
    this.stopProbes();
    const pod = this.pod ?? this.lastPod;
    const grace = this.pod ? (pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30) : 0;
    const rt = await this.runtimePod();
    const running = [...rt.containers.values()].map((list) => list[0]!).filter((c) => c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED');
    for (const c of running) this.deps.event(pod, 'Normal', 'Killing', `Stopping container ${c.metadata.name}`, fieldPath(pod, c.metadata.name));
    await Promise.all(running.map((c) => this.deps.runtime.stopContainer({ containerId: c.id, timeout: grace })));
    if (rt.sandbox) await this.deps.runtime.stopPodSandbox({ podSandboxId: rt.sandbox.id });
    if (this.pod) {
      await this.report(await this.runtimePod(), true);
      await this.deps.api.deletePod(pod.metadata.namespace, pod.metadata.name, this.uid);
    } else {
      // Gone from the API: a status still waiting would only be refused.
      this.unwritten = undefined;
      await this.statusWritten().catch(() => {});
    }
    const after = await this.deps.runtime.listPodSandbox({ filter: { labelSelector: { [LABEL_POD_UID]: this.uid } } });
    for (const s of after.items) await this.deps.runtime.removePodSandbox({ podSandboxId: s.id });
    this.deps.backoff.forget(`${this.uid}/`);
    this.timer?.();
    this.done = true;
  }

  private stopProbes(): void {
    for (const w of this.probes.values()) w.stop();
    this.probes.clear();
  }
}

function probeSpecs(spec: any): [ProbeKind, ProbeSpec][] {
  const out: [ProbeKind, ProbeSpec][] = [];
  if (spec.startupProbe) out.push(['startup', spec.startupProbe]);
  if (spec.livenessProbe) out.push(['liveness', spec.livenessProbe]);
  if (spec.readinessProbe) out.push(['readiness', spec.readinessProbe]);
  return out;
}

/** What of a pod makes a change of it an update for the kubelet (config.go podsDifferSemantically). */
function semanticKey(pod: any): string {
  const m = pod.metadata ?? {};
  return JSON.stringify([pod.spec, m.labels, m.annotations, m.deletionTimestamp, m.deletionGracePeriodSeconds]);
}

function capitalised(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

function fieldPath(pod: any, container: string): string {
  const init = (pod.spec?.initContainers ?? []).some((c: any) => c.name === container);
  return `spec.${init ? 'initContainers' : 'containers'}{${container}}`;
}

/** kuberuntime_manager.go minimumGracePeriodInSeconds: the least a container gets between SIGTERM and SIGKILL (killContainer). */
const MINIMUM_GRACE_PERIOD_S = 2;

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

function memoryBytes(q: unknown): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(String(q ?? ''));
  return m && UNITS[m[2]!] !== undefined ? Math.round(Number(m[1]) * UNITS[m[2]!]!) : undefined;
}
