/**
 * Taints and tolerations as the API types define them, for every component that matches one
 * against the other (the scheduler's TaintToleration and NodeUnschedulable plugins, the taint
 * eviction controller): upstream's components all call the same v1 Toleration.ToleratesTaint
 * (staging/src/k8s.io/api/core/v1/toleration.go).
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

/**
 * ToleratesTaint: the toleration's effect is empty or equal, its key is empty or equal, and
 * either the operator is Exists or (Equal, the default) the values are equal; any other
 * operator tolerates nothing. So `operator: Exists` with no key tolerates every taint, and a
 * toleration with no effect matches every effect.
 */
export function toleratesTaint(t: Toleration, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  if (t.operator === undefined || t.operator === '' || t.operator === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}
