/**
 * PrioritySort (pkg/scheduler/framework/plugins/queuesort/priority_sort.go): the active queue
 * pops the pod with the higher spec.priority first, and among equal priorities the one that
 * entered the queue earlier.
 */
import type { QueueSortPlugin, QueuedPodInfo } from '../../types.ts';

export const NAME = 'PrioritySort';

export function prioritySort(): QueueSortPlugin {
  return {
    name: NAME,
    less: (a: QueuedPodInfo, b: QueuedPodInfo) => a.priority > b.priority || (a.priority === b.priority && a.timestamp_ms < b.timestamp_ms),
  };
}
