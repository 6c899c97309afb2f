/**
 * TaintToleration (plugins/tainttoleration/taint_toleration.go).
 *
 * - Filter: the first NoSchedule or NoExecute taint the pod does not tolerate rejects the node,
 *   UnschedulableAndUnresolvable (evicting pods cannot remove a taint), with the reason
 *   `node(s) had untolerated taint {key: value}`. PreferNoSchedule never rejects.
 * - Score: the number of PreferNoSchedule taints the pod does not tolerate, counting only its
 *   tolerations whose effect is PreferNoSchedule or empty; NormalizeScore reverses it (fewest
 *   untolerated taints → 100). With weight 3 in the default profile it outweighs a resource
 *   score difference, not only a tie.
 *
 * A toleration matches a taint as v1 Toleration.ToleratesTaint says (../../../tolerations.ts).
 */
import type { FilterPlugin, ScorePlugin, Taint, Toleration } from '../../types.ts';
import { MAX_NODE_SCORE, status } from '../../types.ts';
import { NO_FAULTS, type Faults } from '../../../faults.ts';
import { toleratesTaint } from '../../../tolerations.ts';

export const NAME = 'TaintToleration';

export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): Taint | undefined {
  return taints.find((taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

export function errReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

export function taintToleration(faults: Faults = NO_FAULTS): FilterPlugin & ScorePlugin {
  // Fault noschedule-taint-ignored: only NoExecute filters, as if NoSchedule were advisory.
  const filtering = faults.has('noschedule-taint-ignored') ? ['NoExecute'] : ['NoSchedule', 'NoExecute'];
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeTaintChange'],
    filter(_s, pod, node) {
      if (!node.node.spec?.taints?.length) return undefined;
      const taint = untoleratedTaint(node.node.spec?.taints ?? [], pod.spec.tolerations ?? [], filtering);
      return taint ? status('UnschedulableAndUnresolvable', errReason(taint)) : undefined;
    },
    score(_s, pod, node) {
      const taints = node.node.spec?.taints;
      if (!taints || taints.length === 0) return 0;
      const tolerations = (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
      return taints.filter((taint) => taint.effect === 'PreferNoSchedule' && !tolerations.some((t) => toleratesTaint(t, taint))).length;
    },
    normalize: (_s, _p, scores) => defaultNormalize(scores, true),
  };
}

/** helper.DefaultNormalizeScore: scale so the highest is 100; `reverse` turns it upside down. */
export function defaultNormalize(scores: number[], reverse: boolean): void {
  let max = 0;
  for (const v of scores) if (v > max) max = v;
  for (let i = 0; i < scores.length; i++) {
    const scaled = max === 0 ? 0 : Math.floor((MAX_NODE_SCORE * scores[i]!) / max);
    scores[i] = reverse ? MAX_NODE_SCORE - scaled : scaled;
  }
}
