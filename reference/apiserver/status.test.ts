import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, pod } from './testing/harness.ts';
import type { Authenticator, Authorizer } from './pipeline.ts';

const PODS = '/api/v1/namespaces/default/pods';

function isStatus(json: any, code: number, reason: string): void {
  assert.equal(json.kind, 'Status');
  assert.equal(json.apiVersion, 'v1');
  assert.equal(json.status, 'Failure');
  assert.equal(json.code, code);
  assert.equal(json.reason, reason);
}

test('malformed JSON is 400 BadRequest and nothing is written', async () => {
  const h = await harness();
  const before = h.backend.currentRevision();
  const r = await h.call('POST', PODS, '{"apiVersion": "v1", kind', { 'content-type': 'application/json' });
  assert.equal(r.status, 400);
  isStatus(r.json, 400, 'BadRequest');
  assert.equal(h.backend.currentRevision(), before);
});

test('a missing object is 404 with upstream\'s `pods "x" not found`', async () => {
  const h = await harness();
  const r = await h.call('GET', `${PODS}/x`);
  isStatus(r.json, 404, 'NotFound');
  assert.equal(r.json.message, 'pods "x" not found');
  assert.deepEqual(r.json.details, { name: 'x', kind: 'pods' });
  const d = await h.call('GET', '/apis/apps/v1/namespaces/default/deployments/x');
  assert.equal(d.json.message, 'deployments.apps "x" not found');
});

test('creating an existing object is 409 AlreadyExists', async () => {
  const h = await harness();
  await h.call('POST', PODS, pod('a'));
  const r = await h.call('POST', PODS, pod('a'));
  isStatus(r.json, 409, 'AlreadyExists');
  assert.equal(r.json.message, 'pods "a" already exists');
});

test('an unsupported verb on a resource is 405 MethodNotAllowed', async () => {
  const h = await harness();
  const r = await h.call('PUT', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x', {});
  isStatus(r.json, 405, 'MethodNotAllowed');
  const named = await h.call('POST', `${PODS}/x`, pod('x'));
  assert.equal(named.status, 405);
});

test('a body over the limit is 413 RequestEntityTooLarge', async () => {
  const h = await harness({ maxBodyBytes: 100 });
  const r = await h.call('POST', PODS, { ...pod('a'), metadata: { name: 'a', annotations: { big: 'x'.repeat(200) } } });
  isStatus(r.json, 413, 'RequestEntityTooLarge');
  assert.equal(r.json.message, 'Request entity too large: limit is 100');
});

test('an unknown body media type is 415, an Accept with neither JSON nor protobuf is 406, and so is protobuf alone for a kind without a protobuf form', async () => {
  const h = await harness();
  const r = await h.call('POST', PODS, 'x', { 'content-type': 'application/cbor' });
  isStatus(r.json, 415, 'UnsupportedMediaType');
  assert.equal(r.json.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  const p = await h.call('PATCH', `${PODS}/a`, '{}', { 'content-type': 'text/plain' });
  assert.equal(p.status, 415);
  const x = await h.call('GET', PODS, undefined, { accept: 'application/xml' });
  isStatus(x.json, 406, 'NotAcceptable');
  const n = await h.call('GET', '/apis/apiregistration.k8s.io/v1/apiservices', undefined, { accept: 'application/vnd.kubernetes.protobuf' });
  assert.equal(n.status, 406);
});

test('an invalid object is 422 Invalid with field paths in details.causes', async () => {
  const h = await harness();
  const r = await h.call('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Bad_Name' }, spec: { containers: [{ name: 'c' }] } });
  isStatus(r.json, 422, 'Invalid');
  assert.deepEqual(r.json.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueInvalid metadata.name', 'FieldValueRequired spec.containers[0].image']);
  assert.match(r.json.message, /^Pod "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
});

test('strict field validation rejects unknown fields with upstream\'s wording; Warn drops them with a warning', async () => {
  const h = await harness();
  const body = { ...pod('a'), spec: { foo: 1, containers: [{ name: 'c', image: 'x' }] } };
  const strict = await h.call('POST', `${PODS}?fieldValidation=Strict`, body);
  isStatus(strict.json, 400, 'BadRequest');
  assert.equal(strict.json.message, 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"');
  const warn = await h.call('POST', PODS, body);
  assert.equal(warn.status, 201);
  assert.equal(warn.json.spec.foo, undefined);
  assert.equal(warn.headers.warning, '299 - "unknown field \\"spec.foo\\""');
});

test('a stale resourceVersion on update is 409 Conflict with upstream\'s message', async () => {
  const h = await harness();
  const created = await h.call('POST', PODS, pod('a'));
  await h.call('PATCH', `${PODS}/a`, { metadata: { labels: { a: 'b' } } }, { 'content-type': 'application/merge-patch+json' });
  const r = await h.call('PUT', `${PODS}/a`, created.json);
  isStatus(r.json, 409, 'Conflict');
  assert.equal(r.json.message, 'Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again');
});

test('without credentials an authenticating server answers 401, and a denial is 403 in Kubernetes\' words', async () => {
  const bob: Authenticator = {
    name: 'test',
    async authenticate(creds) {
      return creds.headers.authorization === 'Bearer bob' ? { kind: 'authenticated', user: { name: 'bob', groups: [] }, method: 'token' } : { kind: 'no-credentials' };
    },
  };
  const denyAll: Authorizer = { async authorize() { return { allowed: false, reason: '' }; } };
  const h = await harness({ authenticators: [bob], authorizer: denyAll });
  const anon = await h.call('GET', `${PODS}/x`);
  isStatus(anon.json, 401, 'Unauthorized');
  const r = await h.call('GET', `${PODS}/x`, undefined, { authorization: 'Bearer bob' });
  isStatus(r.json, 403, 'Forbidden');
  assert.equal(r.json.message, 'pods "x" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"');
});
