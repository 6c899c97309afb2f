/**
 * DELETE of an object and of a collection (handlers/delete.go, registry/generic/registry/store.go
 * Delete). Preconditions (uid, resourceVersion) are checked against the current object; an
 * object with finalizers, or a pod on a node with a grace period, is only marked
 * (deletionTimestamp) and stays until its finalizers are gone or the kubelet confirms;
 * everything else is removed by compare-and-swap. Pods, services and namespaces answer with the
 * object (ReturnDeletedObject), the rest with a Success Status naming it.
 */
import { deleteCustomResources } from '../apiextensions/cleanup.ts';
import { decodeBody, headerValue, isPlainObject } from '../negotiation.ts';
import type { ResourceDef } from '../resources/registry.ts';
import { CasFailed, type StoredObject } from '../storage/object-store.ts';
import { clone } from '../storage/codec.ts';
import { errors, invalid, successStatus, type FieldError } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { mutatingAdmission, validatingAdmission } from './admit.ts';
import { decodeStage, storageStage } from './create.ts';
import { MAX_ATTEMPTS } from './guaranteed-update.ts';
import { rfc3339 } from './prepare.ts';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
  /** Deletes made on behalf of an already-admitted verb (eviction) skip admission, as upstream's do. */
  skipAdmission?: boolean;
}

const RETURNS_OBJECT = new Set(['pods', 'services', 'namespaces']);
const POLICIES = ['Orphan', 'Background', 'Foreground'];

export function parseDeleteOptions(call: ResourceCall): DeleteOptions {
  const body = call.req.body.length > 0 ? decodeStage(call, () => decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body)) : {};
  if (!isPlainObject(body)) throw errors.badRequest('DeleteOptions must be an object');
  const q = call.query;
  const errs: FieldError[] = [];
  const graceRaw = q.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
  const grace = graceRaw === undefined || graceRaw === null ? undefined : Number(graceRaw);
  if (grace !== undefined && !Number.isInteger(grace)) errs.push({ type: 'Invalid', field: 'gracePeriodSeconds', value: graceRaw, detail: 'must be an integer' });
  const policy = q.get('propagationPolicy') ?? body.propagationPolicy;
  if (policy !== undefined && policy !== null && !POLICIES.includes(policy)) errs.push({ type: 'NotSupported', field: 'propagationPolicy', value: policy, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' });
  const dryRun = [...q.getAll('dryRun'), ...(Array.isArray(body.dryRun) ? body.dryRun : [])];
  if (dryRun.some((d) => d !== 'All')) errs.push({ type: 'NotSupported', field: 'dryRun', value: dryRun, detail: 'supported values: "All"' });
  if (errs.length > 0) throw invalid('meta.k8s.io', 'DeleteOptions', '', errs);
  const pre = isPlainObject(body.preconditions) ? body.preconditions : undefined;
  const out: DeleteOptions = { dryRun: dryRun.length > 0 };
  if (grace !== undefined) out.gracePeriodSeconds = Math.max(0, grace);
  if (policy) out.propagationPolicy = policy;
  if (pre) out.preconditions = { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined };
  return out;
}

function checkPreconditions(def: ResourceDef, obj: any, opts: DeleteOptions): void {
  const pre = opts.preconditions;
  if (pre?.uid && pre.uid !== obj.metadata.uid) {
    throw errors.conflict(def.group, def.resource, obj.metadata.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid}`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw errors.conflict(def.group, def.resource, obj.metadata.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`);
  }
}

/** The grace period a pod gets (pkg/registry/core/pod/strategy.go CheckGracefulDelete): 0 if it never reached a node or already finished. */
function podGrace(obj: any, opts: DeleteOptions): number {
  const phase = obj.status?.phase;
  if (!obj.spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
  return opts.gracePeriodSeconds ?? obj.spec?.terminationGracePeriodSeconds ?? 30;
}

/** The object marked for deletion, or undefined when it should go now. */
function markForDeletion(env: Env, def: ResourceDef, obj: any, opts: DeleteOptions): any | undefined {
  const meta = obj.metadata;
  const finalizers: string[] = [...(meta.finalizers ?? [])];
  if (opts.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
  if (opts.propagationPolicy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
  const grace = def.resource === 'pods' ? podGrace(obj, opts) : 0;
  if (def.resource === 'namespaces') return markNamespace(env, obj, finalizers);
  if (finalizers.length === 0 && grace === 0) return undefined;
  const now = env.clock.now_ms();
  const marked = clone(obj);
  if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
  const already = meta.deletionGracePeriodSeconds;
  if (!meta.deletionTimestamp || (already !== undefined && grace < already)) {
    marked.metadata.deletionTimestamp = rfc3339(now + grace * 1000);
    marked.metadata.deletionGracePeriodSeconds = grace;
  }
  // A pod already terminating whose grace is cut to 0 with no finalizers left goes now.
  if (def.resource === 'pods' && grace === 0 && finalizers.length === 0) return undefined;
  return marked;
}

/**
 * A namespace is not deleted at once (pkg/registry/core/namespace/storage/storage.go Delete):
 * the first DELETE sets its deletionTimestamp and phase Terminating; while spec.finalizers (the
 * `kubernetes` finalizer every namespace gets on create) or metadata.finalizers remain it stays,
 * and the namespace controller empties it and then removes `kubernetes` through the finalize
 * subresource — the write that finally deletes it (ShouldDeleteNamespaceDuringUpdate).
 */
function markNamespace(env: Env, obj: any, finalizers: string[]): any | undefined {
  const specFinalizers: string[] = obj.spec?.finalizers ?? [];
  if (specFinalizers.length === 0 && finalizers.length === 0) return undefined;
  const marked = clone(obj);
  if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
  if (!marked.metadata.deletionTimestamp) {
    marked.metadata.deletionTimestamp = rfc3339(env.clock.now_ms());
    marked.metadata.deletionGracePeriodSeconds = 0;
  }
  marked.status = { ...(marked.status ?? {}), phase: 'Terminating' };
  return marked;
}

function deletedAnswer(def: ResourceDef, obj: any): Reply {
  if (RETURNS_OBJECT.has(def.resource)) return reply(200, obj);
  return reply(200, successStatus({ name: obj.metadata.name, group: def.group, kind: def.resource, uid: obj.metadata.uid } as any));
}

async function deleteOnce(env: Env, call: ResourceCall, def: ResourceDef, current: StoredObject, opts: DeleteOptions): Promise<Reply> {
  const obj = current.obj;
  checkPreconditions(def, obj, opts);
  const t = { operation: 'DELETE' as const, kind: { group: def.group, version: def.version, kind: def.kind }, subresource: '',
    namespace: obj.metadata.namespace ?? '', name: obj.metadata.name, object: null, oldObject: obj, dryRun: opts.dryRun };
  if (!opts.skipAdmission) {
    await mutatingAdmission(env, call, def, t);
    await validatingAdmission(env, call, def, t);
  }
  const marked = markForDeletion(env, def, obj, opts);
  if (opts.dryRun) {
    call.trace.pass('storage', 'dry run: not deleted');
    return marked ? reply(200, marked) : deletedAnswer(def, obj);
  }
  if (marked) {
    if (JSON.stringify(marked) === JSON.stringify(obj)) return reply(200, obj);
    const stored = await env.store.replace(def, marked, current.kv.modRevision);
    call.trace.pass('storage', `marked for deletion at revision ${stored.kv.modRevision}`);
    return reply(200, stored.obj);
  }
  if (def.resource === 'customresourcedefinitions' && !def.custom) await deleteCustomResources(env, obj);
  const rev = await env.store.remove(def, obj.metadata.namespace ?? '', obj.metadata.name, current.kv.modRevision);
  call.trace.pass('storage', `deleted at revision ${rev}`);
  return deletedAnswer(def, obj);
}

/** Deletes one object, retrying when a concurrent write moved it between read and compare-and-swap. */
export async function deleteObject(env: Env, call: ResourceCall, name: string, namespace: string, opts: DeleteOptions): Promise<Reply> {
  const { def } = call;
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const current = await env.store.mustGet(def, namespace, name);
    try {
      return await deleteOnce(env, call, def, current, opts);
    } catch (e) {
      if (!(e instanceof CasFailed)) throw e;
    }
  }
  return storageStage(call, async () => {
    throw errors.conflict(def.group, def.resource, name, 'the object is being modified too often; please try again');
  });
}

export async function remove(env: Env, call: ResourceCall): Promise<Reply> {
  return deleteObject(env, call, call.info.name, call.info.namespace, parseDeleteOptions(call));
}

