/**
 * The eviction manager's state between passes and its decisions for one pass, for memory.available
 * (kubernetes/kubernetes pkg/kubelet/eviction/eviction_manager.go managerImpl.synchronize). The
 * kubelet (kubelet.ts synchronizeEviction) supplies the observation and the pods and does what
 * this decides: report MemoryPressure, evict one pod with the grace period given.
 *
 * One pass, as synchronize does it:
 * 1. thresholds met now — hard and soft, grace period or not, and those that acted last pass and
 *    have not yet reclaimed their minimum (thresholds.ts evaluate: thresholdsMet, mergeThresholds);
 * 2. MemoryPressure is True while any is met and for --eviction-pressure-transition-period (5m)
 *    after the last pass one was (nodeConditionsLastObservedAt, nodeConditionsObservedSince): a
 *    soft threshold in its grace period already sets the condition;
 * 3. the thresholds that have been met for their grace period drive eviction, hard first
 *    (thresholdsMetGracePeriod, byEvictionPriority); at most one pod per pass, the first in
 *    rankMemoryPressure order that is not critical, with the grace period of
 *    thresholds.ts evictionGracePeriod_s.
 */
import { PRESSURE_TRANSITION_MS, evictionMessage, isCritical, rankMemoryPressure, type PodUsage } from './memory.ts';
import { duration, evaluate, evictionGracePeriod_s, newThresholdState, parseThresholds, type Threshold, type ThresholdConfig } from './thresholds.ts';

/** KubeletConfiguration's eviction fields (memory.available is the only signal modelled). */
export interface EvictionConfig extends ThresholdConfig {
  /** evictionMaxPodGracePeriod in seconds; upstream's default is 0. */
  evictionMaxPodGracePeriod?: number;
  /** evictionPressureTransitionPeriod, a Go duration; default "5m". */
  evictionPressureTransitionPeriod?: string;
}

/** What a pass decided about the node: its MemoryPressure, and the threshold that acts, if any. */
export interface Observation {
  memoryPressure: boolean;
  acting?: Threshold;
}

export interface Eviction {
  candidate: PodUsage;
  grace_s: number;
  message: string;
  /** Critical pods passed over on the way (evictPod refuses them). */
  skipped: PodUsage[];
}

export class EvictionManager {
  readonly thresholds: Threshold[];
  private readonly transition_ms: number;
  private readonly state = newThresholdState();
  private lastMet_ms?: number;

  /** Throws on a configuration the kubelet refuses to start with (e.g. a soft threshold without a grace period). */
  constructor(private readonly cfg: EvictionConfig) {
    this.thresholds = parseThresholds(cfg);
    this.transition_ms = cfg.evictionPressureTransitionPeriod !== undefined ? duration(cfg.evictionPressureTransitionPeriod) : PRESSURE_TRANSITION_MS;
  }

  /** synchronize returns at once when no threshold is configured: the kubelet need not run the loop. */
  get enabled(): boolean {
    return this.thresholds.length > 0;
  }

  /** Steps 1–3 up to the choice of a pod: the node condition and the threshold to reclaim for. */
  observe(available_bytes: number, capacity_bytes: number, now_ms: number): Observation {
    const pass = evaluate(this.thresholds, available_bytes, capacity_bytes, now_ms, this.state);
    if (pass.met.length > 0) this.lastMet_ms = now_ms;
    const memoryPressure = this.lastMet_ms !== undefined && now_ms - this.lastMet_ms < this.transition_ms;
    return pass.acting[0] ? { memoryPressure, acting: pass.acting[0] } : { memoryPressure };
  }

  /** The pod to evict for `threshold`: the first non-critical one in rank order (synchronize's loop over activePods). */
  choose(threshold: Threshold, pods: readonly PodUsage[], available_bytes: number): Eviction | undefined {
    const skipped: PodUsage[] = [];
    for (const candidate of rankMemoryPressure(pods)) {
      if (isCritical(candidate.pod)) {
        skipped.push(candidate);
        continue;
      }
      const podGrace = candidate.pod?.spec?.terminationGracePeriodSeconds;
      const grace_s = evictionGracePeriod_s(threshold, this.cfg.evictionMaxPodGracePeriod ?? 0, typeof podGrace === 'number' ? podGrace : undefined);
      return { candidate, grace_s, message: evictionMessage(threshold.value, available_bytes, candidate), skipped };
    }
    return undefined;
  }
}
