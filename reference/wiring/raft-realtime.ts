/**
 * Keeps a RaftBackend's simulated cluster in step with a real clock, for `kubespec serve --ha`.
 *
 * The simulator's clock only moves when something drives it. Under the suite, the session's
 * waiter and every client call drive it; in serve nobody waits, so without a driver an idle
 * cluster would never send a heartbeat and a killed leader would never be replaced until the
 * next request. The driver runs the cluster forward, every `interval_ms` of real time, by as
 * much as it is behind the wall clock, so Raft's timing (100 ms heartbeats, 1 s election
 * timeout: etcd's defaults) is real time. Serve's backend is built with drivenByCallers false:
 * its requests wait for the driver's runs, so a write without a majority fails after etcd's
 * request timeout of real time. If something else drives the cluster ahead of the wall clock,
 * the driver just waits for the wall clock to catch up.
 */
import type { RaftBackend } from './raft-backend.ts';
import type { Scheduler } from './virtual-clock.ts';

export interface RealTimeRaftDriver {
  /** Stop driving; the cluster stays as it is. */
  stop(): void;
}

export interface RealTimeRaftDriverOptions {
  /** How often to look at the wall clock (default 20 ms: a fifth of a heartbeat). */
  interval_ms?: number;
  /** A run that threw (a simulator invariant): told, and driving goes on. */
  onError?: (error: unknown) => void;
}

export function driveRaftInRealTime(raft: RaftBackend, clock: Scheduler, opts: RealTimeRaftDriverOptions = {}): RealTimeRaftDriver {
  const interval_ms = opts.interval_ms ?? 20;
  const wallStart_ms = clock.now_ms();
  const simStart_ms = raft.now_ms();
  let running = false;
  let stopped = false;
  let cancel = () => {};
  const tick = () => {
    if (stopped) return;
    cancel = clock.after(interval_ms, tick);
    if (running) return;
    const behind_ms = clock.now_ms() - wallStart_ms - (raft.now_ms() - simStart_ms);
    if (behind_ms <= 0) return;
    running = true;
    raft.advance(behind_ms).catch((error: unknown) => opts.onError?.(error)).finally(() => (running = false));
  };
  cancel = clock.after(interval_ms, tick);
  return {
    stop() {
      stopped = true;
      cancel();
    },
  };
}
