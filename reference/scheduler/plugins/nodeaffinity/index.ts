/**
 * NodeAffinity (plugins/nodeaffinity/node_affinity.go).
 *
 * - PreFilter: when every required term names nodes (matchFields `metadata.name In`, ANDed
 *   within a term) and no name is left, no node can match: `pod affinity terms conflict`,
 *   UnschedulableAndUnresolvable, before any node is filtered. (Upstream also narrows the nodes
 *   to the named ones, PreFilterResult.NodeNames; here Filter rejects the others.)
 * - Filter: the node's labels must match every entry of spec.nodeSelector and, when given, one
 *   of the requiredDuringSchedulingIgnoredDuringExecution node selector terms. Otherwise
 *   `node(s) didn't match Pod's node affinity/selector`, UnschedulableAndUnresolvable.
 * - Score: the sum of the weights of the preferred terms the node matches, normalised so the
 *   best node scores 100.
 * Only ever checked while scheduling: nothing evicts a running pod whose node stops matching.
 */
import type { FilterPlugin, Pod, PreFilterPlugin, ScorePlugin } from '../../types.ts';
import { status } from '../../types.ts';
import { matchesNodeSelectorTerms, matchesNodeSelectorTermPublic } from '../../selectors.ts';
import { defaultNormalize } from '../tainttoleration/index.ts';

export const NAME = 'NodeAffinity';
export const ERR_REASON = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

/**
 * node_affinity.go PreFilter: a term's `metadata.name In` requirements allow the intersection of
 * their names; terms are ORed, so a term without one allows every node. A conflict is every term
 * naming nodes and none left.
 */
export function namedNodesConflict(terms: readonly any[]): boolean {
  if (terms.length === 0) return false;
  for (const term of terms) {
    let names: Set<string> | undefined;
    for (const r of term?.matchFields ?? []) {
      if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
      const allowed = new Set<string>(r.values ?? []);
      names = names ? new Set([...names].filter((n) => allowed.has(n))) : allowed;
    }
    if (!names || names.size > 0) return false;
  }
  return true;
}

export function requiredNodeAffinityMatches(pod: Pod, node: { metadata: { name: string; labels?: Record<string, string> } }): boolean {
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) {
    if (node.metadata.labels?.[k] !== v) return false;
  }
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return !required || matchesNodeSelectorTerms(required.nodeSelectorTerms ?? [], node);
}

export function nodeAffinity(): PreFilterPlugin & FilterPlugin & ScorePlugin {
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeLabelChange'],
    preFilter(state, pod) {
      const hasRequired = Object.keys(pod.spec.nodeSelector ?? {}).length > 0 || pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (!hasRequired) {
        state.skipFilter.add(NAME);
        return undefined;
      }
      const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
      return namedNodesConflict(terms) ? status('UnschedulableAndUnresolvable', ERR_REASON_CONFLICT) : undefined;
    },
    filter: (_s, pod, node) => (requiredNodeAffinityMatches(pod, node.node) ? undefined : status('UnschedulableAndUnresolvable', ERR_REASON)),
    score(_s, pod, node) {
      let sum = 0;
      for (const term of pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
        if (term.weight && matchesNodeSelectorTermPublic(term.preference, node.node)) sum += term.weight;
      }
      return sum;
    },
    normalize: (_s, _p, scores) => defaultNormalize(scores, false),
  };
}
