/**
 * The authentication stage as the server runs it (stages.ts over authn/union.ts), through the
 * server core: what a request's credentials make of it, and that every failure is a bare 401.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceAccountTokens } from './authn/serviceaccount.ts';
import { tokenFileAuthenticator } from './authn/tokenfile.ts';
import { x509Authenticator } from './authn/x509.ts';
import type { Authenticator } from './pipeline.ts';
import { harness, type Harness } from './testing/harness.ts';

const NAMESPACES = '/api/v1/namespaces';

async function server(opts: { anonymous: boolean; tokenFile?: boolean }): Promise<Harness & { mint: (expirationSeconds: number) => string }> {
  let h: Harness | undefined;
  const sa = serviceAccountTokens({
    issuer: 'https://kubernetes.default.svc.cluster.local',
    key: { alg: 'HS256', secret: Buffer.alloc(32, 7) },
    // Tokens are minted and checked on the server's own clock.
    clock: { now_ms: () => h!.clock.now_ms() },
    getServiceAccount: (ns, name) => (ns === 'default' && name === 'robot' ? { metadata: { uid: 'sa-1' } } : undefined),
  });
  const authenticators: Authenticator[] = [x509Authenticator(), sa.authenticator];
  if (opts.tokenFile) authenticators.push(tokenFileAuthenticator({ csv: 'alice-token,alice,u1,dev' }));
  h = await harness({ authenticators, anonymous: opts.anonymous });
  const mint = (expirationSeconds: number) => sa.mintToken({ namespace: 'default', name: 'robot', uid: 'sa-1', expirationSeconds }).token;
  return { ...h, mint };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function lastTrace(h: Harness) {
  return h.server.traces.at(-1)!;
}

test('with anonymous auth on, a request without credentials is system:anonymous', async () => {
  const h = await server({ anonymous: true });
  assert.equal((await h.call('GET', NAMESPACES)).status, 200);
  assert.equal(lastTrace(h).user, 'system:anonymous');
});

test('with anonymous auth off, a request without credentials is 401 Unauthorized', async () => {
  const h = await server({ anonymous: false });
  const r = await h.call('GET', NAMESPACES);
  assert.equal(r.status, 401);
  assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
});

test('a bearer token no authenticator knows is 401 even with anonymous on and no token file', async () => {
  const h = await server({ anonymous: true });
  assert.equal((await h.call('GET', NAMESPACES, undefined, bearer('made-up'))).status, 401);
  assert.equal(lastTrace(h).stages[0]!.detail, 'invalid bearer token');
});

test('an expired ServiceAccount token is 401, not anonymous', async () => {
  const h = await server({ anonymous: true });
  const token = h.mint(600);
  assert.equal((await h.call('GET', NAMESPACES, undefined, bearer(token))).status, 200);
  assert.equal(lastTrace(h).user, 'system:serviceaccount:default:robot');
  h.clock.advance(601_000 + 60_000);
  assert.equal((await h.call('GET', NAMESPACES, undefined, bearer(token))).status, 401);
  assert.equal(lastTrace(h).stages[0]!.detail, 'service account token has expired');
});

test('a token one authenticator rejects is still accepted by the next that knows it', async () => {
  const h = await server({ anonymous: false, tokenFile: true });
  assert.equal((await h.call('GET', NAMESPACES, undefined, bearer('alice-token'))).status, 200);
  assert.equal(lastTrace(h).user, 'alice');
  assert.equal(lastTrace(h).stages[0]!.detail, 'token-file: alice');
});

test('a presented certificate that failed verification is 401 even with anonymous on', async () => {
  const h = await server({ anonymous: true });
  const r = await h.server.handle({ method: 'GET', url: NAMESPACES, headers: {}, body: Buffer.alloc(0), clientCertError: 'self-signed certificate' });
  assert.equal(r.status, 401);
});
