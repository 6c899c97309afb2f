import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceAccountTokens, type ObjectWithMeta } from './serviceaccount.ts';
import { decodeJwt } from './jwt.ts';
import { generateHs256Key, generateRs256Key } from './host/keys.ts';
import { unionAuthenticator } from './union.ts';
import { tokenFileAuthenticator } from './tokenfile.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const RSA = generateRs256Key();

function setup(opts: { key?: ReturnType<typeof generateRs256Key>; issuer?: string } = {}) {
  let now_ms = 1_700_000_000_000;
  const accounts = new Map<string, ObjectWithMeta>([['ns1/builder', { metadata: { uid: 'sa-uid-1' } }]]);
  const pods = new Map<string, ObjectWithMeta>([['ns1/web', { metadata: { uid: 'pod-uid-1' } }]]);
  const sa = serviceAccountTokens({
    issuer: opts.issuer ?? ISSUER,
    key: opts.key ?? RSA,
    clock: { now_ms: () => now_ms },
    getServiceAccount: (ns, name) => accounts.get(`${ns}/${name}`),
    getPod: async (ns, name) => pods.get(`${ns}/${name}`),
  });
  const headers = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  return { sa, accounts, pods, headers, advance: (ms: number) => (now_ms += ms) };
}

test('a minted token carries upstream claims: iss, sub, aud, exp and the kubernetes.io claim', () => {
  const { sa } = setup();
  const { token, expirationTimestamp } = sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' });
  const jwt = decodeJwt(token)!;
  assert.equal(jwt.header['alg'], 'RS256');
  assert.equal(typeof jwt.header['kid'], 'string');
  assert.equal(jwt.payload['iss'], ISSUER);
  assert.equal(jwt.payload['sub'], 'system:serviceaccount:ns1:builder');
  assert.deepEqual(jwt.payload['aud'], [ISSUER]);
  assert.equal((jwt.payload['exp'] as number) - (jwt.payload['iat'] as number), 3600);
  assert.deepEqual(jwt.payload['kubernetes.io'], { namespace: 'ns1', serviceaccount: { name: 'builder', uid: 'sa-uid-1' } });
  assert.equal(expirationTimestamp, '2023-11-14T23:13:20Z');
});

test('a valid ServiceAccount token authenticates as the ServiceAccount with its groups', async () => {
  const { sa, headers } = setup();
  const { token } = sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' });
  const r = await unionAuthenticator([sa.authenticator]).authenticate(headers(token));
  assert.deepEqual(r, {
    kind: 'authenticated',
    method: 'serviceaccount',
    user: {
      name: 'system:serviceaccount:ns1:builder',
      uid: 'sa-uid-1',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    },
  });
});

test('HS256 keys work the same way', async () => {
  const { sa, headers } = setup({ key: generateHs256Key() as ReturnType<typeof generateRs256Key> });
  const { token } = sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' });
  assert.equal((await sa.authenticator.authenticate(headers(token))).kind, 'authenticated');
});

const rejections: Array<{ name: string; act: (s: ReturnType<typeof setup>) => string; reason: string | RegExp }> = [
  {
    name: 'a token whose ServiceAccount was deleted is rejected',
    act: (s) => {
      const t = s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' }).token;
      s.accounts.delete('ns1/builder');
      return t;
    },
    reason: 'serviceaccount "builder" not found',
  },
  {
    name: 'a token for a recreated ServiceAccount (new UID) is rejected',
    act: (s) => {
      const t = s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' }).token;
      s.accounts.set('ns1/builder', { metadata: { uid: 'sa-uid-2' } });
      return t;
    },
    reason: 'service account UID (sa-uid-2) does not match claim (sa-uid-1)',
  },
  {
    name: 'an expired token is rejected once the one-minute leeway has passed',
    act: (s) => {
      const t = s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1', expirationSeconds: 600 }).token;
      s.advance(661_000);
      return t;
    },
    reason: 'service account token has expired',
  },
  {
    name: 'a token with a tampered payload is rejected for its signature',
    act: (s) => {
      const [h, , sig] = s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' }).token.split('.');
      const forged = Buffer.from(JSON.stringify({ iss: ISSUER, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
      return `${h}.${forged}.${sig}`;
    },
    reason: 'invalid signature',
  },
  {
    name: 'a token for another audience is rejected',
    act: (s) => s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1', audiences: ['vault'] }).token,
    reason: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]`,
  },
  {
    name: 'a pod-bound token is rejected after its pod is deleted',
    act: (s) => {
      const t = s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1', boundPod: { name: 'web', uid: 'pod-uid-1' } }).token;
      s.pods.delete('ns1/web');
      return t;
    },
    reason: 'service account token has been invalidated',
  },
];

for (const c of rejections) {
  test(c.name, async () => {
    const s = setup();
    const token = c.act(s);
    const r = await s.sa.authenticator.authenticate(s.headers(token));
    assert.equal(r.kind, 'rejected');
    if (r.kind === 'rejected') assert.match(r.reason, c.reason instanceof RegExp ? c.reason : new RegExp(`^${escape(c.reason)}$`));
  });
}

test('a token from another issuer is not ours, so the union reports the static-token rejection', async () => {
  const other = setup({ issuer: 'https://elsewhere' });
  const mine = setup();
  const { token } = other.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1' });
  assert.deepEqual(await mine.sa.authenticator.authenticate(mine.headers(token)), { kind: 'no-credentials' });
  const union = unionAuthenticator([tokenFileAuthenticator({ csv: '' }), mine.sa.authenticator]);
  assert.deepEqual(await union.authenticate(mine.headers(token)), { kind: 'rejected', reason: 'invalid bearer token' });
});

test('a pod-bound token stays valid while its pod exists', async () => {
  const s = setup();
  const { token } = s.sa.mintToken({ namespace: 'ns1', name: 'builder', uid: 'sa-uid-1', boundPod: { name: 'web', uid: 'pod-uid-1' } });
  assert.equal((await s.sa.authenticator.authenticate(s.headers(token))).kind, 'authenticated');
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
