/**
 * Real time for `kubespec serve`: the same Scheduler the cores see under the suite's virtual
 * clock, but backed by the host's wall clock and timers. The cores cannot tell the two apart,
 * which is the point: serve runs the very code the features check.
 */
import type { Scheduler } from './virtual-clock.ts';

export interface RealTimeSchedulerOptions {
  /**
   * Keep the process alive while a callback is pending (default false). Serve is kept alive by
   * its listening socket; a watch timeout or a bookmark alone should not hold a process that
   * is otherwise done.
   */
  ref?: boolean;
}

export class RealTimeScheduler implements Scheduler {
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly ref: boolean;

  constructor(opts: RealTimeSchedulerOptions = {}) {
    this.ref = opts.ref ?? false;
  }

  now_ms(): number {
    return Date.now();
  }

  after(delay_ms: number, fn: () => void): () => void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      fn();
    }, Math.max(0, delay_ms));
    if (!this.ref) timer.unref();
    this.pending.add(timer);
    return () => {
      clearTimeout(timer);
      this.pending.delete(timer);
    };
  }

  /** Calls `fn` every `interval_ms` until the returned function is called. */
  every(interval_ms: number, fn: () => void): () => void {
    let cancel = () => {};
    const arm = () => {
      cancel = this.after(interval_ms, () => {
        arm();
        fn();
      });
    };
    arm();
    return () => cancel();
  }

  pendingTimers(): number {
    return this.pending.size;
  }

  /** Cancels every pending callback (shutdown). */
  cancelAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
