import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from '../authn/jwt.ts';
import { harnessWithTokens, type Harness } from '../testing/harness.ts';

const SA = '/api/v1/namespaces/default/serviceaccounts';

async function server(): Promise<Harness> {
  const h = await harnessWithTokens();
  assert.equal((await h.call('POST', SA, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
  return h;
}

const tokenRequest = (spec: object) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });

test('a TokenRequest for a ServiceAccount is answered 201 with a token for that account and its expiry', async () => {
  const h = await server();
  const r = await h.call('POST', `${SA}/robot/token`, tokenRequest({ expirationSeconds: 600 }));
  assert.equal(r.status, 201, JSON.stringify(r.json));
  assert.equal(r.json.kind, 'TokenRequest');
  const claims = decodeJwt(r.json.status.token)!.payload;
  assert.equal(claims['sub'], 'system:serviceaccount:default:robot');
  assert.equal(Date.parse(r.json.status.expirationTimestamp), h.clock.now_ms() - (h.clock.now_ms() % 1000) + 600_000);
});

test('expirationSeconds defaults to one hour', async () => {
  const h = await server();
  const r = await h.call('POST', `${SA}/robot/token`, tokenRequest({}));
  assert.equal(r.status, 201);
  assert.equal(r.json.spec.expirationSeconds, 3600);
});

test('a token shorter than 10 minutes is 422 with upstream\'s message', async () => {
  const h = await server();
  const r = await h.call('POST', `${SA}/robot/token`, tokenRequest({ expirationSeconds: 599 }));
  assert.equal(r.status, 422);
  assert.match(r.json.message, /spec\.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes/);
});

test('a token for a ServiceAccount that does not exist is 404', async () => {
  const h = await server();
  assert.equal((await h.call('POST', `${SA}/ghost/token`, tokenRequest({ expirationSeconds: 600 }))).status, 404);
});
