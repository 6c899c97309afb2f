import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLUSTER_SCOPED_RESOURCES, parseRegistryKey, registryKey, registryPrefix, RESOURCE_PREFIXES } from './registry.ts';

test('a namespaced object lives at /registry/<resource>/<namespace>/<name>', () => {
  assert.equal(registryKey({ resource: 'pods', namespace: 'default', name: 'web-1' }), '/registry/pods/default/web-1');
  assert.equal(registryKey({ resource: 'deployments', namespace: 'prod', name: 'api' }), '/registry/deployments/prod/api');
});

test('a cluster-scoped object lives at /registry/<resource>/<name>', () => {
  assert.equal(registryKey({ resource: 'namespaces', name: 'default' }), '/registry/namespaces/default');
  assert.equal(registryKey({ resource: 'clusterroles', name: 'admin' }), '/registry/clusterroles/admin');
});

test('nodes are stored under minions and services under services/specs, as upstream', () => {
  assert.equal(registryKey({ resource: 'nodes', name: 'node-1' }), '/registry/minions/node-1');
  assert.equal(registryKey({ resource: 'services', namespace: 'default', name: 'kubernetes' }), '/registry/services/specs/default/kubernetes');
});

test('every core resource the project serves has a prefix', () => {
  const wanted = ['pods', 'nodes', 'services', 'deployments', 'replicasets', 'configmaps', 'secrets', 'namespaces', 'serviceaccounts', 'events',
    'endpointslices', 'leases', 'priorityclasses', 'jobs', 'poddisruptionbudgets', 'roles', 'clusterroles', 'rolebindings',
    'clusterrolebindings', 'mutatingwebhookconfigurations', 'validatingwebhookconfigurations'];
  for (const resource of wanted) assert.ok(RESOURCE_PREFIXES[resource], resource);
  assert.ok(CLUSTER_SCOPED_RESOURCES.has('nodes'));
  assert.ok(!CLUSTER_SCOPED_RESOURCES.has('pods'));
});

test('a list prefix ends in a slash so one namespace does not match another that extends its name', () => {
  assert.equal(registryPrefix('pods'), '/registry/pods/');
  assert.equal(registryPrefix('pods', 'a'), '/registry/pods/a/');
  assert.ok(!registryKey({ resource: 'pods', namespace: 'ab', name: 'x' }).startsWith(registryPrefix('pods', 'a')));
  assert.equal(registryPrefix('services', 'default'), '/registry/services/specs/default/');
});

test('a registry key parses back into resource, namespace and name', () => {
  for (const ref of [
    { resource: 'pods', namespace: 'default', name: 'web-1' },
    { resource: 'services', namespace: 'kube-system', name: 'dns' },
    { resource: 'endpoints', namespace: 'kube-system', name: 'dns' },
    { resource: 'nodes', name: 'node-1' },
  ]) {
    assert.deepEqual(parseRegistryKey(registryKey(ref)), ref);
  }
  assert.equal(parseRegistryKey('/elsewhere/pods/a/b'), undefined);
  assert.equal(parseRegistryKey('/registry/pods/only-one-segment'), undefined);
});

test('a name or namespace containing a slash cannot make a key', () => {
  assert.throws(() => registryKey({ resource: 'pods', namespace: 'a/b', name: 'x' }), /invalid namespace/);
  assert.throws(() => registryKey({ resource: 'pods', name: '' }), /invalid name/);
});
