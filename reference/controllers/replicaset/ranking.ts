/**
 * Which pods a ReplicaSet deletes first when it has too many: upstream's ActivePodsWithRanks
 * ordering (pkg/controller/controller_utils.go, Less), used by getPodsToDelete in
 * pkg/controller/replicaset/replica_set.go. The earlier a pod sorts, the sooner it goes:
 *
 *  1. not yet scheduled (no nodeName) before scheduled;
 *  2. phase Pending before Unknown before Running;
 *  3. not ready before ready;
 *  4. more of its siblings on the same node (rank) before fewer — spreading what remains;
 *  5. (both ready) ready more recently before ready longer;
 *  6. more container restarts before fewer;
 *  7. created more recently before older;
 *  8. then by uid, so the order is total.
 *
 * Upstream buckets 5 and 7 logarithmically (LogarithmicScaleDown); the exact times are used here.
 */
import { isPodReady, parseTime, restartCount } from '../shared/objects.ts';
import type { KubeObject } from '../types.ts';

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function nodeOf(p: Readonly<KubeObject>): string {
  return (p as any).spec?.nodeName ?? '';
}

function readySince(p: Readonly<KubeObject>): number {
  const c = ((p as any).status?.conditions ?? []).find((x: any) => x.type === 'Ready');
  return parseTime(c?.lastTransitionTime) ?? 0;
}

function created(p: Readonly<KubeObject>): number {
  return parseTime((p.metadata as any).creationTimestamp) ?? 0;
}

/** Negative when `a` should be deleted before `b`. */
export function compareForDeletion(a: Readonly<KubeObject>, b: Readonly<KubeObject>, rank: (p: Readonly<KubeObject>) => number): number {
  const assigned = (p: Readonly<KubeObject>) => (nodeOf(p) === '' ? 0 : 1);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Readonly<KubeObject>) => PHASE_ORDER[(p as any).status?.phase ?? 'Pending'] ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Readonly<KubeObject>) => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  if (rank(a) !== rank(b)) return rank(b) - rank(a);
  if (ready(a) === 1 && readySince(a) !== readySince(b)) return readySince(b) - readySince(a);
  if (restartCount(a) !== restartCount(b)) return restartCount(b) - restartCount(a);
  if (created(a) !== created(b)) return created(b) - created(a);
  return String(a.metadata.uid) < String(b.metadata.uid) ? -1 : 1;
}

/** The `count` pods to delete, worst first; rank = how many of `pods` share the pod's node. */
export function podsToDelete(pods: readonly Readonly<KubeObject>[], count: number): Readonly<KubeObject>[] {
  const perNode = new Map<string, number>();
  for (const p of pods) if (nodeOf(p) !== '') perNode.set(nodeOf(p), (perNode.get(nodeOf(p)) ?? 0) + 1);
  const rank = (p: Readonly<KubeObject>) => (nodeOf(p) === '' ? 0 : perNode.get(nodeOf(p)) ?? 0);
  return [...pods].sort((a, b) => compareForDeletion(a, b, rank)).slice(0, count);
}
