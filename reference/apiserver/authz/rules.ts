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
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return (
    apiGroupMatches(rule, attrs.apiGroup) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    resourceNameMatches(rule, attrs.name)
  );
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => {
    if (r === '*' || r === combined) return true;
    // `*/status` grants the status subresource of every resource, never the resource itself.
    return subresource !== '' && r === `*/${subresource}`;
  });
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => {
    if (u === '*' || u === path) return true;
    return u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''));
  });
}
