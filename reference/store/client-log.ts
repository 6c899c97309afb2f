/**
 * The store's client log (`kube.storage.clients`): every request made to the store, named by the
 * client that made it — what etcd tells apart by the identity a connection authenticates with
 * (its client certificate's CN). The wiring hands each component that may reach the store a
 * handle of its own, logged under that component's name; nothing else gets one. So "only the API
 * server talks to etcd" can be read off the log instead of being taken on trust.
 */
import type { Backend, RangeOptions, WatchHandlers } from './backend.ts';
import type { CompareAndSwap } from '../../contract/contract.ts';

export type StoreOp = 'get' | 'range' | 'put' | 'delete' | 'txn' | 'watch' | 'compact';

export interface StoreClientRequest {
  /** Increases with each request, so a reader can mark "from now on". */
  id: number;
  client: string;
  op: StoreOp;
  key: string;
}

/** How many requests the log keeps; the oldest are dropped in batches past it. */
export const CLIENT_LOG_SIZE = 5000;

export class StoreClientLog {
  private readonly ring: StoreClientRequest[] = [];
  private nextId = 1;

  record(client: string, op: StoreOp, key: string): void {
    this.ring.push({ id: this.nextId++, client, op, key });
    if (this.ring.length > CLIENT_LOG_SIZE * 1.25) this.ring.splice(0, this.ring.length - CLIENT_LOG_SIZE);
  }

  entries(): readonly StoreClientRequest[] {
    return this.ring;
  }
}

/** The store as `client` sees it: the same store, each request written to the log first. */
export function loggedBackend(backend: Backend, client: string, log: StoreClientLog): Backend {
  const note = (op: StoreOp, key: string) => log.record(client, op, key);
  return {
    currentRevision: () => backend.currentRevision(),
    compactRevision: () => backend.compactRevision(),
    get: (key: string, revision?: number) => (note('get', key), backend.get(key, revision)),
    range: (prefix: string, opts?: RangeOptions) => (note('range', prefix), backend.range(prefix, opts)),
    put: (key: string, value: string) => (note('put', key), backend.put(key, value)),
    delete: (key: string) => (note('delete', key), backend.delete(key)),
    txn: (cas: CompareAndSwap) => (note('txn', cas.key), backend.txn(cas)),
    watch: (prefix: string, fromRevision: number, handlers: WatchHandlers) => (note('watch', prefix), backend.watch(prefix, fromRevision, handlers)),
    compact: (revision: number) => (note('compact', String(revision)), backend.compact(revision)),
  };
}
