/**
 * Namespace deletion, simplified: the API server deletes the namespace's contents itself and
 * then the namespace, instead of leaving a Terminating namespace to the namespace controller
 * (upstream: pkg/controller/namespace/deletion). Each object still goes by compare-and-swap,
 * so watchers see a DELETED event for each.
 */
import { RESOURCES } from '../resources/registry.ts';
import { customResourceDefs } from '../apiextensions/served.ts';
import type { Env } from '../types.ts';

export async function deleteNamespaceContents(env: Env, namespace: string): Promise<number> {
  let deleted = 0;
  // Custom resources too: one def per storage prefix (a CRD's versions share their objects).
  const custom = [...new Map((await customResourceDefs(env)).map((d) => [d.custom!.storagePrefix, d])).values()];
  for (const def of [...RESOURCES, ...custom]) {
    if (!def.namespaced || def.virtual) continue;
    const page = await env.backend.range(env.store.prefix(def, namespace));
    for (const kv of page.kvs) {
      const res = await env.backend.txn({ key: kv.key, expectModRevision: kv.modRevision, value: null });
      if (res.succeeded) deleted++;
    }
  }
  return deleted;
}
