import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { effectiveUsernamePrefix, oidcAuthenticator, type OidcOptions } from './oidc.ts';

const ISSUER = 'https://idp.invalid/issuer';
const NOW_S = 1_800_000_000;
const issuerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });

function token(claims: Record<string, unknown>, key: KeyObject = issuerKey.privateKey, kid = 'k1'): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${b64({ alg: 'RS256', kid })}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

function issuer(opts: Partial<OidcOptions> = {}) {
  const gets: string[] = [];
  const a = oidcAuthenticator({
    now_ms: () => NOW_S * 1000,
    fetch: async (url) => {
      gets.push(url);
      if (url === `${ISSUER}/.well-known/openid-configuration`) return { status: 200, body: JSON.stringify({ issuer: ISSUER, jwks_uri: `${ISSUER}/keys` }) };
      if (url === `${ISSUER}/keys`) return { status: 200, body: JSON.stringify({ keys: [{ ...issuerKey.publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' }] }) };
      return { status: 404, body: '' };
    },
  });
  a.configure({ issuerUrl: ISSUER, clientId: 'kubernetes', groupsClaim: 'groups', ...opts });
  return { a, gets };
}

const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
const good = { iss: ISSUER, aud: 'kubernetes', sub: 'erin', email: 'erin@example.com', groups: ['idp-users'], exp: NOW_S + 600 };

test('a valid ID token authenticates as issuer#sub with its groups; the keys come from discovery', async () => {
  const { a, gets } = issuer();
  assert.deepEqual(await a.authenticate(bearer(token(good))), { kind: 'authenticated', method: 'oidc', user: { name: `${ISSUER}#erin`, groups: ['idp-users'] } });
  assert.deepEqual(gets, [`${ISSUER}/.well-known/openid-configuration`, `${ISSUER}/keys`]);
});

test('the username prefix rule: issuer# unless the claim is email; "-" is none; a given prefix is used as is', () => {
  assert.equal(effectiveUsernamePrefix({ issuerUrl: ISSUER }), `${ISSUER}#`);
  assert.equal(effectiveUsernamePrefix({ issuerUrl: ISSUER, usernameClaim: 'email' }), '');
  assert.equal(effectiveUsernamePrefix({ issuerUrl: ISSUER, usernamePrefix: '-' }), '');
  assert.equal(effectiveUsernamePrefix({ issuerUrl: ISSUER, usernamePrefix: 'oidc:' }), 'oidc:');
});

test('the email claim is used unprefixed, and email_verified false rejects', async () => {
  const { a } = issuer({ usernameClaim: 'email', groupsPrefix: 'oidc:' });
  assert.deepEqual(await a.authenticate(bearer(token(good))), { kind: 'authenticated', method: 'oidc', user: { name: 'erin@example.com', groups: ['oidc:idp-users'] } });
  assert.equal((await a.authenticate(bearer(token({ ...good, email_verified: false })))).kind, 'rejected');
});

test('a token signed by another key, expired, for another audience or with a bad groups claim is rejected', async () => {
  const { a } = issuer();
  for (const t of [
    token(good, otherKey.privateKey),
    token(good, otherKey.privateKey, 'unknown-kid'),
    token({ ...good, exp: NOW_S - 1 }),
    token({ ...good, exp: undefined }),
    token({ ...good, aud: ['someone-else'] }),
    token({ ...good, groups: [1] }),
    token({ ...good, sub: undefined }),
  ]) {
    assert.equal((await a.authenticate(bearer(t))).kind, 'rejected', JSON.stringify(JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString())));
  }
  assert.equal((await a.authenticate(bearer(token({ ...good, aud: ['x', 'kubernetes'], groups: 'admins' })))).kind, 'authenticated', 'aud may be a list and groups a string');
});

test('a token of another issuer, a non-JWT token or an unconfigured authenticator is no opinion', async () => {
  const { a } = issuer();
  assert.equal((await a.authenticate(bearer(token({ ...good, iss: 'https://other.invalid' })))).kind, 'no-credentials');
  assert.equal((await a.authenticate(bearer('opaque-token'))).kind, 'no-credentials');
  a.configure(undefined);
  assert.equal((await a.authenticate(bearer(token(good)))).kind, 'no-credentials');
});

test('a discovery document naming another issuer, or an unreachable issuer, rejects rather than crashes', async () => {
  const a = oidcAuthenticator({ now_ms: () => NOW_S * 1000, fetch: async () => ({ status: 200, body: JSON.stringify({ issuer: 'https://evil.invalid', jwks_uri: 'x' }) }) });
  a.configure({ issuerUrl: ISSUER, clientId: 'kubernetes' });
  assert.equal((await a.authenticate(bearer(token(good)))).kind, 'rejected');
  const down = oidcAuthenticator({ now_ms: () => NOW_S * 1000, fetch: async () => Promise.reject(new Error('connect ECONNREFUSED')) });
  down.configure({ issuerUrl: ISSUER, clientId: 'kubernetes' });
  assert.equal((await down.authenticate(bearer(token(good)))).kind, 'rejected');
});
