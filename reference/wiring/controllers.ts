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
 * - Queues: handlers only add keys. A controller's queue is drained by `workers` workers (1
 *   unless the controller says otherwise, as upstream's --concurrent-*-syncs), started in a
 *   microtask after the key was added, so on the virtual clock the whole reaction needs I/O
 *   turns but no virtual time. The queue never hands one key to two workers at once.
 * - Writes: through the same client, so authentication, RBAC, admission and the request trace
 *   see them like any client's. A failed reconcile is retried after client-go's per-key
 *   exponential backoff (DefaultControllerRateLimiter's item part: 5 ms doubling to 1000 s,
 *   staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go), timed by the
 *   cluster's scheduler. Runs of creates go out in slow-start batches of 1, 2, 4, …
 *   (slowStartBatch in pkg/controller/replicaset/replica_set.go), so a quota or admission
 *   refusal costs one failed request, not a hundred.
 * - Delays: a reconcile may ask to see its key again after some time (a grace period, a
 *   toleration, a TTL): the delaying queue's AddAfter, keeping only the earliest pending time
 *   per key.
 *
 * `settled()` answers a harness's question Kubernetes has no API for — has the system caught
 * up? — for the suite and for `ReferenceCluster.start`. It may be told, by `changedAt`, how far
 * each watched resource has moved in the store; the manager then also waits until its caches
 * have seen that far. That is only ever a revision number, never an object: no reconcile reads it.
 */
import { collectionPath, type ApiClient, type CreateResult } from './api-client.ts';
import { Informer } from '../controllers/informer.ts';
import { ItemExponentialBackoff, WorkQueue } from '../controllers/queue.ts';
import { normalize, type Action, type Cache, type CacheEvent, type ControllerDef, type DiscoveredResource, type ResourceRef } from '../controllers/types.ts';
import type { Scheduler } from './virtual-clock.ts';

/** What the manager needs of its API client. */
export type ControllerClient = Pick<ApiClient, 'create' | 'listWatcher' | 'send'> & Partial<Pick<ApiClient, 'call'>>;

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
  /**
   * The cluster's signing CA (--cluster-signing-cert-file/--cluster-signing-key-file): signs a
   * PKCS#10 request as a client certificate over these dates; PEM. None: `sign` actions fail.
   */
  signCsr?: (requestPem: string, validity: { notBefore: Date; notAfter: Date }) => Promise<string>;
}

interface Running {
  def: ControllerDef;
  queue: WorkQueue<string>;
  backoff: ItemExponentialBackoff<string>;
  /** Workers draining the queue now. */
  active: number;
  /** Per key, the pending AddAfter: when it is due and how to cancel it. */
  delayed: Map<string, { due_ms: number; cancel: () => void }>;
}

/** The first batch of slowStartBatch (controller.SlowStartInitialBatchSize). */
const SLOW_START_INITIAL_BATCH = 1;

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
    this.running = opts.controllers.map((def) => ({ def, queue: new WorkQueue<string>(), backoff: new ItemExponentialBackoff<string>(), active: 0, delayed: new Map() }));
    this.cache = {
      get: (r, ns, name) => this.informer(r).get(ns, name),
      list: (r, ns) => this.informer(r).list(ns),
      byIndex: (r, index, value) => this.informer(r).byIndex(index, value),
    };
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
    for (const r of this.running) for (const d of r.delayed.values()) d.cancel();
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
      for (const key of r.def.keysFor(event, this.cache)) r.queue.add(key);
      this.kick(r);
    }
  }

  private kick(r: Running): void {
    if (!this.started || this.stopped) return;
    const workers = r.def.workers ?? 1;
    while (r.active < workers && r.active < r.queue.length) {
      r.active++;
      queueMicrotask(() => void this.drain(r));
    }
  }

  private async drain(r: Running): Promise<void> {
    for (let key = r.queue.get(); key !== undefined; key = r.queue.get()) {
      if (!this.stopped) await this.sync(r, key);
      r.queue.done(key);
    }
    r.active--;
    this.notifySettled();
  }

  /** AddAfter: see `key` again in `delay_ms`, unless an earlier look is already pending. */
  private addAfter(r: Running, key: string, delay_ms: number): void {
    const due_ms = this.opts.clock.now_ms() + Math.max(0, delay_ms);
    const pending = r.delayed.get(key);
    if (pending && pending.due_ms <= due_ms) return;
    pending?.cancel();
    const cancel = this.opts.clock.after(due_ms - this.opts.clock.now_ms(), () => {
      r.delayed.delete(key);
      r.queue.add(key);
      this.kick(r);
    });
    r.delayed.set(key, { due_ms, cancel });
  }

  private async sync(r: Running, key: string): Promise<void> {
    try {
      const wantsDiscovery = typeof r.def.discovery === 'function' ? r.def.discovery(key, this.cache) : r.def.discovery;
      const discovery = wantsDiscovery ? await this.discover() : undefined;
      const result = normalize(r.def.reconcile(key, this.cache, { now_ms: () => this.opts.clock.now_ms(), ...(discovery ? { discovery } : {}) }));
      await this.applyAll(r.def, result.actions);
      r.backoff.forget(key);
      if (result.requeueAfter_ms !== undefined) this.addAfter(r, key, result.requeueAfter_ms);
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

  /**
   * The actions in order; each run of consecutive creates in slow-start batches (1, 2, 4, …,
   * each batch in parallel). The first failure ends the sync: the controller is told of every
   * write that failed or was never sent, and the key is retried.
   */
  private async applyAll(def: ControllerDef, actions: Action[]): Promise<void> {
    let i = 0;
    try {
      while (i < actions.length) {
        if (actions[i]!.verb !== 'create') {
          await this.apply(actions[i]!);
          i++;
          continue;
        }
        let end = i;
        while (end < actions.length && actions[end]!.verb === 'create') end++;
        for (let batch = SLOW_START_INITIAL_BATCH; i < end; batch *= 2) {
          const chunk = actions.slice(i, Math.min(end, i + batch));
          const results = await Promise.allSettled(chunk.map((a) => this.apply(a)));
          i += chunk.length;
          const failed = results.map((res, n) => [res, chunk[n]!] as const).filter(([res]) => res.status === 'rejected');
          for (const [, action] of failed) def.onActionFailed?.(action);
          if (failed.length > 0) throw (failed[0]![0] as PromiseRejectedResult).reason;
        }
      }
    } catch (error) {
      for (const action of actions.slice(i)) def.onActionFailed?.(action);
      throw error;
    }
  }

  /** GETs discovery (/api/v1, /apis and each group's preferred version) and keeps its namespaced resources, subresources aside. */
  private async discover(): Promise<DiscoveredResource[]> {
    const out: DiscoveredResource[] = [];
    const core = await this.get('/api/v1');
    out.push(...namespacedIn(core, '', 'v1'));
    const groups = await this.get('/apis');
    for (const g of groups.groups ?? []) {
      const version = g.preferredVersion?.version ?? g.versions?.[0]?.version;
      if (!version) continue;
      out.push(...namespacedIn(await this.get(`/apis/${g.name}/${version}`), g.name, version));
    }
    return out;
  }

  private async get(path: string): Promise<any> {
    const client = this.opts.client;
    if (!client.call) throw new Error('this controller manager\'s client cannot read discovery or lists');
    const { status, body } = await client.call('GET', path);
    if (status !== 200) throw new Error(`GET ${path} answered ${status}${body?.message ? `: ${body.message}` : ''}`);
    return body;
  }

  /** deletecollection: one DELETE on the collection, or a DELETE per listed object where the verb is missing. */
  private async deleteAll(resource: DiscoveredResource, namespace: string): Promise<void> {
    const path = collectionPath(resource, namespace);
    if (resource.verbs.includes('deletecollection')) {
      const result = await this.opts.client.send('DELETE', path, { apiVersion: 'v1', kind: 'DeleteOptions' });
      if ((result.status >= 200 && result.status < 300) || result.status === 404) return;
      throw new Error(`DELETE ${path} answered ${result.status}${result.message ? `: ${result.message}` : ''}`);
    }
    for (const item of (await this.get(path)).items ?? []) {
      const result = await this.opts.client.send('DELETE', objectPath(resource, namespace, item.metadata.name), { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: item.metadata.uid } });
      if (result.status >= 300 && result.status !== 404 && result.status !== 409) throw new Error(`DELETE ${item.metadata.name} answered ${result.status}`);
    }
  }

  /** requireEmpty: fails while any listed resource still holds an object in the namespace. */
  private async requireEmpty(resources: readonly ResourceRef[], namespace: string): Promise<void> {
    const remaining: string[] = [];
    for (const resource of resources) {
      const items = (await this.get(`${collectionPath(resource, namespace)}?limit=1`)).items ?? [];
      if (items.length > 0) remaining.push(resource.group ? `${resource.resource}.${resource.group}` : resource.resource);
    }
    if (remaining.length > 0) throw new Error(`some content remains in namespace "${namespace}": ${remaining.join(', ')}`);
  }

  /** One action as an API request. AlreadyExists on a create of a named object and NotFound on a delete mean the cluster is already as asked. */
  private async apply(action: Action): Promise<void> {
    if (action.verb === 'deletecollection') return this.deleteAll(action.resource, action.namespace);
    if (action.verb === 'requireEmpty') return this.requireEmpty(action.resources, action.namespace);
    if (action.verb === 'create') {
      const result: CreateResult = await this.opts.client.create(action.resource, action.namespace, action.object);
      // AlreadyExists means "as asked" only for a name the controller chose; for a generateName
      // create it means no object was made (the server could not find a free name), and the
      // controller must count a failed create (upstream's createPods returns the error).
      if (result.status === 201 || (result.status === 409 && action.object?.metadata?.name)) return;
      throw new Error(`POST ${collectionPath(action.resource, action.namespace)} answered ${result.status}${result.message ? `: ${result.message}` : ''}`);
    }
    if (action.verb === 'sign') return this.signCsr(action);
    if (action.verb === 'update' && action.ifAllowed && !(await this.allowed(action.ifAllowed))) return;
    if ((action.verb === 'delete' || action.verb === 'patch') && action.unlessExists) {
      for (const o of action.unlessExists) {
        const found = await this.opts.client.send('GET', objectPath(o.resource, o.namespace, o.name), undefined);
        if (found.status === 200 && (o.uid === undefined || found.uid === o.uid)) return;
        if (found.status !== 404 && found.status !== 200) throw new Error(`GET ${objectPath(o.resource, o.namespace, o.name)} answered ${found.status}`);
      }
    }
    const { method, path, body, contentType, ok } = requestFor(action);
    const result = await this.opts.client.send(method, path, body, contentType);
    if (result.status >= 200 && result.status < 300) return;
    if (ok.includes(result.status)) return;
    throw new Error(`${method} ${path} answered ${result.status}${result.message ? `: ${result.message}` : ''}`);
  }

  /** A SubjectAccessReview through the API (the approver's question about a requester). */
  private async allowed(review: NonNullable<Extract<Action, { verb: 'update' }>['ifAllowed']>): Promise<boolean> {
    const sar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: review.user, groups: review.groups, ...(review.uid ? { uid: review.uid } : {}), resourceAttributes: review.resourceAttributes } };
    if (!this.opts.client.call) throw new Error('this client cannot make a SubjectAccessReview');
    const result = await this.opts.client.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', sar);
    if (result.status !== 201 && result.status !== 200) throw new Error(`POST subjectaccessreviews answered ${result.status}: ${result.body?.message ?? ''}`);
    return result.body?.status?.allowed === true;
  }

  /** sign: the certificate from the host's CA, written to the CSR's status. */
  private async signCsr(action: Extract<Action, { verb: 'sign' }>): Promise<void> {
    if (!this.opts.signCsr) throw new Error('no cluster signing CA is configured (--cluster-signing-cert-file)');
    const certPem = await this.opts.signCsr(action.requestPem, { notBefore: new Date(action.validity.notBefore_ms), notAfter: new Date(action.validity.notAfter_ms) });
    const csr: any = structuredClone(action.csr);
    csr.status = { ...csr.status, certificate: Buffer.from(certPem).toString('base64') };
    await this.apply({ verb: 'update', resource: { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' }, namespace: '', object: csr, subresource: 'status' });
  }

  private caughtUp(informer: Informer): boolean {
    if (!this.opts.changedAt) return true;
    return Number(informer.resourceVersion || 0) >= this.opts.changedAt(informer.resource);
  }

  private isSettled(): boolean {
    if (this.stopped) return true;
    return [...this.informers.values()].every((i) => this.caughtUp(i)) && this.running.every((r) => r.active === 0 && r.queue.idle);
  }

  private notifySettled(force = false): void {
    if (this.settleWaiters.length === 0 || (!force && !this.isSettled())) return;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function objectPath(ref: ResourceRef, namespace: string, name: string): string {
  return `${collectionPath(ref, namespace || undefined)}/${encodeURIComponent(name)}`;
}

/** Discovery's namespaced resources in one group version (subresources, with a "/" in their name, aside). */
function namespacedIn(list: any, group: string, version: string): DiscoveredResource[] {
  return (list?.resources ?? []).filter((r: any) => r.namespaced && !String(r.name).includes('/'))
    .map((r: any) => ({ group, version, resource: r.name, verbs: r.verbs ?? [] }));
}

/** The HTTP request an update, patch or delete is, and which refusals mean "already so". */
function requestFor(action: Exclude<Action, { verb: 'create' | 'deletecollection' | 'requireEmpty' | 'sign' }>): { method: string; path: string; body?: unknown; contentType?: string; ok: number[] } {
  switch (action.verb) {
    case 'update': {
      const path = objectPath(action.resource, action.namespace, action.object.metadata.name);
      return { method: 'PUT', path: action.subresource ? `${path}/${action.subresource}` : path, body: action.object, ok: [] };
    }
    case 'patch':
      return {
        method: 'PATCH',
        path: `${objectPath(action.resource, action.namespace, action.name)}${action.subresource ? `/${action.subresource}` : ''}`,
        body: action.patch,
        contentType: action.type === 'strategic' ? 'application/strategic-merge-patch+json' : 'application/merge-patch+json',
        ok: [],
      };
    case 'delete': {
      const options: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
      if (action.uid) options.preconditions = { uid: action.uid };
      if (action.propagationPolicy) options.propagationPolicy = action.propagationPolicy;
      if (action.gracePeriodSeconds !== undefined) options.gracePeriodSeconds = action.gracePeriodSeconds;
      // 404: already gone. 409: the uid precondition failed, so the object we meant is gone too.
      return { method: 'DELETE', path: objectPath(action.resource, action.namespace, action.name), body: options, ok: [404, 409] };
    }
  }
}
