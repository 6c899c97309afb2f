/**
 * The leader election record and the Lease it is kept in (coordination.k8s.io/v1), after
 * client-go's resourcelock.LeaderElectionRecord and its LeaseLock
 * (kubernetes/client-go tools/leaderelection/resourcelock/interface.go, leaselock.go):
 * holderIdentity, leaseDurationSeconds, acquireTime, renewTime and leaderTransitions, the last
 * kept in the Lease's spec.leaseTransitions. Pure conversions and the lock interface only.
 */

export interface LeaderElectionRecord {
  /** Empty when nobody holds the lock (a released Lease). */
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** RFC 3339 with microseconds, as metav1.MicroTime serialises. */
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

/** What the elector needs of the Lease: read, create and compare-and-swap update. */
export interface LeaseLock {
  /** The record and the Lease's resourceVersion; undefined when the Lease does not exist (404). Throws on any other failure. */
  get(): Promise<{ record: LeaderElectionRecord; resourceVersion: string } | undefined>;
  /** Create the Lease: its resourceVersion, or false if someone created it first (409). Throws on other failures. */
  create(record: LeaderElectionRecord): Promise<string | false>;
  /**
   * Replace the record if the Lease is still at `resourceVersion` (the API server's optimistic
   * concurrency): the Lease's new resourceVersion, or false on 409 Conflict. Throws on other
   * failures. (client-go's LeaseLock keeps the Lease it last read or wrote for its next Update.)
   */
  update(record: LeaderElectionRecord, resourceVersion: string): Promise<string | false>;
}

/** metav1.MicroTime: RFC 3339 in UTC with six fractional digits. */
export { microTime } from '../timestamps.ts';

/** The record a Lease's spec holds (leaselock.go LeaseSpecToLeaderElectionRecord). */
export function recordOfLease(lease: any): LeaderElectionRecord {
  const spec = lease?.spec ?? {};
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: Number(spec.leaseDurationSeconds ?? 0),
    acquireTime: typeof spec.acquireTime === 'string' ? spec.acquireTime : '',
    renewTime: typeof spec.renewTime === 'string' ? spec.renewTime : '',
    leaderTransitions: Number(spec.leaseTransitions ?? 0),
  };
}

/** The Lease spec for a record (leaselock.go LeaderElectionRecordToLeaseSpec). */
export function leaseSpecOf(record: LeaderElectionRecord): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    leaseTransitions: record.leaderTransitions,
  };
  if (record.acquireTime) spec.acquireTime = record.acquireTime;
  if (record.renewTime) spec.renewTime = record.renewTime;
  return spec;
}

/** client-go compares whole records (reflect.DeepEqual) to decide whether the Lease changed. */
export function sameRecord(a: LeaderElectionRecord | undefined, b: LeaderElectionRecord): boolean {
  return a !== undefined && a.holderIdentity === b.holderIdentity && a.leaseDurationSeconds === b.leaseDurationSeconds
    && a.acquireTime === b.acquireTime && a.renewTime === b.renewTime && a.leaderTransitions === b.leaderTransitions;
}
