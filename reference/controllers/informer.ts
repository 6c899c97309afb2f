/**
 * The informer a controller reads through, after client-go's shared informer and its reflector
 * (staging/src/k8s.io/client-go/tools/cache/reflector.go, shared_informer.go): it lists a
 * resource once, then watches from the list's resourceVersion, keeps a local cache keyed by
 * namespace/name, and dispatches each change to its handler as ADDED, MODIFIED or DELETED.
 * Controllers read the cache, never the API server, so a quiet cluster costs no requests.
 *
 * - A list replaces the cache and dispatches the differences; that is also how a re-list turns
 *   what the informer missed into events. (client-go dispatches an update for every listed
 *   object; a level-based reconcile gains nothing from the unchanged ones, so they are skipped.)
 * - Each watch asks for bookmarks and for a timeout drawn from [5, 10) minutes — reflector.go's
 *   minWatchTimeout, randomised "to spread the load on apiserver". When the server ends a watch
 *   the informer watches again from the last resourceVersion it saw: no list.
 * - 410 Expired (an ERROR event, or the watch's HTTP status) means that resourceVersion is gone:
 *   list again at once. Any other failure is retried after an exponential backoff, 800 ms
 *   doubling up to 30 s (NewReflectorWithOptions' backoff manager): a broken connection by
 *   watching again, anything else by listing again.
 *
 * - The cache keeps indexes, as client-go's Indexers: by namespace, by each ownerReference's
 *   uid (how the garbage collector and the workload controllers find dependents), by
 *   spec.nodeName (how the node controllers find a node's pods), and the objects without a
 *   controller by namespace (the orphans a ReplicaSet may adopt) — so a lookup costs the
 *   matches, not a scan of every object.
 *
 * Pure: the transport (ListWatcher), the timers and the randomness are injected.
 */
import type { CacheEvent, IndexName, KubeObject } from './types.ts';

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: any;
}

/** A request the API server answered with something other than success. */
export class ApiStatusError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ApiStatusError';
  }
}

export interface WatchOptions {
  resourceVersion: string;
  timeoutSeconds: number;
  allowWatchBookmarks: boolean;
}

export interface WatchStreamHandlers {
  onEvent(event: WatchEvent): void;
  /** The stream is over: ended by the server (no error), refused (ApiStatusError) or broken. */
  onEnd(error?: Error): void;
}

/** One resource's list and watch calls (client-go's ListerWatcher). */
export interface ListWatcher {
  /** A consistent list: every object, and the resourceVersion the list was read at. */
  list(): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  /** Starts a watch; returns the function that ends it (after which no handler is called). */
  watch(options: WatchOptions, handlers: WatchStreamHandlers): () => void;
}

export interface Timers {
  after(delay_ms: number, fn: () => void): () => void;
}

export interface InformerOptions {
  /** Plural resource name: what the cache and its events are called. */
  resource: string;
  listWatcher: ListWatcher;
  timers: Timers;
  /** Uniform in [0, 1): draws the watch timeouts. */
  random: () => number;
  /** The event handler: it should only enqueue. */
  onEvent: (event: CacheEvent) => void;
  /** Called after every list and watch event, once the cache reflects it. */
  onProgress?: () => void;
  log?: (line: string) => void;
}

export const MIN_WATCH_TIMEOUT_S = 5 * 60;
export const BACKOFF_BASE_MS = 800;
export const BACKOFF_MAX_MS = 30_000;

export function keyOf(object: { metadata?: { namespace?: string; name?: string } }): string {
  const meta = object.metadata ?? {};
  return meta.namespace ? `${meta.namespace}/${meta.name}` : String(meta.name);
}

function resourceVersionOf(object: any): string | undefined {
  const rv = object?.metadata?.resourceVersion;
  return rv === undefined || rv === '' ? undefined : String(rv);
}

/** 410 with reason Expired or Gone: the resourceVersion is older than the server keeps. */
export function isExpired(status: unknown): boolean {
  const s = status as { code?: unknown; reason?: unknown } | undefined;
  return s?.code === 410 || s?.reason === 'Expired' || s?.reason === 'Gone';
}

/** What each index files an object under. */
export const INDEXERS: Record<IndexName, (o: any) => string[]> = {
  namespace: (o) => [o.metadata?.namespace ?? ''],
  owner: (o) => (Array.isArray(o.metadata?.ownerReferences) ? o.metadata.ownerReferences.map((r: any) => String(r.uid)) : []),
  node: (o) => (typeof o.spec?.nodeName === 'string' && o.spec.nodeName !== '' ? [o.spec.nodeName] : []),
  uncontrolled: (o) => (Array.isArray(o.metadata?.ownerReferences) && o.metadata.ownerReferences.some((r: any) => r?.controller === true) ? [] : [o.metadata?.namespace ?? '']),
};

const INDEXER_ENTRIES = Object.entries(INDEXERS) as [IndexName, (o: any) => string[]][];

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export class Informer {
  private readonly objects = new Map<string, KubeObject>();
  private readonly indexes = new Map<IndexName, Map<string, Set<string>>>(
    (Object.keys(INDEXERS) as IndexName[]).map((name) => [name, new Map()]),
  );
  private lastResourceVersion = '';
  /** Bumped whenever a list or watch is superseded, so a late callback of the old one is ignored. */
  private generation = 0;
  private cancelWatch?: () => void;
  private cancelRetry?: () => void;
  private failures = 0;
  private stopped = false;
  private readonly log: (line: string) => void;
  /** Requests made so far, for tests and the failure report. */
  readonly counts = { lists: 0, watches: 0 };

  constructor(private readonly opts: InformerOptions) {
    this.log = opts.log ?? (() => {});
  }

  get resource(): string {
    return this.opts.resource;
  }

  /** The resourceVersion the cache reflects: the list's, then each watch event's. */
  get resourceVersion(): string {
    return this.lastResourceVersion;
  }

  /**
   * Lists, fills the cache and starts watching. Resolves once the cache is synced; rejects if
   * this first list fails — a component that cannot list at start is misconfigured, and says so
   * rather than retrying for ever. Later failures are retried with backoff.
   */
  async start(): Promise<void> {
    const generation = ++this.generation;
    const page = await this.opts.listWatcher.list();
    if (this.stopped || generation !== this.generation) return;
    this.applyList(page);
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    this.cancelWatch?.();
    this.cancelRetry?.();
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.objects.get(namespace ? `${namespace}/${name}` : name);
  }

  list(namespace?: string): KubeObject[] {
    if (namespace === undefined) return [...this.objects.values()];
    return this.byIndex('namespace', namespace);
  }

  /** Objects filed under `value` in index `name` (client-go's ByIndex). */
  byIndex(name: IndexName, value: string): KubeObject[] {
    const keys = this.indexes.get(name)?.get(value);
    if (!keys) return [];
    return [...keys].map((k) => this.objects.get(k)!).filter(Boolean);
  }

  private index(key: string, object: KubeObject | undefined, add: boolean): void {
    if (!object) return;
    for (const [name, fn] of INDEXER_ENTRIES) {
      const index = this.indexes.get(name)!;
      for (const value of fn(object)) this.file(index, value, key, add);
    }
  }

  /**
   * Moves `key` from the values `old` was filed under to those `object` is: as removing then
   * adding (client-go's updateIndices), but an index whose values did not change — most updates
   * (a status write keeps namespace, owners and node) — is left alone.
   */
  private reindex(key: string, old: KubeObject | undefined, object: KubeObject): void {
    if (!old) return this.index(key, object, true);
    for (const [name, fn] of INDEXER_ENTRIES) {
      const before = fn(old);
      const after = fn(object);
      if (sameValues(before, after)) continue;
      const index = this.indexes.get(name)!;
      for (const value of before) this.file(index, value, key, false);
      for (const value of after) this.file(index, value, key, true);
    }
  }

  private file(index: Map<string, Set<string>>, value: string, key: string, add: boolean): void {
    let keys = index.get(value);
    if (add) {
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    } else if (keys) {
      keys.delete(key);
      if (keys.size === 0) index.delete(value);
    }
  }

  private async relist(): Promise<void> {
    this.supersede();
    const generation = this.generation;
    let page: { items: KubeObject[]; resourceVersion: string };
    try {
      page = await this.opts.listWatcher.list();
    } catch (error) {
      if (this.stopped || generation !== this.generation) return;
      this.retry(`list failed: ${(error as Error).message}`, () => void this.relist());
      return;
    }
    if (this.stopped || generation !== this.generation) return;
    this.applyList(page);
  }

  private applyList(page: { items: KubeObject[]; resourceVersion: string }): void {
    this.counts.lists++;
    this.failures = 0;
    this.replace(page.items);
    this.lastResourceVersion = page.resourceVersion;
    this.opts.onProgress?.();
    this.watch();
  }

  private watch(): void {
    this.supersede();
    const generation = this.generation;
    const current = () => !this.stopped && generation === this.generation;
    this.counts.watches++;
    this.cancelWatch = this.opts.listWatcher.watch(
      { resourceVersion: this.lastResourceVersion, timeoutSeconds: Math.floor(MIN_WATCH_TIMEOUT_S * (1 + this.opts.random())), allowWatchBookmarks: true },
      {
        onEvent: (event) => current() && this.onWatchEvent(event),
        onEnd: (error) => current() && this.onWatchEnd(error),
      },
    );
  }

  private onWatchEvent(event: WatchEvent): void {
    if (event.type === 'ERROR') return this.onWatchError(event.object);
    if (event.type === 'ADDED' || event.type === 'MODIFIED') this.put(event.object as KubeObject);
    if (event.type === 'DELETED') this.remove(event.object as KubeObject);
    const rv = resourceVersionOf(event.object);
    if (rv !== undefined) this.lastResourceVersion = rv;
    this.failures = 0;
    this.opts.onProgress?.();
  }

  private onWatchError(status: any): void {
    if (isExpired(status)) {
      this.log(`${this.resource}: watch expired (${status?.message ?? 'Expired'}); listing again`);
      void this.relist();
      return;
    }
    this.retry(`watch error: ${status?.message ?? JSON.stringify(status)}`, () => void this.relist());
  }

  private onWatchEnd(error?: Error): void {
    // The server's timeout: carry on from where this watch got to.
    if (!error) return this.watch();
    if (error instanceof ApiStatusError) {
      if (isExpired({ code: error.status, reason: error.reason })) return void this.relist();
      return this.retry(`watch refused: ${error.message}`, () => void this.relist());
    }
    this.retry(`watch broken: ${error.message}`, () => this.watch());
  }

  /** Ends the current watch (and any pending retry) before the next list or watch replaces it. */
  private supersede(): void {
    this.generation++;
    this.cancelWatch?.();
    this.cancelWatch = undefined;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
  }

  private retry(reason: string, next: () => void): void {
    this.supersede();
    const delay_ms = Math.min(BACKOFF_BASE_MS * 2 ** this.failures, BACKOFF_MAX_MS);
    this.failures++;
    this.log(`${this.resource}: ${reason}; retrying in ${delay_ms} ms`);
    this.cancelRetry = this.opts.timers.after(delay_ms, () => {
      this.cancelRetry = undefined;
      if (!this.stopped) next();
    });
  }

  private replace(items: KubeObject[]): void {
    const listed = new Map(items.map((o) => [keyOf(o), o]));
    for (const [key, old] of [...this.objects]) {
      if (listed.has(key)) continue;
      this.objects.delete(key);
      this.index(key, old, false);
      this.opts.onEvent({ type: 'DELETED', resource: this.resource, object: old });
    }
    for (const object of listed.values()) this.put(object);
  }

  private put(object: KubeObject): void {
    const key = keyOf(object);
    const old = this.objects.get(key);
    if (old && resourceVersionOf(old) !== undefined && resourceVersionOf(old) === resourceVersionOf(object)) return;
    this.objects.set(key, object);
    this.reindex(key, old, object);
    this.opts.onEvent(old ? { type: 'MODIFIED', resource: this.resource, object, oldObject: old } : { type: 'ADDED', resource: this.resource, object });
  }

  private remove(object: KubeObject): void {
    const key = keyOf(object);
    const old = this.objects.get(key);
    if (!old) return;
    this.objects.delete(key);
    this.index(key, old, false);
    this.opts.onEvent({ type: 'DELETED', resource: this.resource, object });
  }
}
