/**
 * Does one PolicyRule allow a request? Upstream: RuleAllows in
 * plugin/pkg/auth/authorizer/rbac/rbac.go with the helpers of
 * pkg/apis/rbac/v1/evaluation_helpers.go.
 * - Resource requests match verb, API group, resource (as `resource/subresource`, or `*`, or
 *   `* /subresource`), and resourceNames when the rule lists any.
 * - Non-resource requests match verb and nonResourceURLs (exact, `*`, or a `prefix*`).
 */
import type { RequestAttributes } from '../pipeline.ts';
import type { PolicyRule } from './types.ts';

export function ruleAllows(attrs: RequestAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.resourceRequest) return nonResourceURLMatches(rule, attrs.path);
  return apiGroupMatches(rule, attrs.apiGroup) && resourceMatches(rule, attrs.resource, attrs.subresource) && resourceNameMatches(rule, attrs.name);
}

// Indexed loops rather than `some` with a closure or for…of (an iterator result per element until
// optimised): RBAC walks these for every binding of every request.

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return anyIs(rule.verbs, verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return anyIs(rule.apiGroups ?? NONE, group);
}

/** Whether the list holds `*` or the value. */
function anyIs(list: readonly string[], value: string): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === '*' || list[i] === value) return true;
  return false;
}

/** `resource/subresource` (or `resource` alone) as a rule names it, `*`, or `* /subresource`. */
export function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const resources = rule.resources ?? NONE;
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i]!;
    if (r === '*') return true;
    if (subresource === '') {
      if (r === resource) return true;
      continue;
    }
    // `*/status` grants the status subresource of every resource, never the resource itself.
    const slash = r.indexOf('/');
    if (slash < 0 || r.slice(slash + 1) !== subresource) continue;
    const head = r.slice(0, slash);
    if (head === '*' || head === resource) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? NONE;
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? NONE) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

const NONE: readonly string[] = [];
