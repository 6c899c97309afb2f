/**
 * Counting pods per topology domain, which InterPodAffinity and PodTopologySpread both do: a
 * domain is a value of a node label (the topology key), so every node with the same value of
 * that label is one domain (upstream keeps this in each plugin's PreFilter/PreScore state; here
 * it is written once).
 */
import type { NodeInfo } from './node-info.ts';
import type { Pod } from './types.ts';
import { MAX_NODE_SCORE } from './types.ts';

/** Per domain, a count (or a sum of weights); keyed by `domainKey(topologyKey, value)`. */
export type DomainCounts = Map<string, number>;

/** One map can hold domains of several topology keys without two keys' values colliding. */
export const domainKey = (topologyKey: string, value: string): string => `${topologyKey}\u0000${value}`;

/** The node's domain under `topologyKey`, or undefined when the node lacks the label. */
export function domainOf(node: NodeInfo, topologyKey: string): string | undefined {
  // Asked for every node in every cycle: the key is built once per node and topology key.
  if (node.domains.has(topologyKey)) return node.domains.get(topologyKey);
  const value = node.node.metadata.labels?.[topologyKey];
  const domain = value === undefined ? undefined : domainKey(topologyKey, value);
  node.domains.set(topologyKey, domain);
  return domain;
}

export interface DomainTally {
  topologyKey: string;
  /** What one pod on a node adds to its domain (0 for a pod the term or constraint does not select). */
  weigh(pod: Pod): number;
  counts: DomainCounts;
  /**
   * A name that determines `weigh` completely (e.g. the namespace and selector it matches): with
   * one, each node's sum is remembered until that node changes (NodeInfo.tally).
   */
  memo?: string;
}

/**
 * For each node that `include` admits and each tally whose key the node carries, add the
 * weights of the node's pods to its domain. A domain a node carries is recorded even when
 * nothing on it counts (PodTopologySpread's smallest domain may be an empty one).
 */
export function tallyByDomain(nodes: Iterable<NodeInfo>, tallies: readonly DomainTally[], include: (node: NodeInfo) => boolean = () => true): void {
  if (tallies.length === 0) return;
  for (const node of nodes) {
    if (!include(node)) continue;
    for (const t of tallies) {
      const domain = domainOf(node, t.topologyKey);
      if (domain === undefined) continue;
      let sum = 0;
      if (t.memo !== undefined) sum = node.tally(t.memo, t.weigh);
      else for (const pod of node.pods.values()) sum += t.weigh(pod);
      t.counts.set(domain, (t.counts.get(domain) ?? 0) + sum);
    }
  }
}

/** Rescale scores into [0, MAX_NODE_SCORE] by min and max; `reverse` makes the lowest the best. */
export function minMaxNormalize(scores: number[], reverse: boolean): void {
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
