/**
 * The reference kube-scheduler: hosts the pure core of reference/scheduler/ — feeds it from
 * informers and makes the writes its cycles ask for — and reaches the cluster only through the
 * API server, as system:kube-scheduler (bootstrap-policy.ts gives that user upstream's role).
 *
 * - Caches: informers (reference/controllers/informer.ts: list, then watch) on nodes, pods and
 *   PodDisruptionBudgets. Like upstream's, the pod informer sees every pod: the unbound ones are
 *   the queue's, the bound ones fill the cache of what each node holds.
 * - Cycles run one at a time in a microtask whenever the active queue has pods; the binding
 *   writes of a cycle are sent without waiting (upstream's binding cycle runs in its own
 *   goroutine), the pod being "assumed" on its node meanwhile.
 * - Writes: POST pods/binding; PATCH pods/status for the PodScheduled=False condition and for
 *   status.nominatedNodeName; DELETE of preemption victims; core/v1 Events `Scheduled`,
 *   `FailedScheduling` and `Preempted` from `default-scheduler`.
 * - Timers: the backoff queue is flushed every second (flushBackoffQCompleted runs every 1 s).
 */
import { Informer } from '../controllers/informer.ts';
import type { CacheEvent } from '../controllers/types.ts';
import { SchedulerCore, type Attempt, type Effect } from '../scheduler/scheduler.ts';
import { defaultProfile, inTreeRegistry, type Profile, type Registry } from '../scheduler/framework.ts';
import { extensionPointRecorder, NAME as RECORDER } from '../scheduler/plugins/extensionrecorder/index.ts';
import type { Pod } from '../scheduler/types.ts';
import type { WorkloadResource } from '../scheduler/default-selector.ts';
import type { ApiClient } from './api-client.ts';
import type { Scheduler as Timers } from './virtual-clock.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';
import { EVENT_RECORDER, eventName } from '../timestamps.ts';

export const SCHEDULER_COMPONENT = 'default-scheduler';

/**
 * The reference's KubeSchedulerConfiguration: upstream's default profile, and a second profile
 * `kubespec-recorder` that adds the out-of-tree ExtensionPointRecorder at every point (and binds
 * with it instead of DefaultBinder), for the scenarios about the framework itself.
 */
export const RECORDER_PROFILE = 'kubespec-recorder';
export function referenceProfiles(): Profile[] {
  const points = ['preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'postBind'] as const;
  const recorder: Profile = defaultProfile(RECORDER_PROFILE);
  for (const point of points) recorder.plugins![point] = { enabled: [{ name: RECORDER }] };
  recorder.plugins!.bind = { enabled: [{ name: RECORDER }], disabled: [{ name: 'DefaultBinder' }] };
  return [defaultProfile(), recorder];
}

export function referenceRegistry(faults: Faults = NO_FAULTS): Registry {
  return { ...inTreeRegistry(faults), [RECORDER]: () => extensionPointRecorder() };
}
const FLUSH_INTERVAL_MS = 1_000;

export interface SchedulerHostOptions {
  client: Pick<ApiClient, 'listWatcher' | 'call'>;
  clock: Timers;
  /** Uniform in [0, 1), seeded: tie-breaks and watch timeouts. */
  random: () => number;
  profiles?: Profile[];
  registry?: Registry;
  log?: (line: string) => void;
  /** Fault models (reference/faults.ts); default none. */
  faults?: Faults;
}

export class SchedulerHost {
  readonly core: SchedulerCore;
  private readonly informers: Informer[] = [];
  private running = false;
  private synced = false;
  private stopped = false;
  private cancelFlush?: () => void;
  private cancelPermitTimer?: () => void;
  private eventSeq = 0;
  private readonly log: (line: string) => void;
  /** Writes in flight, so a test or a harness can wait for quiet. */
  private inFlight = 0;

  private constructor(private readonly opts: SchedulerHostOptions) {
    this.log = opts.log ?? (() => {});
    this.core = new SchedulerCore({ random: opts.random, profiles: opts.profiles ?? referenceProfiles(), registry: opts.registry ?? referenceRegistry(opts.faults), ...(opts.faults ? { faults: opts.faults } : {}) });
  }

  static async start(opts: SchedulerHostOptions): Promise<SchedulerHost> {
    const host = new SchedulerHost(opts);
    const refs = [
      { group: '', version: 'v1', resource: 'nodes' },
      { group: '', version: 'v1', resource: 'pods' },
      { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' },
      // What groups pods, for default topology spread constraints (helper.DefaultSelector).
      { group: '', version: 'v1', resource: 'services' },
      { group: '', version: 'v1', resource: 'replicationcontrollers' },
      { group: 'apps', version: 'v1', resource: 'replicasets' },
      { group: 'apps', version: 'v1', resource: 'statefulsets' },
    ];
    for (const ref of refs) {
      host.informers.push(new Informer({ resource: ref.resource, listWatcher: opts.client.listWatcher(ref), timers: opts.clock, random: opts.random, onEvent: (e) => host.handle(e), log: host.log }));
    }
    try {
      // Nodes first, so the pods listed next find their nodes in the cache.
      for (const informer of host.informers) await informer.start();
    } catch (error) {
      host.stop();
      throw new Error(`the scheduler could not sync its caches: ${(error as Error).message}`);
    }
    // Cycles start once every cache has synced (kube-scheduler waits for WaitForCacheSync before Run).
    host.synced = true;
    host.scheduleFlush();
    host.kick();
    return host;
  }

  stop(): void {
    this.stopped = true;
    for (const i of this.informers) i.stop();
    this.cancelFlush?.();
    this.cancelPermitTimer?.();
  }

  get busy(): boolean {
    return this.running || this.inFlight > 0;
  }

  private handle(event: CacheEvent): void {
    const now = this.opts.clock.now_ms();
    const object = event.object as any;
    if (event.resource === 'nodes') this.core.onNode(event.type, object, now);
    else if (event.resource === 'pods') this.core.onPod(isTerminal(object) ? 'DELETED' : event.type, object as Pod, now);
    else if (event.resource === 'poddisruptionbudgets') this.core.onPdb(event.type, object);
    else this.core.onWorkload(event.resource as WorkloadResource, event.type, object);
    this.kick();
  }

  private scheduleFlush(): void {
    this.cancelFlush = this.opts.clock.after(FLUSH_INTERVAL_MS, () => {
      if (this.stopped) return;
      if (this.core.flush(this.opts.clock.now_ms()) > 0) this.kick();
      this.scheduleFlush();
    });
  }

  private kick(): void {
    if (!this.synced || this.running || this.stopped || this.core.queue.lengths.active === 0) return;
    this.running = true;
    queueMicrotask(() => this.loop());
  }

  private loop(): void {
    for (let attempt = this.core.scheduleOne(this.opts.clock.now_ms()); attempt; attempt = this.stopped ? undefined : this.core.scheduleOne(this.opts.clock.now_ms())) {
      void this.perform(attempt);
    }
    this.running = false;
    this.resolveWaiting();
  }

  /**
   * Pods held at Permit: a plugin may have allowed or rejected some during the cycles just run,
   * and a timeout may have run out; those go on to binding or back to the queue. A timer wakes
   * the host at the next timeout (upstream: one time.AfterFunc per waiting plugin).
   */
  private resolveWaiting(): void {
    if (this.stopped) return;
    for (const attempt of this.core.resolveWaiting(this.opts.clock.now_ms())) void this.perform(attempt);
    this.cancelPermitTimer?.();
    this.cancelPermitTimer = undefined;
    const next = this.core.nextPermitDeadline();
    if (next === undefined) return;
    this.cancelPermitTimer = this.opts.clock.after(Math.max(0, next - this.opts.clock.now_ms()), () => {
      this.cancelPermitTimer = undefined;
      this.resolveWaiting();
      this.kick();
    });
  }

  private async perform(attempt: Attempt): Promise<void> {
    this.inFlight++;
    try {
      if (!attempt.binding) {
        for (const effect of attempt.effects) await this.write(effect);
        return;
      }
      let error: string | undefined;
      try {
        for (const effect of attempt.effects) await this.write(effect);
      } catch (e) {
        error = (e as Error).message;
      }
      const after = this.core.bindingDone(attempt, error === undefined, this.opts.clock.now_ms(), error);
      for (const effect of after) await this.write(effect).catch((e) => this.log(`scheduler: ${(e as Error).message}`));
      this.kick();
    } catch (e) {
      this.log(`scheduler: ${(e as Error).message}`);
    } finally {
      this.inFlight--;
    }
  }

  /** One effect as one API request; a refusal throws with the server's message. */
  private async write(effect: Effect): Promise<void> {
    const pod = effect.pod;
    const ns = pod.metadata.namespace ?? 'default';
    const podPath = `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(pod.metadata.name)}`;
    const expect = async (method: string, path: string, body: unknown, ok: number[], contentType?: string) => {
      const res = await this.opts.client.call(method, path, body, contentType);
      if (!ok.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body?.message ?? ''}`);
    };
    switch (effect.kind) {
      case 'bind':
        // Fault binds-without-subresource: a merge patch of spec.nodeName, which the API server refuses
        // (pod updates may not change spec.nodeName; only pods/binding sets it).
        if (this.opts.faults?.has('binds-without-subresource')) return expect('PATCH', podPath, { spec: { nodeName: effect.node } }, [200], 'application/merge-patch+json');
        return expect('POST', `${podPath}/binding`, {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: pod.metadata.name, namespace: ns, ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}), ...(effect.annotations ? { annotations: effect.annotations } : {}) },
          target: { apiVersion: 'v1', kind: 'Node', name: effect.node },
        }, [201]);
      case 'unschedulable': {
        const conditions = (pod.status?.conditions ?? []).filter((c: any) => c?.type !== 'PodScheduled');
        const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: effect.message, lastProbeTime: null, lastTransitionTime: rfc3339(this.opts.clock.now_ms()) };
        return expect('PATCH', `${podPath}/status`, { status: { conditions: [...conditions, condition] } }, [200, 404], 'application/merge-patch+json');
      }
      case 'nominate':
        return expect('PATCH', `${podPath}/status`, { status: { nominatedNodeName: effect.node } }, [200, 404], 'application/merge-patch+json');
      case 'evict':
        await this.write({ kind: 'event', pod, type: 'Normal', reason: 'Preempted', message: `Preempted by pod ${effect.preemptor.metadata.uid ?? effect.preemptor.metadata.name} on node ${effect.node}` });
        return expect('DELETE', podPath, undefined, [200, 202, 404]);
      case 'event':
        return expect('POST', `/api/v1/namespaces/${encodeURIComponent(ns)}/events`, this.eventObject(effect), [201]);
    }
  }

  private eventObject(effect: Extract<Effect, { kind: 'event' }>): unknown {
    const now = this.opts.clock.now_ms();
    const at = rfc3339(now);
    const pod = effect.pod;
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: eventName(pod.metadata.name, now, EVENT_RECORDER.scheduler, this.eventSeq++), namespace: pod.metadata.namespace ?? 'default' },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}) },
      reason: effect.reason,
      message: effect.message,
      type: effect.type,
      source: { component: SCHEDULER_COMPONENT },
      reportingComponent: SCHEDULER_COMPONENT,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    };
  }
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * kube-scheduler's pod informer watches only pods that have not terminated (pkg/scheduler/
 * scheduler.go newPodInformer, field selector status.phase!=Succeeded,status.phase!=Failed): a pod
 * that finishes leaves the cache as a deleted one does, so its requests stop counting on its node.
 */
function isTerminal(pod: any): boolean {
  return pod?.status?.phase === 'Succeeded' || pod?.status?.phase === 'Failed';
}
