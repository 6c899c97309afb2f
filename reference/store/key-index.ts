/**
 * The history of one key: every retained version, oldest first, with deletes kept as
 * tombstones. Modelled on etcd's keyIndex (etcd-io/etcd server/storage/mvcc/key_index.go),
 * flattened: etcd groups versions into "generations" split by tombstones; here a tombstone
 * is simply a version whose `tombstone` flag is set, and the next put starts over at
 * version 1 with a fresh createRevision.
 */
import type { KeyValue } from '../../contract/contract.ts';

export interface StoredVersion {
  /** For a tombstone: key, empty value, createRevision 0, version 0, modRevision = the delete's revision (as etcd's DELETE event kv). */
  readonly kv: KeyValue;
  readonly tombstone: boolean;
}

export interface KeyHistory {
  readonly key: string;
  /** Ascending by kv.modRevision; never empty while the key is in the index. */
  versions: StoredVersion[];
}

/** Index of the last version with modRevision <= atRevision, or -1 when there is none. */
export function lastVersionIndexAt(history: KeyHistory, atRevision: number): number {
  let lo = 0;
  let hi = history.versions.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const version = history.versions[mid]!;
    if (version.kv.modRevision <= atRevision) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The live value of the key as of a revision; undefined when absent or deleted then. */
export function liveAt(history: KeyHistory, atRevision: number): KeyValue | undefined {
  const index = lastVersionIndexAt(history, atRevision);
  if (index < 0) return undefined;
  const version = history.versions[index]!;
  return version.tombstone ? undefined : version.kv;
}

/** The newest live value, or undefined when the key's last write was a delete. */
export function latestLive(history: KeyHistory): KeyValue | undefined {
  const last = history.versions[history.versions.length - 1];
  return last === undefined || last.tombstone ? undefined : last.kv;
}

export function tombstoneKv(key: string, revision: number): KeyValue {
  return { key, value: '', createRevision: 0, modRevision: revision, version: 0 };
}

/**
 * The next version of a key written by a put at `revision`. A put after a delete (or on a
 * new key) starts a new life: createRevision = this revision, version 1.
 */
export function nextPutKv(previous: KeyValue | undefined, key: string, value: string, revision: number): KeyValue {
  if (previous === undefined) return { key, value, createRevision: revision, modRevision: revision, version: 1 };
  return { key, value, createRevision: previous.createRevision, modRevision: revision, version: previous.version + 1 };
}

/**
 * Drops what compaction at `compactRevision` no longer needs, as etcd's keyIndex.compact does:
 * every version older than the last one at or before the compact revision goes; that last one
 * stays so reads at the compact revision still see it — unless it is a tombstone older than
 * the compact revision, which nobody can observe any more (etcd: "compact(6) ... key SHOULD be
 * removed"). A tombstone exactly at the compact revision stays, like etcd's "compact(5)" example,
 * so a watch starting at the compact revision still sees the delete.
 *
 * One departure from etcd, invisible to reads: when that last version was written exactly at
 * the compact revision, the version before it stays too. The event at the compact revision
 * keeps that version as prevKv in the event log (a watch replaying it leaves it out, as etcd
 * does: mvcc.ts withReadablePrevKv); keeping it lets a snapshot rebuild the event log exactly. Reads below the compact revision are refused, so
 * nobody can read it.
 * Returns false when nothing of the key is left, so the caller drops it from the index.
 */
export function compactHistory(history: KeyHistory, compactRevision: number): boolean {
  const anchorIndex = lastVersionIndexAt(history, compactRevision);
  if (anchorIndex < 0) return true;
  const anchor = history.versions[anchorIndex]!;
  let keepFrom = anchorIndex;
  if (anchor.tombstone && anchor.kv.modRevision < compactRevision) keepFrom = anchorIndex + 1;
  else if (anchor.kv.modRevision === compactRevision && anchorIndex > 0) keepFrom = anchorIndex - 1;
  history.versions = history.versions.slice(keepFrom);
  return history.versions.length > 0;
}
