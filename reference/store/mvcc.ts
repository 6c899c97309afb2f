/**
 * A pure multi-version key-value store with etcd's revision semantics, shaped after etcd's mvcc
 * package (etcd-io/etcd server/storage/mvcc: kvstore.go, kvstore_txn.go, key_index.go,
 * watchable_store.go). Written for this project; no code is taken from etcd.
 *
 * Revisions. One global revision counts changes. An empty store is at revision 1 — etcd's
 * NewStore starts with `currentRev: 1` (kvstore.go) — so the first write makes it 2. A write
 * that changes nothing (a delete of a missing key, a txn whose comparison fails) does not move
 * the revision: etcd bumps `currentRev` only `if len(tw.changes) != 0` (kvstore_txn.go End).
 *
 * Writes go through `apply(command)`, a deterministic function of the store and a
 * JSON-serialisable command, so a Raft log can replicate commands as strings and every member
 * reaches the same state. Nothing here reads a clock or randomness.
 *
 * Reads take a revision: 0/absent means current; above the current revision fails with
 * FutureRevisionError ("mvcc: required revision is a future revision"); below the compact
 * revision fails with CompactedError — etcd's rangeKeys checks `rev > curRev` then
 * `rev < compactMainRev`, so a read *at* the compact revision still works.
 *
 * Keys are compared as JavaScript strings (UTF-16 code units); for ASCII keys, which is all
 * Kubernetes writes, that is etcd's byte order.
 */
import { NO_FAULTS, type Faults } from '../faults.ts';
import { CompactedError } from '../../contract/contract.ts';
import type { CompareAndSwap, KeyValue, KvEvent } from '../../contract/contract.ts';
import type { RangeOptions, RangeResult, WatchHandlers } from './backend.ts';
import {
  compactHistory,
  latestLive,
  liveAt,
  nextPutKv,
  tombstoneKv,
  type KeyHistory,
  type StoredVersion,
} from './key-index.ts';
import { decodeCommand, FutureRevisionError, type StoreCommand, type StoreErrorCode, type StoreResult } from './commands.ts';
import { decodeSnapshot, encodeSnapshot } from './snapshot-format.ts';
import { WatchHub } from './watch-hub.ts';

export { decodeCommand, encodeCommand, errorOfResult, FutureRevisionError } from './commands.ts';
export type { StoreCommand, StoreErrorCode, StoreResult } from './commands.ts';

/** etcd's wording (mvcc.ErrCompacted), which its watch cancellation carries too. */
export const COMPACTED_REASON = 'mvcc: required revision has been compacted';

export class MvccStore {
  /** Fault models to inject (reference/faults.ts); default none. */
  constructor(private readonly faults: Faults = NO_FAULTS) {}
  private revision = 1;
  /** 0 until the first compaction (etcd keeps -1 internally; 0 reads better and compares the same). */
  private compacted = 0;
  private readonly histories = new Map<string, KeyHistory>();
  /**
   * Every key in `histories`, sorted, for prefix ranges — except new keys, which wait in
   * `unsortedKeys` until the next range merges them in: inserting each new key into a sorted
   * array costs O(n) per write, merging a batch costs O(n + m log m) per range.
   */
  private sortedKeys: string[] = [];
  private unsortedKeys: string[] = [];
  /** Retained events, ascending by revision: exactly those at or above the compact revision. */
  private log: KvEvent[] = [];
  private readonly hub = new WatchHub();

  currentRevision(): number {
    return this.revision;
  }

  compactRevision(): number {
    return this.compacted;
  }

  /** Number of registered watchers (for tests and leak checks). */
  watcherCount(): number {
    return this.hub.size;
  }

  /**
   * Applies one command. Deterministic: the same commands in the same order give the same
   * results and state on every member. Failures (a compaction at a bad revision, a malformed
   * command) come back as `{ op: 'error' }` results rather than exceptions, so a replicated
   * log can record them like any outcome; watchers are notified before this returns.
   */
  apply(command: StoreCommand): StoreResult {
    const checked = decodeCommand(command);
    if ('error' in checked) return this.errorResult('invalid-command', checked.error);
    const cmd = checked.command;
    switch (cmd.op) {
      case 'put':
        return { op: 'put', ...this.applyPut(cmd.key, cmd.value) };
      case 'delete':
        return { op: 'delete', ...this.applyDelete(cmd.key) };
      case 'txn':
        return this.applyTxn(cmd.cas);
      case 'compact':
        return this.applyCompact(cmd.revision);
    }
  }

  get(key: string, revision?: number): KeyValue | undefined {
    const atRevision = this.readRevision(revision);
    const history = this.histories.get(key);
    const kv = history === undefined ? undefined : liveAt(history, atRevision);
    return kv === undefined ? undefined : { ...kv };
  }

  /**
   * Keys starting with `prefix` ('' = all), ascending, as of a revision. `revision` in the result is
   * the revision read at (etcd's response header always carries the current revision instead;
   * the revision read at is what a Kubernetes list reports as its resourceVersion).
   */
  range(prefix: string, opts: RangeOptions = {}): RangeResult {
    const atRevision = this.readRevision(opts.revision);
    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : Infinity;
    const start = opts.fromKey !== undefined && opts.fromKey > prefix ? opts.fromKey : prefix;
    const kvs: KeyValue[] = [];
    let more = false;
    const sorted = this.keysInOrder();
    for (let i = lowerBound(sorted, start); i < sorted.length; i++) {
      const key = sorted[i]!;
      if (!key.startsWith(prefix)) break;
      const kv = liveAt(this.histories.get(key)!, atRevision);
      if (kv === undefined) continue;
      if (kvs.length >= limit) {
        more = true;
        break;
      }
      kvs.push({ ...kv });
    }
    return { kvs, revision: atRevision, more };
  }

  /**
   * Watches keys under `prefix` from `fromRevision` (0: changes after now). Retained events at
   * or above `fromRevision` are replayed synchronously, in one onEvents call, before this
   * returns; later changes arrive synchronously as they are applied, one revision per call.
   * Starting below the compact revision cancels the watch at once, as etcd's watchable store
   * does for a watcher whose minRev < compactRev, with etcd's reason text.
   */
  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): () => void {
    // Stryker disable next-line StringLiteral: the fault seam's name, switched only by --fault models (docs/mutation.md)
    if (fromRevision > 0 && fromRevision < this.compacted && !this.faults.has('watch-misses-compaction')) {
      handlers.onCancel(COMPACTED_REASON, this.compacted);
      return () => {};
    }
    const start = fromRevision > 0 ? fromRevision : this.revision + 1;
    const { watcher, cancel } = this.hub.add(prefix, start, handlers);
    if (start <= this.revision) this.hub.replay(watcher, withReadablePrevKv(this.log.slice(firstLogIndexAtOrAbove(this.log, start)), this.compacted), this.revision);
    return cancel;
  }

  /** All retained revisions (every kept version of every key) plus revision and compact revision, as JSON. */
  snapshot(): string {
    return encodeSnapshot({ revision: this.revision, compactRevision: this.compacted, histories: this.sortedHistories() });
  }

  /** A new store equal to the one the snapshot was taken of (watchers are not part of a snapshot). */
  static restore(snapshot: string): MvccStore {
    const decoded = decodeSnapshot(snapshot);
    const store = new MvccStore();
    store.revision = decoded.revision;
    store.compacted = decoded.compactRevision;
    for (const history of decoded.histories) store.histories.set(history.key, history);
    store.sortedKeys = [...store.histories.keys()].sort(compareKeys);
    store.log = rebuildLog(decoded.histories, decoded.compactRevision);
    return store;
  }

  private sortedHistories(): KeyHistory[] {
    return this.keysInOrder().map((key) => this.histories.get(key)!);
  }

  private keysInOrder(): string[] {
    if (this.unsortedKeys.length > 0) {
      this.sortedKeys = mergeSorted(this.sortedKeys, this.unsortedKeys.sort(compareKeys));
      this.unsortedKeys = [];
    }
    return this.sortedKeys;
  }

  private readRevision(revision: number | undefined): number {
    if (revision === undefined || revision <= 0) return this.revision;
    if (revision > this.revision) throw new FutureRevisionError(revision, this.revision);
    // Stryker disable next-line StringLiteral: the fault seam's name, switched only by --fault models (docs/mutation.md)
    if (revision < this.compacted && !this.faults.has('compaction-keeps-history')) throw new CompactedError(revision, this.compacted);
    return revision;
  }

  private applyPut(key: string, value: string): { revision: number; kv: KeyValue } {
    const history = this.historyFor(key);
    const revision = this.revision + 1;
    const prevKv = latestLive(history);
    const kv = nextPutKv(prevKv, key, value, revision);
    this.record(history, { kv, tombstone: false }, { type: 'PUT', kv, ...(prevKv ? { prevKv } : {}) });
    return { revision, kv: { ...kv } };
  }

  private applyDelete(key: string): { revision: number; deleted?: KeyValue } {
    const history = this.histories.get(key);
    const prevKv = history === undefined ? undefined : latestLive(history);
    if (history === undefined || prevKv === undefined) {
      // Fault delete-missing-bumps-revision: a delete that changes nothing still takes a revision.
      // Stryker disable next-line all: the fault seam itself, switched only by --fault models (docs/mutation.md)
      if (this.faults.has('delete-missing-bumps-revision')) this.revision++;
      return { revision: this.revision };
    }
    const kv = tombstoneKv(key, this.revision + 1);
    this.record(history, { kv, tombstone: true }, { type: 'DELETE', kv, prevKv });
    return { revision: kv.modRevision, deleted: { ...prevKv } };
  }

  private applyTxn(cas: CompareAndSwap): StoreResult {
    const history = this.histories.get(cas.key);
    const current = history === undefined ? undefined : latestLive(history);
    if ((current?.modRevision ?? 0) !== cas.expectModRevision) {
      return { op: 'txn', succeeded: false, revision: this.revision, ...(current ? { kv: { ...current } } : {}) };
    }
    if (cas.value === null) return { op: 'txn', succeeded: true, revision: this.applyDelete(cas.key).revision };
    const put = this.applyPut(cas.key, cas.value);
    return { op: 'txn', succeeded: true, revision: put.revision, kv: put.kv };
  }

  /** etcd's updateCompactRev: at or below the last compaction → ErrCompacted; above current → ErrFutureRev. */
  private applyCompact(revision: number): StoreResult {
    if (revision <= this.compacted) {
      return this.errorResult('compacted', `${COMPACTED_REASON} (compact revision ${this.compacted})`, revision);
    }
    if (revision > this.revision) {
      return this.errorResult('future-revision', 'mvcc: required revision is a future revision', revision);
    }
    this.compacted = revision;
    let dropped = false;
    for (const [key, history] of this.histories) {
      if (!compactHistory(history, revision)) {
        this.histories.delete(key);
        dropped = true;
      }
    }
    if (dropped) this.sortedKeys = this.keysInOrder().filter((key) => this.histories.has(key));
    this.log = this.log.slice(firstLogIndexAtOrAbove(this.log, revision));
    return { op: 'compact', revision: this.revision, compactRevision: revision };
  }

  private historyFor(key: string): KeyHistory {
    let history = this.histories.get(key);
    if (history === undefined) {
      history = { key, versions: [] };
      this.histories.set(key, history);
      this.unsortedKeys.push(key);
    }
    return history;
  }

  /** The one place the revision moves: store the version, log the event, then tell the watchers. */
  private record(history: KeyHistory, version: StoredVersion, event: KvEvent): void {
    this.revision = version.kv.modRevision;
    history.versions.push(version);
    this.log.push(event);
    this.hub.publish(event, this.revision);
  }

  private errorResult(code: StoreErrorCode, message: string, requested?: number): StoreResult {
    return {
      op: 'error',
      code,
      message,
      revision: this.revision,
      compactRevision: this.compacted,
      ...(requested !== undefined ? { requestedRevision: requested } : {}),
    };
  }
}

export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const merged: string[] = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) merged[k++] = a[i]! <= b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) merged[k++] = a[i++]!;
  while (j < b.length) merged[k++] = b[j++]!;
  return merged;
}

/** First index whose key is >= `key` in a sorted array. */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function firstLogIndexAtOrAbove(log: readonly KvEvent[], revision: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log[mid]!.kv.modRevision < revision) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Events as a watch replays them after a compaction. etcd does not keep prev_kv with an event: its
 * watch server reads it at the event's revision − 1 and leaves it out when that read fails
 * (etcd-io/etcd server/etcdserver/api/v3rpc/watch.go, sendLoop: `Range(..., Rev:
 * ModRevision - 1)`, prev_kv set only `if err == nil`). Below the compact revision it fails
 * (ErrCompacted), so the event made at the compact revision comes without one — measured on
 * etcd 3.4.23. Events above it keep theirs.
 */
function withReadablePrevKv(events: readonly KvEvent[], compactRevision: number): readonly KvEvent[] {
  return events.map((e) => (e.prevKv !== undefined && e.kv.modRevision - 1 < compactRevision ? { type: e.type, kv: e.kv } : e));
}

/**
 * The event log a live store would hold: one event per retained version at or above the
 * compact revision, with the previous version (when live) as prevKv — compaction always keeps
 * the version before such an event, so this matches what was logged when it happened.
 */
function rebuildLog(histories: readonly KeyHistory[], compactRevision: number): KvEvent[] {
  const log: KvEvent[] = [];
  for (const history of histories) {
    history.versions.forEach((version, i) => {
      if (version.kv.modRevision < compactRevision) return;
      const before = i > 0 ? history.versions[i - 1] : undefined;
      const prevKv = before !== undefined && !before.tombstone ? before.kv : undefined;
      log.push({ type: version.tombstone ? 'DELETE' : 'PUT', kv: version.kv, ...(prevKv ? { prevKv } : {}) });
    });
  }
  return log.sort((a, b) => a.kv.modRevision - b.kv.modRevision);
}
