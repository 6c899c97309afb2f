/**
 * The work queue every controller drains, after client-go's workqueue
 * (staging/src/k8s.io/client-go/util/workqueue/queue.go):
 *
 * - A key waiting in the queue is there once, however often it is added (the `dirty` set):
 *   a burst of events about one object costs one reconcile, which is correct because a
 *   reconcile reads the current state, not the events.
 * - A key being processed (`processing`) is never handed out a second time at once; an add
 *   while it is processed marks it dirty, and `done` puts it back, so the change that arrived
 *   mid-reconcile is not lost.
 *
 * Keys leave in the order they first became dirty. The queue is bounded by the number of
 * distinct keys, since a key is never queued twice.
 *
 * ItemExponentialBackoff is the per-key part of client-go's default controller rate limiter
 * (workqueue/default_rate_limiters.go: 5 ms doubling per failure, capped at 1000 s): how long
 * to wait before retrying a key whose reconcile failed. It keeps no clock: the host schedules
 * the retry.
 */

export class WorkQueue<K> {
  private readonly queue: K[] = [];
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();

  add(key: K): void {
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    // Processing now: `done` re-queues it.
    if (this.processing.has(key)) return;
    this.queue.push(key);
  }

  /** The next key to process, now marked as processing; undefined when none is waiting. */
  get(): K | undefined {
    const key = this.queue.shift();
    if (key === undefined) return undefined;
    this.processing.add(key);
    this.dirty.delete(key);
    return key;
  }

  /** Processing of `key` finished; if it was added meanwhile, it waits again. */
  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) this.queue.push(key);
  }

  /** Keys waiting (not counting those being processed). */
  get length(): number {
    return this.queue.length;
  }

  get processingCount(): number {
    return this.processing.size;
  }

  /** Nothing waiting and nothing in flight. */
  get idle(): boolean {
    return this.queue.length === 0 && this.processing.size === 0;
  }
}

export const DEFAULT_BASE_DELAY_MS = 5;
export const DEFAULT_MAX_DELAY_MS = 1000 * 1000;

export class ItemExponentialBackoff<K> {
  private readonly failures = new Map<K, number>();

  constructor(
    private readonly baseDelay_ms = DEFAULT_BASE_DELAY_MS,
    private readonly maxDelay_ms = DEFAULT_MAX_DELAY_MS,
  ) {}

  /** Records one more failure of `key` and says how long to wait before its retry. */
  when(key: K): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    // 2^failures overflows to Infinity long after the cap, so Math.min keeps it finite.
    return Math.min(this.baseDelay_ms * 2 ** failures, this.maxDelay_ms);
  }

  /** The key succeeded: its next failure starts from the base delay again. */
  forget(key: K): void {
    this.failures.delete(key);
  }

  failuresOf(key: K): number {
    return this.failures.get(key) ?? 0;
  }
}
