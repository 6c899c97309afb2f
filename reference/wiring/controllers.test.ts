import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRequest } from '../apiserver/types.ts';
import type { WatchStreamHandlers } from '../controllers/informer.ts';
import { serviceAccountController } from '../controllers/serviceaccount/index.ts';
import { RESOURCES, type ControllerDef, type KubeObject } from '../controllers/types.ts';
import { collectionPath } from './api-client.ts';
import { ReferenceCluster } from './cluster.ts';
import { ControllerManager, type ControllerClient } from './controllers.ts';
import { VirtualClock } from './virtual-clock.ts';

const ADMIN_CERT = { subjectCN: 'test-admin', subjectO: ['system:masters'] };

/** A secure cluster on virtual time, and JSON calls into its core as a system:masters user. */
async function cluster(controllers?: string[], more: { leaderElect?: boolean } = {}) {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 7, clock, secure: { anonymous: true }, ...(controllers ? { controllers } : {}), ...more });
  const call = async (method: string, url: string, body?: unknown, clientCert: ApiRequest['clientCert'] = ADMIN_CERT) => {
    const req: ApiRequest = { method, url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)) };
    if (clientCert) req.clientCert = clientCert;
    const { status, answer } = await c.api.handle(req);
    return { status, json: answer.kind === 'reply' ? (answer.body as any) : undefined };
  };
  return { clock, cluster: c, call };
}

const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

test('a started cluster already has ServiceAccount "default" in each of its system namespaces', async () => {
  const { cluster: c, call } = await cluster();
  try {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      assert.equal((await call('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status, 200, ns);
    }
  } finally {
    await c.stop();
  }
});

test('a new namespace gets "default" within the turn it was created, written by system:kube-controller-manager through the API', async () => {
  const { clock, cluster: c, call } = await cluster();
  try {
    const start_ms = clock.now_ms();
    assert.equal((await call('POST', '/api/v1/namespaces', namespace('team-a'))).status, 201);
    await c.controllers.settled();
    const sa = await call('GET', '/api/v1/namespaces/team-a/serviceaccounts/default');
    assert.equal(sa.status, 200);
    assert.equal(clock.now_ms(), start_ms, 'no virtual time had to pass');
    const create = c.api.traces.find((t) => t.method === 'POST' && t.path === '/api/v1/namespaces/team-a/serviceaccounts');
    assert.equal(create?.user, 'system:kube-controller-manager');
    assert.equal(create?.code, 201);
  } finally {
    await c.stop();
  }
});

test('a deleted "default" comes back with a new uid, and one deleted twice comes back twice', async () => {
  const { cluster: c, call } = await cluster();
  try {
    const path = '/api/v1/namespaces/default/serviceaccounts/default';
    const uids = [(await call('GET', path)).json.metadata.uid];
    for (let i = 0; i < 2; i++) {
      assert.equal((await call('DELETE', path)).status, 200);
      await c.controllers.settled();
      uids.push((await call('GET', path)).json.metadata.uid);
    }
    assert.equal(new Set(uids).size, 3, `uids: ${uids.join(', ')}`);
  } finally {
    await c.stop();
  }
});

test('with the controller disabled (--controllers=*,-serviceaccount) a new namespace gets no ServiceAccount', async () => {
  const { cluster: c, call } = await cluster(['*', '-serviceaccount']);
  try {
    assert.ok(!c.controllers.names.includes('serviceaccount-controller'));
    assert.equal((await call('POST', '/api/v1/namespaces', namespace('team-b'))).status, 201);
    await c.controllers.settled();
    assert.equal((await call('GET', '/api/v1/namespaces/team-b/serviceaccounts/default')).status, 404);
  } finally {
    await c.stop();
  }
});

test('an unknown controller name stops the cluster from starting', async () => {
  await assert.rejects(ReferenceCluster.start({ seed: 1, clock: new VirtualClock(), controllers: ['*', '-nosuch'] }), /"nosuch" is not in the list of known controllers/);
});

/**
 * A scripted API for the manager alone: namespace "a" exists, nothing else; creates are answered
 * from `answers`, and the watches it opens can be fed by hand.
 */
function fakeClient(answers: number[]) {
  const clock = new VirtualClock();
  const creates: { path: string; at_ms: number }[] = [];
  const watches = new Map<string, WatchStreamHandlers>();
  const objects: Record<string, KubeObject[]> = { namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', resourceVersion: '2' }, status: { phase: 'Active' } }], serviceaccounts: [] };
  const client: ControllerClient = {
    listWatcher: (ref) => ({
      list: async () => ({ items: objects[ref.resource] ?? [], resourceVersion: '5' }),
      watch: (_options, handlers) => {
        watches.set(ref.resource, handlers);
        return () => watches.delete(ref.resource);
      },
    }),
    async send() {
      return { status: 200 };
    },
    async create(ref, namespace) {
      creates.push({ path: collectionPath(ref, namespace), at_ms: clock.now_ms() });
      const status = answers.shift() ?? 201;
      return { status, message: 'try later' };
    },
  };
  return { clock, client, creates, watches };
}

test('a create the API refuses is retried after 5 ms, then 10 ms, of virtual time, until it succeeds', async () => {
  const { clock, client, creates } = fakeClient([500, 500, 201]);
  const log: string[] = [];
  const manager = await ControllerManager.start({ client, clock, random: () => 0, controllers: [serviceAccountController()], log: (l) => log.push(l) });
  await manager.settled();
  const t0 = clock.now_ms();
  assert.equal(creates.length, 1);
  clock.advance(4);
  await manager.settled();
  assert.equal(creates.length, 1, 'not retried before 5 ms');
  clock.advance(1);
  await manager.settled();
  assert.equal(creates.length, 2);
  clock.advance(10);
  await manager.settled();
  assert.deepEqual(creates.map((c) => c.at_ms - t0), [0, 5, 15]);
  assert.match(log[0]!, /serviceaccount-controller: syncing "a" failed, retrying in 5 ms: POST \/api\/v1\/namespaces\/a\/serviceaccounts answered 500: try later/);
  manager.stop();
});

test('AlreadyExists answers a create of a named object, but fails a generateName create: no object was made', async () => {
  for (const [metadata, failures, creates] of [[{ name: 'fixed' }, 0, 1], [{ generateName: 'made-' }, 1, 2]] as const) {
    const { clock, client, creates: sent } = fakeClient([409, 201]);
    const failed: unknown[] = [];
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...metadata } as KubeObject['metadata'] };
    // Each sync asks for the one create: a sync that succeeds is not run again, a failed one is retried after 5 ms.
    const maker: ControllerDef = {
      name: 'maker',
      watches: [RESOURCES.namespaces],
      keysFor: (event) => [String(event.object.metadata.name)],
      reconcile: () => [{ verb: 'create', resource: RESOURCES.configmaps, namespace: 'a', object, key: 'a' }],
      onActionFailed: (action) => failed.push(action),
    };
    const manager = await ControllerManager.start({ client, clock, random: () => 0, controllers: [maker] });
    await manager.settled();
    clock.advance(5);
    await manager.settled();
    assert.equal(failed.length, failures, JSON.stringify(metadata));
    assert.equal(sent.length, creates, `${JSON.stringify(metadata)}: creates sent`);
    manager.stop();
  }
});

test('a stopped manager closes its watches and no longer reacts to what they carried', async () => {
  const { clock, client, creates, watches } = fakeClient([]);
  const manager = await ControllerManager.start({ client, clock, random: () => 0, controllers: [serviceAccountController([])] });
  const namespaces = watches.get('namespaces');
  assert.ok(namespaces);
  manager.stop();
  assert.equal(watches.size, 0);
  namespaces.onEvent({ type: 'ADDED', object: { metadata: { name: 'b', resourceVersion: '6' }, status: { phase: 'Active' } } });
  await manager.settled();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(creates, []);
});

test('settled() waits until each cache has seen the store\'s latest change to its resource', async () => {
  const { clock, client, watches } = fakeClient([]);
  let changed = 5;
  const manager = await ControllerManager.start({ client, clock, random: () => 0, controllers: [serviceAccountController()], changedAt: () => changed });
  await manager.settled();
  changed = 9;
  let settled = false;
  const waiting = manager.settled().then(() => (settled = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(settled, false, 'the namespaces cache is at 5, the store at 9');
  watches.get('namespaces')!.onEvent({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } });
  watches.get('serviceaccounts')!.onEvent({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } });
  await waiting;
  manager.stop();
});

test('the controller manager lists and watches through the API server, as system:kube-controller-manager with its token', async () => {
  const { cluster: c } = await cluster();
  try {
    const mine = c.api.traces.filter((t) => t.user === 'system:kube-controller-manager');
    const reads = mine.filter((t) => t.method === 'GET').map((t) => t.path);
    assert.deepEqual(reads.filter((p) => p === '/api/v1/namespaces').length, 2, 'a list and a watch of namespaces');
    assert.deepEqual(reads.filter((p) => p === '/api/v1/serviceaccounts').length, 2, 'a list and a watch of ServiceAccounts');
    for (const t of mine) {
      assert.match(t.stages[0]!.detail ?? '', /^token-file: system:kube-controller-manager$/, `${t.method} ${t.path}`);
      assert.equal(t.stages[1]?.stage, 'authorization');
      assert.equal(t.stages[1]?.outcome, 'passed');
    }
    for (const [resource, counts] of Object.entries(c.controllers.requestCounts())) assert.deepEqual(counts, { lists: 1, watches: 1 }, resource);
  } finally {
    await c.stop();
  }
});

test('every ServiceAccount in the store was written by a create the API server answered, none by the controller manager itself', async () => {
  const { cluster: c, call } = await cluster();
  try {
    assert.equal((await call('POST', '/api/v1/namespaces', namespace('team-c'))).status, 201);
    await c.controllers.settled();
    const { kvs } = await c.backend.range('/registry/serviceaccounts/');
    assert.equal(kvs.length, 5);
    const stored = c.api.traces.filter((t) => t.method === 'POST' && t.code === 201).map((t) => t.stages.at(-1)?.detail);
    for (const kv of kvs) assert.ok(stored.includes(`created at revision ${kv.modRevision}`), `${kv.key} at revision ${kv.modRevision}: no create in the trace`);
  } finally {
    await c.stop();
  }
});

test('a quiet cluster costs the controller manager no list in 30 minutes of virtual time; it only watches again when the server ends a watch', async () => {
  // 10 s jumps with three I/O turns each: too coarse for the leader's 2 s renewals (a lost
  // Lease restarts the process, and the new one lists again); this test is about the informers.
  const { clock, cluster: c, call } = await cluster(undefined, { leaderElect: false });
  try {
    for (let step = 0; step < 180; step++) {
      clock.advance(10_000);
      for (let turn = 0; turn < 3; turn++) await new Promise((r) => setImmediate(r));
    }
    const counts = c.controllers.requestCounts();
    assert.deepEqual([counts.namespaces?.lists, counts.serviceaccounts?.lists], [1, 1]);
    // Timeouts are drawn from [5, 10) minutes: 30 minutes hold 3 to 6 watches of each.
    for (const r of ['namespaces', 'serviceaccounts'] as const) assert.ok(counts[r]!.watches >= 4 && counts[r]!.watches <= 7, `${r}: ${counts[r]!.watches} watches`);
    // And the caches are still live: a new namespace still gets its ServiceAccount.
    assert.equal((await call('POST', '/api/v1/namespaces', namespace('late'))).status, 201);
    await c.controllers.settled();
    assert.equal((await call('GET', '/api/v1/namespaces/late/serviceaccounts/default')).status, 200);
  } finally {
    await c.stop();
  }
});

test('without security the controller manager sends no credentials and acts as the bare API server\'s admin', async () => {
  const c = await ReferenceCluster.start({ seed: 9, clock: new VirtualClock() });
  try {
    const created = c.api.traces.filter((t) => t.method === 'POST' && t.path.endsWith('/serviceaccounts'));
    assert.equal(created.length, 4);
    assert.ok(created.every((t) => t.user === 'system:admin' && t.code === 201));
  } finally {
    await c.stop();
  }
});
