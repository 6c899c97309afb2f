/**
 * The well-known user and group names authentication hands to authorization.
 *
 * Upstream: k8s.io/component-helpers/auth/user (user.Anonymous, user.AllUnauthenticated,
 * user.AllAuthenticated, user.SystemPrivilegedGroup) and
 * staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go (MakeUsername,
 * MakeGroupNames).
 */
export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const ALL_AUTHENTICATED_GROUP = 'system:authenticated';
/** Members of this group are allowed everything, before RBAC is even asked. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';

/** `system:serviceaccount:<namespace>:<name>`, the name RBAC ServiceAccount subjects match. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;
}

/** The groups every ServiceAccount of a namespace belongs to. */
export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${namespace}`];
}

/** The inverse of serviceAccountUsername; undefined when the name is not a ServiceAccount's. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}
