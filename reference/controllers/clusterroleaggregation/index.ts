/**
 * The ClusterRole aggregation controller
 * (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go): a ClusterRole
 * with an aggregationRule gets, as its `rules`, the union of the rules of every other ClusterRole
 * its clusterRoleSelectors match — selectors in order, matched roles by name, a rule already
 * taken not taken twice — and is rewritten whenever that union changes. Rules written into it by
 * hand are therefore overwritten.
 *
 * - Handlers: any ClusterRole change makes every aggregated ClusterRole dirty (upstream enqueues
 *   them all: a label or rule change anywhere may change any union).
 * - Sync: reads the other roles' current `rules`, so nested aggregation (view into edit into
 *   admin) converges over several syncs, each write an event that triggers the next.
 * - It writes as system:kube-controller-manager, bound to
 *   system:controller:clusterrole-aggregation-controller, which may `escalate` ClusterRoles.
 */
import { clone, semanticEqual, semanticKey } from '../shared/objects.ts';
import { selectorMatches } from '../shared/selector.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject } from '../types.ts';

export const CLUSTERROLE_AGGREGATION_CONTROLLER = 'clusterrole-aggregation-controller';

export function clusterRoleAggregationController(): ControllerDef {
  return {
    name: CLUSTERROLE_AGGREGATION_CONTROLLER,
    aliases: ['clusterrole-aggregation'],
    capability: 'controllers.clusterrole-aggregation',
    watches: [RESOURCES.clusterroles],
    keysFor,
    reconcile: (key, cache) => reconcile(key, cache),
  };
}

const isAggregated = (role: Readonly<KubeObject>) => (role as any).aggregationRule != null;

export function keysFor(_event: CacheEvent, cache: Cache): string[] {
  return cache.list('clusterroles').filter(isAggregated).map((r) => r.metadata.name);
}

/** The union the role should hold: every other matching role's rules, selectors in order, roles by name. */
export function aggregatedRules(role: Readonly<KubeObject>, all: readonly Readonly<KubeObject>[]): unknown[] {
  const byName = [...all].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const out: unknown[] = [];
  // Upstream's ruleExists compares each rule with every one taken (Semantic.DeepEqual); a set of
  // their semantic texts gives the same answer without the quadratic walk.
  const taken = new Set<string>();
  for (const selector of (role as any).aggregationRule?.clusterRoleSelectors ?? []) {
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!selectorMatches(selector, (other.metadata as any).labels)) continue;
      for (const rule of (other as any).rules ?? []) {
        const key = semanticKey(rule);
        if (taken.has(key)) continue;
        taken.add(key);
        out.push(rule);
      }
    }
  }
  return out;
}

export function reconcile(name: string, cache: Cache): Action[] {
  const role = cache.get('clusterroles', '', name);
  if (!role || !isAggregated(role)) return [];
  const rules = aggregatedRules(role, cache.list('clusterroles'));
  if (semanticEqual(rules, (role as any).rules ?? [])) return [];
  return [{ verb: 'update', resource: RESOURCES.clusterroles, namespace: '', object: { ...clone(role), rules } as KubeObject }];
}
