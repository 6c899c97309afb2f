import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateClusterRoles } from './aggregation.ts';
import { labelSelectorMatches } from './labels.ts';
import type { ClusterRole } from './types.ts';

const r = (name: string, labels: Record<string, string>, verbs: string[], resources: string[]): ClusterRole => ({
  metadata: { name, labels },
  rules: [{ apiGroups: [''], resources, verbs }],
});

test('an aggregated ClusterRole gets the union of the rules of the roles its selectors match, by name order', () => {
  const all: ClusterRole[] = [
    r('z-pods', { agg: 'view' }, ['get'], ['pods']),
    r('a-services', { agg: 'view' }, ['get'], ['services']),
    r('unrelated', { agg: 'edit' }, ['delete'], ['pods']),
    { metadata: { name: 'view' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'view' } }] }, rules: [] },
  ];
  const out = aggregateClusterRoles(all);
  assert.deepEqual([...out.keys()], ['view']);
  assert.deepEqual(out.get('view')!.map((x) => x.resources![0]), ['services', 'pods']);
});

test('a rule present in two selected roles appears once', () => {
  const all: ClusterRole[] = [
    r('one', { agg: 'x' }, ['get'], ['pods']),
    r('two', { agg: 'x' }, ['get'], ['pods']),
    { metadata: { name: 'x' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'x' } }] } },
  ];
  assert.equal(aggregateClusterRoles(all).get('x')!.length, 1);
});

test('an aggregated role does not aggregate itself even when its own labels match', () => {
  const all: ClusterRole[] = [
    { metadata: { name: 'self', labels: { agg: 'x' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'x' } }] }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] },
  ];
  assert.deepEqual(aggregateClusterRoles(all).get('self'), []);
});

test('nested aggregation converges: admin includes edit, which includes view', () => {
  const all: ClusterRole[] = [
    r('view-pods', { 'to-view': 'true' }, ['get'], ['pods']),
    { metadata: { name: 'view', labels: { 'to-edit': 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'to-view': 'true' } }] } },
    { metadata: { name: 'edit', labels: { 'to-admin': 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'to-edit': 'true' } }] } },
    { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'to-admin': 'true' } }] } },
  ];
  const out = aggregateClusterRoles(all);
  for (const name of ['view', 'edit', 'admin']) assert.deepEqual(out.get(name)!.map((x) => x.resources![0]), ['pods'], name);
});

test('label selectors support matchExpressions In, NotIn, Exists and DoesNotExist', () => {
  const labels = { tier: 'web', env: 'prod' };
  const cases: Array<[Parameters<typeof labelSelectorMatches>[0], boolean]> = [
    [{}, true],
    [{ matchLabels: { tier: 'web' } }, true],
    [{ matchLabels: { tier: 'db' } }, false],
    [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'stage'] }] }, true],
    [{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, false],
    [{ matchExpressions: [{ key: 'missing', operator: 'NotIn', values: ['x'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, false],
  ];
  for (const [selector, expected] of cases) assert.equal(labelSelectorMatches(selector, labels), expected, JSON.stringify(selector));
});
