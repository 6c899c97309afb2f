/**
 * InterPodAffinity (plugins/interpodaffinity/filtering.go, scoring.go).
 *
 * A term selects pods (labelSelector) in some namespaces (the pod's own unless `namespaces` is
 * given; an empty namespaceSelector means every namespace) and names a topology key: two nodes
 * with the same value of that label are one domain.
 *
 * Filter, from counts PreFilter takes once per cycle over the nodes that hold matching pods:
 * - required anti-affinity of pods already placed: a domain holding a pod whose anti-affinity
 *   term selects the incoming pod is closed to it — `node(s) didn't satisfy existing pods
 *   anti-affinity rules`;
 * - the incoming pod's required anti-affinity: a domain holding a pod its term selects —
 *   `node(s) didn't match pod anti-affinity rules` (both Unschedulable: evicting helps);
 * - the incoming pod's required affinity: every term needs a selected pod in the node's domain —
 *   `node(s) didn't match pod affinity rules` (UnschedulableAndUnresolvable) — except that the
 *   first pod of a group whose terms select itself may go anywhere, or no group could start.
 * Score: the weights of the incoming pod's preferred terms (anti-affinity negative), counted per
 * domain over matching pods, min-max normalised.
 */
import type { CycleState, FilterPlugin, Pod, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../types.ts';
import { MAX_NODE_SCORE, status } from '../../types.ts';
import { matchesLabelSelector } from '../../selectors.ts';
import type { NodeInfo, Snapshot } from '../../node-info.ts';

export const NAME = 'InterPodAffinity';
export const ERR_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const ERR_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

interface Term {
  topologyKey: string;
  labelSelector?: any;
  namespaces?: string[];
  namespaceSelector?: any;
}

/** Does the term (written on a pod in `ownerNs`) select `pod`? */
export function termSelects(term: Term, ownerNs: string, pod: Pod): boolean {
  const ns = pod.metadata.namespace ?? '';
  const allNamespaces = term.namespaceSelector && Object.keys(term.namespaceSelector).length === 0;
  const inNs = allNamespaces || (term.namespaces?.length ? term.namespaces.includes(ns) : ns === ownerNs);
  return inNs && matchesLabelSelector(term.labelSelector, pod.metadata.labels);
}

const required = (pod: Pod, kind: 'podAffinity' | 'podAntiAffinity'): Term[] => pod.spec.affinity?.[kind]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
const preferred = (pod: Pod, kind: 'podAffinity' | 'podAntiAffinity'): { weight: number; podAffinityTerm: Term }[] => pod.spec.affinity?.[kind]?.preferredDuringSchedulingIgnoredDuringExecution ?? [];

type Counts = Map<string, number>;
const pair = (key: string, value: string) => `${key}\u0000${value}`;
function bump(counts: Counts, node: NodeInfo, key: string, by = 1): void {
  const value = node.node.metadata.labels?.[key];
  if (value !== undefined) counts.set(pair(key, value), (counts.get(pair(key, value)) ?? 0) + by);
}

interface PreFilterState {
  existingAnti: Counts;
  affinity: Counts[];
  anti: Counts[];
  affinityTerms: Term[];
  antiTerms: Term[];
  /** No pod anywhere matches the affinity terms, and the pod matches them itself. */
  firstOfGroup: boolean;
}

function preFilter(state: CycleState, pod: Pod, snapshot: Snapshot): undefined {
  const ns = pod.metadata.namespace ?? '';
  const affinityTerms = required(pod, 'podAffinity');
  const antiTerms = required(pod, 'podAntiAffinity');
  const existingAnti: Counts = new Map();
  for (const node of snapshot.havePodsWithRequiredAntiAffinity) {
    for (const other of node.podsWithRequiredAntiAffinity.values()) {
      for (const term of required(other, 'podAntiAffinity')) if (termSelects(term, other.metadata.namespace ?? '', pod)) bump(existingAnti, node, term.topologyKey);
    }
  }
  if (affinityTerms.length === 0 && antiTerms.length === 0 && existingAnti.size === 0) {
    state.skipFilter.add(NAME);
    return undefined;
  }
  const affinity = affinityTerms.map(() => new Map<string, number>());
  const anti = antiTerms.map(() => new Map<string, number>());
  if (affinityTerms.length + antiTerms.length > 0) {
    for (const node of snapshot.nodes) {
      for (const other of node.pods.values()) {
        affinityTerms.forEach((t, i) => termSelects(t, ns, other) && bump(affinity[i]!, node, t.topologyKey));
        antiTerms.forEach((t, i) => termSelects(t, ns, other) && bump(anti[i]!, node, t.topologyKey));
      }
    }
  }
  const firstOfGroup = affinity.every((c) => c.size === 0) && affinityTerms.every((t) => termSelects(t, ns, pod));
  state.write(NAME, { existingAnti, affinity, anti, affinityTerms, antiTerms, firstOfGroup } satisfies PreFilterState);
  return undefined;
}

function filter(state: CycleState, _pod: Pod, node: NodeInfo) {
  const s = state.read<PreFilterState>(NAME)!;
  const labels = node.node.metadata.labels ?? {};
  const inDomain = (counts: Counts, key: string) => labels[key] !== undefined && (counts.get(pair(key, labels[key]!)) ?? 0) > 0;
  // Upstream's order (filtering.go Filter): the pod's affinity, its anti-affinity, then the existing pods' anti-affinity.
  if (s.affinityTerms.length > 0) {
    const ok = s.firstOfGroup ? s.affinityTerms.every((t) => labels[t.topologyKey] !== undefined) : s.affinityTerms.every((t, i) => inDomain(s.affinity[i]!, t.topologyKey));
    if (!ok) return status('UnschedulableAndUnresolvable', ERR_AFFINITY);
  }
  if (s.antiTerms.some((t, i) => inDomain(s.anti[i]!, t.topologyKey))) return status('Unschedulable', ERR_ANTI_AFFINITY);
  if (s.existingAnti.size > 0 && Object.entries(labels).some(([k, v]) => (s.existingAnti.get(pair(k, v)) ?? 0) > 0)) {
    return status('Unschedulable', ERR_EXISTING_ANTI_AFFINITY);
  }
  return undefined;
}

function preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[], snapshot: Snapshot) {
  const ns = pod.metadata.namespace ?? '';
  const terms = [
    ...preferred(pod, 'podAffinity').map((w) => ({ term: w.podAffinityTerm, weight: w.weight })),
    ...preferred(pod, 'podAntiAffinity').map((w) => ({ term: w.podAffinityTerm, weight: -w.weight })),
  ];
  if (terms.length === 0) {
    state.skipScore.add(NAME);
    return undefined;
  }
  const counts: Counts = new Map();
  for (const node of snapshot.nodes) {
    for (const other of node.pods.values()) for (const { term, weight } of terms) if (termSelects(term, ns, other)) bump(counts, node, term.topologyKey, weight);
  }
  state.write(`${NAME}/score`, { counts, keys: [...new Set(terms.map((t) => t.term.topologyKey))] });
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

export function interPodAffinity(): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin {
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeLabelChange', 'AssignedPodAdd', 'AssignedPodUpdate', 'AssignedPodDelete'],
    preFilter,
    filter,
    preScore,
    score(state, _pod, node) {
      const s = state.read<{ counts: Counts; keys: string[] }>(`${NAME}/score`)!;
      const labels = node.node.metadata.labels ?? {};
      return s.keys.reduce((sum, key) => sum + (labels[key] !== undefined ? (s.counts.get(pair(key, labels[key]!)) ?? 0) : 0), 0);
    },
    normalize: (_s, _p, scores) => minMaxNormalize(scores, false),
  };
}
