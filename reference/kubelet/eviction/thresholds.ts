/**
 * The eviction manager's thresholds for memory.available, hard and soft, and when they drive
 * eviction (kubernetes/kubernetes pkg/kubelet/eviction: helpers.go ParseThresholdConfig,
 * thresholdsMet, thresholdsFirstObservedAt, thresholdsMetGracePeriod; eviction_manager.go
 * synchronize). Pure: the observation and the clock in, the thresholds that act out.
 *
 * - `--eviction-hard memory.available<100Mi` acts as soon as it is met; `--eviction-soft
 *   memory.available<300Mi` only once it has been met without a break for its
 *   `--eviction-soft-grace-period` (required: a soft threshold without one is a configuration error).
 * - The node condition (MemoryPressure) follows every threshold met, grace period or not.
 * - `--eviction-minimum-reclaim memory.available=200Mi`: a threshold that drove eviction in the last
 *   pass stays met until memory.available is above its quantity plus the minimum reclaim, so the
 *   kubelet does not stop at the edge and start again a moment later (thresholdsMet with
 *   enforceMinReclaim over the thresholds met last time).
 * - The evicted pod's grace period: 1 s for a hard threshold (immediateEvictionGracePeriodSeconds);
 *   for a soft one `--eviction-max-pod-grace-period`, or the pod's terminationGracePeriodSeconds
 *   when that is shorter (synchronize's gracePeriodOverride: the max alone at commit
 *   0239cd73842a07dedf025bc1c93e1b62002cd0aa, min(max, the pod's) at 5ff739ee834cea7166a24a77a432215503c55e76).
 *
 * The kubelet (kubelet.ts synchronizeEviction) runs `evaluate` every monitoring period.
 */
import { parseBytes } from './memory.ts';

export const SIGNAL = 'memory.available';
/** eviction_manager.go immediateEvictionGracePeriodSeconds. */
export const IMMEDIATE_EVICTION_GRACE_S = 1;

export interface Threshold {
  signal: string;
  /** As given: "100Mi" or "10%" (of the node's memory capacity). */
  value: string;
  hard: boolean;
  /** How long a soft threshold must hold before it acts; 0 for a hard one. */
  gracePeriod_ms: number;
  /** --eviction-minimum-reclaim for the signal, as given. */
  minReclaim?: string;
}

export interface ThresholdConfig {
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  /** e.g. { 'memory.available': '1m30s' } */
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMinimumReclaim?: Record<string, string>;
}

/** ParseThresholdConfig for memory.available (other signals are not modelled and are ignored). */
export function parseThresholds(cfg: ThresholdConfig): Threshold[] {
  const out: Threshold[] = [];
  const minReclaim = cfg.evictionMinimumReclaim?.[SIGNAL];
  if (minReclaim !== undefined) quantity(minReclaim, 1, 'minimum reclaim');
  const withReclaim = (t: Threshold): Threshold => (minReclaim !== undefined ? { ...t, minReclaim } : t);
  const hard = cfg.evictionHard?.[SIGNAL];
  if (hard !== undefined) {
    quantity(hard, 1, 'threshold');
    out.push(withReclaim({ signal: SIGNAL, value: hard, hard: true, gracePeriod_ms: 0 }));
  }
  const soft = cfg.evictionSoft?.[SIGNAL];
  if (soft !== undefined) {
    quantity(soft, 1, 'threshold');
    const grace = cfg.evictionSoftGracePeriod?.[SIGNAL];
    if (grace === undefined) throw new Error(`grace period must be specified for the soft eviction threshold ${SIGNAL}`);
    out.push(withReclaim({ signal: SIGNAL, value: soft, hard: false, gracePeriod_ms: duration(grace) }));
  }
  return out;
}

/** A threshold value in bytes: a quantity, or a percentage of capacity (GetThresholdQuantity). */
export function quantity(value: string, capacity_bytes: number, what = 'threshold'): number {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (percent) {
    const p = Number(percent[1]);
    if (p <= 0 || p > 100) throw new Error(`invalid eviction percentage ${what} ${SIGNAL}: ${value}`);
    return Math.floor((capacity_bytes * p) / 100);
  }
  const bytes = parseBytes(value);
  if (bytes === undefined || bytes < 0) throw new Error(`invalid eviction ${what} ${SIGNAL}: ${value}`);
  return bytes;
}

/** Go durations as the flags take them: "90s", "1m30s", "500ms", "2h". */
export function duration(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new Error(`invalid duration "${text}"`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0);
}

/** thresholdsMet: memory.available below the threshold (plus its minimum reclaim when enforced). */
export function isMet(t: Threshold, available_bytes: number, capacity_bytes: number, enforceMinReclaim: boolean): boolean {
  let below = quantity(t.value, capacity_bytes);
  if (enforceMinReclaim && t.minReclaim !== undefined) below += quantity(t.minReclaim, capacity_bytes, 'minimum reclaim');
  return available_bytes < below;
}

/** What the manager remembers between passes (managerImpl.thresholdsFirstObservedAt, thresholdsMet). */
export interface ThresholdState {
  firstObserved_ms: Map<Threshold, number>;
  /** The thresholds that drove eviction in the last pass. */
  acting: Threshold[];
}

export function newThresholdState(): ThresholdState {
  return { firstObserved_ms: new Map(), acting: [] };
}

export interface Pass {
  /** Met now, grace period or not: the node reports MemoryPressure for these. */
  met: Threshold[];
  /** Met for at least their grace period: these drive eviction, hard ones first. */
  acting: Threshold[];
}

/** One synchronize pass over the thresholds; updates `state`. */
export function evaluate(thresholds: readonly Threshold[], available_bytes: number, capacity_bytes: number, now_ms: number, state: ThresholdState): Pass {
  const met = thresholds.filter((t) => isMet(t, available_bytes, capacity_bytes, false) || (state.acting.includes(t) && isMet(t, available_bytes, capacity_bytes, true)));
  const first = new Map<Threshold, number>();
  for (const t of met) first.set(t, state.firstObserved_ms.get(t) ?? now_ms);
  const acting = met.filter((t) => now_ms - first.get(t)! >= t.gracePeriod_ms).sort((a, b) => Number(b.hard) - Number(a.hard));
  state.firstObserved_ms = first;
  state.acting = acting;
  return { met, acting };
}

/**
 * The grace period the evicted pod's containers get, in seconds (eviction_manager.go synchronize,
 * gracePeriodOverride at 5ff739ee): 1 s under a hard threshold; under a soft one the pod's own
 * terminationGracePeriodSeconds capped by --eviction-max-pod-grace-period (the max alone when the
 * pod sets none; the API server defaults it to 30, so that is rare).
 */
export function evictionGracePeriod_s(t: Threshold, maxPodGracePeriod_s: number, podTerminationGracePeriod_s?: number): number {
  if (t.hard) return IMMEDIATE_EVICTION_GRACE_S;
  return podTerminationGracePeriod_s === undefined ? maxPodGracePeriod_s : Math.min(maxPodGracePeriod_s, podTerminationGracePeriod_s);
}
