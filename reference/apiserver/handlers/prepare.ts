/**
 * What the registry strategies do to an object before it is written (PrepareForCreate /
 * PrepareForUpdate in pkg/registry/<group>/<resource>/strategy.go, and the generic store's
 * BeforeCreate/BeforeUpdate in staging/src/k8s.io/apiserver/pkg/registry/rest/{create,update}.go):
 * server-owned metadata, status kept apart from spec, generation on spec change, defaults.
 */
import { applyDefaults } from '../resources/defaults.ts';
import { defaultCrd } from '../apiextensions/crd.ts';
import { hasSubresource, type ResourceDef } from '../resources/registry.ts';
import { keepAllocatedValues } from '../resources/services.ts';
import { generateJobSelector } from '../resources/jobs.ts';
import { clone, deepEqual } from '../storage/codec.ts';
import { errors, invalid } from '../status.ts';
import type { Env } from '../types.ts';

import { rfc3339 } from '../../timestamps.ts';
export { rfc3339 };

/** names.SimpleNameGenerator: 5 characters from an alphabet without vowels or confusables. */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_PREFIX = 58;

export function generateName(env: Env, prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[Math.floor(env.random() * NAME_ALPHABET.length) % NAME_ALPHABET.length];
  return prefix.slice(0, MAX_GENERATED_PREFIX) + suffix;
}

/** Status a new object starts with, per kind; kinds not listed keep what the client sent (nodes register with theirs). */
function initialStatus(def: ResourceDef, obj: any): unknown {
  // A custom resource with a status subresource starts without one (customresource/strategy.go
  // PrepareForCreate); a CRD's status is the server's to compute (handlers/admit.ts establish).
  if (def.custom || def.resource === 'customresourcedefinitions') return undefined;
  switch (def.resource) {
    case 'pods':
      return { phase: 'Pending', qosClass: qosClass(obj.spec) };
    case 'namespaces':
      return { phase: 'Active' };
    case 'deployments':
    case 'replicasets':
    case 'jobs':
    case 'services':
    case 'poddisruptionbudgets':
      return def.resource === 'services' ? { loadBalancer: {} } : {};
    default:
      return obj.status;
  }
}

/** v1.PodQOSClass from the containers' requests and limits (pkg/apis/core/helper/qos). */
function qosClass(spec: any): string {
  const containers: any[] = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const req = c?.resources?.requests ?? {};
    const lim = c?.resources?.limits ?? {};
    if (Object.keys(req).length + Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      const limit = lim[r];
      const request = req[r] ?? limit;
      if (limit === undefined || String(request) !== String(limit)) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function prepareForCreate(env: Env, def: ResourceDef, obj: any): void {
  const meta = obj.metadata;
  if (meta.resourceVersion) throw errors.badRequest('resourceVersion should not be set on objects to be created');
  if (!meta.name && meta.generateName) meta.name = generateName(env, String(meta.generateName));
  meta.uid = env.uid();
  meta.creationTimestamp = rfc3339(env.clock.now_ms());
  meta.generation = 1;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (def.resource === 'jobs' && !def.custom) generateJobSelector(obj);
  if (!def.custom) applyDefaults(def.resource, obj);
  if (def.resource === 'customresourcedefinitions' && !def.custom) defaultCrd(obj);
  if (hasSubresource(def, 'status') || def.resource === 'namespaces') {
    const status = initialStatus(def, obj);
    if (status === undefined) delete obj.status;
    else obj.status = status;
  }
}

/** Server-owned metadata is the stored object's, whatever the client sent. */
function keepServerMetadata(next: any, old: any): void {
  for (const k of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'name', 'namespace'] as const) {
    if (old.metadata[k] === undefined) delete next.metadata[k];
    else next.metadata[k] = old.metadata[k];
  }
}

/**
 * A copy of `old` with `status` in place of its own, keys in the same order: the old status is
 * replaced, so it is not copied (a pod's status is much of it, and the kubelet writes it most).
 */
function withStatus(old: any, status: unknown): any {
  const out: any = {};
  for (const k in old) out[k] = k === 'status' ? status : clone(old[k]);
  out.status = status;
  return out;
}

/**
 * The object to store for an update of the resource (subresource '') or of its status.
 * A status write changes only status (metav1.ResetObjectMetaForStatus keeps the old metadata);
 * a main write keeps the old status when the kind has a status subresource.
 */
export function prepareForUpdate(def: ResourceDef, next: any, old: any, subresource: string): any {
  if (subresource === 'status') return withStatus(old, next.status);
  // namespaces/finalize writes spec.finalizers alone (namespace strategy's FinalizeUpdate).
  if (subresource === 'finalize') return { ...clone(old), spec: { ...(old.spec ?? {}), finalizers: next.spec?.finalizers ?? [] } };
  keepServerMetadata(next, old);
  if (subresource === 'binding') return next;
  if (hasSubresource(def, 'status') && old.status !== undefined) next.status = clone(old.status);
  else if (hasSubresource(def, 'status')) delete next.status;
  if (!def.custom) applyDefaults(def.resource, next);
  if (def.resource === 'customresourcedefinitions' && !def.custom) defaultCrd(next);
  // Only the finalize subresource changes a namespace's spec.finalizers (namespaceStrategy.PrepareForUpdate).
  if (def.resource === 'namespaces') next.spec = { ...(next.spec ?? {}), finalizers: old.spec?.finalizers ?? [] };
  if (def.custom) {
    if (customGenerationMoves(def, next, old)) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
    return next;
  }
  if (def.resource === 'services') {
    keepAllocatedValues(next, old);
    const oldIP = old.spec?.clusterIP;
    if (oldIP && next.spec?.type !== 'ExternalName' && next.spec?.clusterIP !== oldIP) {
      throw invalid('', 'Service', old.metadata.name, [{ type: 'Invalid', field: 'spec.clusterIP', value: next.spec?.clusterIP ?? '', detail: 'field is immutable' }]);
    }
  }
  if (def.generationTracksSpec && !deepEqual(next.spec, old.spec)) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
  return next;
}

/**
 * A custom resource's generation moves on any change outside metadata, and outside status when
 * status is a subresource (customresource/strategy.go PrepareForUpdate).
 */
function customGenerationMoves(def: ResourceDef, next: any, old: any): boolean {
  const strip = (o: any) => {
    const { metadata: _m, ...rest } = o;
    if (hasSubresource(def, 'status')) delete rest.status;
    return rest;
  };
  return !deepEqual(strip(next), strip(old));
}

/** An update that changes nothing is not written (upstream GuaranteedUpdate skips the txn when bytes are equal). */
export function unchanged(next: any, old: any): boolean {
  const strip = (o: any) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined } });
  return deepEqual(strip(next), strip(old));
}
