import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { join, resolve } from 'node:path';
import { KubeHttpClient } from '../adapters/kube/http-client.ts';
import { clientFor, kubectl, kubectlMissing, KUBESPEC_BIN, PROJECT_DIR, startServeProcess, tempDir } from '../e2e/harness.ts';
import { microTime, parseServeFlags, startServe, type ServeConfig } from './serve.ts';
import { UsageError } from './usage.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually<T>(what: string, budget_ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + budget_ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${budget_ms} ms`);
    await sleep(50);
  }
}

function config(dir: string, overrides: Partial<ServeConfig> = {}): ServeConfig {
  return { ...parseServeFlags({ port: '0', kubeconfig: join(dir, 'kubeconfig') }, {}), ...overrides };
}

test('the flags default to port 6443, one node, kubeconfig.kubespec in the working directory and 5 minutes of history', () => {
  const c = parseServeFlags({}, {});
  assert.equal(c.port, 6443);
  assert.equal(c.nodes, 1);
  assert.equal(c.kubeconfigPath, resolve(process.cwd(), 'kubeconfig.kubespec'));
  assert.equal(c.insecureHttp, false);
  assert.equal(c.dataDir, undefined);
  assert.equal(c.retention_ms, 5 * 60 * 1000);
  assert.equal(parseServeFlags({ retention: '250ms' }, {}).retention_ms, 250);
  assert.equal(parseServeFlags({ retention: '10m' }, {}).retention_ms, 600_000);
  assert.equal(parseServeFlags({}, { KUBESPEC_SERVE_RETENTION_MS: '250' }).retention_ms, 5 * 60 * 1000, 'no hidden setting: only the flag sets it');
  assert.equal(parseServeFlags({ kubeconfig: 'k' }, { KUBESPEC_CWD: '/somewhere' }).kubeconfigPath, '/somewhere/k');
});

test('a port, a node count or a retention that is not a whole number in range is a usage error with a hint', () => {
  for (const flags of [{ port: 'abc' }, { port: '70000' }, { port: '-1' }, { nodes: '1.5' }, { nodes: '' }, { kubeconfig: ' ' }, { 'data-dir': '' }]) {
    assert.throws(() => parseServeFlags(flags, {}), (e: unknown) => e instanceof UsageError && e.hint !== undefined, JSON.stringify(flags));
  }
  assert.throws(() => parseServeFlags({ ha: true, 'data-dir': '/tmp/d' }, {}), (e: unknown) => e instanceof UsageError && /--ha/.test(e.message) && e.hint !== undefined, '--ha keeps its Raft members in memory');
  for (const retention of ['0ms', '5', 'soon', '1000h']) assert.throws(() => parseServeFlags({ retention }, {}), (e: unknown) => e instanceof UsageError && e.hint !== undefined, retention);
});

test('the command exits 2 and says how to fix a bad flag', () => {
  const run = spawnSync(process.execPath, [KUBESPEC_BIN, 'serve', '--port', 'lots'], { cwd: PROJECT_DIR, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /--port must be a whole number/);
  assert.match(run.stderr, /--port 0 for any free port/);
  const unknown = spawnSync(process.execPath, [KUBESPEC_BIN, 'serve', '--bogus'], { cwd: PROJECT_DIR, encoding: 'utf8', timeout: 60_000 });
  assert.equal(unknown.status, 2);
});

test('lease renew times are MicroTime: RFC 3339 with six fractional digits', () => {
  assert.equal(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), '2026-01-02T03:04:05.678000Z');
});

test('serve registers Ready nodes and keeps renewing their leases in kube-node-lease', async () => {
  const dir = tempDir('serve-nodes');
  const running = await startServe(config(dir.path, { nodes: 2, leaseRenew_ms: 100 }));
  const client = await clientFor(running.kubeconfigPath);
  try {
    const nodes = await client.request({ method: 'GET', path: '/api/v1/nodes' });
    assert.equal(nodes.status, 200);
    assert.deepEqual(nodes.json.items.map((n: any) => n.metadata.name), ['node-1', 'node-2']);
    for (const node of nodes.json.items) assert.equal(node.status.conditions.find((c: any) => c.type === 'Ready')?.status, 'True');
    const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-2';
    const first = (await client.request({ method: 'GET', path: leasePath })).json;
    assert.equal(first.spec.holderIdentity, 'node-2');
    assert.equal(first.metadata.ownerReferences[0].kind, 'Node');
    await eventually('a renewed lease', 5000, async () => {
      const now = (await client.request({ method: 'GET', path: leasePath })).json;
      return now.spec.renewTime > first.spec.renewTime ? now : undefined;
    });
  } finally {
    client.close();
    await running.stop();
    dir.remove();
  }
});

test('over HTTPS the admin certificate may do anything, anonymous callers only read public info, and impersonated users get the default policy', async () => {
  const dir = tempDir('serve-authz');
  const running = await startServe(config(dir.path, { nodes: 0 }));
  const admin = await clientFor(running.kubeconfigPath);
  const anonymous = new KubeHttpClient({ server: running.url, insecureSkipTlsVerify: true });
  try {
    assert.match(running.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await admin.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'c' } } })).status, 201);
    assert.equal((await anonymous.request({ method: 'GET', path: '/version' })).status, 200);
    assert.equal((await anonymous.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' })).status, 403);
    const someone = { user: 'someone' };
    assert.equal((await admin.request({ method: 'GET', path: '/apis', as: someone })).status, 200);
    assert.equal((await admin.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps', as: someone })).status, 403);
  } finally {
    admin.close();
    anonymous.close();
    await running.stop();
    dir.remove();
  }
});

test('--anonymous-auth=false: a request without credentials is 401 while the admin certificate still works; a bad value is a usage error', async () => {
  assert.equal(parseServeFlags({}, {}).anonymous, true);
  assert.throws(() => parseServeFlags({ 'anonymous-auth': 'no' }, {}), UsageError);
  assert.throws(() => parseServeFlags({ 'anonymous-auth': 'false', 'insecure-http': true }, {}), UsageError);
  const dir = tempDir('serve-no-anonymous');
  const running = await startServe(config(dir.path, { nodes: 0, anonymous: false }));
  const admin = await clientFor(running.kubeconfigPath);
  const anonymous = new KubeHttpClient({ server: running.url, insecureSkipTlsVerify: true });
  try {
    assert.equal((await admin.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' })).status, 200);
    assert.equal((await anonymous.request({ method: 'GET', path: '/version' })).status, 401);
  } finally {
    admin.close();
    anonymous.close();
    await running.stop();
    dir.remove();
  }
});

test('a namespace created through serve gets its default ServiceAccount from the cluster\'s controller, on the real clock', async () => {
  const dir = tempDir('serve-sa');
  const running = await startServe(config(dir.path, { nodes: 0 }));
  const client = await clientFor(running.kubeconfigPath);
  try {
    assert.equal((await client.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team-a' } } })).status, 201);
    const sa = await eventually('ServiceAccount team-a/default', 5000, async () => {
      const res = await client.request({ method: 'GET', path: '/api/v1/namespaces/team-a/serviceaccounts/default' });
      return res.status === 200 ? res.json : undefined;
    });
    assert.equal(sa.metadata.namespace, 'team-a');
  } finally {
    client.close();
    await running.stop();
    dir.remove();
  }
});

test('with --insecure-http requests without credentials are anonymous and bound to cluster-admin, and the kubeconfig says http', async () => {
  const dir = tempDir('serve-http');
  const running = await startServe(config(dir.path, { nodes: 0, insecureHttp: true }));
  let client: KubeHttpClient | undefined;
  try {
    client = await clientFor(running.kubeconfigPath);
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await client.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'c' } } })).status, 201);
    const binding = await client.request({ method: 'GET', path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/kubespec:insecure-anonymous-admin' });
    assert.deepEqual(binding.json.subjects.map((s: any) => s.name), ['system:unauthenticated']);
  } finally {
    client?.close();
    await running.stop();
    dir.remove();
  }
});

test('retention compacts history older than the retention, so an old resourceVersion answers 410 Expired', async () => {
  const dir = tempDir('serve-retention');
  const running = await startServe(config(dir.path, { nodes: 0, retention_ms: 200 }));
  const client = await clientFor(running.kubeconfigPath);
  try {
    const created = await client.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'old' } } });
    const oldRv = created.json.metadata.resourceVersion;
    await client.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'newer' } } });
    await eventually('a compaction past the first write', 5000, async () => (running.backend.compactRevision() > Number(oldRv) ? true : undefined));
    const stale = await client.request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps?resourceVersion=${oldRv}&resourceVersionMatch=Exact` });
    assert.equal(stale.status, 410, stale.text);
    assert.ok(running.compactions >= 1);
  } finally {
    client.close();
    await running.stop();
    dir.remove();
  }
});

test('with --data-dir every acknowledged object survives SIGKILL, and SIGTERM stops cleanly with exit 0', async () => {
  const dir = tempDir('serve-durable');
  const kubeconfigPath = join(dir.path, 'kubeconfig');
  const args = ['--data-dir', join(dir.path, 'data'), '--nodes', '1'];
  const names = Array.from({ length: 20 }, (_, i) => `cm-${i}`);
  try {
    const first = await startServeProcess({ kubeconfigPath, args });
    const client = await clientFor(kubeconfigPath);
    const created = await Promise.all(names.map((name) => client.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name }, data: { name } } })));
    assert.deepEqual(created.map((r) => r.status), names.map(() => 201));
    client.close();
    assert.equal(await first.kill(), 'SIGKILL');

    const second = await startServeProcess({ kubeconfigPath, args });
    const again = await clientFor(kubeconfigPath);
    const list = await again.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
    again.close();
    assert.deepEqual(list.json.items.map((c: any) => c.metadata.name).sort(), [...names].sort(), second.output());
    assert.equal(await second.stop(), 0, second.output());
    assert.match(second.output(), /stopped/);
    assert.ok(existsSync(join(dir.path, 'data', 'store', 'snapshot.mvcc')), 'a clean stop leaves a snapshot');
  } finally {
    dir.remove();
  }
});

/** `kubespec serve ARGS` that is expected to refuse: its exit code and output (killed after the budget). */
function serveRefusal(args: string[], budget_ms = 30_000) {
  return spawnSync(process.execPath, [KUBESPEC_BIN, 'serve', '--port', '0', ...args], { cwd: PROJECT_DIR, encoding: 'utf8', timeout: budget_ms, killSignal: 'SIGKILL' });
}

test('a second serve on a data dir in use exits 2 naming the holder; after kill -9 the stale lock is taken over and no acknowledged write is lost', async () => {
  const dir = tempDir('serve-lock');
  const data = join(dir.path, 'data');
  const args = (name: string) => ['--data-dir', data, '--nodes', '0', '--kubeconfig', join(dir.path, name)];
  let first: Awaited<ReturnType<typeof startServeProcess>> | undefined;
  try {
    first = await startServeProcess({ kubeconfigPath: join(dir.path, 'k1'), args: ['--data-dir', data, '--nodes', '0'] });
    const client = await clientFor(join(dir.path, 'k1'));
    const write = (name: string) => client.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name } } });
    assert.equal((await write('before')).status, 201);

    const second = serveRefusal(args('k2'));
    assert.equal(second.status, 2, `the second serve must refuse, it did: ${second.status ?? second.signal}\n${second.stdout}${second.stderr}`);
    assert.match(second.stderr, new RegExp(`data dir ${data} is in use by process ${first.child.pid}\\b`));
    assert.match(second.stderr, new RegExp(`kill ${first.child.pid}\\b`));
    assert.equal((await write('after')).status, 201, 'the first serve still owns its store');
    client.close();
    assert.equal(await first.kill(), 'SIGKILL');

    const third = await startServeProcess({ kubeconfigPath: join(dir.path, 'k3'), args: ['--data-dir', data, '--nodes', '0'] });
    try {
      assert.match(third.output(), new RegExp(`took over the lock of ${data} from process ${first.child.pid}, which is gone`));
      const again = await clientFor(join(dir.path, 'k3'));
      const list = await again.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      again.close();
      assert.deepEqual(list.json.items.map((c: any) => c.metadata.name).sort(), ['after', 'before']);
    } finally {
      assert.equal(await third.stop(), 0, third.output());
    }
    assert.equal(existsSync(join(data, 'kubespec.lock')), false, 'a clean stop releases the lock');
  } finally {
    await first?.kill();
    dir.remove();
  }
});

test('serve creates its data dir 0700 with 0600 files, and refuses a data dir open to others with the chmod that fixes it', async () => {
  const dir = tempDir('serve-perms');
  const data = join(dir.path, 'data');
  try {
    const running = await startServeProcess({ kubeconfigPath: join(dir.path, 'k'), args: ['--data-dir', data, '--nodes', '0'] });
    assert.equal(await running.stop(), 0, running.output());
    // Before the fix a loose dir was served: a refusal that never comes is cut off after the budget.
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
    const walk = (p: string): string[] => (statSync(p).isDirectory() ? [p, ...readdirSync(p).flatMap((n) => walk(join(p, n)))] : [p]);
    const entries = walk(data);
    assert.ok(entries.some((p) => p.endsWith('wal.log')) && entries.some((p) => p.endsWith('admin.key')) && entries.some((p) => p.endsWith('ca.crt')), entries.join(' '));
    for (const p of entries) assert.equal(mode(p), statSync(p).isDirectory() ? '700' : '600', p);

    const loose = join(dir.path, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o755);
    const refused = serveRefusal(['--data-dir', loose, '--kubeconfig', join(dir.path, 'k2')]);
    assert.equal(refused.status, 2, `${refused.stdout}${refused.stderr}`);
    assert.match(refused.stderr, /open to its group or others \(mode 755\)/);
    assert.match(refused.stderr, new RegExp(`chmod 700 ${loose}`));
    assert.deepEqual(readdirSync(loose), [], 'nothing was written into the refused dir');
  } finally {
    dir.remove();
  }
});

test('the real kubectl meets Pod Security admission as on a real cluster: enforce refuses a privileged pod, warn prints a Warning', kubectlMissing() ? { skip: kubectlMissing() } : {}, async () => {
  const dir = tempDir('serve-psa');
  const running = await startServe(config(dir.path, { nodes: 0 }));
  const run = (args: string[], input?: string) => kubectl(args, { kubeconfig: running.kubeconfigPath, cacheDir: join(dir.path, 'cache'), ...(input ? { input } : {}) });
  try {
    assert.equal((await run(['create', 'namespace', 'psa'])).code, 0);
    assert.equal((await run(['label', 'namespace', 'psa', 'pod-security.kubernetes.io/enforce=baseline', 'pod-security.kubernetes.io/warn=restricted'])).code, 0);
    const pod = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'psa' }, spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] } });
    const refused = await run(['apply', '-f', '-'], pod);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, /Error from server \(Forbidden\): .*pods "x" is forbidden: violates PodSecurity "baseline:latest": privileged \(container "c" must not set securityContext.privileged=true\)/);
    const warned = await run(['-n', 'psa', 'run', 'plain', '--image=busybox']);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /^Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "plain" must set securityContext.allowPrivilegeEscalation=false\)/m);
  } finally {
    await running.stop();
    dir.remove();
  }
});

test('--oidc-* flags: the real kubectl with an ID token of the issuer is <issuer>#sub with its groups; a forged one is 401; the flags are checked as kube-apiserver checks them', kubectlMissing() ? { skip: kubectlMissing() } : {}, async () => {
  assert.throws(() => parseServeFlags({ 'oidc-issuer-url': 'https://idp.example.com' }, {}), UsageError, 'the client ID goes with the issuer');
  assert.throws(() => parseServeFlags({ 'oidc-issuer-url': 'http://idp.example.com', 'oidc-client-id': 'k' }, {}), UsageError, 'the issuer is https');
  const { startIssuer } = await import('../steps/support/oidc-issuer.ts');
  const issuer = await startIssuer('serve-test');
  const dir = tempDir('serve-oidc');
  const caFile = join(dir.path, 'oidc-ca.pem');
  writeFileSync(caFile, Buffer.from(issuer.caBundle, 'base64'));
  const flags = parseServeFlags({ port: '0', kubeconfig: join(dir.path, 'kubeconfig'), 'oidc-issuer-url': issuer.url, 'oidc-client-id': 'kubernetes', 'oidc-groups-claim': 'groups', 'oidc-ca-file': caFile }, {});
  const running = await startServe({ ...flags, nodes: 0 });
  const now_s = Math.floor(Date.now() / 1000);
  const claims = { iss: issuer.url, aud: 'kubernetes', sub: 'erin', groups: ['idp-users'], iat: now_s, exp: now_s + 600 };
  const whoami = (token: string) => {
    const kubeconfig = parseYaml(readFileSync(running.kubeconfigPath, 'utf8'));
    kubeconfig.users = [{ name: 'oidc', user: { token } }];
    kubeconfig.contexts[0].context.user = 'oidc';
    const path = join(dir.path, `kubeconfig-${token.length}-${Math.random()}`);
    writeFileSync(path, stringifyYaml(kubeconfig));
    return kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: path, cacheDir: join(dir.path, 'cache') });
  };
  try {
    const me = await whoami(issuer.sign(claims));
    assert.equal(me.code, 0, me.stderr);
    const info = JSON.parse(me.stdout).status.userInfo;
    assert.equal(info.username, `${issuer.url}#erin`);
    assert.deepEqual(info.groups, ['idp-users', 'system:authenticated']);
    const forged = await whoami(issuer.sign(claims, 'forger'));
    assert.notEqual(forged.code, 0);
    assert.match(forged.stderr, /Unauthorized/);
  } finally {
    await running.stop();
    issuer.close();
    dir.remove();
  }
});
