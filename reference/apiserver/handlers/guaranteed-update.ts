/**
 * Read-modify-write with optimistic concurrency, after GuaranteedUpdate
 * (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go): read the object, compute the new
 * one, compare-and-swap on the modRevision that was read; when someone else wrote in between,
 * start over from the fresh object. A resourceVersion the client named is a precondition:
 * if it is not the current one the answer is 409 Conflict with upstream's
 * "the object has been modified; please apply your changes to the latest version and try again".
 */
import type { Operation } from '../pipeline.ts';
import type { ResourceDef } from '../resources/registry.ts';
import { CasFailed, type StoredObject } from '../storage/object-store.ts';
import { clone } from '../storage/codec.ts';
import { errors } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { admitAndValidate, schemaValidation } from './admit.ts';
import { storageStage } from './create.ts';
import { prepareForUpdate, unchanged } from './prepare.ts';

/** Attempts before giving up on a hot key; each failed attempt means another writer made progress. */
// Every failed attempt means another writer succeeded, so N concurrent writers need at most N
// attempts; upstream retries until the request times out, we stop at a generous bound.
export const MAX_ATTEMPTS = 256;

export interface UpdateSpec {
  name: string;
  namespace: string;
  /** 'status' writes only status; 'binding' writes spec and status together (a pod's binding). */
  subresource: '' | 'status' | 'binding' | 'finalize';
  dryRun: boolean;
  /** Inner writes of a subresource verb (binding) were admitted as that verb already. */
  skipAdmission?: boolean;
  /** The new object computed from a private copy of the current one (a patch, or the PUT body). */
  compute(current: any): any | Promise<any>;
  /** What to do when the object does not exist (default: 404). */
  whenMissing?: () => Promise<Reply>;
}

/** upstream ShouldDeleteDuringUpdate: a terminating object whose last finalizer went is deleted (pods only once grace is 0). */
function shouldDeleteDuringUpdate(def: ResourceDef, obj: any): boolean {
  const meta = obj.metadata ?? {};
  if (!meta.deletionTimestamp || (meta.finalizers ?? []).length > 0) return false;
  // A namespace also waits for its spec.finalizers (ShouldDeleteNamespaceDuringUpdate).
  if (def.resource === 'namespaces') return (obj.spec?.finalizers ?? []).length === 0;
  return def.resource !== 'pods' || meta.deletionGracePeriodSeconds === 0;
}

async function attempt(env: Env, call: ResourceCall, spec: UpdateSpec, current: StoredObject): Promise<Reply> {
  const { def } = call;
  const next = await spec.compute(clone(current.obj));
  // A uid in the new object is a precondition too: the kubelet's status patches carry one so that
  // a pod recreated under the same name is never patched by mistake (rest.Update's uid check).
  const uid = next?.metadata?.uid;
  if (uid && uid !== current.obj.metadata.uid) {
    call.trace.reject('storage', 'uid precondition failed');
    throw errors.conflict(def.group, def.resource, spec.name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.obj.metadata.uid}`);
  }
  const wanted = next?.metadata?.resourceVersion;
  if (wanted && wanted !== current.obj.metadata.resourceVersion && !env.faults.has('resourceversion-unchecked')) {
    call.trace.reject('storage', `stale resourceVersion ${wanted}`);
    throw errors.staleResourceVersion(def.group, def.resource, spec.name);
  }
  const prepared = prepareForUpdate(def, next, current.obj, spec.subresource);
  const operation: Operation = 'UPDATE';
  const kind = { group: def.group, version: def.version, kind: def.kind };
  const target = {
    operation, kind, subresource: spec.subresource, namespace: spec.namespace, name: spec.name,
    object: prepared, oldObject: current.obj, dryRun: spec.dryRun,
  };
  let admitted: any;
  if (spec.skipAdmission) {
    schemaValidation(call, def, prepared);
    admitted = prepared;
  } else {
    admitted = await admitAndValidate(env, call, def, target);
  }
  if (unchanged(admitted, current.obj)) {
    call.trace.pass('storage', 'no change: not written');
    return reply(200, current.obj);
  }
  if (spec.dryRun) {
    call.trace.pass('storage', 'dry run: not written');
    return reply(200, admitted);
  }
  if (shouldDeleteDuringUpdate(def, admitted)) {
    const rev = await env.store.remove(def, spec.namespace, spec.name, current.kv.modRevision);
    call.trace.pass('storage', `last finalizer removed: deleted at revision ${rev}`);
    return reply(200, { ...admitted, metadata: { ...admitted.metadata, resourceVersion: String(rev) } });
  }
  const stored = await env.store.replace(def, admitted, current.kv.modRevision);
  call.trace.pass('storage', `updated at revision ${stored.kv.modRevision}`);
  return reply(200, stored.obj);
}

export async function guaranteedUpdate(env: Env, call: ResourceCall, spec: UpdateSpec): Promise<Reply> {
  const { def } = call;
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const current = await env.store.get(def, spec.namespace, spec.name);
    if (!current) {
      if (spec.whenMissing) return spec.whenMissing();
      throw errors.notFound(def.group, def.resource, spec.name);
    }
    try {
      return await attempt(env, call, spec, current);
    } catch (e) {
      if (!(e instanceof CasFailed)) throw e;
    }
  }
  return storageStage(call, async () => {
    throw errors.conflict(def.group, def.resource, spec.name, 'the object is being modified too often; please try again');
  });
}
