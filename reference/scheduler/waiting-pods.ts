/**
 * Pods held at the Permit gate (pkg/scheduler/framework/runtime/waiting_pods_map.go): a Permit
 * plugin that answers Wait, with a timeout, keeps the pod — assumed on its node, so the room it
 * takes stays taken — out of binding until every waiting plugin allows it, one rejects it, or a
 * plugin's timeout runs out ("rejected due to timeout after waiting 10s at plugin Gang").
 * Plugins reach the waiting pods through the framework's handle (GetWaitingPod,
 * IterateOverWaitingPods) to allow or reject them, e.g. a gang plugin allowing a whole group.
 *
 * Pure: the timeouts are deadlines compared with the time the host passes in.
 */
import type { CycleState, Pod, QueuedPodInfo, Status } from './types.ts';

/** RunPermitPlugins caps a plugin's wait at maxTimeout, 15 minutes. */
export const MAX_PERMIT_TIMEOUT_MS = 15 * 60_000;

/** What a plugin sees of a waiting pod (framework.WaitingPod). */
export interface WaitingPod {
  readonly pod: Pod;
  readonly node: string;
  /** Plugins that have not allowed it yet. */
  pendingPlugins(): string[];
  allow(plugin: string): void;
  reject(plugin: string, message: string): void;
}

export class WaitingPodEntry implements WaitingPod {
  private readonly deadlines = new Map<string, { at_ms: number; waited_ms: number }>();
  /** Set once: allowed (undefined status) or rejected. */
  outcome?: { status?: Status };

  constructor(
    readonly info: QueuedPodInfo,
    readonly node: string,
    readonly state: CycleState,
    waits: ReadonlyMap<string, number>,
    now_ms: number,
  ) {
    for (const [plugin, timeout_ms] of waits) this.deadlines.set(plugin, { at_ms: now_ms + timeout_ms, waited_ms: timeout_ms });
  }

  get pod(): Pod {
    return this.info.pod;
  }

  pendingPlugins(): string[] {
    return [...this.deadlines.keys()];
  }

  allow(plugin: string): void {
    this.deadlines.delete(plugin);
    if (this.deadlines.size === 0) this.outcome ??= {};
  }

  reject(plugin: string, message: string): void {
    this.outcome ??= { status: { code: 'Unschedulable', reasons: [message], ...(plugin ? { plugin } : {}) } };
  }

  /** Rejects on behalf of the first plugin whose timeout has run out by `now_ms`. */
  expire(now_ms: number): void {
    for (const [plugin, d] of this.deadlines) {
      if (d.at_ms <= now_ms) return this.reject(plugin, `rejected due to timeout after waiting ${goDuration(d.waited_ms)} at plugin ${plugin}`);
    }
  }

  /** The earliest deadline still pending. */
  get nextDeadline_ms(): number | undefined {
    let next: number | undefined;
    for (const d of this.deadlines.values()) if (next === undefined || d.at_ms < next) next = d.at_ms;
    return next;
  }
}

/** A duration as Go's time.Duration.String() prints it: "500ms", "10s", "1m30s", "15m0s". */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const totalSeconds = ms / 1000;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = Number((totalSeconds % 60).toFixed(3));
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
