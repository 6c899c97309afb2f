/**
 * The namespace controller (pkg/controller/namespace/namespace_controller.go, with
 * deletion/namespaced_resources_deleter.go): empties a namespace being deleted, then lets it go.
 *
 * Deleting a namespace only marks it (the API server sets its deletionTimestamp and phase
 * Terminating, and NamespaceLifecycle admission refuses new content in it); it stays while its
 * spec.finalizers holds `kubernetes`. For such a namespace a sync:
 *
 * 1. deletes every object of every namespaced resource the server serves (discovery, as
 *    ServerPreferredNamespacedResources filtered to resources that can be listed and deleted):
 *    one deletecollection per resource, or a delete per object where that verb is missing;
 * 2. checks that nothing is left — pods in their grace period, objects held by finalizers —
 *    and while something is, fails the sync so the namespace is looked at again after back-off
 *    (upstream's ResourcesRemainingError re-queues it after an estimate);
 * 3. removes `kubernetes` from spec.finalizers through the namespaces/{name}/finalize
 *    subresource; with no finalizer left the API server deletes the namespace.
 *
 * Upstream also writes status conditions (NamespaceContentRemaining, …) as it goes; the
 * reference does not.
 */
import { clone } from '../shared/objects.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type DiscoveredResource, type ReconcileContext } from '../types.ts';

export const NAMESPACE_CONTROLLER = 'namespace-controller';
/** api.FinalizerKubernetes: the finalizer this controller owns. */
export const FINALIZER_KUBERNETES = 'kubernetes';

export function namespaceController(): ControllerDef {
  return {
    name: NAMESPACE_CONTROLLER,
    aliases: ['namespace'],
    capability: 'controllers.namespace',
    watches: [RESOURCES.namespaces],
    // Only a namespace being deleted is emptied, so only its sync reads discovery: upstream's
    // deleter returns before discovering anything while DeletionTimestamp is nil
    // (kubernetes/kubernetes pkg/controller/namespace/deletion/namespaced_resources_deleter.go, Delete).
    discovery: (name, cache) => Boolean((cache.get('namespaces', '', name) as any)?.metadata?.deletionTimestamp),
    // --concurrent-namespace-syncs defaults to 10.
    workers: 10,
    keysFor,
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx),
  };
}

/** A namespace added or changed is looked at; one already gone needs nothing. */
export function keysFor(event: CacheEvent): string[] {
  return event.type === 'DELETED' ? [] : [event.object.metadata.name];
}

/** What the deleter works through: resources that can be listed and deleted. */
export function deletableResources(discovery: readonly DiscoveredResource[]): DiscoveredResource[] {
  return discovery.filter((r) => r.verbs.includes('list') && r.verbs.includes('delete'));
}

export function reconcile(name: string, cache: Cache, ctx: ReconcileContext): Action[] {
  const ns = cache.get('namespaces', '', name) as any;
  if (!ns?.metadata?.deletionTimestamp) return [];
  const finalizers: string[] = ns.spec?.finalizers ?? [];
  if (!finalizers.includes(FINALIZER_KUBERNETES)) return [];
  if (!ctx.discovery) throw new Error('the namespace controller needs discovery to know what to delete');
  const resources = deletableResources(ctx.discovery);
  const finalized = clone(ns);
  finalized.spec = { ...(ns.spec ?? {}), finalizers: finalizers.filter((f) => f !== FINALIZER_KUBERNETES) };
  return [
    ...resources.map((resource): Action => ({ verb: 'deletecollection', resource, namespace: name })),
    { verb: 'requireEmpty', namespace: name, resources },
    { verb: 'update', subresource: 'finalize', resource: RESOURCES.namespaces, namespace: '', object: finalized },
  ];
}
