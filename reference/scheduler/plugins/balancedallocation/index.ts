/**
 * NodeResourcesBalancedAllocation (plugins/noderesources/balanced_allocation.go): favours nodes
 * whose CPU and memory would be used in equal proportion after placing the pod. With the
 * fractions f = requested / allocatable (capped at 1), the score is (1 − standard deviation of
 * the fractions) × 100; for two resources the deviation is |f_cpu − f_mem| / 2.
 */
import type { ScorePlugin } from '../../types.ts';
import { MAX_NODE_SCORE } from '../../types.ts';
import { podRequests } from '../../resources.ts';

export const NAME = 'NodeResourcesBalancedAllocation';

const fraction = (requested: number, capacity: number): number => (capacity === 0 ? 1 : Math.min(1, requested / capacity));

export function balancedAllocation(): ScorePlugin {
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeAllocatableChange', 'AssignedPodDelete'],
    score(state, pod, node) {
      let req = state.read<ReturnType<typeof podRequests>>(NAME);
      if (!req) state.write(NAME, (req = podRequests(pod, true)));
      const fCpu = fraction(node.nonZeroRequested.milliCPU + req.milliCPU, node.allocatable.milliCPU);
      const fMem = fraction(node.nonZeroRequested.memory + req.memory, node.allocatable.memory);
      return Math.floor((1 - Math.abs(fCpu - fMem) / 2) * MAX_NODE_SCORE);
    },
  };
}
