/**
 * One scheduling cycle (pkg/scheduler/schedule_one.go schedulePod), a pure function of a
 * snapshot and the pod: PreFilter; Filter over the nodes, starting where the previous cycle
 * stopped and stopping once enough feasible nodes are found; PostFilter when none is;
 * PreScore/Score/NormalizeScore over the feasible ones; the highest total wins, ties broken by
 * the injected random source (upstream samples uniformly among the best, selectHost).
 *
 * How many feasible nodes are enough (numFeasibleNodesToFind, percentageOfNodesToScore): all of
 * them below 100 nodes; otherwise a percentage, by default 50 − nodes/125 with a floor of 5 %,
 * and never fewer than 100 nodes (minFeasibleNodesToFind = 100,
 * minFeasibleNodesPercentageToFind = 5). On 5,000 nodes that is 10 %: 500 feasible nodes.
 *
 * Pods nominated to a node by an earlier preemption count on that node for pods of equal or
 * lower priority (RunFilterPluginsWithNominatedPods), so the room preemption made is not taken
 * by someone else.
 */
import type { Framework } from './framework.ts';
import type { NodeInfo, Snapshot } from './node-info.ts';
import type { Pod, PostFilterResult, Status } from './types.ts';
import { CycleState, isRejection, podKey, podPriority } from './types.ts';

export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

export function numFeasibleNodesToFind(numAllNodes: number, percentageOfNodesToScore = 0): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage <= 0) percentage = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, Math.trunc(50 - numAllNodes / 125));
  if (percentage >= 100) return numAllNodes;
  const num = Math.trunc((numAllNodes * percentage) / 100);
  return Math.max(num, MIN_FEASIBLE_NODES_TO_FIND);
}

export type CycleResult =
  | { kind: 'feasible'; node: string; state: CycleState; feasibleNodes: number; evaluatedNodes: number }
  | { kind: 'unschedulable'; state: CycleState; statuses: Map<string, Status>; message: string; postFilter?: PostFilterResult; rejectors: Set<string> };

export interface CycleOptions {
  /** Where the node scan starts: the previous cycle's end (nextStartNodeIndex). */
  startIndex: number;
  random: () => number;
  percentageOfNodesToScore?: number;
}

export function scheduleCycle(fw: Framework, snapshot: Snapshot, pod: Pod, opts: CycleOptions): CycleResult & { nextStartIndex: number } {
  const state = new CycleState();
  const nodes = snapshot.nodes;
  if (nodes.length === 0) {
    return { kind: 'unschedulable', state, statuses: new Map(), message: 'no nodes available to schedule pods', rejectors: new Set(), nextStartIndex: 0 };
  }
  const pre = fw.runPreFilter(state, pod, snapshot);
  if (pre) {
    const statuses = new Map(nodes.map((n) => [n.name, pre] as const));
    return { ...unschedulable(fw, state, pod, snapshot, statuses, pre.reasons.join(', ')), nextStartIndex: opts.startIndex };
  }
  const want = numFeasibleNodesToFind(nodes.length, opts.percentageOfNodesToScore ?? fw.profile.percentageOfNodesToScore);
  const feasible: NodeInfo[] = [];
  const statuses = new Map<string, Status>();
  let evaluated = 0;
  const start = opts.startIndex % nodes.length;
  for (; evaluated < nodes.length && feasible.length < want; evaluated++) {
    const node = nodes[(start + evaluated) % nodes.length]!;
    const s = filterWithNominated(fw, state, pod, node, snapshot);
    if (s) statuses.set(node.name, s);
    else feasible.push(node);
  }
  const nextStartIndex = (start + evaluated) % nodes.length;
  if (feasible.length === 0) return { ...unschedulable(fw, state, pod, snapshot, statuses), nextStartIndex };
  if (feasible.length === 1) return { kind: 'feasible', node: feasible[0]!.name, state, feasibleNodes: 1, evaluatedNodes: evaluated, nextStartIndex };
  const totals = fw.runScore(state, pod, feasible, snapshot);
  return { kind: 'feasible', node: feasible[selectHost(totals, opts.random)]!.name, state, feasibleNodes: feasible.length, evaluatedNodes: evaluated, nextStartIndex };
}

function filterWithNominated(fw: Framework, state: CycleState, pod: Pod, node: NodeInfo, snapshot: Snapshot): Status | undefined {
  const nominated = snapshot.nominated(node.name);
  if (nominated.length === 0) return fw.runFilters(state, pod, node);
  const key = podKey(pod);
  const ahead = nominated.filter((p) => podKey(p) !== key && podPriority(p) >= podPriority(pod));
  if (ahead.length === 0) return fw.runFilters(state, pod, node);
  const withNominated = node.clone();
  for (const p of ahead) withNominated.addPod(p);
  return fw.runFilters(state, pod, withNominated) ?? fw.runFilters(state, pod, node);
}

/** The index of the best total; among equals, each is chosen with equal chance (reservoir sampling). */
export function selectHost(totals: readonly number[], random: () => number): number {
  let best = 0;
  let bestScore = -Infinity;
  let ties = 0;
  for (let i = 0; i < totals.length; i++) {
    const score = totals[i]!;
    if (score > bestScore) {
      best = i;
      bestScore = score;
      ties = 1;
    } else if (score === bestScore) {
      ties++;
      if (random() * ties < 1) best = i;
    }
  }
  return best;
}

function unschedulable(fw: Framework, state: CycleState, pod: Pod, snapshot: Snapshot, statuses: Map<string, Status>, preFilterMessage?: string) {
  const rejectors = new Set([...statuses.values()].map((s) => s.plugin).filter((p): p is string => Boolean(p)));
  const postFilter = fw.postFilter.length > 0 ? fw.runPostFilter(state, pod, snapshot, statuses) : undefined;
  const message = fitErrorMessage(snapshot.nodes.length, statuses, postFilter?.message, preFilterMessage);
  return { kind: 'unschedulable' as const, state, statuses, message, rejectors, ...(postFilter ? { postFilter } : {}) };
}

/**
 * FitError.Error() (pkg/scheduler/framework/types.go): `0/N nodes are available: ` and the
 * reasons counted over nodes, each as "<count> <reason>", sorted as strings and joined by ", ",
 * then ".", then the PostFilter's message when it has one (`preemption: ...`). A PreFilter
 * rejection is every node's status, so upstream writes its message once instead of the
 * histogram (Diagnosis.PreFilterMsg: "0/2 nodes are available: pod affinity terms conflict.").
 */
export function fitErrorMessage(numAllNodes: number, statuses: ReadonlyMap<string, Status>, postFilterMessage?: string, preFilterMessage?: string): string {
  const reasons = preFilterMessage ?? histogram([...statuses.values()].flatMap((s) => s.reasons));
  const msg = `0/${numAllNodes} nodes are available: ${reasons}.`;
  return postFilterMessage ? `${msg} ${postFilterMessage}` : msg;
}

export function histogram(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).sort().join(', ');
}

export { isRejection };
