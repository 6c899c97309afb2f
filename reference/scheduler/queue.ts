/**
 * The scheduling queue (pkg/scheduler/backend/queue/scheduling_queue.go PriorityQueue): three
 * places a pending pod can be.
 *
 * - activeQ: ready to be tried, ordered by the profile's QueueSort (priority, then time).
 * - backoffQ: failed recently; waits its backoff out — 1 s after the first failed attempt,
 *   doubling per attempt up to 10 s (DefaultPodInitialBackoffDuration,
 *   DefaultPodMaxBackoffDuration) — and is flushed to activeQ by the host's 1 s timer
 *   (flushBackoffQCompleted).
 * - unschedulable: failed and waits for a cluster change that could help: a change moves it
 *   back (to backoffQ if its backoff has not run out, else to activeQ) only when one of the
 *   plugins that rejected it registered for that kind of event (EventsToRegister). After 5
 *   minutes there it is moved back anyway (DefaultPodMaxInUnschedulablePodsDuration).
 *
 * A change that arrives while a pod is being tried is remembered (moveRequestCycle), so a pod
 * whose attempt fails just after the change that would have helped it goes to backoffQ rather
 * than waiting for another change. Pure: time is passed in.
 */
import { KeyedHeap } from './heap.ts';
import type { ClusterEvent, Pod, QueueSortPlugin, QueuedPodInfo } from './types.ts';
import { podKey, podPriority } from './types.ts';

export const INITIAL_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 10_000;
export const MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;

export interface QueueOptions {
  queueSort: QueueSortPlugin;
  /** Which events could help a pod rejected by these plugins (Framework.eventsOf). */
  eventsOf(plugins: Iterable<string>): Set<string>;
  initialBackoff_ms?: number;
  maxBackoff_ms?: number;
}

export class SchedulingQueue {
  private readonly active: KeyedHeap<QueuedPodInfo>;
  private readonly backoff: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulable = new Map<string, QueuedPodInfo & { since_ms: number }>();
  /** Pods popped and not yet done, with the cycle they were popped in. */
  private readonly inFlight = new Map<string, number>();
  private schedulingCycle = 0;
  private moveRequestCycle = -1;
  private readonly initial_ms: number;
  private readonly max_ms: number;

  constructor(private readonly opts: QueueOptions) {
    this.initial_ms = opts.initialBackoff_ms ?? INITIAL_BACKOFF_MS;
    this.max_ms = opts.maxBackoff_ms ?? MAX_BACKOFF_MS;
    this.active = new KeyedHeap((i) => i.key, (a, b) => opts.queueSort.less(a, b));
    this.backoff = new KeyedHeap((i) => i.key, (a, b) => this.backoffExpiry(a) < this.backoffExpiry(b));
  }

  get lengths(): { active: number; backoff: number; unschedulable: number } {
    return { active: this.active.size, backoff: this.backoff.size, unschedulable: this.unschedulable.size };
  }

  has(key: string): boolean {
    return this.active.has(key) || this.backoff.has(key) || this.unschedulable.has(key) || this.inFlight.has(key);
  }

  /** A new pending pod. */
  add(pod: Pod, now_ms: number): void {
    const key = podKey(pod);
    if (this.has(key)) return this.update(pod, now_ms);
    this.active.push({ pod, key, priority: podPriority(pod), initialAttempt_ms: now_ms, timestamp_ms: now_ms, attempts: 0, unschedulablePlugins: new Set() });
  }

  /** The pod changed: keep the newest copy; a changed unschedulable pod may fit now, so it is tried again. */
  update(pod: Pod, now_ms: number): void {
    const key = podKey(pod);
    for (const heap of [this.active, this.backoff]) {
      const info = heap.get(key);
      if (info) return heap.push({ ...info, pod, priority: podPriority(pod) });
    }
    const info = this.unschedulable.get(key);
    // Only a change to what scheduling reads can help; the status the scheduler itself just
    // wrote (PodScheduled=False) must not send the pod round again (upstream isPodUpdated
    // ignores status, resourceVersion and managedFields).
    if (info && !schedulingRelevantChange(info.pod, pod)) {
      this.unschedulable.set(key, { ...info, pod });
      return;
    }
    if (info) {
      this.unschedulable.delete(key);
      this.requeue({ ...info, pod, priority: podPriority(pod) }, now_ms);
      return;
    }
    if (!this.inFlight.has(key)) this.add(pod, now_ms);
  }

  delete(key: string): void {
    this.active.remove(key);
    this.backoff.remove(key);
    this.unschedulable.delete(key);
    this.inFlight.delete(key);
  }

  /** The next pod to try, or undefined when activeQ is empty. */
  pop(): QueuedPodInfo | undefined {
    const info = this.active.pop();
    if (!info) return undefined;
    info.attempts++;
    this.schedulingCycle++;
    this.inFlight.set(info.key, this.schedulingCycle);
    return info;
  }

  /** The attempt ended without a bind: back to wait for a change (or backoff, if one came meanwhile). */
  addUnschedulable(info: QueuedPodInfo, rejectors: Iterable<string>, now_ms: number): void {
    const cycle = this.inFlight.get(info.key);
    if (cycle === undefined) return; // deleted while in flight
    this.inFlight.delete(info.key);
    const next = { ...info, timestamp_ms: now_ms, unschedulablePlugins: new Set(rejectors) };
    if (this.moveRequestCycle >= cycle) this.backoff.push(next);
    else this.unschedulable.set(info.key, { ...next, since_ms: now_ms });
  }

  /** An error (not a fit failure): retry after backoff. */
  addBackoff(info: QueuedPodInfo, now_ms: number): void {
    if (!this.inFlight.delete(info.key)) return;
    this.backoff.push({ ...info, timestamp_ms: now_ms });
  }

  /** The attempt bound the pod (or gave it up): forget it. */
  done(key: string): void {
    this.inFlight.delete(key);
  }

  /** A cluster change: move back the unschedulable pods it could help. */
  moveOnEvent(event: ClusterEvent, now_ms: number): void {
    this.moveRequestCycle = this.schedulingCycle;
    for (const [key, info] of this.unschedulable) {
      const interested = info.unschedulablePlugins.size === 0 || this.opts.eventsOf(info.unschedulablePlugins).has(event);
      if (!interested) continue;
      this.unschedulable.delete(key);
      this.requeue(info, now_ms);
    }
  }

  /** Backoffs that have run out go to activeQ; pods unschedulable for 5 minutes are retried. Returns how many moved. */
  flush(now_ms: number): number {
    let moved = 0;
    for (let top = this.backoff.peek(); top && this.backoffExpiry(top) <= now_ms; top = this.backoff.peek()) {
      this.active.push(this.backoff.pop()!);
      moved++;
    }
    for (const [key, info] of this.unschedulable) {
      if (now_ms - info.since_ms < MAX_IN_UNSCHEDULABLE_MS) continue;
      this.unschedulable.delete(key);
      this.requeue(info, now_ms);
      moved++;
    }
    return moved;
  }

  /** How long a pod waits after `attempts` failed attempts: 1 s, 2 s, 4 s, 8 s, 10 s, 10 s, … */
  backoffDuration(attempts: number): number {
    let d = this.initial_ms;
    for (let i = 1; i < attempts && d < this.max_ms; i++) d *= 2;
    return Math.min(d, this.max_ms);
  }

  backoffExpiry(info: QueuedPodInfo): number {
    return info.timestamp_ms + this.backoffDuration(info.attempts);
  }

  private requeue(info: QueuedPodInfo, now_ms: number): void {
    const { since_ms: _drop, ...plain } = info as QueuedPodInfo & { since_ms?: number };
    if (plain.attempts > 0 && this.backoffExpiry(plain) > now_ms) this.backoff.push(plain);
    else this.active.push(plain);
  }
}

function schedulingRelevantChange(old: Pod, next: Pod): boolean {
  const view = (p: Pod) => JSON.stringify([p.spec, p.metadata.labels ?? {}, p.metadata.annotations ?? {}]);
  return view(old) !== view(next);
}
