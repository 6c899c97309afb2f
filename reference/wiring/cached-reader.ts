/**
 * Decoded objects for the security stages' listers (RBAC's roles and bindings, the webhook
 * configurations, namespaces, ServiceAccounts), read from the store once and then served from
 * memory until a write touches them — what upstream's RBAC authorizer and webhook matcher get
 * from their informers, minus the propagation delay: the cache follows a backend watch on the
 * whole store, and the local store delivers watch events inside the write that caused them
 * (reference/store/local.ts), so a binding just created takes effect on the very next request.
 *
 * Freshness does not rest on that delivery being synchronous, though: a cached answer is only
 * used while the watch has reported every revision up to the store's current one; otherwise the
 * read goes to the store, exactly as it did before there was a cache.
 *
 * Cached objects are shared by every request, so they are deep-frozen: a stage that tried to
 * change one would throw instead of corrupting the next request's view.
 */
import { sharedStored } from '../apiserver/storage/codec.ts';
import type { KvEvent } from '../../contract/contract.ts';
import type { Backend } from '../store/backend.ts';
import { registryPrefix } from '../store/registry.ts';

/**
 * Answers come as plain values when cached (no promise for the stages that ask on every request:
 * RBAC's listers, the webhook and admission lookups), as promises when the store is read.
 */
export interface StoreReader {
  /** Every object of a resource (in one namespace, or cluster-wide for ''), in key order; frozen. */
  all(resource: string, namespace: string): any[] | Promise<any[]>;
  /** One object, or undefined when the key is absent. */
  one(resource: string, namespace: string, name: string): any | Promise<any | undefined>;
}

export interface CachedReaderOptions {
  /** Past this many cached lists (or single objects), that cache starts over; default 4096. */
  maxEntries?: number;
}

/** A read in flight: a write it may have missed spoils it, and it is not remembered. */
interface Fill {
  /** A list prefix (ends in "/") or an exact key. */
  readonly target: string;
  readonly exact: boolean;
  /** The highest revision the watch had reported when the read began. */
  readonly seenAtStart: number;
  readonly generation: number;
  spoiled: boolean;
}

export class CachedStoreReader implements StoreReader {
  private readonly lists = new Map<string, any[]>();
  /** Key → frozen object, or null for a key known to be absent. */
  private readonly objects = new Map<string, any | null>();
  /** Key → the last object decoded for it and the revision it was written at (decoded()). */
  private readonly byRevision = new Map<string, { modRevision: number; obj: any }>();
  private readonly fills = new Set<Fill>();
  private readonly maxEntries: number;
  /** The highest store revision the watch has reported; everything up to it is reflected here. */
  private seen = 0;
  private cancelWatch: (() => void) | undefined;
  /** Bumped whenever the watch is (re)started, so reads begun under an old one are not kept. */
  private generation = 0;
  private closed = false;

  constructor(
    private readonly backend: Backend,
    opts: CachedReaderOptions = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 4096;
  }

  all(resource: string, namespace: string): any[] | Promise<any[]> {
    const prefix = registryPrefix(resource, namespace || undefined);
    if (this.fresh()) {
      const hit = this.lists.get(prefix);
      if (hit) return hit;
    }
    return this.readAll(prefix);
  }

  private async readAll(prefix: string): Promise<any[]> {
    const fill = this.beginFill(prefix, false);
    try {
      const { kvs, revision } = await this.backend.range(prefix);
      // The list is frozen as its objects are: RBAC's authorizer computes the ClusterRoles'
      // effective rules once per frozen list (authz/rbac.ts clusterRoleRules) and again for any other.
      const items = Object.freeze(kvs.map((kv) => this.decoded(kv.key, kv.modRevision, kv.value))) as any[];
      if (this.keepable(fill, revision)) remember(this.lists, prefix, items, this.maxEntries);
      return items;
    } finally {
      this.fills.delete(fill);
    }
  }

  one(resource: string, namespace: string, name: string): any | Promise<any | undefined> {
    const key = `${registryPrefix(resource, namespace || undefined)}${name}`;
    if (this.fresh()) {
      const hit = this.objects.get(key);
      if (hit !== undefined) return hit ?? undefined;
    }
    return this.readOne(key);
  }

  private async readOne(key: string): Promise<any | undefined> {
    const fill = this.beginFill(key, true);
    // A get reports no revision; the store's revision before it is a lower bound for what it reads.
    const readAtLeast = this.backend.currentRevision();
    try {
      const value = (await this.backend.get(key))?.value;
      const obj = value === undefined ? null : sharedStored(key, value);
      if (this.keepable(fill, readAtLeast)) remember(this.objects, key, obj, this.maxEntries);
      return obj ?? undefined;
    } finally {
      this.fills.delete(fill);
    }
  }

  /**
   * The frozen object a key holds at a revision, decoded once: a write to one ClusterRole spoils
   * the cached list of all of them, and the re-read would otherwise decode every unchanged one
   * again. A key's value at one modRevision never changes, so this needs no invalidation.
   */
  private decoded(key: string, modRevision: number, value: string): any {
    const hit = this.byRevision.get(key);
    if (hit && hit.modRevision === modRevision) return hit.obj;
    const obj = sharedStored(key, value);
    remember(this.byRevision, key, { modRevision, obj }, this.maxEntries);
    return obj;
  }

  /** Stops following the store for good; later reads all go to it. */
  close(): void {
    this.closed = true;
    this.unfollow();
  }

  private unfollow(): void {
    this.cancelWatch?.();
    this.cancelWatch = undefined;
    this.forget();
  }

  /** Whether every write so far has reached the watch, so that nothing cached can be stale. */
  private fresh(): boolean {
    return this.cancelWatch !== undefined && this.seen >= this.backend.currentRevision();
  }

  private beginFill(target: string, exact: boolean): Fill {
    this.follow();
    const fill: Fill = { target, exact, seenAtStart: this.seen, generation: this.generation, spoiled: false };
    this.fills.add(fill);
    return fill;
  }

  /**
   * A read at `revision` may be kept if it includes every write the watch reported before it
   * began (revision ≥ seenAtStart) and no write has been reported since (not spoiled): every
   * later write will then be reported later, and drop it.
   */
  private keepable(fill: Fill, revision: number): boolean {
    return this.cancelWatch !== undefined && fill.generation === this.generation && !fill.spoiled && revision >= fill.seenAtStart;
  }

  /** Starts the store-wide watch on first use (and again after the store cancelled it). */
  private follow(): void {
    if (this.cancelWatch || this.closed) return;
    this.generation++;
    this.seen = this.backend.currentRevision();
    const generation = this.generation;
    let cancelled = false;
    const cancel = this.backend.watch('', 0, {
      onEvents: (events, revision) => this.apply(events, revision),
      onCancel: () => {
        cancelled = true;
        if (this.generation === generation && this.cancelWatch !== undefined) this.unfollow();
      },
    });
    // A backend may cancel inside watch() itself; then there is nothing to follow.
    if (!cancelled) this.cancelWatch = cancel;
  }

  private apply(events: readonly KvEvent[], revision: number): void {
    for (const e of events) this.invalidate(e.kv.key);
    if (revision > this.seen) this.seen = revision;
  }

  /** Drops the key and every cached list whose prefix holds it, and spoils reads in flight. */
  private invalidate(key: string): void {
    this.objects.delete(key);
    for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
      this.lists.delete(key.slice(0, slash + 1));
    }
    for (const fill of this.fills) {
      if (fill.exact ? fill.target === key : key.startsWith(fill.target)) fill.spoiled = true;
    }
  }

  private forget(): void {
    this.lists.clear();
    this.objects.clear();
    for (const fill of this.fills) fill.spoiled = true;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  // A simple bound: starting over is rare (that many distinct namespaces or objects) and always safe.
  if (map.size >= max && !map.has(key)) map.clear();
  map.set(key, value);
}
