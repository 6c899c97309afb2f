import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markPodsNotReady } from './index.ts';

const pod = (name: string, ready?: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: 'n1' },
  status: { phase: 'Running', conditions: ready ? [{ type: 'Ready', status: ready, lastTransitionTime: '2026-01-01T00:00:00Z' }] : [] },
});

test('pods whose Ready condition is not False get Ready=False with a new transition time, their phase untouched', () => {
  const actions = markPodsNotReady([pod('a', 'True'), pod('b', 'False'), pod('c')], Date.UTC(2026, 0, 1, 0, 2));
  assert.equal(actions.length, 1);
  const [action] = actions as any[];
  assert.equal(action.verb, 'update');
  assert.equal(action.subresource, 'status');
  assert.equal(action.object.metadata.name, 'a');
  assert.equal(action.object.status.phase, 'Running');
  assert.deepEqual(action.object.status.conditions, [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:02:00Z' }]);
});

// ---- zones: NoExecute tainting by zone state (zones.ts wired in) ---------------------------------

import { memoryCache } from '../testing.ts';
import { newZones, reconcile } from './index.ts';
import { newLimiter, swapLimiter, tryAccept } from './zones.ts';

const T0 = Date.UTC(2026, 0, 1);
const node = (name: string, ready: string, zone = '', taints: any[] = []) => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} }, spec: { taints },
  status: { conditions: [{ type: 'Ready', status: ready, lastHeartbeatTime: '2026-01-01T00:00:00Z' }] },
});
const lease = (name: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { renewTime: '2026-01-01T00:00:00.000000Z' } });

/** Reconcile each node once at `now_ms`; the NoExecute taint keys each update asks for, by node. */
function pass(nodes: any[], now_ms: number, zones = newZones()) {
  const cache = memoryCache({ nodes, leases: nodes.map((n) => lease(n.metadata.name)) });
  const health = new Map();
  const out: Record<string, { noExecute?: string[]; retry_ms?: number }> = {};
  for (const n of nodes) {
    const r = reconcile(n.metadata.name, cache, now_ms, health, 50_000, zones);
    const update = r.actions.find((a: any) => a.resource.resource === 'nodes' && !a.subresource) as any;
    out[n.metadata.name] = { ...(update ? { noExecute: update.object.spec.taints.filter((t: any) => t.effect === 'NoExecute').map((t: any) => t.key) } : {}), ...(r.requeueAfter_ms !== undefined && r.requeueAfter_ms <= 10_000 ? { retry_ms: r.requeueAfter_ms } : {}) };
  }
  return out;
}

test('a one-node cluster whose node is Unknown is in master disruption mode: the NoSchedule taint, no NoExecute taint', () => {
  const cache = memoryCache({ nodes: [node('n1', 'Unknown')], leases: [lease('n1')] });
  const r = reconcile('n1', cache, T0, new Map(), 50_000, newZones()) as any;
  assert.deepEqual(r.actions[0].object.spec.taints, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
});

test('one node down beside a Ready one is tainted NoExecute at once (its zone is Normal, the token is there)', () => {
  assert.deepEqual(pass([node('n1', 'Unknown'), node('n2', 'True')], T0).n1?.noExecute, ['node.kubernetes.io/unreachable']);
  assert.deepEqual(pass([node('n1', 'False'), node('n2', 'True')], T0).n1?.noExecute, ['node.kubernetes.io/not-ready']);
});

test('entering master disruption mode takes the not-ready/unreachable NoExecute taints off every node', () => {
  const tainted = (name: string) => node(name, 'Unknown', '', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
  const out = pass([tainted('n1'), tainted('n2')], T0);
  assert.deepEqual([out.n1?.noExecute, out.n2?.noExecute], [[], []]);
});

test('a wholly-down zone beside a healthy one is tainted at --node-eviction-rate: one node now, the next 10 s later', () => {
  const zones = newZones();
  const nodes = [node('a1', 'Unknown', 'a'), node('a2', 'Unknown', 'a'), node('a3', 'Unknown', 'a'), node('b1', 'True', 'b')];
  const first = pass(nodes, T0, zones);
  assert.deepEqual(first.a1?.noExecute, ['node.kubernetes.io/unreachable']);
  assert.deepEqual([first.a2, first.a3], [{ noExecute: [], retry_ms: 10_000 }, { noExecute: [], retry_ms: 10_000 }], 'the NoSchedule taint at once, the NoExecute one when a token comes');
  const later = pass([node('a1', 'Unknown', 'a', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }]), ...nodes.slice(1)], T0 + 10_000, zones);
  assert.deepEqual(later.a2?.noExecute, ['node.kubernetes.io/unreachable']);
  assert.deepEqual(later.a3, { noExecute: [], retry_ms: 10_000 });
});

test('a small zone in PartialDisruption (3 of 5 down, at most 50 nodes) taints nothing NoExecute and waits for no token', () => {
  const nodes = [node('a1', 'Unknown', 'a'), node('a2', 'Unknown', 'a'), node('a3', 'Unknown', 'a'), node('a4', 'True', 'a'), node('a5', 'True', 'a')];
  const out = pass(nodes, T0);
  for (const n of ['a1', 'a2', 'a3']) assert.deepEqual(out[n], { noExecute: [] }, n);
});

test('--unhealthy-zone-threshold and --large-cluster-size-threshold are the controller\'s options', () => {
  const nodes = [node('a1', 'Unknown', 'a'), node('a2', 'Unknown', 'a'), node('a3', 'Unknown', 'a'), node('a4', 'True', 'a'), node('a5', 'True', 'a')];
  assert.deepEqual(pass(nodes, T0, newZones({ unhealthyZoneThreshold: 0.65 })).a1?.noExecute, ['node.kubernetes.io/unreachable'], '60 % < 65 %: Normal');
  assert.deepEqual(pass(nodes, T0, newZones({ largeClusterSizeThreshold: 4, secondaryEvictionRate: 0.01 })).a1?.noExecute, ['node.kubernetes.io/unreachable'], 'a zone above the threshold keeps the secondary rate; its token is there');
});

test('limiter: burst 1 at the rate; a new rate keeps a drained bucket drained; rate 0 never accepts', () => {
  const l = newLimiter(0.1, 0);
  assert.equal(tryAccept(l, 0), true);
  assert.equal(tryAccept(l, 9_999), false);
  assert.equal(tryAccept(l, 10_000), true);
  const slower = swapLimiter(l, 0.01, 10_001);
  assert.equal(tryAccept(slower, 10_001 + 99_999), false, 'drained: the first token after 1/0.01 s');
  assert.equal(tryAccept(slower, 10_001 + 100_000), true);
  const never = swapLimiter(slower, 0, 0);
  assert.equal(tryAccept(never, 1e12), false);
  assert.equal(tryAccept(swapLimiter(never, 0.1, 5), 5), false, 'from the never limiter (no token) the new bucket starts drained');
});
