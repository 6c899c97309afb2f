/**
 * NodeUnschedulable (plugins/nodeunschedulable/node_unschedulable.go): a cordoned node
 * (spec.unschedulable) takes no new pods, unless the pod tolerates the taint
 * node.kubernetes.io/unschedulable:NoSchedule — which the node lifecycle controller also puts
 * on a cordoned node, so DaemonSet pods that tolerate it still land.
 */
import type { FilterPlugin } from '../../types.ts';
import { status } from '../../types.ts';
import { toleratesTaint } from '../../../tolerations.ts';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON = 'node(s) were unschedulable';
export const UNSCHEDULABLE_TAINT = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export function nodeUnschedulable(): FilterPlugin {
  return {
    name: NAME,
    events: ['NodeAdd', 'NodeSchedulableChange', 'NodeTaintChange'],
    filter(_s, pod, node) {
      if (!node.node.spec?.unschedulable) return undefined;
      if ((pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, UNSCHEDULABLE_TAINT))) return undefined;
      return status('UnschedulableAndUnresolvable', ERR_REASON);
    },
  };
}
