/**
 * The authenticators and their union. The union is the server's authentication stage
 * (stages.ts authenticate runs it); stages.test.ts checks the same behaviour through the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Authenticator, AuthnResult, Credentials } from '../pipeline.ts';
import { x509Authenticator } from './x509.ts';
import { parseTokenFile, tokenFileAuthenticator, TokenFileError } from './tokenfile.ts';
import { anonymousAuthenticator } from './anonymous.ts';
import { unionAuthenticator } from './union.ts';
import { bearerToken } from './bearer.ts';

const TOKENS = [
  'alice-token,alice,uid-1,"dev,ops"',
  'bob-token,bob,uid-2',
  ',nobody,uid-3',
  '"quoted,token",carol,uid-4,"a"',
].join('\n');

function bearer(token: string): Credentials {
  return { headers: { authorization: `Bearer ${token}` } };
}

function fixed(result: AuthnResult, name = 'fixed'): Authenticator {
  return { name, authenticate: async () => result };
}

test('a client certificate maps its CN to the user and its O values to groups', async () => {
  const r = await x509Authenticator().authenticate({ headers: {}, clientCert: { subjectCN: 'jane', subjectO: ['dev', 'qa'] } });
  assert.deepEqual(r, { kind: 'authenticated', method: 'x509', user: { name: 'jane', groups: ['dev', 'qa'] } });
});

test('a client certificate with an empty CN carries no identity', async () => {
  const r = await x509Authenticator().authenticate({ headers: {}, clientCert: { subjectCN: '', subjectO: ['dev'] } });
  assert.deepEqual(r, { kind: 'no-credentials' });
});

test('the token file reads token, user, uid and a quoted list of groups', () => {
  const tokens = parseTokenFile(TOKENS);
  assert.deepEqual(tokens.get('alice-token'), { name: 'alice', uid: 'uid-1', groups: ['dev', 'ops'] });
  assert.deepEqual(tokens.get('bob-token'), { name: 'bob', uid: 'uid-2', groups: [] });
  assert.deepEqual(tokens.get('quoted,token'), { name: 'carol', uid: 'uid-4', groups: ['a'] });
  assert.equal(tokens.has(''), false, 'an empty token is skipped, as upstream does');
});

test('a token file record with fewer than three columns is refused', () => {
  assert.throws(() => parseTokenFile('tok,user'), TokenFileError);
});

test('bearer tokens are read case-insensitively and an empty one is no credential', () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer ', undefined],
    ['Bearer  abc', undefined],
    ['Bearer abc def', 'abc'],
    ['Bearerx abc', undefined],
    ['BEARER abc', 'abc'],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [header, expected] of cases) {
    // As node hands them over (names lower-cased) and as a test may inject them.
    assert.equal(bearerToken({ headers: header === undefined ? {} : { authorization: header } }), expected, `header ${header}`);
    assert.equal(bearerToken({ headers: header === undefined ? {} : { Authorization: header } }), expected, `Header ${header}`);
  }
});

test('a known static token authenticates as its user and an unknown one is rejected', async () => {
  const authn = tokenFileAuthenticator({ csv: TOKENS });
  const ok = await authn.authenticate(bearer('alice-token'));
  assert.equal(ok.kind, 'authenticated');
  assert.deepEqual(await authn.authenticate(bearer('nope')), { kind: 'rejected', reason: 'invalid bearer token' });
  assert.deepEqual(await authn.authenticate({ headers: {} }), { kind: 'no-credentials' });
});

test('the union adds system:authenticated to an authenticated user', async () => {
  const union = unionAuthenticator([tokenFileAuthenticator({ csv: TOKENS })]);
  const r = await union.authenticate(bearer('alice-token'));
  assert.deepEqual(r, {
    kind: 'authenticated',
    method: 'token-file',
    user: { name: 'alice', uid: 'uid-1', groups: ['dev', 'ops', 'system:authenticated'] },
  });
});

test('the union tries the next authenticator after a rejection and keeps the first success', async () => {
  const union = unionAuthenticator([
    fixed({ kind: 'rejected', reason: 'invalid bearer token' }),
    fixed({ kind: 'authenticated', method: 'second', user: { name: 'x', groups: [] } }),
  ]);
  const r = await union.authenticate({ headers: {} });
  assert.equal(r.kind, 'authenticated');
});

test('the union rejects when nobody authenticates and somebody rejected, even with anonymous enabled', async () => {
  const union = unionAuthenticator(
    [fixed({ kind: 'rejected', reason: 'invalid bearer token' }), fixed({ kind: 'rejected', reason: 'bad sig' })],
    { anonymous: true },
  );
  assert.deepEqual(await union.authenticate({ headers: {} }), { kind: 'rejected', reason: '[invalid bearer token, bad sig]' });
});

test('a request without credentials is anonymous when anonymous auth is enabled', async () => {
  const union = unionAuthenticator([tokenFileAuthenticator({ csv: TOKENS })], { anonymous: true });
  const r = await union.authenticate({ headers: {} });
  assert.deepEqual(r, {
    kind: 'authenticated',
    method: 'anonymous',
    user: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
  });
});

test('a request without credentials has none when anonymous auth is disabled', async () => {
  const union = unionAuthenticator([tokenFileAuthenticator({ csv: TOKENS }), x509Authenticator()]);
  assert.deepEqual(await union.authenticate({ headers: {} }), { kind: 'no-credentials' });
});

test('the anonymous user does not get system:authenticated', async () => {
  const union = unionAuthenticator([anonymousAuthenticator()]);
  const r = await union.authenticate({ headers: {} });
  assert.ok(r.kind === 'authenticated' && !r.user.groups.includes('system:authenticated'));
});

test('a bearer token that no authenticator recognises is rejected as an invalid bearer token', async () => {
  const union = unionAuthenticator([x509Authenticator()], { anonymous: true });
  assert.deepEqual(await union.authenticate(bearer('unknown')), { kind: 'rejected', reason: 'invalid bearer token' });
});

test('a client certificate outside its dates at the server\'s clock is rejected, as upstream verifies at the server\'s time', async () => {
  const cert = { subjectCN: 'system:node:n1', subjectO: ['system:nodes'], notBefore_ms: 1000, notAfter_ms: 2000 };
  const at = (now: number) => x509Authenticator(undefined, () => now).authenticate({ headers: {}, clientCert: cert });
  assert.equal((await at(1500)).kind, 'authenticated');
  assert.match(String((await at(2001) as any).reason), /certificate has expired or is not yet valid: current time .* is after/);
  assert.equal((await at(999)).kind, 'rejected');
});
