/**
 * The watch cache's event window: how far back a watch can start, per resource, even when the
 * store still has the history. Upstream's API server serves a watch from a resourceVersion out of
 * its watch cache, a ring of the resource's latest events
 * (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go):
 *
 * - capacity starts at defaultLowerBoundCapacity = 100 events and grows up to
 *   defaultUpperBoundCapacity = 100*1024;
 * - resizeCacheLocked, on each new event: a full ring whose oldest event is younger than
 *   eventFreshDuration doubles (up to the upper bound); a full ring whose newest quarter starts
 *   with an event older than eventFreshDuration halves (down to the lower bound), dropping the
 *   oldest events; eventFreshDuration is 75 s (cacher.go: defaultBookmarkFrequency 60 s + 15 s);
 * - updateCache: a ring still full after that drops its oldest event (removedEventSinceRelist);
 * - getAllEventsSinceLocked: until an event has been dropped the oldest watchable point is the
 *   cache's initial list; after, it is the first event in the ring, and a watch from
 *   resourceVersion < oldest-1 is "too old resource version: rv (oldest-1)", 410 Expired.
 *
 * Only the events' resourceVersions and record times are kept: the reference replays the events
 * themselves from its store, the window only decides how far back it may. Pure: time comes in.
 */

/** Upstream's defaults (watch_cache.go defaultLowerBoundCapacity/defaultUpperBoundCapacity, cacher.go eventFreshDuration). */
export const DEFAULT_WINDOW = { lowerBound: 100, upperBound: 100 * 1024, eventFresh_ms: 75_000 } as const;

export type WindowOptions = { lowerBound: number; upperBound: number; eventFresh_ms: number };

interface Recorded {
  rv: number;
  at_ms: number;
}

/** One resource's ring of recent events. */
export class WatchCacheWindow {
  capacity: number;
  /** Events in order; `start` is the oldest still in the ring (dropped ones are spliced off in batches). */
  private events: Recorded[] = [];
  private start = 0;
  private removedEvent = false;

  constructor(private readonly opts: WindowOptions = DEFAULT_WINDOW) {
    this.capacity = opts.lowerBound;
  }

  get size(): number {
    return this.events.length - this.start;
  }

  /** An event of this resource at `rv`, recorded at `now_ms`. */
  record(rv: number, now_ms: number): void {
    this.resize(now_ms);
    if (this.size >= this.capacity) this.drop(this.size - this.capacity + 1);
    this.events.push({ rv, at_ms: now_ms });
  }

  /**
   * The oldest resourceVersion a watch can start from, or undefined while no event has left the
   * ring (then the store's own history is the limit).
   */
  oldestWatchable(): number | undefined {
    if (!this.removedEvent || this.size === 0) return undefined;
    return this.events[this.start]!.rv - 1;
  }

  private full(): boolean {
    return this.size >= this.capacity;
  }

  private at(index: number): Recorded {
    return this.events[this.start + index]!;
  }

  private resize(now_ms: number): void {
    if (!this.full()) return;
    if (now_ms - this.at(0).at_ms < this.opts.eventFresh_ms) {
      this.capacity = Math.min(this.capacity * 2, this.opts.upperBound);
      return;
    }
    // The first event of the newest quarter (upstream: cache[(endIndex - capacity/4) % capacity]).
    const quarter = this.at(this.size - Math.floor(this.capacity / 4));
    if (now_ms - quarter.at_ms > this.opts.eventFresh_ms) {
      const smaller = Math.max(Math.floor(this.capacity / 2), this.opts.lowerBound);
      if (smaller < this.size) this.drop(this.size - smaller);
      this.capacity = smaller;
    }
  }

  private drop(count: number): void {
    if (count <= 0) return;
    this.start += count;
    this.removedEvent = true;
    // Splice dropped entries off once they are half the array, so memory follows the ring.
    if (this.start > this.events.length / 2) {
      this.events = this.events.slice(this.start);
      this.start = 0;
    }
  }
}

/** A window per resource, created with the resource's first event (the cache's initial list is empty). */
export class WatchCacheWindows {
  private readonly byResource = new Map<string, WatchCacheWindow>();

  constructor(private readonly opts: WindowOptions = DEFAULT_WINDOW) {}

  record(resource: string, rv: number, now_ms: number): void {
    let window = this.byResource.get(resource);
    if (!window) this.byResource.set(resource, (window = new WatchCacheWindow(this.opts)));
    window.record(rv, now_ms);
  }

  oldestWatchable(resource: string): number | undefined {
    return this.byResource.get(resource)?.oldestWatchable();
  }

  capacityOf(resource: string): number | undefined {
    return this.byResource.get(resource)?.capacity;
  }
}
