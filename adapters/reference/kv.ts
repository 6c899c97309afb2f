/**
 * The `kv` facet over a reference Backend: the same etcd-shaped contract the real etcd
 * adapter offers, so the etcd features run unchanged against both.
 */
import type { Backend } from '../../reference/store/backend.ts';
import type { CompareAndSwap, KvEvent, KvFacet, KvWatch } from '../contract.ts';

export function kvFacetOver(backend: Backend): KvFacet {
  return {
    put: async (key, value) => ({ revision: (await backend.put(key, value)).revision }),
    async get(key, opts) {
      const kv = await backend.get(key, opts?.revision);
      return { kv, revision: backend.currentRevision() };
    },
    async range(prefix, opts) {
      const result = await backend.range(prefix, { revision: opts?.revision, limit: opts?.limit });
      return { kvs: result.kvs, revision: result.revision };
    },
    async delete(key) {
      const result = await backend.delete(key);
      return { revision: result.revision, deleted: result.deleted ? 1 : 0 };
    },
    async txn(cas: CompareAndSwap) {
      const result = await backend.txn(cas);
      return { succeeded: result.succeeded, revision: result.revision };
    },
    watch: async (prefix, fromRevision) => new CollectingWatch(backend, prefix, fromRevision),
    compact: (revision) => backend.compact(revision),
  };
}

class CollectingWatch implements KvWatch {
  readonly events: KvEvent[] = [];
  cancelled?: { reason: string; compactRevision?: number };
  private readonly stop: () => void;

  constructor(backend: Backend, prefix: string, fromRevision: number) {
    this.stop = backend.watch(prefix, fromRevision, {
      onEvents: (events) => this.events.push(...events),
      onCancel: (reason, compactRevision) => (this.cancelled = { reason, compactRevision }),
    });
  }

  async cancel(): Promise<void> {
    this.stop();
  }
}
