/**
 * Counting finished pods exactly once, as upstream's finalizer-based tracking does
 * (kubernetes/kubernetes pkg/controller/job/job_controller.go trackJobStatusAndRemoveFinalizers):
 *
 *  1. a finished pod that still holds the tracking finalizer is recorded in
 *     status.uncountedTerminatedPods (a status write);
 *  2. only then is its finalizer removed (a pod patch, after that write in the same sync);
 *  3. a uid in uncountedTerminatedPods whose pod no longer holds the finalizer (or is gone) moves
 *     into status.succeeded / status.failed.
 *
 * A pod deleted by anyone after step 2 is already counted; one deleted before is still held by
 * its finalizer. The counts never go down and a pod is never counted twice.
 */
import type { KubeObject } from '../types.ts';
import { hasTrackingFinalizer, outcomeOf, type Outcome } from './pods.ts';

export interface Uncounted {
  succeeded: string[];
  failed: string[];
}

export interface Tally {
  /** status.succeeded / status.failed after step 3. */
  counted: Record<Outcome, number>;
  uncounted: Uncounted;
  /** Counted plus uncounted: what the Job has achieved so far. */
  total: Record<Outcome, number>;
  /** Uids first seen finished in this sync. */
  fresh: Record<Outcome, string[]>;
  /** Pods whose finalizer may go once the status carrying `uncounted` is written. */
  release: Readonly<KubeObject>[];
}

const uidOf = (p: Readonly<KubeObject>) => String(p.metadata.uid);

export function tally(status: any, pods: readonly Readonly<KubeObject>[]): Tally {
  const holding = new Map(pods.filter(hasTrackingFinalizer).map((p) => [uidOf(p), p]));
  const counted = { succeeded: status?.succeeded ?? 0, failed: status?.failed ?? 0 };
  const uncounted: Uncounted = { succeeded: [], failed: [] };
  for (const kind of ['succeeded', 'failed'] as const) {
    for (const uid of status?.uncountedTerminatedPods?.[kind] ?? []) {
      if (holding.has(uid)) uncounted[kind].push(uid);
      else counted[kind]++;
    }
  }
  const fresh: Record<Outcome, string[]> = { succeeded: [], failed: [] };
  const known = new Set([...uncounted.succeeded, ...uncounted.failed]);
  for (const [uid, pod] of holding) {
    const outcome = outcomeOf(pod);
    if (!outcome || known.has(uid)) continue;
    uncounted[outcome].push(uid);
    fresh[outcome].push(uid);
  }
  const pending = new Set([...uncounted.succeeded, ...uncounted.failed]);
  return {
    counted,
    uncounted,
    total: { succeeded: counted.succeeded + uncounted.succeeded.length, failed: counted.failed + uncounted.failed.length },
    fresh,
    release: [...holding.values()].filter((p) => pending.has(uidOf(p))),
  };
}
