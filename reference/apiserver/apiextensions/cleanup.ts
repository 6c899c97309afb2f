/**
 * Deleting a CRD deletes every object it served. Upstream puts the finalizer
 * `customresourcecleanup.apiextensions.k8s.io` on each CRD and its finalizing controller
 * (pkg/controller/finalizer/crd_finalizer.go) deletes the custom resources before the CRD goes;
 * here the delete of the CRD does both, objects first, each by compare-and-swap so watchers see
 * a DELETED event for each.
 */
import type { Env } from '../types.ts';
import { REGISTRY_ROOT } from '../../store/registry.ts';

export async function deleteCustomResources(env: Env, crd: any): Promise<number> {
  const plural = crd?.status?.acceptedNames?.plural || crd?.spec?.names?.plural;
  const group = crd?.spec?.group;
  if (!plural || !group) return 0;
  const page = await env.backend.range(`${REGISTRY_ROOT}/${group}/${plural}/`);
  let deleted = 0;
  for (const kv of page.kvs) {
    const res = await env.backend.txn({ key: kv.key, expectModRevision: kv.modRevision, value: null });
    if (res.succeeded) deleted++;
  }
  return deleted;
}
