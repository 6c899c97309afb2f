/**
 * ClusterRole aggregation. Upstream the clusterrole-aggregation controller
 * (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go) writes into each
 * ClusterRole with an aggregationRule the union of the rules of every *other* ClusterRole
 * matched by any of its clusterRoleSelectors: selectors in order, matching roles sorted by name,
 * duplicate rules dropped. The controller reads the other roles' current `.rules`, so nested
 * aggregation converges over several syncs; this pure function computes that fixed point at once.
 */
import { labelSelectorMatches } from './labels.ts';
import type { ClusterRole, PolicyRule } from './types.ts';

export function aggregateClusterRoles(all: readonly ClusterRole[]): Map<string, PolicyRule[]> {
  const aggregated = all.filter((r) => r.aggregationRule !== undefined);
  let current = new Map<string, PolicyRule[]>(all.map((r) => [r.metadata.name, r.rules ?? []]));
  // Each round can only lengthen a chain of nested aggregation by one; N+1 rounds always suffice.
  for (let round = 0; round <= aggregated.length; round++) {
    const next = new Map(current);
    let changed = false;
    for (const role of aggregated) {
      const rules = aggregateOne(role, all, current);
      if (!sameRules(rules, current.get(role.metadata.name) ?? [])) changed = true;
      next.set(role.metadata.name, rules);
    }
    current = next;
    if (!changed) break;
  }
  return new Map(aggregated.map((r) => [r.metadata.name, current.get(r.metadata.name) ?? []]));
}

function aggregateOne(role: ClusterRole, all: readonly ClusterRole[], rulesByName: Map<string, PolicyRule[]>): PolicyRule[] {
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  const byName = [...all].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!labelSelectorMatches(selector, other.metadata.labels)) continue;
      for (const rule of rulesByName.get(other.metadata.name) ?? []) {
        const key = ruleKey(rule);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(rule);
      }
    }
  }
  return out;
}

/** A canonical text of a rule, so that equal rules compare equal whatever their key order. */
function ruleKey(rule: PolicyRule): string {
  return JSON.stringify([rule.verbs, rule.apiGroups ?? null, rule.resources ?? null, rule.resourceNames ?? null, rule.nonResourceURLs ?? null]);
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((rule, i) => ruleKey(rule) === ruleKey(b[i]!));
}
