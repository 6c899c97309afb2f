/**
 * Taints and tolerations (staging/src/k8s.io/api/core/v1/toleration.go ToleratesTaint): a
 * toleration tolerates a taint when its effect is empty or equal, its key is empty (with
 * operator Exists: every key) or equal, and — operator Equal, the default — its value equals the
 * taint's.
 */
export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  if (!t.key) return false;
  return (t.value ?? '') === (taint.value ?? '');
}

export function taintsOf(node: any): Taint[] {
  return Array.isArray(node?.spec?.taints) ? node.spec.taints : [];
}

export function tolerationsOf(pod: any): Toleration[] {
  return Array.isArray(pod?.spec?.tolerations) ? pod.spec.tolerations : [];
}
