/**
 * The garbage collector (pkg/controller/garbagecollector/): ownerReferences make a graph; an
 * object whose owners are all gone is deleted, and a deletion's propagationPolicy says what
 * happens to dependents:
 *
 * - Background (the default for most kinds): the owner goes at once; its dependents, now
 *   dangling, are deleted after (attemptToDeleteItem). An owner missing from the cache is
 *   confirmed gone by a GET before a dependent is deleted, as isDangling does, since the
 *   dependent may have been seen before its owner. A dependent with owners left keeps living;
 *   only its dangling references are removed.
 * - Foreground: the API server marks the owner (deletionTimestamp, finalizer
 *   `foregroundDeletion`); the collector deletes its dependents (foreground too) and removes the
 *   finalizer once no dependent with blockOwnerDeletion=true remains — then the owner goes.
 * - Orphan: the API server marks the owner with finalizer `orphan`; the collector removes the
 *   owner's reference from every dependent, then the finalizer.
 *
 * Upstream discovers every deletable resource; the reference watches the kinds its
 * controllers make and own (OWNED_KINDS). A reference to any other kind is left alone.
 * Patches carry the resourceVersion they were computed from, so a concurrent change makes them
 * fail and the key is retried.
 */
import { isBeingDeleted, keyOf, ownerReferences } from '../shared/objects.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject, type ResourceRef } from '../types.ts';

export const GARBAGE_COLLECTOR_CONTROLLER = 'garbage-collector-controller';

/** Kind → resource, for the kinds the reference's controllers make and own (more as controllers arrive: EndpointSlice). */
export const OWNED_KINDS: Readonly<Record<string, ResourceRef>> = {
  Pod: RESOURCES.pods,
  ReplicaSet: RESOURCES.replicasets,
  Deployment: RESOURCES.deployments,
  Job: RESOURCES.jobs,
};
const WATCHED = Object.values(OWNED_KINDS);

export function garbageCollector(): ControllerDef {
  return {
    name: GARBAGE_COLLECTOR_CONTROLLER,
    aliases: ['garbagecollector'],
    capability: 'controllers.garbagecollector',
    watches: WATCHED,
    // --concurrent-gc-syncs defaults to 20.
    workers: 20,
    keysFor,
    reconcile: (key, cache) => reconcile(key, cache),
  };
}

const itemKey = (resource: string, o: Readonly<KubeObject>) => `${resource}|${keyOf(o)}`;

function dependentsOf(uid: string, cache: Cache): { resource: ResourceRef; object: Readonly<KubeObject> }[] {
  return WATCHED.flatMap((resource) => cache.byIndex(resource.resource, 'owner', uid).map((object) => ({ resource, object })));
}

export function keysFor(event: CacheEvent, cache: Cache): string[] {
  const o = event.object;
  const keys = new Set<string>([itemKey(event.resource, o)]);
  // An owner gone or going: its dependents need a look.
  if (event.type === 'DELETED' || isBeingDeleted(o)) for (const d of dependentsOf(String(o.metadata.uid), cache)) keys.add(itemKey(d.resource.resource, d.object));
  // A dependent changed or went: an owner waiting for its dependents may be done (also one it no longer names).
  for (const ref of [...ownerReferences(o), ...(event.oldObject ? ownerReferences(event.oldObject) : [])]) {
    const resource = OWNED_KINDS[ref.kind];
    if (resource) keys.add(`${resource.resource}|${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${ref.name}`);
  }
  return [...keys];
}

function parseKey(key: string): { resource: ResourceRef; namespace: string; name: string } {
  const [resource, rest] = key.split('|') as [string, string];
  const slash = rest.indexOf('/');
  const ref = WATCHED.find((r) => r.resource === resource)!;
  return slash < 0 ? { resource: ref, namespace: '', name: rest } : { resource: ref, namespace: rest.slice(0, slash), name: rest.slice(slash + 1) };
}

function metaPatch(resource: ResourceRef, o: Readonly<KubeObject>, metadata: Record<string, unknown>): Action {
  return {
    verb: 'patch', resource, namespace: o.metadata.namespace ?? '', name: o.metadata.name,
    patch: { metadata: { ...metadata, uid: o.metadata.uid, resourceVersion: (o.metadata as any).resourceVersion } },
  };
}

function withoutFinalizer(o: Readonly<KubeObject>, finalizer: string): string[] {
  return ((o.metadata as any).finalizers ?? []).filter((f: string) => f !== finalizer);
}

export function reconcile(key: string, cache: Cache): Action[] {
  const { resource, namespace, name } = parseKey(key);
  const o = cache.get(resource.resource, namespace, name);
  if (!o) return [];
  const finalizers: string[] = (o.metadata as any).finalizers ?? [];
  if (isBeingDeleted(o) && finalizers.includes('orphan')) return orphanDependents(resource, o, cache);
  if (isBeingDeleted(o) && finalizers.includes('foregroundDeletion')) return deleteDependents(resource, o, cache);
  return collect(resource, o, cache);
}

function orphanDependents(resource: ResourceRef, o: Readonly<KubeObject>, cache: Cache): Action[] {
  const uid = String(o.metadata.uid);
  const dependents = dependentsOf(uid, cache);
  if (dependents.length === 0) return [metaPatch(resource, o, { finalizers: withoutFinalizer(o, 'orphan') })];
  return dependents.map((d) => metaPatch(d.resource, d.object, { ownerReferences: ownerReferences(d.object).filter((r) => r.uid !== uid) }));
}

function deleteDependents(resource: ResourceRef, o: Readonly<KubeObject>, cache: Cache): Action[] {
  const uid = String(o.metadata.uid);
  const dependents = dependentsOf(uid, cache);
  const blocking = dependents.filter((d) => ownerReferences(d.object).some((r) => r.uid === uid && r.blockOwnerDeletion));
  if (blocking.length === 0) return [metaPatch(resource, o, { finalizers: withoutFinalizer(o, 'foregroundDeletion') })];
  return dependents
    .filter((d) => !isBeingDeleted(d.object))
    .map((d) => ({ verb: 'delete' as const, resource: d.resource, namespace: d.object.metadata.namespace ?? '', name: d.object.metadata.name, uid: String(d.object.metadata.uid), propagationPolicy: 'Foreground' as const }));
}

/** An object whose known owners are all gone is deleted; one with some left loses only the dangling references. */
function collect(resource: ResourceRef, o: Readonly<KubeObject>, cache: Cache): Action[] {
  const refs = ownerReferences(o);
  if (refs.length === 0 || isBeingDeleted(o)) return [];
  const namespace = o.metadata.namespace ?? '';
  const known = refs.filter((r) => OWNED_KINDS[r.kind]);
  // An owner of a kind the reference does not watch might be anywhere: leave the object alone.
  if (known.length !== refs.length) return [];
  const present = (r: (typeof refs)[number]) => cache.get(OWNED_KINDS[r.kind]!.resource, namespace, r.name)?.metadata.uid === r.uid;
  const dangling = known.filter((r) => !present(r));
  if (dangling.length === 0) return [];
  if (dangling.length < refs.length) return [metaPatch(resource, o, { ownerReferences: refs.filter((r) => !dangling.includes(r)) })];
  // Every owner is gone; an owner in foreground deletion is handled from its side.
  return [{
    verb: 'delete', resource, namespace, name: o.metadata.name, uid: String(o.metadata.uid), propagationPolicy: 'Background',
    unlessExists: dangling.map((r) => ({ resource: OWNED_KINDS[r.kind]!, namespace, name: r.name, uid: r.uid })),
  }];
}

