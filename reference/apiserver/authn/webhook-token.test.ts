import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookTokenAuthenticator } from './webhook-token.ts';
import type { WebhookCall } from '../admission/webhook/types.ts';

const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });

test('a token the service authenticates becomes its user and groups; the service got a TokenReview with the token', async () => {
  const calls: WebhookCall[] = [];
  const a = webhookTokenAuthenticator(async (c) => {
    calls.push(c);
    return { status: 200, body: JSON.stringify({ kind: 'TokenReview', status: { authenticated: true, user: { username: 'erin', uid: 'u1', groups: ['idp-users'] } } }) };
  });
  assert.deepEqual(await a.authenticate(bearer('t')), { kind: 'no-credentials' }, 'not configured: no opinion');
  a.configure({ url: 'https://idp.invalid/review' });
  assert.deepEqual(await a.authenticate(bearer('t')), { kind: 'authenticated', method: 'webhook-token', user: { name: 'erin', uid: 'u1', groups: ['idp-users'] } });
  assert.deepEqual(JSON.parse(calls[0]!.body), { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 't' } });
});

test('authenticated: false is no opinion; a failing service or a non-TokenReview answer rejects', async () => {
  const answers = [
    { status: 200, body: JSON.stringify({ status: { authenticated: false } }) },
    { status: 500, body: '' },
    { status: 200, body: 'not json' },
  ];
  const a = webhookTokenAuthenticator(async () => answers.shift()!);
  a.configure({ url: 'https://idp.invalid/review' });
  assert.equal((await a.authenticate(bearer('t'))).kind, 'no-credentials');
  assert.equal((await a.authenticate(bearer('t'))).kind, 'rejected');
  assert.equal((await a.authenticate(bearer('t'))).kind, 'rejected');
  const down = webhookTokenAuthenticator(async () => Promise.reject(new Error('connect ECONNREFUSED')));
  down.configure({ url: 'https://idp.invalid/review' });
  assert.equal((await down.authenticate(bearer('t'))).kind, 'rejected');
});
