/**
 * The `kv` facet over a reference Backend: the same etcd-shaped contract the real etcd
 * adapter offers, so the etcd features run unchanged against both.
 *
 * Snapshots (`kv.snapshot`): save writes the store's MVCC snapshot (every retained version,
 * the revision and the compact revision: reference/store/snapshot-format.ts) to the file;
 * restore builds a fresh single-member LocalBackend from the file and points this facet at it
 * for the rest of the session — as the etcd adapter points its facet at the single-member
 * cluster `etcdctl snapshot restore` + `etcd` starts. Watches opened before a restore stay on
 * the old store.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Backend } from '../../reference/store/backend.ts';
import { LocalBackend } from '../../reference/store/local.ts';
import { MemberCrashedError, MemberDownError, NotLeaderError, ProposalTimeoutError } from '../../reference/sim/errors.ts';
import { RequestTimeoutError } from '../../reference/wiring/raft-backend.ts';
import { StoreUnavailableError, type CompareAndSwap, type KeyValue, type KvEvent, type KvFacet, type KvWatch } from '../../contract/contract.ts';

/** A store that can hand out a consistent snapshot of itself (LocalBackend, the Raft backend). */
export interface Snapshottable {
  snapshot(): string;
}

export class ReferenceKv implements KvFacet {
  private current: Backend;
  private readonly watches = new Set<CollectingWatch>();

  constructor(backend: Backend) {
    this.current = backend;
  }

  /** The store this facet talks to now: the session's, or the one a restore built. */
  get backend(): Backend {
    return this.current;
  }

  async put(key: string, value: string): Promise<{ revision: number }> {
    return { revision: (await unavailableAs(this.current.put(key, value))).revision };
  }

  async get(key: string, opts?: { revision?: number }): Promise<{ kv?: KeyValue; revision: number }> {
    const kv = await unavailableAs(this.current.get(key, opts?.revision));
    return kv ? { kv, revision: this.current.currentRevision() } : { revision: this.current.currentRevision() };
  }

  async range(prefix: string, opts?: { revision?: number; limit?: number; fromKey?: string }): Promise<{ kvs: KeyValue[]; revision: number; more: boolean }> {
    const result = await unavailableAs(this.current.range(prefix, { revision: opts?.revision, limit: opts?.limit, fromKey: opts?.fromKey }));
    // etcd's response header carries the current revision, whatever revision the read was at.
    return { kvs: result.kvs, revision: this.current.currentRevision(), more: result.more };
  }

  async delete(key: string): Promise<{ revision: number; deleted: number }> {
    const result = await unavailableAs(this.current.delete(key));
    return { revision: result.revision, deleted: result.deleted ? 1 : 0 };
  }

  async txn(cas: CompareAndSwap): Promise<{ succeeded: boolean; revision: number; current?: KeyValue }> {
    const result = await unavailableAs(this.current.txn(cas));
    // A refused txn's kv is the key as it is (TxnResult.kv); a successful one's is not asked for.
    return { succeeded: result.succeeded, revision: result.revision, ...(!result.succeeded && result.kv ? { current: result.kv } : {}) };
  }

  async watch(prefix: string, fromRevision: number, opts: { onEvent?: (event: KvEvent) => void } = {}): Promise<KvWatch> {
    const watch = new CollectingWatch(this.current, prefix, fromRevision, () => this.watches.delete(watch), opts.onEvent);
    this.watches.add(watch);
    return watch;
  }

  compact(revision: number): Promise<void> {
    return unavailableAs(this.current.compact(revision));
  }

  async snapshotSave(path: string): Promise<{ revision: number }> {
    const store = this.current as Partial<Snapshottable> & Backend;
    if (typeof store.snapshot !== 'function') throw new Error('this reference store cannot take snapshots');
    // Taken synchronously: no write can land between reading the revision and the data.
    const revision = store.currentRevision();
    const text = store.snapshot();
    await writeFile(path, text, 'utf8');
    return { revision };
  }

  async snapshotRestore(path: string): Promise<void> {
    const text = await readFile(path, 'utf8');
    this.current = LocalBackend.fromSnapshot(text);
  }

  /** Stop every watch this facet opened (the session is over). */
  close(): void {
    for (const w of [...this.watches]) void w.cancel();
  }
}

/**
 * The replicated store's client errors in the contract's words (StoreUnavailableError), so a step
 * can tell the protocol's refusal from anything else; other errors pass through unchanged.
 */
async function unavailableAs<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw storeUnavailable(error) ?? error;
  }
}

export function storeUnavailable(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof RequestTimeoutError || error instanceof ProposalTimeoutError) return new StoreUnavailableError('timeout', error.message, error);
  if (error instanceof NotLeaderError) return new StoreUnavailableError('no-leader', error.message, error);
  if (error instanceof MemberDownError || error instanceof MemberCrashedError) return new StoreUnavailableError('unreachable', error.message, error);
  return undefined;
}

export function kvFacetOver(backend: Backend): ReferenceKv {
  return new ReferenceKv(backend);
}

class CollectingWatch implements KvWatch {
  readonly events: KvEvent[] = [];
  cancelled?: { reason: string; compactRevision?: number };
  private readonly stop: () => void;

  constructor(backend: Backend, prefix: string, fromRevision: number, private readonly onClose: () => void, onEvent?: (event: KvEvent) => void) {
    this.stop = backend.watch(prefix, fromRevision, {
      onEvents: (events) => {
        for (const event of events) {
          this.events.push(event);
          onEvent?.(event);
        }
      },
      onCancel: (reason, compactRevision) => {
        this.cancelled = compactRevision === undefined ? { reason } : { reason, compactRevision };
      },
    });
  }

  async cancel(): Promise<void> {
    this.stop();
    this.onClose();
  }
}
