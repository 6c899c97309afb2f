/**
 * A cache for controller unit tests: objects by resource, with the same indexes the informers
 * keep (informer.ts INDEXERS), found by scanning.
 */
import { INDEXERS, keyOf } from './informer.ts';
import type { Cache, KubeObject } from './types.ts';

export function memoryCache(objects: Record<string, KubeObject[]>): Cache & { put(resource: string, o: KubeObject): void; remove(resource: string, o: KubeObject): void } {
  const all = (r: string) => objects[r] ?? [];
  return {
    get: (r, ns, name) => all(r).find((o) => (o.metadata.namespace ?? '') === ns && o.metadata.name === name),
    list: (r, ns) => (ns === undefined ? all(r) : all(r).filter((o) => (o.metadata.namespace ?? '') === ns)),
    byIndex: (r, index, value) => all(r).filter((o) => INDEXERS[index](o).includes(value)),
    put(r, o) {
      objects[r] = [...all(r).filter((x) => keyOf(x) !== keyOf(o)), o];
    },
    remove(r, o) {
      objects[r] = all(r).filter((x) => keyOf(x) !== keyOf(o));
    },
  };
}
