import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initializedNode, loadBalancerName, loadBalancerNodes, routeChanges, UNINITIALIZED_TAINT, wantedRoutes } from './decisions.ts';

test('initialising a node removes only the uninitialized taint and sets providerID and topology labels', () => {
  const node = { metadata: { name: 'n1', labels: { a: 'b' } }, spec: { taints: [{ key: UNINITIALIZED_TAINT, effect: 'NoSchedule' }, { key: 'other', effect: 'NoSchedule' }] } };
  const next = initializedNode(node, { providerID: 'kubespec-cloud://z/i-1', instanceType: 't', addresses: [], zone: 'z', region: 'r' });
  assert.deepEqual(next.spec.taints, [{ key: 'other', effect: 'NoSchedule' }]);
  assert.equal(next.spec.providerID, 'kubespec-cloud://z/i-1');
  assert.equal(next.metadata.labels['topology.kubernetes.io/zone'], 'z');
  assert.equal(next.metadata.labels.a, 'b');
  assert.equal(node.spec.taints.length, 2, 'the input is not mutated');
});

test('a load balancer is named "a" + the Service UID without dashes, at most 32 characters', () => {
  assert.equal(loadBalancerName({ metadata: { uid: '12345678-90ab-cdef-1234-567890abcdef' } }), 'a1234567890abcdef1234567890abcde');
});

test('routes: one per node podCIDR; a route to a gone node is removed, an existing one kept', () => {
  const wanted = wantedRoutes('k', [{ metadata: { name: 'n1', uid: 'u1' }, spec: { podCIDR: '10.0.1.0/24' } }, { metadata: { name: 'n2', uid: 'u2' }, spec: {} }]);
  assert.deepEqual(wanted, [{ name: 'k-u1', destinationCIDR: '10.0.1.0/24', targetNode: 'n1' }]);
  const existing = [{ name: 'k-u1', destinationCIDR: '10.0.1.0/24', targetNode: 'n1' }, { name: 'k-u9', destinationCIDR: '10.0.9.0/24', targetNode: 'n9' }];
  assert.deepEqual(routeChanges(existing, wanted), { create: [], remove: [existing[1]] });
});

test('load balancer nodes: Ready, initialised and not excluded by label', () => {
  const node = (name: string, ready: string, extra: any = {}) => ({ metadata: { name, labels: extra.labels ?? {} }, spec: extra.spec ?? {}, status: { conditions: [{ type: 'Ready', status: ready }] } });
  assert.deepEqual(loadBalancerNodes([
    node('b', 'True'), node('a', 'True'), node('c', 'False'),
    node('d', 'True', { labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } }),
    node('e', 'True', { spec: { taints: [{ key: UNINITIALIZED_TAINT }] } }),
  ]), ['a', 'b']);
});
