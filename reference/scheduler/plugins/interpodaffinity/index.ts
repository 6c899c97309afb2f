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
import { status } from '../../types.ts';
import { matchesLabelSelector } from '../../selectors.ts';
import type { NodeInfo, Snapshot } from '../../node-info.ts';
import { domainKey, domainOf, minMaxNormalize, tallyByDomain, type DomainCounts } from '../../topology.ts';

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

type Counts = DomainCounts;
function bump(counts: Counts, node: NodeInfo, key: string, by = 1): void {
  const domain = domainOf(node, key);
  if (domain !== undefined) counts.set(domain, (counts.get(domain) ?? 0) + by);
}
const selects = (term: Term, ns: string) => (pod: Pod) => (termSelects(term, ns, pod) ? 1 : 0);

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
  const tallies = [...affinityTerms, ...antiTerms].map((t) => ({ topologyKey: t.topologyKey, weigh: selects(t, ns), counts: new Map<string, number>() }));
  tallyByDomain(snapshot.nodes, tallies);
  const affinity = tallies.slice(0, affinityTerms.length).map((t) => t.counts);
  const anti = tallies.slice(affinityTerms.length).map((t) => t.counts);
  const none = (c: Counts) => [...c.values()].every((n) => n === 0);
  const firstOfGroup = affinity.every(none) && affinityTerms.every((t) => termSelects(t, ns, pod));
  state.write(NAME, { existingAnti, affinity, anti, affinityTerms, antiTerms, firstOfGroup } satisfies PreFilterState);
  return undefined;
}

function filter(state: CycleState, _pod: Pod, node: NodeInfo) {
  const s = state.read<PreFilterState>(NAME)!;
  const labels = node.node.metadata.labels ?? {};
  const inDomain = (counts: Counts, key: string) => labels[key] !== undefined && (counts.get(domainKey(key, labels[key]!)) ?? 0) > 0;
  // Upstream's order (filtering.go Filter): the pod's affinity, its anti-affinity, then the existing pods' anti-affinity.
  if (s.affinityTerms.length > 0) {
    const ok = s.firstOfGroup ? s.affinityTerms.every((t) => labels[t.topologyKey] !== undefined) : s.affinityTerms.every((t, i) => inDomain(s.affinity[i]!, t.topologyKey));
    if (!ok) return status('UnschedulableAndUnresolvable', ERR_AFFINITY);
  }
  if (s.antiTerms.some((t, i) => inDomain(s.anti[i]!, t.topologyKey))) return status('Unschedulable', ERR_ANTI_AFFINITY);
  if (s.existingAnti.size > 0 && Object.entries(labels).some(([k, v]) => (s.existingAnti.get(domainKey(k, v)) ?? 0) > 0)) {
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
  // One map for every term: a domain's score is the sum of the weights of the terms that select pods in it.
  const counts: Counts = new Map();
  tallyByDomain(snapshot.nodes, terms.map(({ term, weight }) => ({ topologyKey: term.topologyKey, weigh: (p: Pod) => (termSelects(term, ns, p) ? weight : 0), counts })));
  state.write(`${NAME}/score`, { counts, keys: [...new Set(terms.map((t) => t.term.topologyKey))] });
  return undefined;
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
      return s.keys.reduce((sum, key) => sum + (labels[key] !== undefined ? (s.counts.get(domainKey(key, labels[key]!)) ?? 0) : 0), 0);
    },
    normalize: (_s, _p, scores) => minMaxNormalize(scores, false),
  };
}
