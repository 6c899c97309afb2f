import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from '../testing/harness.ts';
import { decodeObject, encodeObject, PROTOBUF_MEDIA_TYPE } from './codec.ts';

const RB = '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings';
const binding = (name: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
});

async function raw(h: Awaited<ReturnType<typeof harness>>, method: string, path: string, body: Uint8Array, headers: Record<string, string>) {
  const r = await h.server.handle({ method, url: path, headers, body: Buffer.from(body) });
  if (r.answer.kind !== 'reply') throw new Error('expected a reply');
  return { status: r.status, body: r.answer.body, type: r.answer.headers?.['content-type'] };
}

test('a RoleBinding created with a protobuf body (as kubectl 1.32 sends it) is stored and answered in protobuf', async () => {
  const h = await harness();
  const r = await raw(h, 'POST', RB, encodeObject(binding('rb'))!, { 'content-type': PROTOBUF_MEDIA_TYPE, accept: `${PROTOBUF_MEDIA_TYPE},application/json` });
  assert.equal(r.status, 201);
  assert.equal(r.type, PROTOBUF_MEDIA_TYPE);
  const created = decodeObject(r.body as Uint8Array);
  assert.equal(created.metadata.name, 'rb');
  assert.match(created.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const json = await h.call('GET', `${RB}/rb`);
  assert.deepEqual(json.json.subjects, binding('rb').subjects);
  assert.deepEqual(json.json.roleRef, binding('rb').roleRef);
});

test('an error to a protobuf client is a protobuf Status; a kind with no protobuf form here is JSON when JSON is acceptable, else 406', async () => {
  const h = await harness();
  const missing = await raw(h, 'GET', `${RB}/nope`, new Uint8Array(), { accept: PROTOBUF_MEDIA_TYPE });
  assert.equal(missing.status, 404);
  const status = decodeObject(missing.body as Uint8Array);
  assert.deepEqual([status.kind, status.reason, status.code, status.message], ['Status', 'NotFound', 404, 'rolebindings.rbac.authorization.k8s.io "nope" not found']);
  const endpoints = await raw(h, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices', new Uint8Array(), { accept: `${PROTOBUF_MEDIA_TYPE}, application/json` });
  assert.equal(endpoints.status, 200);
  assert.equal((endpoints.body as any).kind, 'APIServiceList');
  const endpointsOnly = await raw(h, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices', new Uint8Array(), { accept: PROTOBUF_MEDIA_TYPE });
  assert.equal(endpointsOnly.status, 406);
});

test('a malformed protobuf body is 400, not a crash', async () => {
  const h = await harness();
  const r = await raw(h, 'POST', RB, Buffer.from('k8s\u0000\u00ff\u00ff\u00ff'), { 'content-type': PROTOBUF_MEDIA_TYPE });
  assert.equal(r.status, 400);
});

test('a watch asked for in protobuf streams length-prefixed WatchEvent frames', async () => {
  const h = await harness();
  const w = await h.watch(`${RB}?watch=true`, { accept: PROTOBUF_MEDIA_TYPE });
  await h.call('POST', RB, binding('w1'));
  assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.kind} ${e.object.metadata.name}`), ['ADDED RoleBinding w1']);
  w.stop();
});

test('a Pod written as JSON reads back in protobuf, and its watch streams protobuf frames the JSON reader agrees with', async () => {
  const h = await harness();
  const PODS = '/api/v1/namespaces/default/pods';
  const w = await h.watch(`${PODS}?watch=true`, { accept: PROTOBUF_MEDIA_TYPE });
  const created = await h.call('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', readinessProbe: { httpGet: { port: 'http' } } }] } });
  assert.equal(created.status, 201);
  const r = await raw(h, 'GET', `${PODS}/p`, new Uint8Array(), { accept: `${PROTOBUF_MEDIA_TYPE},application/json` });
  assert.equal(r.type, PROTOBUF_MEDIA_TYPE);
  assert.deepEqual(decodeObject(r.body as Uint8Array), created.json);
  assert.deepEqual(w.events.map((e) => [e.type, e.object]), [['ADDED', created.json]]);
  w.stop();
});
