import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { createCa, issueClientCert, issueServerCert, subject, type CertAndKey } from './openssl.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { verifiedClientCert } from './peer.ts';

const run = promisify(execFile);
const VERSION = { major: '1', minor: '31', gitVersion: 'v1.31.0', platform: 'linux/amd64' };

let ca: CertAndKey;
let serving: CertAndKey;
let alice: CertAndKey;
let server: Server;
let port: number;
let dir: string;
const seen: Array<{ path: string; cert: ReturnType<typeof verifiedClientCert>; auth?: string }> = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kubespec-pki-test-'));
  ca = await createCa();
  serving = await issueServerCert(ca);
  alice = await issueClientCert(ca, { commonName: 'alice', organizations: ['dev', 'system:masters'] });
  server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    seen.push({ path: req.url ?? '', cert: verifiedClientCert(req.socket as TLSSocket), ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
    if (req.url?.startsWith('/version')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(VERSION));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function get(path: string, client?: CertAndKey, trust = ca.certPem): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, ca: trust, ...(client ? { cert: client.certPem, key: client.keyPem } : {}) },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('the openssl subject puts each group in an O and escapes slashes', () => {
  assert.equal(subject({ commonName: 'a/b', organizations: ['g1', 'g2'] }), '/O=g1/O=g2/CN=a\\/b');
});

test('the serving certificate names 127.0.0.1 and localhost, and the CA signed it', async () => {
  const text = await opensslText(serving.certPem);
  assert.match(text, /DNS:localhost/);
  assert.match(text, /IP Address:127\.0\.0\.1/);
  assert.match(text, /TLS Web Server Authentication/);
  assert.equal(await get('/version'), 200, 'a client trusting only our CA accepts the server');
});

test('an https server with requestCert sees a verified client certificate with CN and O values', async () => {
  seen.length = 0;
  assert.equal(await get('/version', alice), 200);
  assert.deepEqual(seen[0]!.cert, { subjectCN: 'alice', subjectO: ['dev', 'system:masters'] });
});

test('a client certificate from another CA is not a verified identity', async () => {
  const otherCa = await createCa({ commonName: 'rogue' });
  const mallory = await issueClientCert(otherCa, { commonName: 'mallory', organizations: ['system:masters'] });
  seen.length = 0;
  assert.equal(await get('/version', mallory), 200);
  assert.equal(seen[0]!.cert, undefined);
});

test('a request without a client certificate has no certificate identity', async () => {
  seen.length = 0;
  await get('/version');
  assert.equal(seen[0]!.cert, undefined);
});

test('writeKubeconfig embeds base64 data, selects the context and keeps the file private', async () => {
  const path = join(dir, 'embed.kubeconfig');
  await writeKubeconfig({ path, server: `https://127.0.0.1:${port}`, caPem: ca.certPem, clientCertPem: alice.certPem, clientKeyPem: alice.keyPem, user: 'alice' });
  const cfg = parse(await readFile(path, 'utf8'));
  assert.equal(cfg['current-context'], 'alice@kubespec');
  assert.equal(Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), ca.certPem);
  assert.equal(Buffer.from(cfg.users[0].user['client-key-data'], 'base64').toString(), alice.keyPem);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
});

test('the real kubectl accepts the kubeconfig and presents the client certificate', { timeout: 60_000 }, async () => {
  const path = join(dir, 'kubectl.kubeconfig');
  await writeKubeconfig({ path, server: `https://127.0.0.1:${port}`, caPem: ca.certPem, clientCertPem: alice.certPem, clientKeyPem: alice.keyPem, user: 'alice' });
  seen.length = 0;
  const { stdout } = await run('/usr/bin/kubectl', ['--kubeconfig', path, '--cache-dir', join(dir, 'cache'), 'get', '--raw', '/version'], { timeout: 50_000 });
  assert.deepEqual(JSON.parse(stdout), VERSION);
  const raw = seen.find((s) => s.path === '/version');
  assert.deepEqual(raw?.cert, { subjectCN: 'alice', subjectO: ['dev', 'system:masters'] });
});

test('the real kubectl sends a kubeconfig token as a bearer token', { timeout: 60_000 }, async () => {
  const path = join(dir, 'token.kubeconfig');
  await writeKubeconfig({ path, server: `https://127.0.0.1:${port}`, caPem: ca.certPem, token: 'alice-token', user: 'alice' });
  seen.length = 0;
  await run('/usr/bin/kubectl', ['--kubeconfig', path, '--cache-dir', join(dir, 'cache2'), 'get', '--raw', '/version'], { timeout: 50_000 });
  assert.equal(seen.find((s) => s.path === '/version')?.auth, 'Bearer alice-token');
});

test('@kubernetes/client-node accepts the kubeconfig and presents the client certificate', async () => {
  const path = join(dir, 'client-node.kubeconfig');
  await writeKubeconfig({ path, server: `https://127.0.0.1:${port}`, caPem: ca.certPem, clientCertPem: alice.certPem, clientKeyPem: alice.keyPem, user: 'alice' });
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(path);
  seen.length = 0;
  const info = await kc.makeApiClient(k8s.VersionApi).getCode();
  assert.equal(info.gitVersion, 'v1.31.0');
  assert.deepEqual(seen[0]?.cert, { subjectCN: 'alice', subjectO: ['dev', 'system:masters'] });
});

async function opensslText(pem: string): Promise<string> {
  const path = join(dir, 'inspect.pem');
  await writeFile(path, pem);
  const { stdout } = await run('openssl', ['x509', '-noout', '-text', '-in', path]);
  return stdout;
}
