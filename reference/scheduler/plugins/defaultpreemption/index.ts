/**
 * DefaultPreemption (plugins/defaultpreemption/default_preemption.go and
 * framework/preemption/preemption.go), the PostFilter: when no node fits, find a node where
 * evicting pods of *lower* priority would make the pod fit, with as little harm as possible.
 *
 * - Not eligible: a pod whose preemptionPolicy is Never; a pod already nominated to a node
 *   where a lower-priority pod is still terminating (its earlier preemption is in progress).
 * - Candidates: only nodes that failed with Unschedulable — UnschedulableAndUnresolvable (a
 *   taint, a selector) is "Preemption is not helpful for scheduling". On each, remove every
 *   lower-priority pod; if the pod still does not fit, "No preemption victims found for incoming
 *   pod". Otherwise add the removed pods back, highest priority first — those whose eviction
 *   would break a PodDisruptionBudget first — and keep each one that still leaves room
 *   (reprieve). What is left are the victims.
 * - The node: fewest PDB violations, then the lowest highest-victim priority, then the smallest
 *   sum of victim priorities, then the fewest victims, then the first.
 * The host evicts the victims and writes status.nominatedNodeName; the pod is tried again once
 * they are gone.
 */
import type { Handle } from '../../framework.ts';
import type { NodeInfo, Pdb, Snapshot } from '../../node-info.ts';
import type { CycleState, Pod, PostFilterPlugin, PostFilterResult, Status } from '../../types.ts';
import { podPriority, status } from '../../types.ts';
import { matchesLabelSelector } from '../../selectors.ts';
import { histogram } from '../../cycle.ts';
import { NO_FAULTS, type Faults } from '../../../faults.ts';

export const NAME = 'DefaultPreemption';
export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_VICTIMS = 'No preemption victims found for incoming pod';

interface Candidate {
  node: string;
  victims: Pod[];
  pdbViolations: number;
}

export function defaultPreemption(handle: Handle, faults: Faults = NO_FAULTS): PostFilterPlugin {
  // Fault preempts-equal-priority: victims of priority <= the preemptor's, not only lower.
  const evictable = faults.has('preempts-equal-priority') ? (p: Pod, pod: Pod) => podPriority(p) <= podPriority(pod) : (p: Pod, pod: Pod) => podPriority(p) < podPriority(pod);
  return {
    name: NAME,
    postFilter(state, pod, snapshot, filtered) {
      if (pod.spec.preemptionPolicy === 'Never') return fail('preemption: not eligible due to preemptionPolicy=Never.');
      const nominated = pod.status?.nominatedNodeName;
      if (nominated && snapshot.get(nominated) && [...snapshot.get(nominated)!.pods.values()].some((p) => p.metadata.deletionTimestamp && podPriority(p) < podPriority(pod))) {
        return fail('preemption: not eligible due to a terminating pod on the nominated node.');
      }
      const reasons: string[] = [];
      const candidates: Candidate[] = [];
      for (const node of snapshot.nodes) {
        const s = filtered.get(node.name);
        if (!s || s.code === 'UnschedulableAndUnresolvable') {
          reasons.push(NOT_HELPFUL);
          continue;
        }
        const c = selectVictims(handle, state, pod, node, snapshot.pdbs, evictable);
        if (c) candidates.push(c);
        else reasons.push(NO_VICTIMS);
      }
      if (candidates.length === 0) return fail(`preemption: 0/${snapshot.nodes.length} nodes are available: ${histogram(reasons)}.`);
      const best = pickCandidate(candidates);
      return { status: undefined, nominatedNode: best.node, victims: best.victims };
    },
  };
}

function fail(message: string): PostFilterResult {
  return { status: status('Unschedulable'), message };
}

function byPriorityDesc(a: Pod, b: Pod): number {
  return podPriority(b) - podPriority(a);
}

function selectVictims(handle: Handle, state: CycleState, pod: Pod, node: NodeInfo, pdbs: readonly Pdb[], evictable: (p: Pod, pod: Pod) => boolean): Candidate | undefined {
  const what = node.clone();
  const lower = [...what.pods.values()].filter((p) => evictable(p, pod)).sort(byPriorityDesc);
  if (lower.length === 0) return undefined;
  for (const p of lower) what.removePod(p);
  if (handle.runFilters(state, pod, what) as Status | undefined) return undefined;
  const allowed = new Map(pdbs.map((b) => [b, b.status?.disruptionsAllowed ?? 0]));
  const violating: Pod[] = [];
  const fine: Pod[] = [];
  for (const p of lower) {
    const budgets = pdbs.filter((b) => (b.metadata.namespace ?? '') === (p.metadata.namespace ?? '') && matchesLabelSelector(b.spec?.selector, p.metadata.labels));
    const breaks = budgets.some((b) => allowed.get(b)! <= 0);
    for (const b of budgets) allowed.set(b, allowed.get(b)! - 1);
    (breaks ? violating : fine).push(p);
  }
  const victims: Pod[] = [];
  let pdbViolations = 0;
  const reprieve = (p: Pod, breaksBudget: boolean): void => {
    what.addPod(p);
    if (handle.runFilters(state, pod, what)) {
      what.removePod(p);
      victims.push(p);
      if (breaksBudget) pdbViolations++;
    }
  };
  for (const p of violating) reprieve(p, true);
  for (const p of fine) reprieve(p, false);
  return { node: node.name, victims, pdbViolations };
}

function pickCandidate(candidates: Candidate[]): Candidate {
  const key = (c: Candidate) => [c.pdbViolations, Math.max(...c.victims.map(podPriority)), c.victims.reduce((s, p) => s + podPriority(p), 0), c.victims.length];
  let best = candidates[0]!;
  for (const c of candidates.slice(1)) {
    const a = key(c);
    const b = key(best);
    const i = a.findIndex((v, j) => v !== b[j]);
    if (i >= 0 && a[i]! < b[i]!) best = c;
  }
  return best;
}
