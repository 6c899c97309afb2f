/**
 * Virtual time for the reference target. Cores read `now_ms()` and ask for callbacks at a
 * virtual instant; nothing here touches the wall clock, so "after 5 minutes" costs only the
 * callbacks that fall due within them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface Clock {
  now_ms(): number;
}

export interface Scheduler extends Clock {
  /** Run `fn` once virtual time reaches now + delay_ms. Returns a cancel function. */
  after(delay_ms: number, fn: () => void): () => void;
  /**
   * Host work a component waits for (a subprocess such as openssl): its result. On virtual time
   * the waiters move time on only once it has settled; a real clock needs nothing of it.
   */
  hostWork?<T>(work: Promise<T>): Promise<T>;
}

/** Start host work under a clock: tracked on virtual time (Scheduler.hostWork), as is elsewhere. */
export function onHost<T>(clock: Scheduler, work: () => Promise<T>): Promise<T> {
  return clock.hostWork ? clock.hostWork(work()) : work();
}

interface Timer {
  due_ms: number;
  order: number;
  fn: () => void;
}

/** Upper bound on callbacks one advance may run, so a timer that re-arms at delay 0 cannot spin forever. */
const MAX_CALLBACKS_PER_ADVANCE = 1_000_000;

export class VirtualClock implements Scheduler {
  private current_ms: number;
  private timers: Timer[] = [];
  private nextOrder = 0;
  private readonly pendingHostWork = new Set<Promise<unknown>>();

  constructor(start_ms = Date.UTC(2026, 0, 1)) {
    this.current_ms = start_ms;
  }

  now_ms(): number {
    return this.current_ms;
  }

  after(delay_ms: number, fn: () => void): () => void {
    const timer: Timer = { due_ms: this.current_ms + Math.max(0, delay_ms), order: this.nextOrder++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Move time forward, running due callbacks in (due time, insertion) order. */
  advance(delta_ms: number): void {
    if (!(delta_ms >= 0)) throw new Error(`cannot move virtual time by ${delta_ms} ms`);
    const end_ms = this.current_ms + delta_ms;
    for (let ran = 0; ran < MAX_CALLBACKS_PER_ADVANCE; ran++) {
      const next = this.nextDue(end_ms);
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current_ms = next.due_ms;
      next.fn();
    }
    this.current_ms = end_ms;
  }

  /**
   * A subprocess takes real time, which event-loop turns do not bound: were virtual time to run on
   * meanwhile, what a scenario sees would depend on the machine's load (the flake hunt saw it with
   * openssl under the kubelet's certificate rotation). Waiters ask `hostWorkSettled` first.
   */
  hostWork<T>(work: Promise<T>): Promise<T> {
    const entry: Promise<unknown> = work.then(
      () => this.pendingHostWork.delete(entry),
      () => this.pendingHostWork.delete(entry),
    );
    this.pendingHostWork.add(entry);
    return work;
  }

  hostWorkPending(): boolean {
    return this.pendingHostWork.size > 0;
  }

  /** Resolves once no host work is pending (work started meanwhile included). */
  async hostWorkSettled(): Promise<void> {
    while (this.pendingHostWork.size > 0) await Promise.all([...this.pendingHostWork]);
  }

  pendingTimers(): number {
    return this.timers.length;
  }

  private nextDue(end_ms: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (t.due_ms > end_ms) continue;
      if (!best || t.due_ms < best.due_ms || (t.due_ms === best.due_ms && t.order < best.order)) best = t;
    }
    return best;
  }
}

/** Event-loop turns given to I/O before each virtual step (also the adapters' waiter's). */
export const TURNS_PER_STEP = 3;
/** Virtual time moved per step when time simply passes: coarse, since nothing is waited on. */
const PASSING_STEP_MS = 1_000;

/**
 * Let virtual time pass the way it passes on a real cluster: in steps, with event-loop turns
 * between them, so that what the passing time sets off over loopback (a watch that times out
 * and is re-opened, a retried write) happens along the way rather than all after the jump.
 */
export async function passTime(clock: VirtualClock, ms: number): Promise<void> {
  const end_ms = clock.now_ms() + ms;
  while (clock.now_ms() < end_ms) {
    for (let turn = 0; turn < TURNS_PER_STEP; turn++) await nextTurn();
    if (clock.hostWorkPending()) {
      await clock.hostWorkSettled();
      continue;
    }
    clock.advance(Math.min(PASSING_STEP_MS, end_ms - clock.now_ms()));
  }
  for (let turn = 0; turn < TURNS_PER_STEP; turn++) await nextTurn();
}
