/**
 * PodTopologySpread (plugins/podtopologyspread/filtering.go, scoring.go, plugin.go).
 *
 * A pod's constraints are its spec.topologySpreadConstraints; a pod that states none gets the
 * cluster's default constraints (PodTopologySpreadArgs.defaultingType, "System" by default:
 * upstream's systemDefaultConstraints in plugin.go — kubernetes.io/hostname maxSkew 3 and
 * topology.kubernetes.io/zone maxSkew 5, both ScheduleAnyway), whose selector is the one
 * DefaultSelector builds from the Services, ReplicationController, ReplicaSet or StatefulSet
 * that select or own the pod (buildDefaultConstraints; helper/spread.go). A pod nothing selects
 * or owns gets no default constraint.
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
import { status } from '../../types.ts';
import { matchesLabelSelector } from '../../selectors.ts';
import type { NodeInfo, Snapshot } from '../../node-info.ts';
import { requiredNodeAffinityMatches } from '../nodeaffinity/index.ts';
import { domainOf, minMaxNormalize, tallyByDomain } from '../../topology.ts';

export const NAME = 'PodTopologySpread';
export const ERR_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";

export interface Constraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: any;
}

/** PodTopologySpreadArgs. "List" uses `defaultConstraints` as given (none by default). */
export interface SpreadArgs {
  defaultingType?: 'System' | 'List';
  defaultConstraints?: Omit<Constraint, 'labelSelector'>[];
}

/** Upstream's systemDefaultConstraints (pkg/scheduler/framework/plugins/podtopologyspread/plugin.go). */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly Omit<Constraint, 'labelSelector'>[] = [
  { topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

interface Spread {
  constraint: Constraint;
  counts: Map<string, number>;
  min: number;
  selfMatch: number;
}

function constraintsOf(pod: Pod, when: string, defaults: readonly Omit<Constraint, 'labelSelector'>[], snapshot: Snapshot): Constraint[] {
  const own: Constraint[] = pod.spec.topologySpreadConstraints ?? [];
  if (own.length > 0) return own.filter((c) => c.whenUnsatisfiable === when);
  const wanted = defaults.filter((c) => c.whenUnsatisfiable === when);
  if (wanted.length === 0) return [];
  const labelSelector = snapshot.defaultSpreadSelector?.(pod);
  return labelSelector ? wanted.map((c) => ({ ...c, labelSelector })) : [];
}

function countSpread(pod: Pod, constraints: Constraint[], snapshot: Snapshot): Spread[] {
  const ns = pod.metadata.namespace ?? '';
  const spreads = constraints.map((constraint) => ({ constraint, counts: new Map<string, number>(), min: 0, selfMatch: matchesLabelSelector(constraint.labelSelector, pod.metadata.labels) ? 1 : 0 }));
  const matches = (c: Constraint) => (other: Pod) => ((other.metadata.namespace ?? '') === ns && !other.metadata.deletionTimestamp && matchesLabelSelector(c.labelSelector, other.metadata.labels) ? 1 : 0);
  // What `matches` counts depends on the namespace and the selector only: each node's count is
  // remembered under them until its pods change (NodeInfo.tally).
  const memo = (c: Constraint) => `${NAME}\u0000${ns}\u0000${JSON.stringify(c.labelSelector ?? null)}`;
  tallyByDomain(snapshot.nodes, spreads.map((s) => ({ topologyKey: s.constraint.topologyKey, weigh: matches(s.constraint), counts: s.counts, memo: memo(s.constraint) })), (node) => requiredNodeAffinityMatches(pod, node.node));
  for (const s of spreads) s.min = s.counts.size === 0 ? 0 : Math.min(...s.counts.values());
  return spreads;
}

function filter(state: CycleState, _pod: Pod, node: NodeInfo) {
  const spreads = state.read<Spread[]>(NAME)!;
  for (const s of spreads) {
    const domain = domainOf(node, s.constraint.topologyKey);
    if (domain === undefined) return status('UnschedulableAndUnresolvable', ERR_MISSING_LABEL);
    if ((s.counts.get(domain) ?? 0) + s.selfMatch - s.min > s.constraint.maxSkew) return status('Unschedulable', ERR_CONSTRAINTS_NOT_MATCH);
  }
  return undefined;
}

export function podTopologySpread(args: SpreadArgs = {}): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin {
  const defaults = args.defaultingType === 'List' ? (args.defaultConstraints ?? []) : SYSTEM_DEFAULT_CONSTRAINTS;
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeLabelChange', 'AssignedPodAdd', 'AssignedPodUpdate', 'AssignedPodDelete'],
    preFilter(state, pod, snapshot) {
      const constraints = constraintsOf(pod, 'DoNotSchedule', defaults, snapshot);
      if (constraints.length === 0) state.skipFilter.add(NAME);
      else state.write(NAME, countSpread(pod, constraints, snapshot));
      return undefined;
    },
    filter,
    preScore(state, pod, _nodes, snapshot) {
      const constraints = constraintsOf(pod, 'ScheduleAnyway', defaults, snapshot);
      if (constraints.length === 0) state.skipScore.add(NAME);
      else state.write(`${NAME}/score`, countSpread(pod, constraints, snapshot));
      return undefined;
    },
    score(state, _pod, node) {
      return state.read<Spread[]>(`${NAME}/score`)!.reduce((sum, s) => sum + (s.counts.get(domainOf(node, s.constraint.topologyKey) ?? '') ?? 0), 0);
    },
    normalize: (_s, _p, scores) => minMaxNormalize(scores, true),
  };
}
