import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAuthorizer, nodeIdentity, unionAuthorizer } from './node.ts';
import { nodeRestriction } from '../admission/noderestriction/index.ts';
import type { AdmissionAttributes, RequestAttributes, UserInfo } from '../pipeline.ts';

const n1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const attrs = (over: Partial<RequestAttributes>): RequestAttributes => ({ user: n1, verb: 'get', resourceRequest: true, apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '', ...over });

test('a user is a node only with the system:node: prefix and the system:nodes group', () => {
  assert.equal(nodeIdentity(n1), 'n1');
  assert.equal(nodeIdentity({ name: 'system:node:n1', groups: [] }), undefined);
  assert.equal(nodeIdentity({ name: 'alice', groups: ['system:nodes'] }), undefined);
});

test('the Node authorizer allows a kubelet its rules and its own lease, and has no opinion on anyone else', async () => {
  const a = nodeAuthorizer();
  assert.equal((await a.authorize(attrs({ verb: 'watch', namespace: '' }))).allowed, true);
  assert.equal((await a.authorize(attrs({ verb: 'patch', subresource: 'status', name: 'web' }))).allowed, true);
  assert.equal((await a.authorize(attrs({ verb: 'delete', resource: 'secrets' }))).allowed, false);
  const lease = (name: string, verb = 'update', namespace = 'kube-node-lease') => attrs({ apiGroup: 'coordination.k8s.io', resource: 'leases', verb, name, namespace });
  assert.equal((await a.authorize(lease('n1'))).allowed, true);
  assert.deepEqual(await a.authorize(lease('n2')), { allowed: false, reason: 'can only access node lease with the same name as the requesting node' });
  assert.deepEqual(await a.authorize(lease('n1', 'update', 'default')), { allowed: false, reason: 'can only access leases in the "kube-node-lease" system namespace' });
  assert.deepEqual(await a.authorize(attrs({ user: { name: 'alice', groups: [] } })), { allowed: false, reason: '' });
});

test('the union asks the next authorizer when the first has no opinion', async () => {
  const yes = { authorize: async () => ({ allowed: true as const, reason: 'rbac' }) };
  assert.deepEqual(await unionAuthorizer(nodeAuthorizer(), yes).authorize(attrs({ user: { name: 'alice', groups: [] } })), { allowed: true, reason: 'rbac' });
});

const admission = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
  operation: 'UPDATE', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
  subresource: 'status', namespace: 'default', name: 'web', user: n1, object: {}, dryRun: false, ...over,
});

test('NodeRestriction lets a kubelet update the status of its own pods only, with upstream\'s message', async () => {
  const plugin = nodeRestriction();
  await plugin.admit(admission({ oldObject: { spec: { nodeName: 'n1' } } }));
  await assert.rejects(plugin.admit(admission({ oldObject: { spec: { nodeName: 'n2' } } })), /pods "web" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself/);
  await assert.rejects(plugin.admit(admission({ subresource: '', operation: 'CREATE', object: { metadata: { name: 'web' }, spec: { nodeName: 'n1' } } })), /can only create mirror pods/);
});

test('NodeRestriction keeps a kubelet to its own Node and Lease', async () => {
  const plugin = nodeRestriction();
  const node = (name: string) => admission({ resource: { group: '', version: 'v1', resource: 'nodes' }, subresource: 'status', namespace: '', name, object: { metadata: { name } } });
  await plugin.admit(node('n1'));
  await assert.rejects(plugin.admit(node('n2')), /node "n1" is not allowed to modify node "n2"/);
  await assert.rejects(plugin.admit(admission({ resource: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' }, subresource: '', operation: 'CREATE', namespace: 'kube-node-lease', name: '', object: { metadata: { name: 'n2' } } })), /same name as the requesting node/);
});
