import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCache } from '../testing.ts';
import type { DiscoveredResource, KubeObject } from '../types.ts';
import { keysFor, reconcile } from './index.ts';

const ns = (extra: any = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', resourceVersion: '7', ...extra.metadata }, spec: { finalizers: ['kubernetes'], ...extra.spec }, status: { phase: extra.metadata?.deletionTimestamp ? 'Terminating' : 'Active' } });
const discovery: DiscoveredResource[] = [
  { group: '', version: 'v1', resource: 'pods', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'watch'] },
  { group: 'apps', version: 'v1', resource: 'deployments', verbs: ['delete', 'list'] },
  { group: '', version: 'v1', resource: 'bindings', verbs: ['create'] },
];
const ctx = { now_ms: () => 0, discovery };

test('an active namespace, or one already finalized, needs nothing', () => {
  assert.deepEqual(reconcile('team', memoryCache({ namespaces: [ns()] }), ctx), []);
  assert.deepEqual(reconcile('team', memoryCache({ namespaces: [ns({ metadata: { deletionTimestamp: 'x' }, spec: { finalizers: [] } })] }), ctx), []);
  assert.deepEqual(reconcile('gone', memoryCache({ namespaces: [] }), ctx), []);
});

test('a terminating namespace: delete every listable, deletable resource in it, require it empty, then finalize', () => {
  const actions = reconcile('team', memoryCache({ namespaces: [ns({ metadata: { deletionTimestamp: 'x' }, spec: { finalizers: ['kubernetes', 'example.com/other'] } })] }), ctx);
  assert.deepEqual(actions.map((a) => a.verb), ['deletecollection', 'deletecollection', 'requireEmpty', 'update']);
  assert.deepEqual(actions.flatMap((a) => (a.verb === 'deletecollection' ? [a.resource.resource] : [])), ['pods', 'deployments'], 'bindings cannot be listed or deleted');
  const last = actions.at(-1) as any;
  assert.equal(last.subresource, 'finalize');
  assert.deepEqual(last.object.spec.finalizers, ['example.com/other'], 'only its own finalizer goes');
  assert.equal(last.object.metadata.resourceVersion, '7');
});

test('without discovery it fails rather than finalize a namespace it could not empty', () => {
  assert.throws(() => reconcile('team', memoryCache({ namespaces: [ns({ metadata: { deletionTimestamp: 'x' } })] }), { now_ms: () => 0 }));
});

test('namespace events make the namespace dirty, unless it is gone', () => {
  assert.deepEqual(keysFor({ type: 'MODIFIED', resource: 'namespaces', object: ns() }), ['team']);
  assert.deepEqual(keysFor({ type: 'DELETED', resource: 'namespaces', object: ns() }), []);
});
