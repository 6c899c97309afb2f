/**
 * RBAC decisions remembered against the frozen lists they were read from.
 *
 * An RBAC decision is a function of the request's attributes and four lists: the
 * ClusterRoleBindings, the ClusterRoles and — for a namespaced request not already allowed at
 * cluster level — the namespace's RoleBindings and Roles. A lister that serves each list frozen,
 * as the same array until a write changes it (reference/wiring/cached-reader.ts, an informer's
 * cache upstream), lets the decision be reused while every list it read is still the one
 * served: a write to any of them serves a new array, and the remembered decision no longer
 * matches. Lists that are not frozen are never remembered against (they could change in place).
 * The walk it saves ran for every request of every component: ~3 % of the suite's CPU.
 */
import type { Decision, RequestAttributes } from '../pipeline.ts';

/** The lists a decision was read from; `namespaced` only when the namespace's bindings were walked. */
export interface DecisionInputs {
  clusterRoleBindings: readonly unknown[];
  clusterRoles: readonly unknown[];
  namespaced?: { roleBindings: readonly unknown[]; roles: readonly unknown[] };
}

interface Entry {
  inputs: DecisionInputs;
  decision: Decision;
}

/** Past this many remembered decisions the cache starts over (always safe: it only forgets). */
const MAX_ENTRIES = 4096;

export class DecisionCache {
  private readonly entries = new Map<string, Entry>();
  /** The cluster-level lists every entry was read with; a change to either drops them all. */
  private clusterRoleBindings: readonly unknown[] | undefined;
  private clusterRoles: readonly unknown[] | undefined;

  /** The decision remembered for this request, if the cluster-level lists are still those it read. */
  lookup(key: string, clusterRoleBindings: readonly unknown[], clusterRoles: readonly unknown[]): Entry | undefined {
    if (clusterRoleBindings !== this.clusterRoleBindings || clusterRoles !== this.clusterRoles) {
      this.entries.clear();
      this.clusterRoleBindings = clusterRoleBindings;
      this.clusterRoles = clusterRoles;
      return undefined;
    }
    return this.entries.get(key);
  }

  remember(key: string, inputs: DecisionInputs, decision: Decision): void {
    if (!cacheable(inputs) || inputs.clusterRoleBindings !== this.clusterRoleBindings || inputs.clusterRoles !== this.clusterRoles) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { inputs, decision });
  }
}

/** Whether an entry's namespace lists are the ones served now (an entry decided at cluster level has none). */
export function sameNamespaceLists(entry: Entry, roleBindings: readonly unknown[], roles: readonly unknown[]): boolean {
  return entry.inputs.namespaced?.roleBindings === roleBindings && entry.inputs.namespaced.roles === roles;
}

function cacheable(inputs: DecisionInputs): boolean {
  if (!Object.isFrozen(inputs.clusterRoleBindings) || !Object.isFrozen(inputs.clusterRoles)) return false;
  return !inputs.namespaced || (Object.isFrozen(inputs.namespaced.roleBindings) && Object.isFrozen(inputs.namespaced.roles));
}

/**
 * Everything of a request RBAC reads — the user's name and groups, and what is asked for — as
 * one string, each field prefixed by its length so that no two requests share a key.
 */
export function decisionKey(a: RequestAttributes): string {
  let key = field(a.user.name) + field(a.verb) + String(a.user.groups.length);
  for (const group of a.user.groups) key += field(group);
  if (!a.resourceRequest) return `${key}url${field(a.path)}`;
  return key + field(a.apiGroup) + field(a.resource) + field(a.subresource) + field(a.namespace) + field(a.name);
}

function field(text: string): string {
  return `${text.length}:${text}`;
}
