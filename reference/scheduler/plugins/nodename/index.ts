/**
 * NodeName (plugins/nodename/node_name.go): a pod that names a node fits only that node. The
 * scheduler only takes pods whose spec.nodeName is empty, so this matters for what-ifs
 * (preemption) and for plugins built on the framework.
 */
import type { FilterPlugin } from '../../types.ts';
import { status } from '../../types.ts';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested node name";

export function nodeName(): FilterPlugin {
  return {
    name: NAME,
    events: ['NodeAdd'],
    filter: (_s, pod, node) => (pod.spec.nodeName && pod.spec.nodeName !== node.name ? status('UnschedulableAndUnresolvable', ERR_REASON) : undefined),
  };
}
