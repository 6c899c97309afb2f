/**
 * What the API server needs from its store: etcd's contract, async because a replicated
 * store acknowledges a write only after a majority has it. Implemented by the local MVCC
 * store (one member) and by the Raft-replicated store; an etcd-backed one would fit too.
 */
import type { CompareAndSwap, KeyValue, KvEvent } from '../../contract/contract.ts';

export interface RangeOptions {
  /** Read as of this revision (0 or absent: current). Fails with CompactedError below the compact revision. */
  revision?: number;
  /** At most this many keys; `more` tells whether some were left. */
  limit?: number;
  /** Start at this key (inclusive), for continue tokens. */
  fromKey?: string;
}

export interface RangeResult {
  kvs: KeyValue[];
  /** The store's revision the read was served at. */
  revision: number;
  more: boolean;
}

export interface TxnResult {
  succeeded: boolean;
  revision: number;
  /** The key as it is after the txn (or as it was, when the comparison failed). */
  kv?: KeyValue;
}

export interface WatchHandlers {
  /** The events may be shared with every other watcher of the change: read them, do not change them. */
  onEvents(events: readonly KvEvent[], revision: number): void;
  /** The store cancelled the watch (e.g. the start revision is compacted). */
  onCancel(reason: string, compactRevision?: number): void;
  /** A hint that this watcher wants only some keys' events (see WatchTrigger); a store may ignore it. */
  trigger?: WatchTrigger;
}

/**
 * The API server's indexed trigger (upstream's watch cache: a resource registers one field as its
 * trigger — pods register spec.nodeName, pkg/registry/core/pod/storage/storage.go TriggerFunc
 * with pod.NodeNameTriggerFunc — and the cacher hands an event only to the watchers whose exact
 * field selector names the field's value in the new object or in the previous one,
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go triggerValuesThreadUnsafe and
 * startDispatching). A store that honours it offers a change under the prefix to this watcher
 * only when `valueOf` gives `value` for the key's new value or its previous one; the watcher must
 * still filter what it gets, and must not need the changes it is not offered.
 */
export interface WatchTrigger {
  /** Which field: watchers naming the same index under the same prefix share one `valueOf`. */
  readonly index: string;
  readonly value: string;
  /** The field's value in a stored value, shown at the event's revision. */
  valueOf(kv: KeyValue, revision: number): string;
  /**
   * Set by a store that indexes the watcher: the revision up to which every change has been
   * offered to the watchers that wanted it (this one was skipped for the rest). Unset when the
   * store ignores the trigger and delivers every change under the prefix.
   */
  offeredThrough?: () => number;
}

export interface Backend {
  currentRevision(): number;
  compactRevision(): number;
  get(key: string, revision?: number): Promise<KeyValue | undefined>;
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  put(key: string, value: string): Promise<{ revision: number; kv: KeyValue }>;
  delete(key: string): Promise<{ revision: number; deleted?: KeyValue }>;
  txn(cas: CompareAndSwap): Promise<TxnResult>;
  /** Events with revision >= fromRevision (0: from now on) for keys under prefix. Returns a cancel function. */
  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): () => void;
  compact(revision: number): Promise<void>;
}
