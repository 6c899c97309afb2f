/**
 * The crash-loop back-off: how long the kubelet waits before restarting a container that
 * exited. Upstream: pkg/kubelet/kubelet.go (backOffPeriod = 10 s, MaxContainerBackOff = 300 s)
 * over client-go's util/flowcontrol/backoff.go, used by kuberuntime_manager.go doBackOff:
 * - a container with no entry restarts at once, and gets an entry of 10 s;
 * - an exit within the entry's delay of its finish time waits (CrashLoopBackOff); otherwise it
 *   restarts and the delay doubles, capped at 300 s;
 * - an entry not updated for 2 × 300 s = 10 min (e.g. the container ran that long) is reset.
 * (Jitter is 0 for the kubelet's container back-off.)
 */
export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;

interface Entry {
  delay_ms: number;
  lastUpdate_ms: number;
}

export class CrashBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initial_ms = BACKOFF_INITIAL_MS,
    private readonly max_ms = BACKOFF_MAX_MS,
  ) {}

  /** How long a restart must still wait (0: restart now), for a container that finished at `finished_ms`. */
  remaining(key: string, finished_ms: number, now_ms: number): number {
    const e = this.entries.get(key);
    if (!e || this.expired(e, finished_ms)) return 0;
    return Math.max(0, finished_ms + e.delay_ms - now_ms);
  }

  /** The current delay (what the CrashLoopBackOff message names). */
  delay(key: string): number {
    return this.entries.get(key)?.delay_ms ?? this.initial_ms;
  }

  /** A restart happens now: start or double the delay. */
  next(key: string, finished_ms: number, now_ms: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(e, finished_ms)) this.entries.set(key, { delay_ms: this.initial_ms, lastUpdate_ms: now_ms });
    else this.entries.set(key, { delay_ms: Math.min(e.delay_ms * 2, this.max_ms), lastUpdate_ms: now_ms });
  }

  forget(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private expired(e: Entry, event_ms: number): boolean {
    return event_ms - e.lastUpdate_ms > 2 * this.max_ms;
  }
}
