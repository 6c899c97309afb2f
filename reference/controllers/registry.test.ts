import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectControllers } from './registry.ts';

const selected = (flag?: string[]) => selectControllers(flag).map((c) => c.name);

test('by default, as with --controllers=*, every known controller runs', () => {
  assert.deepEqual(selected(), ['serviceaccount-controller', 'replicaset-controller', 'deployment-controller', 'garbage-collector-controller', 'node-lifecycle-controller', 'taint-eviction-controller', 'job-controller', 'ttl-after-finished-controller', 'disruption-controller', 'endpointslice-controller', 'endpoints-controller', 'namespace-controller', 'clusterrole-aggregation-controller', 'pod-garbage-collector-controller']);
  assert.deepEqual(selected(['*']), selected());
});

test('"-name" after "*" disables that controller, by its name or its old alias', () => {
  assert.ok(!selected(['*', '-serviceaccount']).includes('serviceaccount-controller'));
  assert.equal(selected(['*', '-serviceaccount']).length, selected().length - 1);
  assert.ok(!selected(['*', '-serviceaccount-controller']).includes('serviceaccount-controller'));
});

test('the first entry naming a controller wins', () => {
  assert.deepEqual(selected(['serviceaccount', '-serviceaccount']), ['serviceaccount-controller']);
  assert.ok(!selected(['-serviceaccount', '*']).includes('serviceaccount-controller'));
});

test('a list without "*" runs only the controllers it names, and an empty list runs none', () => {
  assert.deepEqual(selected(['serviceaccount-controller']), ['serviceaccount-controller']);
  assert.deepEqual(selected([]), []);
});

test('a name no controller has is refused', () => {
  assert.throws(() => selectControllers(['*', '-nosuch']), /"nosuch" is not in the list of known controllers/);
});
