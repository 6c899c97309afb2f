/**
 * The kinds the kubelet and the controllers exchange, spoken in protobuf end to end, as
 * client-go's typed clients do (Content-Type and Accept application/vnd.kubernetes.protobuf):
 * created from a protobuf body, read back in protobuf and in JSON alike; the subresources and the
 * DELETE body they send; a protobuf watch of Leases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, harnessWithTokens } from '../testing/harness.ts';
import { decodeObject, encodeObject, PROTOBUF_MEDIA_TYPE } from './codec.ts';
import * as F from './cluster-fixtures.ts';

type H = Awaited<ReturnType<typeof harness>>;
const PB = { 'content-type': PROTOBUF_MEDIA_TYPE, accept: PROTOBUF_MEDIA_TYPE };

async function raw(h: H, method: string, path: string, body: Uint8Array | undefined, headers: Record<string, string>) {
  const r = await h.server.handle({ method, url: path, headers, body: Buffer.from(body ?? new Uint8Array()) });
  if (r.answer.kind !== 'reply') throw new Error('expected a reply');
  const type = r.answer.headers?.['content-type'];
  const decoded = type === PROTOBUF_MEDIA_TYPE ? decodeObject(r.answer.body as Uint8Array) : r.answer.body;
  return { status: r.status, type, obj: decoded as any };
}

/** What a client writes: no server-set metadata. */
function toCreate<T extends { metadata: object }>(obj: T): T {
  const { uid: _u, creationTimestamp: _c, resourceVersion: _r, ...metadata } = obj.metadata as Record<string, unknown>;
  return { ...obj, metadata };
}

const CASES: [kind: string, collection: string, obj: any][] = [
  ['Node', '/api/v1/nodes', F.node],
  ['Lease', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', F.lease],
  ['Event', '/api/v1/namespaces/default/events', F.event],
  ['EndpointSlice', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', F.endpointSlice],
  ['Endpoints', '/api/v1/namespaces/default/endpoints', F.endpoints],
  ['PodDisruptionBudget', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', F.podDisruptionBudget],
  ['PriorityClass', '/apis/scheduling.k8s.io/v1/priorityclasses', F.priorityClass],
];

for (const [kind, collection, fixture] of CASES) {
  test(`a ${kind} created with a protobuf body reads back the same in protobuf and in JSON`, async () => {
    const h = await harness();
    if (fixture.metadata.namespace === 'kube-node-lease') await h.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
    const created = await raw(h, 'POST', collection, encodeObject(toCreate(fixture)), PB);
    assert.equal(created.status, 201, JSON.stringify(created.obj));
    assert.equal(created.type, PROTOBUF_MEDIA_TYPE);
    const path = `${collection}/${fixture.metadata.name}`;
    const asProtobuf = await raw(h, 'GET', path, undefined, { accept: PROTOBUF_MEDIA_TYPE });
    const asJson = await h.call('GET', path);
    assert.equal(asProtobuf.type, PROTOBUF_MEDIA_TYPE);
    assert.deepEqual(asProtobuf.obj, asJson.json);
    assert.deepEqual(asProtobuf.obj, created.obj);
    // What the client sent came through: every field it set, beside what the server added.
    const { metadata: sentMeta, ...sent } = toCreate(fixture);
    const { metadata: gotMeta, ...got } = asJson.json;
    // status is the server's on create (reset, or kept as the Node's is); the status test below writes it.
    for (const key of Object.keys(sent)) if (key !== 'status') assert.deepEqual(got[key], (sent as any)[key], `${kind}.${key}`);
    for (const [key, value] of Object.entries(sentMeta)) assert.deepEqual(gotMeta[key], value, `${kind}.metadata.${key}`);
    const list = await raw(h, 'GET', collection, undefined, { accept: PROTOBUF_MEDIA_TYPE });
    assert.equal(list.obj.kind, `${kind}List`);
    const { apiVersion: _a, kind: _k, ...item } = asJson.json;
    assert.deepEqual(list.obj.items.find((i: any) => i.metadata.name === fixture.metadata.name), item, 'a list\'s items carry no apiVersion/kind on the wire');
  });
}

test('a Node\'s status written in protobuf (PUT nodes/x/status) is what JSON reads', async () => {
  const h = await harness();
  const created = await raw(h, 'POST', '/api/v1/nodes', encodeObject(toCreate({ ...F.node, status: undefined })), PB);
  assert.equal(created.status, 201);
  const updated = await raw(h, 'PUT', '/api/v1/nodes/node-1/status', encodeObject({ ...created.obj, status: F.node.status }), PB);
  assert.equal(updated.status, 200, JSON.stringify(updated.obj));
  assert.deepEqual((await h.call('GET', '/api/v1/nodes/node-1')).json.status, F.node.status);
});

test('the scheduler\'s Binding, the kubelet\'s TokenRequest and a Scale, in protobuf', async () => {
  const h = await harnessWithTokens();
  await h.call('POST', '/api/v1/nodes', toCreate(F.node));
  const pod = await h.call('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } });
  assert.equal(pod.status, 201);
  const bound = await raw(h, 'POST', '/api/v1/namespaces/default/pods/web-1/binding', encodeObject({ ...F.binding, metadata: { name: 'web-1', namespace: 'default' } }), PB);
  assert.equal(bound.status, 201, JSON.stringify(bound.obj));
  assert.deepEqual([bound.obj.kind, bound.obj.status], ['Status', 'Success']);
  assert.equal((await h.call('GET', '/api/v1/namespaces/default/pods/web-1')).json.spec.nodeName, 'node-1');

  const sa = await h.call('POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
  assert.equal(sa.status, 201);
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3600 } };
  const token = await raw(h, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', encodeObject(request), PB);
  assert.equal(token.status, 201, JSON.stringify(token.obj));
  assert.equal(token.type, PROTOBUF_MEDIA_TYPE);
  assert.equal(token.obj.kind, 'TokenRequest');
  assert.match(token.obj.status.token, /^ey/);
  assert.match(token.obj.status.expirationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } };
  assert.equal((await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', deploy)).status, 201);
  const SCALE = '/apis/apps/v1/namespaces/default/deployments/web/scale';
  const scale = await raw(h, 'GET', SCALE, undefined, { accept: PROTOBUF_MEDIA_TYPE });
  assert.deepEqual([scale.type, scale.obj.kind, scale.obj.spec.replicas], [PROTOBUF_MEDIA_TYPE, 'Scale', 1]);
  const scaled = await raw(h, 'PUT', SCALE, encodeObject({ ...scale.obj, spec: { replicas: 4 } }), PB);
  assert.equal(scaled.status, 200, JSON.stringify(scaled.obj));
  assert.equal((await h.call('GET', '/apis/apps/v1/namespaces/default/deployments/web')).json.spec.replicas, 4);
});

test('an Eviction and a DELETE with a protobuf DeleteOptions body (named in the resource\'s group version, as client-go sends it)', async () => {
  const h = await harness();
  const POD = '/api/v1/namespaces/default/pods/web-1';
  await h.call('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1' }, spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] } });
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1', namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 7 } };
  const evicted = await raw(h, 'POST', `${POD}/eviction`, encodeObject(eviction), PB);
  assert.deepEqual([evicted.status, evicted.obj.kind, evicted.obj.status], [201, 'Status', 'Success']);
  assert.equal((await h.call('GET', POD)).json.metadata.deletionGracePeriodSeconds, 7, 'the grace period inside the protobuf Eviction was read');

  await h.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
  const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
  const lease = (await raw(h, 'POST', LEASES, encodeObject(toCreate(F.lease)), PB)).obj;
  const stale = await raw(h, 'DELETE', `${LEASES}/node-1`, encodeObject({ ...F.deleteOptions, preconditions: { uid: 'not-it' } }), PB);
  assert.equal(stale.status, 409, 'the precondition inside the protobuf DeleteOptions was read');
  const gone = await raw(h, 'DELETE', `${LEASES}/node-1`, encodeObject({ ...F.deleteOptions, preconditions: { uid: lease.metadata.uid } }), PB);
  assert.equal(gone.status, 200, JSON.stringify(gone.obj));
  // propagationPolicy Foreground, read from the body: the Lease waits for the garbage collector.
  const deleting = (await h.call('GET', `${LEASES}/node-1`)).json;
  assert.deepEqual(deleting.metadata.finalizers, ['foregroundDeletion']);
  assert.ok(deleting.metadata.deletionTimestamp);
});

test('a protobuf watch of Leases streams frames the JSON reader agrees with', async () => {
  const h = await harness();
  await h.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
  const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
  const w = await h.watch(`${LEASES}?watch=true`, { accept: PROTOBUF_MEDIA_TYPE });
  const created = await h.call('POST', LEASES, toCreate(F.lease));
  const renewed = await h.call('PUT', `${LEASES}/node-1`, { ...created.json, spec: { ...created.json.spec, renewTime: '2024-01-01T00:00:25.000001Z' } });
  assert.equal(renewed.status, 200);
  assert.deepEqual(w.events.map((e) => [e.type, e.object]), [['ADDED', created.json], ['MODIFIED', renewed.json]]);
  w.stop();
});

test('a protobuf client of a kind with no protobuf form here still gets JSON when it takes JSON, else 406; an unknown protobuf kind is 400', async () => {
  const h = await harness();
  const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
  const both = await raw(h, 'GET', APISERVICES, undefined, { accept: `${PROTOBUF_MEDIA_TYPE}, application/json` });
  assert.deepEqual([both.status, both.obj.kind], [200, 'APIServiceList']);
  const only = await raw(h, 'GET', APISERVICES, undefined, { accept: PROTOBUF_MEDIA_TYPE });
  assert.deepEqual([only.status, only.type, only.obj.kind, only.obj.reason], [406, PROTOBUF_MEDIA_TYPE, 'Status', 'NotAcceptable']);
  const unknownKind = Buffer.from(encodeObject(F.lease)!);
  // Rewrite the envelope's kind "Lease" to "Lense": a kind no scheme here registers.
  unknownKind.set(Buffer.from('Lense'), unknownKind.indexOf('Lease'));
  const bad = await raw(h, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', unknownKind, PB);
  assert.deepEqual([bad.status, bad.obj.kind], [400, 'Status']);
  const yamlOnly = await raw(h, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', Buffer.from('x'), { 'content-type': 'application/cbor', accept: PROTOBUF_MEDIA_TYPE });
  assert.deepEqual([yamlOnly.status, yamlOnly.obj.kind, yamlOnly.obj.reason], [415, 'Status', 'UnsupportedMediaType']);
});

test('the kubelet\'s Node (nodeInfo with empty strings) and Lease are stored as protobuf and read back as written; an empty endpoints list stays JSON', async () => {
  const h = await harness();
  const nodeInfo = { ...F.node.status.nodeInfo, kernelVersion: '', kubeProxyVersion: '' };
  const node = { ...toCreate(F.node), status: { ...F.node.status, nodeInfo } };
  assert.equal((await h.call('POST', '/api/v1/nodes', node)).status, 201);
  // The harness' backend is the reference store itself: get answers the KeyValue.
  const stored = (await h.backend.get('/registry/minions/node-1')) ?? assert.fail('no node stored');
  assert.equal(stored.value.slice(0, 4), 'k8s\u0000', 'stored as the protobuf envelope');
  assert.deepEqual((await h.call('GET', '/api/v1/nodes/node-1')).json.status.nodeInfo, nodeInfo);
  await h.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
  assert.equal((await h.call('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', toCreate(F.lease))).status, 201);
  assert.equal((await h.backend.get('/registry/leases/kube-node-lease/node-1'))?.value.slice(0, 4), 'k8s\u0000');
  const slice = { ...toCreate(F.endpointSlice), endpoints: [] };
  assert.equal((await h.call('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', slice)).status, 201);
  assert.deepEqual((await h.call('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/web-x7k2p')).json.endpoints, []);
});
