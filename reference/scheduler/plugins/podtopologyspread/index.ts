/**
 * PodTopologySpread (plugins/podtopologyspread/filtering.go, scoring.go), for the constraints a
 * pod states in spec.topologySpreadConstraints. (Upstream also applies cluster-level default
 * constraints to pods that state none; the reference's default profile has none.)
 *
 * For a constraint, the matching pods (its labelSelector, the pod's namespace) are counted per
 * domain (value of topologyKey) over the nodes that carry the key and pass the pod's node
 * affinity and nodeSelector (nodeAffinityPolicy Honor, the default).
 * - whenUnsatisfiable DoNotSchedule (Filter): placing the pod on a node must not make its
 *   domain's count exceed the smallest domain's by more than maxSkew —
 *   `node(s) didn't match pod topology spread constraints` (Unschedulable); a node without the
 *   key fails with `... (missing required label)` (UnschedulableAndUnresolvable).
 * - ScheduleAnyway (Score): fewer matching pods in the node's domain scores higher.
 */
import type { CycleState, FilterPlugin, Pod, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../types.ts';
import { MAX_NODE_SCORE, status } from '../../types.ts';
import { matchesLabelSelector } from '../../selectors.ts';
import type { NodeInfo, Snapshot } from '../../node-info.ts';
import { requiredNodeAffinityMatches } from '../nodeaffinity/index.ts';

export const NAME = 'PodTopologySpread';
export const ERR_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";

interface Constraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: any;
}

interface Spread {
  constraint: Constraint;
  counts: Map<string, number>;
  min: number;
  selfMatch: number;
}

function constraintsOf(pod: Pod, when: string): Constraint[] {
  return (pod.spec.topologySpreadConstraints ?? []).filter((c: Constraint) => c.whenUnsatisfiable === when);
}

function countSpread(pod: Pod, constraints: Constraint[], snapshot: Snapshot): Spread[] {
  const ns = pod.metadata.namespace ?? '';
  const spreads = constraints.map((constraint) => ({ constraint, counts: new Map<string, number>(), min: 0, selfMatch: matchesLabelSelector(constraint.labelSelector, pod.metadata.labels) ? 1 : 0 }));
  for (const node of snapshot.nodes) {
    if (!requiredNodeAffinityMatches(pod, node.node)) continue;
    const labels = node.node.metadata.labels ?? {};
    for (const s of spreads) {
      const value = labels[s.constraint.topologyKey];
      if (value === undefined) continue;
      let n = 0;
      for (const other of node.pods.values()) if ((other.metadata.namespace ?? '') === ns && !other.metadata.deletionTimestamp && matchesLabelSelector(s.constraint.labelSelector, other.metadata.labels)) n++;
      s.counts.set(value, (s.counts.get(value) ?? 0) + n);
    }
  }
  for (const s of spreads) s.min = s.counts.size === 0 ? 0 : Math.min(...s.counts.values());
  return spreads;
}

function filter(state: CycleState, _pod: Pod, node: NodeInfo) {
  const spreads = state.read<Spread[]>(NAME)!;
  const labels = node.node.metadata.labels ?? {};
  for (const s of spreads) {
    const value = labels[s.constraint.topologyKey];
    if (value === undefined) return status('UnschedulableAndUnresolvable', ERR_MISSING_LABEL);
    if ((s.counts.get(value) ?? 0) + s.selfMatch - s.min > s.constraint.maxSkew) return status('Unschedulable', ERR_CONSTRAINTS_NOT_MATCH);
  }
  return undefined;
}

function minMaxNormalize(scores: number[], reverse: boolean): void {
  let max = -Infinity;
  let min = Infinity;
  for (const v of scores) {
    if (v > max) max = v;
    if (v < min) min = v;
  }
  for (let i = 0; i < scores.length; i++) {
    if (max === min) scores[i] = reverse ? MAX_NODE_SCORE : 0;
    else scores[i] = Math.floor((MAX_NODE_SCORE * (reverse ? max - scores[i]! : scores[i]! - min)) / (max - min));
  }
}

export function podTopologySpread(): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin {
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeLabelChange', 'AssignedPodAdd', 'AssignedPodUpdate', 'AssignedPodDelete'],
    preFilter(state, pod, snapshot) {
      const constraints = constraintsOf(pod, 'DoNotSchedule');
      if (constraints.length === 0) state.skipFilter.add(NAME);
      else state.write(NAME, countSpread(pod, constraints, snapshot));
      return undefined;
    },
    filter,
    preScore(state, pod, _nodes, snapshot) {
      const constraints = constraintsOf(pod, 'ScheduleAnyway');
      if (constraints.length === 0) state.skipScore.add(NAME);
      else state.write(`${NAME}/score`, countSpread(pod, constraints, snapshot));
      return undefined;
    },
    score(state, _pod, node) {
      const labels = node.node.metadata.labels ?? {};
      return state.read<Spread[]>(`${NAME}/score`)!.reduce((sum, s) => sum + (s.counts.get(labels[s.constraint.topologyKey] ?? '') ?? 0), 0);
    },
    normalize: (_s, _p, scores) => minMaxNormalize(scores, true),
  };
}
