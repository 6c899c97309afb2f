import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cache, KubeObject } from '../types.ts';
import { memoryCache } from '../testing.ts';
import { keysFor, reconcile, serviceAccountController } from './index.ts';

/** A cache holding exactly the given objects, keyed as resource/namespace/name. */
function cacheOf(objects: Record<string, KubeObject[]>): Cache {
  return memoryCache(objects);
}

const ns = (name: string, phase = 'Active'): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } });
const sa = (namespace: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });

test('an active namespace without "default" gets a create of ServiceAccount "default" in it', () => {
  const actions = reconcile('team-a', cacheOf({ namespaces: [ns('team-a')] }));
  assert.deepEqual(actions, [{
    verb: 'create',
    resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
    namespace: 'team-a',
    object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'team-a' } },
  }]);
});

test('a namespace that already has "default" needs nothing', () => {
  assert.deepEqual(reconcile('team-a', cacheOf({ namespaces: [ns('team-a')], serviceaccounts: [sa('team-a', 'default')] })), []);
});

test('a "default" in another namespace does not count', () => {
  assert.equal(reconcile('team-a', cacheOf({ namespaces: [ns('team-a')], serviceaccounts: [sa('team-b', 'default')] })).length, 1);
});

test('a namespace that is gone or terminating needs nothing', () => {
  assert.deepEqual(reconcile('gone', cacheOf({ namespaces: [] })), []);
  assert.deepEqual(reconcile('team-a', cacheOf({ namespaces: [ns('team-a', 'Terminating')] })), []);
});

test('every ServiceAccount the controller is told to ensure is created when missing', () => {
  const actions = reconcile('team-a', cacheOf({ namespaces: [ns('team-a')], serviceaccounts: [sa('team-a', 'builder')] }), ['default', 'builder', 'deployer']);
  assert.deepEqual(actions.map((a) => a.object.metadata.name), ['default', 'deployer']);
});

test('reconcile does not change the objects in the cache', () => {
  const objects = { namespaces: [ns('team-a')] };
  const before = JSON.stringify(objects);
  reconcile('team-a', cacheOf(objects));
  assert.equal(JSON.stringify(objects), before);
});

test('a namespace added or updated makes its own name dirty; a namespace deleted makes nothing dirty', () => {
  assert.deepEqual(keysFor({ type: 'ADDED', resource: 'namespaces', object: ns('a') }), ['a']);
  assert.deepEqual(keysFor({ type: 'MODIFIED', resource: 'namespaces', object: ns('a'), oldObject: ns('a') }), ['a']);
  assert.deepEqual(keysFor({ type: 'DELETED', resource: 'namespaces', object: ns('a') }), []);
});

test('a ServiceAccount deleted makes its namespace dirty; one added or updated makes nothing dirty', () => {
  assert.deepEqual(keysFor({ type: 'DELETED', resource: 'serviceaccounts', object: sa('a', 'default') }), ['a']);
  assert.deepEqual(keysFor({ type: 'ADDED', resource: 'serviceaccounts', object: sa('a', 'default') }), []);
  assert.deepEqual(keysFor({ type: 'MODIFIED', resource: 'serviceaccounts', object: sa('a', 'default') }), []);
});

test('the controller is named serviceaccount-controller, answers to "serviceaccount", and watches namespaces and ServiceAccounts', () => {
  const def = serviceAccountController();
  assert.equal(def.name, 'serviceaccount-controller');
  assert.deepEqual(def.aliases, ['serviceaccount']);
  assert.deepEqual(def.watches.map((r) => r.resource), ['namespaces', 'serviceaccounts']);
});
