/**
 * RBAC's privilege-escalation prevention, the pure part: does a set of rules a user holds cover
 * the rules she is trying to grant, and what does upstream say when it does not.
 *
 * Upstream (docs: "Privilege escalation prevention and bootstrapping" in
 * kubernetes.io/docs/reference/access-authn-authz/rbac/): a user may create or update a Role or
 * ClusterRole only if she already holds every permission in it (or may `escalate` it), and a
 * RoleBinding or ClusterRoleBinding only if she holds every permission of the referenced role
 * in the binding's scope (or may `bind` it).
 * - Covers: staging/src/k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go —
 *   each granted rule is broken into one-verb, one-resource, one-name tuples
 *   (BreakdownRule), and every tuple must be covered by one owner rule (ruleCovers). A `*`
 *   being granted must itself be held as `*`; `x/sub` is covered by `x/sub`, `*` or `* /sub`.
 * - The message: pkg/registry/rbac/validation/rule.go ConfirmNoEscalation, with the missing
 *   tuples merged per group/resource (policy_compact.go CompactRules) and printed by
 *   pkg/apis/rbac/v1/evaluation_helpers.go CompactString, sorted (sets.String.List).
 */
import type { UserInfo } from '../pipeline.ts';
import type { PolicyRule } from './types.ts';

/** A rule of `*` on everything: what an aggregationRule needs (clusterrole/policybased/storage.go fullAuthority). */
export const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** The granted rules no owner rule covers (empty: covered). */
export function uncoveredRules(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): PolicyRule[] {
  return servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((owner) => ruleCovers(owner, sub)));
}

/** One rule as tuples of at most one verb, one group, one resource and one resource name. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  // Non-resource URLs combine only with verbs.
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const have = new Set(set ?? []);
  return (wanted ?? []).every((w) => have.has(w));
}

function resourceCoversAll(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes('*') || hasAll(owned, wanted)) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf('/');
    // A whole resource is never covered by a `*/sub` rule; a subresource is, by `*/<sub>`.
    return slash >= 0 && owned.includes(`*/${path.slice(slash + 1)}`);
  });
}

function nonResourceURLCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

/** policy_comparator.go ruleCovers: owner may hold many of each; sub holds at most one. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = (owner.verbs ?? []).includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)));
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && urls && names;
}

/** CompactRules: tuples that differ only by verb (one group, one resource, nothing else) merge into one rule. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const simple = new Map<string, PolicyRule>();
  const out: PolicyRule[] = [];
  for (const rule of rules) {
    const isSimple =
      !rule.resourceNames?.length && !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0]]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...rule.verbs];
    else simple.set(key, { apiGroups: [...rule.apiGroups!], resources: [...rule.resources!], verbs: [...rule.verbs] });
  }
  return [...out, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoted(items: readonly string[]): string {
  return `[${items.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoted(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoted(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoted(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoted(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuoted(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * ConfirmNoEscalation: undefined when `held` covers `granted`, else upstream's reason text
 * (the server wraps it in a Forbidden Status for the object being written).
 */
export function escalationReason(
  user: UserInfo,
  held: readonly PolicyRule[],
  granted: readonly PolicyRule[],
  /** The resolver's aggregated error, when some binding's role could not be read. */
  resolutionError = '',
): string | undefined {
  const missing = uncoveredRules(held, granted);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // Go prints the []error holding the one aggregate with %v: `[<aggregate>]`.
  if (resolutionError) msg += `; resolution errors: [${resolutionError}]`;
  return msg;
}
