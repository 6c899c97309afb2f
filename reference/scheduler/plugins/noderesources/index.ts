/**
 * NodeResourcesFit (plugins/noderesources/fit.go).
 *
 * - Filter: the pod's requests plus what the node's pods already request must not exceed the
 *   node's allocatable CPU and memory, and the node must have room for one more pod. Requests
 *   count, not usage. Reasons `Insufficient cpu`, `Insufficient memory`, `Too many pods`;
 *   Unschedulable, because evicting pods can make room (preemption).
 * - Score, strategy LeastAllocated (the default; least_allocated.go): per resource
 *   (allocatable − requested) × 100 / allocatable, averaged with weight 1 each, using the
 *   non-zero requests (a container without requests counts 100m / 200 MiB) so empty pods
 *   spread too. MostAllocated (bin packing) is the mirror image.
 */
import type { FilterPlugin, PreFilterPlugin, ScorePlugin } from '../../types.ts';
import { MAX_NODE_SCORE, status } from '../../types.ts';
import { podRequests, type Resources } from '../../resources.ts';
import type { NodeInfo } from '../../node-info.ts';

export const NAME = 'NodeResourcesFit';
const STATE_KEY = 'PreFilterNodeResourcesFit';

export interface FitArgs {
  scoringStrategy?: { type?: 'LeastAllocated' | 'MostAllocated' };
}

interface PreFilterState {
  requests: Resources;
  nonZero: Resources;
}

export function insufficientResources(node: NodeInfo, req: Resources): string[] {
  const reasons: string[] = [];
  if (node.pods.size + 1 > node.allocatable.pods) reasons.push('Too many pods');
  if (req.milliCPU > 0 && req.milliCPU > node.allocatable.milliCPU - node.requested.milliCPU) reasons.push('Insufficient cpu');
  if (req.memory > 0 && req.memory > node.allocatable.memory - node.requested.memory) reasons.push('Insufficient memory');
  return reasons;
}

function leastRequested(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

function mostRequested(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  return Math.floor((Math.min(requested, capacity) * MAX_NODE_SCORE) / capacity);
}

export function nodeResourcesFit(args: FitArgs = {}): PreFilterPlugin & FilterPlugin & ScorePlugin {
  const perResource = args.scoringStrategy?.type === 'MostAllocated' ? mostRequested : leastRequested;
  const stateOf = (s: import('../../types.ts').CycleState, pod: import('../../types.ts').Pod): PreFilterState => s.read<PreFilterState>(STATE_KEY) ?? { requests: podRequests(pod), nonZero: podRequests(pod, true) };
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeAllocatableChange', 'AssignedPodDelete', 'AssignedPodUpdate'],
    preFilter(state, pod) {
      state.write(STATE_KEY, { requests: podRequests(pod), nonZero: podRequests(pod, true) });
      return undefined;
    },
    filter(state, pod, node) {
      const req = stateOf(state, pod).requests;
      // The common case, checked without allocating: it fits.
      if (node.pods.size < node.allocatable.pods && req.milliCPU <= node.allocatable.milliCPU - node.requested.milliCPU && req.memory <= node.allocatable.memory - node.requested.memory) return undefined;
      const reasons = insufficientResources(node, req);
      return reasons.length > 0 ? status('Unschedulable', ...reasons) : undefined;
    },
    score(state, pod, node) {
      const nz = stateOf(state, pod).nonZero;
      const cpu = perResource(node.nonZeroRequested.milliCPU + nz.milliCPU, node.allocatable.milliCPU);
      const mem = perResource(node.nonZeroRequested.memory + nz.memory, node.allocatable.memory);
      return Math.floor((cpu + mem) / 2);
    },
  };
}
