/**
 * One control-plane process's view of the shared scheduler: the same time, but its callbacks
 * can be held (the process is frozen — SIGSTOP, a long GC pause) and run late, in the order they
 * fell due, when it thaws; or dropped for good (the process was killed).
 */
import type { Scheduler } from './virtual-clock.ts';

export class ProcessClock implements Scheduler {
  private frozen = false;
  private dead = false;
  private held: (() => void)[] = [];
  private readonly cancels = new Set<() => void>();

  constructor(private readonly base: Scheduler) {}

  now_ms(): number {
    return this.base.now_ms();
  }

  after(delay_ms: number, fn: () => void): () => void {
    if (this.dead) return () => {};
    let cancelled = false;
    const cancelBase = this.base.after(delay_ms, () => {
      this.cancels.delete(cancel);
      if (cancelled || this.dead) return;
      if (this.frozen) this.held.push(() => cancelled || fn());
      else fn();
    });
    const cancel = () => {
      cancelled = true;
      cancelBase();
      this.cancels.delete(cancel);
    };
    this.cancels.add(cancel);
    return cancel;
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  freeze(): void {
    this.frozen = true;
  }

  /** Run what fell due while frozen, then go on. */
  thaw(): void {
    this.frozen = false;
    for (const fn of this.held.splice(0)) if (!this.dead) fn();
  }

  kill(): void {
    this.dead = true;
    this.held = [];
    for (const cancel of [...this.cancels]) cancel();
  }
}
