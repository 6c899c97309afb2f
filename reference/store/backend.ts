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
  onEvents(events: KvEvent[], revision: number): void;
  /** The store cancelled the watch (e.g. the start revision is compacted). */
  onCancel(reason: string, compactRevision?: number): void;
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
