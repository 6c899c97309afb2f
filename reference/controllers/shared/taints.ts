/** A node's taints and a pod's tolerations, read off the objects (matching them: ../../tolerations.ts). */
import type { Taint, Toleration } from '../../tolerations.ts';

export function taintsOf(node: any): Taint[] {
  return Array.isArray(node?.spec?.taints) ? node.spec.taints : [];
}

export function tolerationsOf(pod: any): Toleration[] {
  return Array.isArray(pod?.spec?.tolerations) ? pod.spec.tolerations : [];
}
