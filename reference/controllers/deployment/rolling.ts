/**
 * The arithmetic of a rolling update (pkg/controller/deployment/rolling.go and
 * pkg/controller/deployment/util/deployment_util.go): maxSurge and maxUnavailable resolved
 * against .spec.replicas (percentages: surge rounds up, unavailability down; both 25 % by
 * default; if both come to 0, one pod may be unavailable), how far the new ReplicaSet may grow,
 * and how far the old ones may shrink without dropping below the minimum available.
 */

export interface RsView {
  name: string;
  /** .spec.replicas */
  replicas: number;
  /** .status.availableReplicas */
  available: number;
}

function resolve(value: unknown, total: number, roundUp: boolean, fallback: string): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(String(v));
  if (!m) return Number(v) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** ResolveFenceposts. */
export function fenceposts(strategy: any, replicas: number): { maxSurge: number; maxUnavailable: number } {
  const ru = strategy?.rollingUpdate ?? {};
  const maxSurge = resolve(ru.maxSurge, replicas, true, '25%');
  let maxUnavailable = resolve(ru.maxUnavailable, replicas, false, '25%');
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** NewRSNewReplicas for RollingUpdate: the new ReplicaSet's next size. */
export function newReplicaSetSize(replicas: number, maxSurge: number, newRs: RsView | undefined, all: readonly RsView[]): number {
  const current = newRs?.replicas ?? 0;
  if (current >= replicas) return replicas;
  const total = all.reduce((n, rs) => n + rs.replicas, 0);
  const room = replicas + maxSurge - total;
  if (room <= 0) return current;
  return current + Math.min(room, replicas - current);
}

/**
 * reconcileOldReplicaSets: how many pods of each old ReplicaSet to remove now. Unhealthy old
 * pods go first (cleanupUnhealthyReplicas), then healthy ones while the available count stays
 * at least replicas - maxUnavailable (scaleDownOldReplicaSetsForRollingUpdate), oldest first.
 */
export function oldReplicaSetSizes(replicas: number, maxUnavailable: number, newRs: RsView | undefined, olds: readonly RsView[]): Map<string, number> {
  const sizes = new Map(olds.map((rs) => [rs.name, rs.replicas]));
  const oldTotal = olds.reduce((n, rs) => n + rs.replicas, 0);
  if (oldTotal === 0) return sizes;
  const all = [...olds, ...(newRs ? [newRs] : [])];
  const allTotal = all.reduce((n, rs) => n + rs.replicas, 0);
  const minAvailable = replicas - maxUnavailable;
  const newUnavailable = newRs ? newRs.replicas - newRs.available : 0;
  let budget = allTotal - minAvailable - newUnavailable;
  if (budget <= 0) return sizes;
  for (const rs of olds) {
    if (budget <= 0) break;
    const unhealthy = Math.max(0, sizes.get(rs.name)! - rs.available);
    const cut = Math.min(unhealthy, budget);
    sizes.set(rs.name, sizes.get(rs.name)! - cut);
    budget -= cut;
  }
  const available = all.reduce((n, rs) => n + rs.available, 0);
  let scaleDown = available - minAvailable;
  for (const rs of olds) {
    if (scaleDown <= 0) break;
    const cut = Math.min(sizes.get(rs.name)!, scaleDown);
    sizes.set(rs.name, sizes.get(rs.name)! - cut);
    scaleDown -= cut;
  }
  return sizes;
}
