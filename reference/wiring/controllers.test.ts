import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRequest } from '../apiserver/types.ts';
import { serviceAccountController } from '../controllers/serviceaccount/index.ts';
import { LocalBackend } from '../store/local.ts';
import { ReferenceCluster } from './cluster.ts';
import { ControllerManager } from './controllers.ts';
import { VirtualClock } from './virtual-clock.ts';

const ADMIN_CERT = { subjectCN: 'test-admin', subjectO: ['system:masters'] };

/** A secure cluster on virtual time, and JSON calls into its core as a system:masters user. */
async function cluster(controllers?: string[]) {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 7, clock, secure: { anonymous: true }, ...(controllers ? { controllers } : {}) });
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
    assert.deepEqual(c.controllers.names, []);
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

test('a create the API refuses is retried after 5 ms, then 10 ms, of virtual time, until it succeeds', async () => {
  const clock = new VirtualClock();
  const backend = new LocalBackend();
  await backend.put('/registry/namespaces/a', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' }, status: { phase: 'Active' } }));
  const answers = [500, 500, 201];
  const calls: number[] = [];
  const api = {
    async handle() {
      calls.push(clock.now_ms());
      const status = answers.shift() ?? 201;
      return { status, headers: {}, answer: { kind: 'reply' as const, status, body: { message: 'try later' } } };
    },
  };
  const log: string[] = [];
  const manager = await ControllerManager.start({ backend, api, clock, controllers: [serviceAccountController()], log: (l) => log.push(l) });
  await manager.settled();
  const t0 = clock.now_ms();
  assert.equal(calls.length, 1);
  clock.advance(4);
  await manager.settled();
  assert.equal(calls.length, 1, 'not retried before 5 ms');
  clock.advance(1);
  await manager.settled();
  assert.equal(calls.length, 2);
  clock.advance(10);
  await manager.settled();
  assert.deepEqual(calls.map((t) => t - t0), [0, 5, 15]);
  assert.match(log[0]!, /serviceaccount-controller: syncing "a" failed, retrying in 5 ms: POST \/api\/v1\/namespaces\/a\/serviceaccounts answered 500: try later/);
  manager.stop();
});

test('a stopped manager no longer reacts to the store', async () => {
  const backend = new LocalBackend();
  const calls: string[] = [];
  const api = { async handle(req: ApiRequest) { calls.push(req.url); return { status: 201, headers: {}, answer: { kind: 'reply' as const, status: 201, body: {} } }; } };
  const manager = await ControllerManager.start({ backend, api, clock: new VirtualClock(), controllers: [serviceAccountController()] });
  manager.stop();
  await backend.put('/registry/namespaces/a', JSON.stringify({ metadata: { name: 'a' }, status: { phase: 'Active' } }));
  await manager.settled();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(calls, []);
});
