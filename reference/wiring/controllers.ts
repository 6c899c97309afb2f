/**
 * The reference controller manager: hosts the pure controllers of reference/controllers/ —
 * keeps their caches, drains their work queues, and makes the writes their reconciles ask for —
 * and reaches the cluster only through the API server, as kube-controller-manager does (000 §
 * API Server: every component talks to the API server alone, never to etcd).
 *
 * - Caches: one informer per resource, shared by every controller that reads it
 *   (reference/controllers/informer.ts): a list, then a watch from the list's resourceVersion,
 *   both requests to the API server through the client it is given (api-client.ts: loopback
 *   HTTP(S), authenticated as system:kube-controller-manager when the server authenticates).
 *   Workers start once every cache has synced, as WaitForCacheSync makes them.
 * - Queues: handlers only add keys. A controller's queue is drained by one worker (the
 *   serviceaccounts controller runs one upstream too), started in a microtask after the key
 *   was added, so on the virtual clock the whole reaction needs I/O turns but no virtual time.
 * - Writes: through the same client, so authentication, RBAC, admission and the request trace
 *   see them like any client's. A failed reconcile is retried after client-go's per-key
 *   exponential backoff, timed by the cluster's scheduler.
 *
 * `settled()` answers a harness's question Kubernetes has no API for — has the system caught
 * up? — for the suite and for `ReferenceCluster.start`. It may be told, by `changedAt`, how far
 * each watched resource has moved in the store; the manager then also waits until its caches
 * have seen that far. That is only ever a revision number, never an object: no reconcile reads it.
 */
import { collectionPath, type ApiClient, type CreateResult } from './api-client.ts';
import { Informer, type ListWatcher } from '../controllers/informer.ts';
import { ItemExponentialBackoff, WorkQueue } from '../controllers/queue.ts';
import type { Action, Cache, CacheEvent, ControllerDef, ResourceRef } from '../controllers/types.ts';
import type { Scheduler } from './virtual-clock.ts';

/** What the manager needs of its API client. */
export type ControllerClient = Pick<ApiClient, 'create' | 'listWatcher'>;

export interface ControllerManagerOptions {
  client: ControllerClient;
  clock: Scheduler;
  /** Uniform in [0, 1), seeded: the informers' watch timeouts. */
  random: () => number;
  controllers: readonly ControllerDef[];
  /** The last store revision at which objects of this resource (plural) changed; see settled(). */
  changedAt?: (resource: string) => number;
  /** Where failures and re-lists are reported. */
  log?: (line: string) => void;
}

interface Running {
  def: ControllerDef;
  queue: WorkQueue<string>;
  backoff: ItemExponentialBackoff<string>;
  busy: boolean;
}

export class ControllerManager {
  private readonly informers = new Map<string, Informer>();
  private readonly running: Running[];
  private readonly retries = new Set<() => void>();
  private settleWaiters: (() => void)[] = [];
  private started = false;
  private stopped = false;
  private readonly log: (line: string) => void;
  readonly cache: Cache;

  private constructor(private readonly opts: ControllerManagerOptions) {
    this.log = opts.log ?? (() => {});
    this.running = opts.controllers.map((def) => ({ def, queue: new WorkQueue<string>(), backoff: new ItemExponentialBackoff<string>(), busy: false }));
    this.cache = { get: (r, ns, name) => this.informer(r).get(ns, name), list: (r, ns) => this.informer(r).list(ns) };
  }

  /** Lists every watched resource through the API, then starts the workers on what the lists made dirty. */
  static async start(opts: ControllerManagerOptions): Promise<ControllerManager> {
    const manager = new ControllerManager(opts);
    const refs = new Map<string, ResourceRef>();
    for (const ref of opts.controllers.flatMap((c) => c.watches)) refs.set(ref.resource, ref);
    for (const ref of refs.values()) {
      manager.informers.set(ref.resource, new Informer({
        resource: ref.resource,
        listWatcher: opts.client.listWatcher(ref),
        timers: opts.clock,
        random: opts.random,
        onEvent: (event) => manager.handle(event),
        onProgress: () => manager.notifySettled(),
        log: manager.log,
      }));
    }
    try {
      await Promise.all([...manager.informers.values()].map((i) => i.start()));
    } catch (error) {
      manager.stop();
      throw new Error(`the controller manager could not sync its caches: ${(error as Error).message}`);
    }
    manager.started = true;
    for (const r of manager.running) manager.kick(r);
    return manager;
  }

  /** The names of the controllers running. */
  get names(): string[] {
    return this.running.map((r) => r.def.name);
  }

  /** List and watch requests each informer has made, by resource (plural). */
  requestCounts(): Record<string, { lists: number; watches: number }> {
    return Object.fromEntries([...this.informers].map(([resource, i]) => [resource, { ...i.counts }]));
  }

  /**
   * Resolves once every cache has seen the store's latest change to its resource (when
   * `changedAt` says what that is), every queue is empty and no reconcile is in flight.
   * Retries waiting on a timer do not count.
   */
  settled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const informer of this.informers.values()) informer.stop();
    for (const cancel of this.retries) cancel();
    this.retries.clear();
    this.notifySettled(true);
  }

  private informer(resource: string): Informer {
    const informer = this.informers.get(resource);
    if (!informer) throw new Error(`no controller watches ${resource}, so there is no cache of it`);
    return informer;
  }

  private handle(event: CacheEvent): void {
    for (const r of this.running) {
      if (!r.def.watches.some((ref) => ref.resource === event.resource)) continue;
      for (const key of r.def.keysFor(event)) r.queue.add(key);
      this.kick(r);
    }
  }

  private kick(r: Running): void {
    if (!this.started || this.stopped || r.busy || r.queue.length === 0) return;
    r.busy = true;
    queueMicrotask(() => void this.drain(r));
  }

  private async drain(r: Running): Promise<void> {
    for (let key = r.queue.get(); key !== undefined; key = r.queue.get()) {
      if (!this.stopped) await this.sync(r, key);
      r.queue.done(key);
    }
    r.busy = false;
    this.notifySettled();
  }

  private async sync(r: Running, key: string): Promise<void> {
    try {
      for (const action of r.def.reconcile(key, this.cache)) await this.apply(action);
      r.backoff.forget(key);
    } catch (error) {
      const delay_ms = r.backoff.when(key);
      this.log(`${r.def.name}: syncing "${key}" failed, retrying in ${delay_ms} ms: ${(error as Error).message}`);
      const cancel = this.opts.clock.after(delay_ms, () => {
        this.retries.delete(cancel);
        r.queue.add(key);
        this.kick(r);
      });
      this.retries.add(cancel);
    }
  }

  /** One action as an API request; AlreadyExists on a create means someone got there first, which is success. */
  private async apply(action: Action): Promise<void> {
    const result: CreateResult = await this.opts.client.create(action.resource, action.namespace, action.object);
    if (result.status === 201 || result.status === 409) return;
    const path = collectionPath(action.resource, action.namespace);
    throw new Error(`POST ${path} answered ${result.status}${result.message ? `: ${result.message}` : ''}`);
  }

  private caughtUp(informer: Informer): boolean {
    if (!this.opts.changedAt) return true;
    return Number(informer.resourceVersion || 0) >= this.opts.changedAt(informer.resource);
  }

  private isSettled(): boolean {
    if (this.stopped) return true;
    return [...this.informers.values()].every((i) => this.caughtUp(i)) && this.running.every((r) => !r.busy && r.queue.idle);
  }

  private notifySettled(force = false): void {
    if (this.settleWaiters.length === 0 || (!force && !this.isSettled())) return;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
