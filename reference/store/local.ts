/**
 * A single-member Backend over one MvccStore: the store the API server uses when there is no
 * replication. Its promises resolve at once (nothing to wait for), but they are still promises
 * so that the Raft-replicated and durable backends fit the same interface.
 *
 * Watch delivery is synchronous: a watcher's onEvents runs inside the write that caused the
 * event, before that write's promise resolves — so when `await backend.put(...)` returns,
 * every watcher has the event. Replay of past revisions runs inside `watch()` itself, and so
 * does a cancellation for a compacted start revision.
 *
 * Every write goes through `submit(command)`; subclasses override it to log (durable.ts) or
 * replicate the command before it is applied.
 */
import type { CompareAndSwap, KeyValue } from '../../contract/contract.ts';
import type { Backend, RangeOptions, RangeResult, TxnResult, WatchHandlers } from './backend.ts';
import { errorOfResult, MvccStore, type StoreCommand, type StoreResult } from './mvcc.ts';

export interface LocalBackendOptions {
  /**
   * Where an exception thrown by a watch handler goes. The write that triggered it has
   * happened, so it must not fail the write; by default the error is rethrown from a
   * microtask, where it surfaces as an uncaught exception instead of vanishing.
   */
  onHandlerError?: (error: unknown) => void;
}

export class LocalBackend implements Backend {
  protected readonly mvcc: MvccStore;
  private readonly onHandlerError: (error: unknown) => void;

  constructor(store: MvccStore = new MvccStore(), options: LocalBackendOptions = {}) {
    this.mvcc = store;
    this.onHandlerError =
      options.onHandlerError ??
      ((error) =>
        queueMicrotask(() => {
          throw error;
        }));
  }

  /** The store underneath, for reads that need no promise (and for tests). */
  get store(): MvccStore {
    return this.mvcc;
  }

  static fromSnapshot(snapshot: string, options?: LocalBackendOptions): LocalBackend {
    return new LocalBackend(MvccStore.restore(snapshot), options);
  }

  snapshot(): string {
    return this.mvcc.snapshot();
  }

  currentRevision(): number {
    return this.mvcc.currentRevision();
  }

  compactRevision(): number {
    return this.mvcc.compactRevision();
  }

  async get(key: string, revision?: number): Promise<KeyValue | undefined> {
    return this.mvcc.get(key, revision);
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    return this.mvcc.range(prefix, opts);
  }

  async put(key: string, value: string): Promise<{ revision: number; kv: KeyValue }> {
    const result = await this.submitChecked({ op: 'put', key, value });
    if (result.op !== 'put') throw unexpected(result);
    return { revision: result.revision, kv: result.kv };
  }

  async delete(key: string): Promise<{ revision: number; deleted?: KeyValue }> {
    const result = await this.submitChecked({ op: 'delete', key });
    if (result.op !== 'delete') throw unexpected(result);
    return result.deleted ? { revision: result.revision, deleted: result.deleted } : { revision: result.revision };
  }

  /** The API server's every write: the submit's promise and one reaction, no async layers between (each costs a promise and ticks). */
  txn(cas: CompareAndSwap): Promise<TxnResult> {
    return this.submit({ op: 'txn', cas: { key: cas.key, expectModRevision: cas.expectModRevision, value: cas.value } }).then(txnResult);
  }

  /** Rejects with CompactedError at or below the compact revision, FutureRevisionError above the current one (as etcd). */
  async compact(revision: number): Promise<void> {
    const result = await this.submitChecked({ op: 'compact', revision });
    if (result.op !== 'compact') throw unexpected(result);
  }

  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): () => void {
    const guarded: WatchHandlers = {
      onEvents: (events, revision) => {
        try {
          handlers.onEvents(events, revision);
        } catch (error) {
          this.onHandlerError(error);
        }
      },
      onCancel: (reason, compactRevision) => {
        try {
          handlers.onCancel(reason, compactRevision);
        } catch (error) {
          this.onHandlerError(error);
        }
      },
      ...(handlers.trigger ? { trigger: handlers.trigger } : {}),
    };
    return this.mvcc.watch(prefix, fromRevision, guarded);
  }

  /** Applies a write. Override to log or replicate first; must apply commands in the order they were accepted. */
  protected async submit(command: StoreCommand): Promise<StoreResult> {
    return this.mvcc.apply(command);
  }

  private async submitChecked(command: StoreCommand): Promise<StoreResult> {
    const result = await this.submit(command);
    const error = errorOfResult(result);
    if (error !== undefined) throw error;
    return result;
  }
}

function txnResult(result: StoreResult): TxnResult {
  const error = errorOfResult(result);
  if (error !== undefined) throw error;
  if (result.op !== 'txn') throw unexpected(result);
  return result.kv ? { succeeded: result.succeeded, revision: result.revision, kv: result.kv } : { succeeded: result.succeeded, revision: result.revision };
}

function unexpected(result: StoreResult): Error {
  return new Error(`store answered ${result.op} to a different command`);
}
