/**
 * The etcd3 client, required when the first client is made: importing etcd3 (and gRPC under it)
 * costs some 190 ms, which every cucumber process of every target paid at start — the suite's
 * bundle hoists a module's imports of packages to its top, however lazily the module is reached.
 */
import { createRequire } from 'node:module';
import type { Etcd3, IOptions } from 'etcd3';

export function newEtcd3(options: IOptions): Etcd3 {
  const { Etcd3: Client } = createRequire(import.meta.url)('etcd3') as typeof import('etcd3');
  return new Client(options);
}
