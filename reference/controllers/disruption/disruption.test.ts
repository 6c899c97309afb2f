import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCache } from '../testing.ts';
import type { KubeObject } from '../types.ts';
import { reconcile } from './index.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

const pdb = (spec: any, status: any = {}): KubeObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'ns', uid: 'pdb', generation: 2 }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec }, status });
const rsRef = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'rs-uid', controller: true };

function pod(name: string, ready: boolean, extra: any = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { app: 'web' }, ownerReferences: [rsRef], ...extra }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } };
}

const rs: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-rs', namespace: 'ns', uid: 'rs-uid' }, spec: { replicas: 4 } };
const statusOf = (r: any) => r.actions[0]?.object.status;

test('minAvailable 2 over 3 ready pods: one disruption allowed, DisruptionAllowed=True/SufficientPods, the generation observed', () => {
  const s = statusOf(reconcile('ns/web', memoryCache({ poddisruptionbudgets: [pdb({ minAvailable: 2 })], pods: [pod('a', true), pod('b', true), pod('c', true)] }), T0));
  assert.deepEqual([s.currentHealthy, s.desiredHealthy, s.expectedPods, s.disruptionsAllowed, s.observedGeneration], [3, 2, 3, 1, 2]);
  assert.deepEqual([s.conditions[0].type, s.conditions[0].status, s.conditions[0].reason], ['DisruptionAllowed', 'True', 'SufficientPods']);
});

test('not-ready and terminating pods are not healthy; with none to spare the condition is False/InsufficientPods', () => {
  const s = statusOf(reconcile('ns/web', memoryCache({ poddisruptionbudgets: [pdb({ minAvailable: 2 })], pods: [pod('a', true), pod('b', false), pod('c', true, { deletionTimestamp: '2026-01-01T00:00:00Z' })] }), T0));
  assert.deepEqual([s.currentHealthy, s.disruptionsAllowed, s.conditions[0].status, s.conditions[0].reason], [1, 0, 'False', 'InsufficientPods']);
});

test('maxUnavailable 25% and percentage minAvailable resolve against the controller\'s scale, rounding up', () => {
  const pods = [pod('a', true), pod('b', true), pod('c', true), pod('d', true)];
  const max = statusOf(reconcile('ns/web', memoryCache({ poddisruptionbudgets: [pdb({ maxUnavailable: '25%' })], pods, replicasets: [rs] }), T0));
  assert.deepEqual([max.expectedPods, max.desiredHealthy, max.disruptionsAllowed], [4, 3, 1]);
  const min = statusOf(reconcile('ns/web', memoryCache({ poddisruptionbudgets: [pdb({ minAvailable: '60%' })], pods, replicasets: [rs] }), T0));
  assert.deepEqual([min.expectedPods, min.desiredHealthy, min.disruptionsAllowed], [4, 3, 1]);
});

test('a pod an eviction just spent a disruption on is not counted healthy until it is seen deleted, for two minutes at most', () => {
  const evicted = pdb({ minAvailable: 2 }, { disruptedPods: { a: '2026-01-01T00:00:00Z' } });
  const cache = memoryCache({ poddisruptionbudgets: [evicted], pods: [pod('a', true), pod('b', true), pod('c', true)] });
  const soon = reconcile('ns/web', cache, T0 + 1000);
  assert.deepEqual([statusOf(soon).currentHealthy, statusOf(soon).disruptionsAllowed], [2, 0]);
  assert.equal(soon.requeueAfter_ms, 119_000);
  const late = statusOf(reconcile('ns/web', cache, T0 + 120_000));
  assert.deepEqual([late.currentHealthy, late.disruptionsAllowed, late.disruptedPods], [3, 1, undefined]);
});
