import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryCache } from '../testing.ts';
import type { Action, KubeObject } from '../types.ts';
import { GC_CHECK_PERIOD_MS, gcPass, podGcController, QUARANTINE_MS } from './index.ts';

const T0 = Date.UTC(2026, 0, 1);
let n = 0;
function pod(name: string, o: { phase?: string; node?: string; created_s?: number; reason?: string; deleting?: boolean } = {}): KubeObject {
  return {
    metadata: { name, namespace: 'ns', uid: `uid-${name}-${n++}`, creationTimestamp: new Date(T0 + (o.created_s ?? 0) * 1000).toISOString(), ...(o.deleting ? { deletionTimestamp: new Date(T0).toISOString() } : {}) },
    spec: { ...(o.node ? { nodeName: o.node } : {}) },
    status: { phase: o.phase ?? 'Running', ...(o.reason ? { reason: o.reason } : {}) },
  };
}
function node(name: string, o: { ready?: boolean; outOfService?: boolean } = {}): KubeObject {
  return {
    metadata: { name, uid: `node-${name}` },
    spec: { taints: o.outOfService ? [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] : [] },
    status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}
const deleted = (actions: Action[]) => actions.filter((a) => a.verb === 'delete').map((a) => (a as any).name);

test('terminated pods beyond the threshold are force-deleted, evicted first, then the oldest; pods within it are kept', () => {
  const pods = [pod('old', { phase: 'Succeeded', node: 'n1', created_s: 1 }), pod('evicted', { phase: 'Failed', reason: 'Evicted', node: 'n1', created_s: 9 }), pod('new', { phase: 'Failed', node: 'n1', created_s: 5 }), pod('running', { node: 'n1', created_s: 0 })];
  const cache = memoryCache({ pods, nodes: [node('n1')] });
  const { actions, requeueAfter_ms } = gcPass(cache, T0, 1, new Map());
  assert.deepEqual(deleted(actions), ['evicted', 'old']);
  assert.ok(actions.every((a) => a.verb === 'delete' && a.gracePeriodSeconds === 0 && a.uid), 'terminal pods need no status patch; the delete is forced, with a uid precondition');
  assert.equal(requeueAfter_ms, GC_CHECK_PERIOD_MS);
  assert.deepEqual(deleted(gcPass(cache, T0, 3, new Map()).actions), [], 'three terminated pods are within a threshold of 3');
  assert.deepEqual(deleted(gcPass(cache, T0, 0, new Map()).actions), [], 'a threshold of 0 turns the terminated pass off');
});

test('equal creation times are ordered by name', () => {
  const cache = memoryCache({ pods: [pod('b', { phase: 'Succeeded' }), pod('a', { phase: 'Succeeded' })], nodes: [] });
  assert.deepEqual(deleted(gcPass(cache, T0, 1, new Map()).actions), ['a']);
});

test('a pod on a node missing from the cache is deleted only after 40 s of quarantine, marked Failed with DeletionByPodGC, guarded by a live GET of the node', () => {
  const cache = memoryCache({ pods: [pod('orphan', { node: 'gone' }), pod('kept', { node: 'n1' })], nodes: [node('n1')] });
  const quarantine = new Map<string, number>();
  assert.deepEqual(gcPass(cache, T0, 12_500, quarantine).actions, []);
  assert.deepEqual(gcPass(cache, T0 + QUARANTINE_MS - 1, 12_500, quarantine).actions, [], 'still in quarantine');
  const { actions } = gcPass(cache, T0 + QUARANTINE_MS, 12_500, quarantine);
  assert.deepEqual(actions.map((a) => `${a.verb} ${(a as any).name}`), ['patch orphan', 'delete orphan']);
  const patch = actions[0] as any;
  assert.equal(patch.subresource, 'status');
  assert.deepEqual(patch.patch.status.phase, 'Failed');
  assert.deepEqual(patch.patch.status.conditions[0], { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
  for (const a of actions) assert.deepEqual((a as any).unlessExists, [{ resource: { group: '', version: 'v1', resource: 'nodes' }, namespace: '', name: 'gone' }]);
});

test('a node that shows up during quarantine saves its pods', () => {
  const pods = [pod('p', { node: 'late' })];
  const quarantine = new Map<string, number>();
  gcPass(memoryCache({ pods, nodes: [] }), T0, 12_500, quarantine);
  assert.deepEqual(gcPass(memoryCache({ pods, nodes: [node('late')] }), T0 + QUARANTINE_MS, 12_500, quarantine).actions, []);
  assert.equal(quarantine.size, 0);
});

test('terminating pods are force-deleted when unscheduled, or on a not-Ready node with the out-of-service taint; not on a merely not-Ready node', () => {
  const pods = [pod('unscheduled', { phase: 'Pending', deleting: true }), pod('oos', { node: 'down-oos', deleting: true }), pod('down', { node: 'down', deleting: true }), pod('alive', { node: 'n1', deleting: true })];
  const cache = memoryCache({ pods, nodes: [node('down-oos', { ready: false, outOfService: true }), node('down', { ready: false }), node('n1', { outOfService: true })] });
  const { actions } = gcPass(cache, T0, 12_500, new Map());
  assert.deepEqual(deleted(actions).sort(), ['oos', 'unscheduled']);
  assert.deepEqual(actions.filter((a) => a.verb === 'patch').map((a) => (a as any).name).sort(), ['oos', 'unscheduled'], 'not yet terminal: marked Failed first');
});

test('a pod matched by two passes is deleted once', () => {
  const cache = memoryCache({ pods: [pod('x', { phase: 'Failed', deleting: true })], nodes: [] });
  assert.deepEqual(deleted(gcPass(cache, T0, 0, new Map()).actions), ['x']);
  assert.deepEqual(deleted(gcPass(cache, T0, 0, new Map()).actions), ['x']);
  const both = gcPass(memoryCache({ pods: [pod('y', { phase: 'Failed', deleting: true }), pod('z', { phase: 'Failed' })], nodes: [] }), T0, 1, new Map());
  assert.deepEqual(deleted(both.actions).filter((x) => x === 'y').length, 1);
});

test('the pass is periodic: only the first cache event queues it, and it is --controllers "podgc"', () => {
  const def = podGcController();
  assert.deepEqual([def.name, def.aliases], ['pod-garbage-collector-controller', ['podgc']]);
  const event = { type: 'ADDED' as const, resource: 'pods', object: pod('a') };
  assert.deepEqual(def.keysFor(event, memoryCache({})), ['gc']);
  assert.deepEqual(def.keysFor(event, memoryCache({})), []);
});
