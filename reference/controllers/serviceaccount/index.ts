/**
 * The serviceaccounts controller: every active namespace has the ServiceAccounts it should
 * (just `default`), after kube-controller-manager's
 * pkg/controller/serviceaccount/serviceaccounts_controller.go:
 *
 * - handlers: a namespace added or updated makes its name dirty; a ServiceAccount deleted makes
 *   its namespace dirty (that is how a deleted `default` comes back);
 * - syncNamespace: a namespace that is gone, or whose status.phase is not Active, needs nothing;
 *   otherwise each ServiceAccount to ensure that the cache lacks is created, with only its
 *   name and namespace set. AlreadyExists from the create is success (the host's concern).
 *
 * Without `default` the ServiceAccount admission plugin refuses every pod in the namespace that
 * names no ServiceAccount, which is why every client relies on this controller.
 */
import type { Action, Cache, CacheEvent, ControllerDef, ResourceRef } from '../types.ts';

export const SERVICE_ACCOUNT_CONTROLLER = 'serviceaccount-controller';
/** DefaultServiceAccountsControllerOptions(): the ServiceAccounts every namespace gets. */
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];

const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts' };
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

/** The key is the namespace's name; the state is the namespace and ServiceAccount caches. */
export function reconcile(namespaceName: string, state: Cache, toEnsure: readonly string[] = DEFAULT_SERVICE_ACCOUNTS): Extract<Action, { verb: 'create' }>[] {
  const ns = state.get('namespaces', '', namespaceName) as { status?: { phase?: string } } | undefined;
  // Gone, or Terminating: creating anything there would only be refused.
  if (!ns || ns.status?.phase !== 'Active') return [];
  return toEnsure
    .filter((name) => !state.get('serviceaccounts', namespaceName, name))
    .map((name) => ({
      verb: 'create' as const,
      resource: SERVICE_ACCOUNTS,
      namespace: namespaceName,
      object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: namespaceName } },
    }));
}

export function keysFor(event: CacheEvent): string[] {
  if (event.resource === 'namespaces') return event.type === 'DELETED' ? [] : [event.object.metadata.name];
  if (event.resource === 'serviceaccounts' && event.type === 'DELETED') return [event.object.metadata.namespace ?? ''];
  return [];
}

export function serviceAccountController(toEnsure: readonly string[] = DEFAULT_SERVICE_ACCOUNTS): ControllerDef {
  return {
    name: SERVICE_ACCOUNT_CONTROLLER,
    capability: 'controllers.serviceaccount',
    // Names before kube-controller-manager 1.28 gave every controller a "-controller" suffix.
    aliases: ['serviceaccount'],
    watches: [NAMESPACES, SERVICE_ACCOUNTS],
    keysFor,
    reconcile: (key, cache) => reconcile(key, cache, toEnsure),
  };
}
