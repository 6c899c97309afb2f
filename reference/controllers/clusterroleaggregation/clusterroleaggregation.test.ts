import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCache } from '../testing.ts';
import type { KubeObject } from '../types.ts';
import { keysFor, reconcile } from './index.ts';

const rule = (verb: string, resource: string) => ({ verbs: [verb], apiGroups: [''], resources: [resource] });
const role = (name: string, o: { labels?: Record<string, string>; rules?: unknown[]; selects?: Record<string, string>[] } = {}): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, resourceVersion: '3', ...(o.labels ? { labels: o.labels } : {}) },
  ...(o.rules ? { rules: o.rules } : {}),
  ...(o.selects ? { aggregationRule: { clusterRoleSelectors: o.selects.map((matchLabels) => ({ matchLabels })) } } : {}),
});

test('an aggregated role gets the union of the matching roles, by name, each rule once', () => {
  const cache = memoryCache({ clusterroles: [
    role('mon', { selects: [{ agg: 'mon' }] }),
    role('b-reader', { labels: { agg: 'mon' }, rules: [rule('get', 'pods'), rule('list', 'endpoints')] }),
    role('a-reader', { labels: { agg: 'mon' }, rules: [rule('list', 'endpoints')] }),
    role('other', { rules: [rule('delete', 'pods')] }),
  ] });
  const [action] = reconcile('mon', cache) as any[];
  assert.equal(action.verb, 'update');
  assert.deepEqual(action.object.rules, [rule('list', 'endpoints'), rule('get', 'pods')]);
  assert.equal(action.object.metadata.resourceVersion, '3');
});

test('a rule is the same rule whatever the order of its keys (Semantic.DeepEqual): taken once', () => {
  const reordered = { resources: ['endpoints'], apiGroups: [''], verbs: ['list'] };
  const cache = memoryCache({ clusterroles: [
    role('mon', { selects: [{ agg: 'mon' }] }),
    role('a-reader', { labels: { agg: 'mon' }, rules: [rule('list', 'endpoints')] }),
    role('b-reader', { labels: { agg: 'mon' }, rules: [reordered, { ...rule('list', 'endpoints'), resourceNames: undefined }] }),
  ] });
  const [action] = reconcile('mon', cache) as any[];
  assert.deepEqual(action.object.rules, [rule('list', 'endpoints')]);
});

test('rules written by hand are replaced; a role already holding the union is left alone', () => {
  const reader = role('reader', { labels: { agg: 'mon' }, rules: [rule('list', 'endpoints')] });
  const [action] = reconcile('mon', memoryCache({ clusterroles: [role('mon', { selects: [{ agg: 'mon' }], rules: [rule('delete', 'pods')] }), reader] })) as any[];
  assert.deepEqual(action.object.rules, [rule('list', 'endpoints')]);
  assert.deepEqual(reconcile('mon', memoryCache({ clusterroles: [role('mon', { selects: [{ agg: 'mon' }], rules: [rule('list', 'endpoints')] }), reader] })), []);
});

test('a role does not aggregate itself, and a role without an aggregationRule is not touched', () => {
  assert.deepEqual(reconcile('plain', memoryCache({ clusterroles: [role('plain', { labels: { agg: 'mon' }, rules: [rule('get', 'pods')] })] })), []);
  assert.deepEqual(reconcile('mon', memoryCache({ clusterroles: [role('mon', { labels: { agg: 'mon' }, selects: [{ agg: 'mon' }] })] })), []);
});

test('any ClusterRole event makes every aggregated role dirty', () => {
  const cache = memoryCache({ clusterroles: [role('admin', { selects: [{ a: 'x' }] }), role('view', { selects: [{ v: 'x' }] }), role('plain')] });
  assert.deepEqual(keysFor({ type: 'ADDED', resource: 'clusterroles', object: role('new') }, cache).sort(), ['admin', 'view']);
});
