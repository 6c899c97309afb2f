import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Expectations } from '../expectations.ts';
import { memoryCache } from '../testing.ts';
import type { KubeObject } from '../types.ts';
import { keysFor, reconcile } from './index.ts';
import { podsToDelete } from './ranking.ts';

const rs = (replicas: number, extra: any = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  metadata: { name: 'rs', namespace: 'ns', uid: 'rs-uid', generation: 1, ...extra.metadata },
  spec: { replicas, selector: { matchLabels: { app: 'rs' } }, template: { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
});

const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true, blockOwnerDeletion: true };

function pod(name: string, opts: { node?: string; phase?: string; ready?: boolean; created?: string; restarts?: number; owned?: boolean; labels?: Record<string, string> } = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: opts.labels ?? { app: 'rs' }, creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z', ...(opts.owned === false ? {} : { ownerReferences: [owner] }) },
    spec: opts.node ? { nodeName: opts.node } : {},
    status: { phase: opts.phase ?? 'Pending', conditions: [{ type: 'Ready', status: opts.ready ? 'True' : 'False' }], containerStatuses: [{ restartCount: opts.restarts ?? 0 }] },
  };
}

test('a ReplicaSet with fewer pods than replicas creates the difference, each owned by it with controller true', () => {
  const result = reconcile('ns/rs', memoryCache({ replicasets: [rs(3)], pods: [pod('a')] }), 0, new Expectations());
  const creates = result.actions.filter((a) => a.verb === 'create');
  assert.equal(creates.length, 2);
  for (const c of creates) assert.deepEqual((c as any).object.metadata.ownerReferences, [owner]);
});

test('while its creates are unobserved it creates nothing more, and once they are seen it is satisfied', () => {
  const e = new Expectations();
  const cache = memoryCache({ replicasets: [rs(2)], pods: [] });
  assert.equal(reconcile('ns/rs', cache, 0, e).actions.filter((a) => a.verb === 'create').length, 2);
  assert.equal(reconcile('ns/rs', cache, 1, e).actions.filter((a) => a.verb === 'create').length, 0, 'created twice while the first creates were in flight');
  for (const name of ['a', 'b']) {
    cache.put('pods', pod(name));
    keysFor({ type: 'ADDED', resource: 'pods', object: pod(name) }, cache, e);
  }
  assert.ok(e.satisfied('ns/rs', 2));
});

test('deletion order: unscheduled, then pending, then not ready, then ready; among ready the newest goes first', () => {
  const pods = [
    pod('ready-old', { node: 'n1', phase: 'Running', ready: true, created: '2026-01-01T00:00:00Z' }),
    pod('ready-new', { node: 'n2', phase: 'Running', ready: true, created: '2026-01-01T01:00:00Z' }),
    pod('not-ready', { node: 'n3', phase: 'Running', ready: false }),
    pod('pending', { node: 'n4', phase: 'Pending' }),
    pod('unscheduled', {}),
  ];
  assert.deepEqual(podsToDelete(pods, 5).map((p) => p.metadata.name), ['unscheduled', 'pending', 'not-ready', 'ready-new', 'ready-old']);
});

test('among equally ready pods the one restarted more often goes first', () => {
  const pods = [pod('calm', { node: 'n1', phase: 'Running', ready: true }), pod('flappy', { node: 'n2', phase: 'Running', ready: true, restarts: 4 })];
  assert.deepEqual(podsToDelete(pods, 1).map((p) => p.metadata.name), ['flappy']);
});

test('a matching orphan is adopted by a patch carrying its uid, and a pod that stopped matching is released', () => {
  const orphan = pod('stray', { owned: false });
  const relabelled = pod('debug', { labels: { app: 'debug' } });
  const actions = reconcile('ns/rs', memoryCache({ replicasets: [rs(1)], pods: [orphan, relabelled] }), 0, new Expectations()).actions;
  const patches = actions.filter((a) => a.verb === 'patch') as any[];
  // In no particular order: upstream's come in the pod lister's (unordered) order.
  assert.deepEqual(patches.map((p) => [p.name, p.patch]).sort(), [
    ['debug', { metadata: { ownerReferences: [], uid: 'uid-debug' } }],
    ['stray', { metadata: { ownerReferences: [owner], uid: 'uid-stray' } }],
  ]);
  assert.equal(actions.filter((a) => a.verb === 'create').length, 0, 'the adopted orphan counts');
});

test('status counts active pods and is written only when it changed', () => {
  const cache = memoryCache({ replicasets: [rs(1)], pods: [pod('a', { node: 'n', phase: 'Running', ready: true })] });
  const [update] = reconcile('ns/rs', cache, 0, new Expectations()).actions as any[];
  assert.deepEqual(update.object.status, { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 });
  cache.put('replicasets', update.object);
  assert.deepEqual(reconcile('ns/rs', cache, 0, new Expectations()).actions, []);
});

test('a pod another controller controls is not adopted, and one in another namespace is not counted, whatever their labels', () => {
  const other = { ...pod('taken'), metadata: { ...pod('taken').metadata, ownerReferences: [{ ...owner, uid: 'uid-other', name: 'other' }] } };
  const elsewhere = { ...pod('elsewhere'), metadata: { ...pod('elsewhere').metadata, namespace: 'ns2' } };
  const actions = reconcile('ns/rs', memoryCache({ replicasets: [rs(1)], pods: [other, elsewhere] }), 0, new Expectations()).actions as any[];
  assert.equal(actions.filter((a) => a.verb === 'patch').length, 0);
  assert.equal(actions.filter((a) => a.verb === 'create').length, 1, 'neither counts towards the one replica');
});
