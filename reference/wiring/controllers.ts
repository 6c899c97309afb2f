/**
 * The reference controller manager: hosts the pure controllers of reference/controllers/ —
 * keeps their caches, drains their work queues, and makes the writes their reconciles ask for
 * through the API server, as kube-controller-manager does with its shared informers and
 * clients.
 *
 * - Caches: one informer per resource, shared by every controller that reads it. It lists the
 *   resource's registry prefix in the store, then watches from the next revision; a cancelled
 *   watch (compaction) lists again and turns the difference into events, as a reflector's
 *   re-list does. The in-memory store delivers watch events inside the write that caused them,
 *   so a cache is never behind the store by more than the write in progress.
 * - Queues: handlers only add keys. A controller's queue is drained by one worker (the
 *   serviceaccounts controller runs one upstream too), started in a microtask after the key
 *   was added — never inside the store write that delivered the event — so on the virtual
 *   clock the whole reaction happens within the turn that caused it, with no timer involved.
 * - Writes: in process, through `api.handle`, as the user system:kube-controller-manager (a
 *   certificate subject, bound by the bootstrap policy), so authentication, RBAC, admission and
 *   the request trace see them like any client's. A failed reconcile is retried after
 *   client-go's per-key exponential backoff, timed by the cluster's scheduler.
 */
import type { ApiServer } from '../apiserver/server.ts';
import { KUBE_CONTROLLER_MANAGER_USER } from '../apiserver/bootstrap-policy.ts';
import { ItemExponentialBackoff, WorkQueue } from '../controllers/queue.ts';
import type { Action, Cache, CacheEvent, ControllerDef, KubeObject } from '../controllers/types.ts';
import type { Backend } from '../store/backend.ts';
import { registryKey, registryPrefix } from '../store/registry.ts';
import type { Scheduler } from './virtual-clock.ts';

export interface ControllerManagerOptions {
  backend: Backend;
  api: Pick<ApiServer, 'handle'>;
  clock: Scheduler;
  controllers: readonly ControllerDef[];
  /** Where failures and cancelled watches are reported. */
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

  /** Lists every watched resource, then starts the workers on what the lists made dirty. */
  static async start(opts: ControllerManagerOptions): Promise<ControllerManager> {
    const manager = new ControllerManager(opts);
    const resources = [...new Set(opts.controllers.flatMap((c) => c.watches))];
    for (const resource of resources) {
      const informer = new Informer(opts.backend, resource, (event) => manager.handle(event), manager.log);
      manager.informers.set(resource, informer);
      await informer.start();
    }
    manager.started = true;
    for (const r of manager.running) manager.kick(r);
    return manager;
  }

  /** The names of the controllers running. */
  get names(): string[] {
    return this.running.map((r) => r.def.name);
  }

  /** Resolves once every queue is empty and no reconcile is in flight (retries waiting on a timer do not count). */
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
      if (!r.def.watches.includes(event.resource)) continue;
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
    const { group, version, resource } = action.resource;
    const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const url = action.namespace ? `${base}/namespaces/${encodeURIComponent(action.namespace)}/${resource}` : `${base}/${resource}`;
    const { status, answer } = await this.opts.api.handle({
      method: 'POST',
      url,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(action.object)),
      clientCert: { subjectCN: KUBE_CONTROLLER_MANAGER_USER, subjectO: [] },
    });
    if (status === 201 || status === 409) return;
    const message = answer.kind === 'reply' ? (answer.body as { message?: string } | undefined)?.message : undefined;
    throw new Error(`POST ${url} answered ${status}${message ? `: ${message}` : ''}`);
  }

  private isSettled(): boolean {
    return this.stopped || this.running.every((r) => !r.busy && r.queue.idle);
  }

  private notifySettled(force = false): void {
    if (!force && !this.isSettled()) return;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** One resource's cache, kept by list-then-watch over its registry prefix in the store. */
class Informer {
  /** Store key → the object and the stored text it was decoded from. */
  private readonly objects = new Map<string, { object: KubeObject; value: string }>();
  private cancelWatch?: () => void;
  private stopped = false;

  constructor(
    private readonly backend: Backend,
    private readonly resource: string,
    private readonly emit: (event: CacheEvent) => void,
    private readonly log: (line: string) => void,
  ) {}

  start(): Promise<void> {
    return this.listAndWatch();
  }

  stop(): void {
    this.stopped = true;
    this.cancelWatch?.();
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.objects.get(registryKey({ resource: this.resource, namespace, name }))?.object;
  }

  list(namespace?: string): KubeObject[] {
    const all = [...this.objects.values()].map((e) => e.object);
    return namespace === undefined ? all : all.filter((o) => (o.metadata.namespace ?? '') === namespace);
  }

  private async listAndWatch(): Promise<void> {
    const prefix = registryPrefix(this.resource);
    const { kvs, revision } = await this.backend.range(prefix);
    if (this.stopped) return;
    const listed = new Set(kvs.map((kv) => kv.key));
    for (const key of [...this.objects.keys()]) if (!listed.has(key)) this.remove(key);
    for (const kv of kvs) this.put(kv.key, kv.value);
    this.cancelWatch = this.backend.watch(prefix, revision + 1, {
      onEvents: (events) => {
        for (const e of events) (e.type === 'PUT' ? this.put(e.kv.key, e.kv.value) : this.remove(e.kv.key));
      },
      onCancel: (reason) => {
        if (this.stopped) return;
        this.log(`${this.resource} watch cancelled (${reason}); listing again`);
        this.listAndWatch().catch((e) => this.log(`${this.resource} re-list failed: ${(e as Error).message}`));
      },
    });
  }

  private put(key: string, value: string): void {
    const old = this.objects.get(key);
    if (old?.value === value) return;
    const object = JSON.parse(value) as KubeObject;
    this.objects.set(key, { object, value });
    this.emit(old ? { type: 'MODIFIED', resource: this.resource, object, oldObject: old.object } : { type: 'ADDED', resource: this.resource, object });
  }

  private remove(key: string): void {
    const old = this.objects.get(key);
    if (!old) return;
    this.objects.delete(key);
    this.emit({ type: 'DELETED', resource: this.resource, object: old.object });
  }
}
