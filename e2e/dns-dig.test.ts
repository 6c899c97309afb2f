/**
 * Service discovery end to end with Debian's `dig` (bind9-dnsutils): `kubespec serve --dns-port 0`
 * runs the cluster DNS; the real kubectl creates a Service, a headless Service and its
 * EndpointSlice; dig asks the DNS server over UDP (and TCP) and reads the answers as an operator
 * would: A → ClusterIP, headless → the ready endpoint addresses, SRV for a named port, NXDOMAIN
 * for a missing Service and NOERROR without an answer (NODATA) for a type the name lacks.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { kubectl, kubectlMissing, startServeProcess, tempDir, type ServeProcess } from './harness.ts';

const DIG = process.env.KUBESPEC_DIG ?? 'dig';
const digMissing = spawnSync(DIG, ['-v'], { encoding: 'utf8' }).error ? `dig is not installed (apt-get install bind9-dnsutils)` : undefined;
const missing = digMissing ?? kubectlMissing();
if (missing) console.log(`# skipping the dig end-to-end tests: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
let dns: { host: string; port: string };
const scratch = tempDir('dns');
let caches = 0;

function k(args: string[], input?: string) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input, timeout_ms: 90_000 });
}

/** dig with no retries beyond one, a short timeout, no recursion asked; the whole output. */
function dig(...args: string[]): string {
  const r = spawnSync(DIG, [`@${dns.host}`, '-p', dns.port, '+norecurse', '+time=2', '+tries=2', ...args], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, `dig ${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Asks until the answer section holds `want` (the DNS server sees writes through its watch: real time). */
async function digUntil(want: (out: string) => boolean, ...args: string[]): Promise<string> {
  let out = '';
  for (let i = 0; i < 100; i++) {
    out = dig(...args);
    if (want(out)) return out;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`dig ${args.join(' ')} never answered as wanted:\n${out}`);
}

const MANIFEST = `apiVersion: v1
kind: Service
metadata: { name: web, namespace: default }
spec:
  ports: [{ name: http, port: 80, targetPort: 8080, protocol: TCP }]
---
apiVersion: v1
kind: Service
metadata: { name: db, namespace: default }
spec:
  clusterIP: None
  ports: [{ name: pg, port: 5432, protocol: TCP }]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: db-manual
  namespace: default
  labels: { kubernetes.io/service-name: db, endpointslice.kubernetes.io/managed-by: e2e }
addressType: IPv4
ports: [{ name: pg, port: 5432, protocol: TCP }]
endpoints:
  - { addresses: [10.244.5.1], conditions: { ready: true } }
  - { addresses: [10.244.5.2], conditions: { ready: false } }
`;

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec'), args: ['--nodes', '0', '--dns-port', '0'] });
  const m = /cluster DNS on (\S+):(\d+) \(UDP and TCP\)/.exec(serve.output());
  assert.ok(m, `serve printed no cluster DNS address:\n${serve.output()}`);
  dns = { host: m[1]!, port: m[2]! };
  const applied = await k(['apply', '-f', '-'], MANIFEST);
  assert.equal(applied.code, 0, applied.stderr);
});

after(async () => {
  await serve?.stop();
  scratch.remove();
});

test('dig: a Service name answers A with its ClusterIP, authoritatively, TTL 5', skip, async () => {
  const ip = (await k(['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout.trim();
  const out = await digUntil((o) => o.includes(ip), 'web.default.svc.cluster.local', 'A');
  assert.match(out, /status: NOERROR/);
  assert.match(out, /flags: qr aa/);
  assert.match(out, new RegExp(`^web\\.default\\.svc\\.cluster\\.local\\.\\s+5\\s+IN\\s+A\\s+${ip.replace(/\./g, '\\.')}$`, 'm'));
});

test('dig: a headless Service answers its ready endpoint only; SRV names the endpoint (over TCP too)', skip, async () => {
  await digUntil((o) => /status: NOERROR/.test(o), 'db.default.svc.cluster.local', 'A');
  assert.equal(dig('+short', 'db.default.svc.cluster.local', 'A').trim(), '10.244.5.1');
  assert.equal(dig('+short', '+tcp', '_pg._tcp.db.default.svc.cluster.local', 'SRV').trim(), '0 100 5432 10-244-5-1.db.default.svc.cluster.local.');
});

test('dig: a missing Service is NXDOMAIN; AAAA for an IPv4 Service is NOERROR with no answer and the SOA', skip, async () => {
  await digUntil((o) => /ANSWER: 1,/.test(o), 'web.default.svc.cluster.local', 'A');
  assert.match(dig('nope.default.svc.cluster.local', 'A'), /status: NXDOMAIN/);
  const nodata = dig('web.default.svc.cluster.local', 'AAAA');
  assert.match(nodata, /status: NOERROR/);
  assert.match(nodata, /ANSWER: 0,/);
  assert.match(nodata, /cluster\.local\.\s+5\s+IN\s+SOA\s+ns\.dns\.cluster\.local\. hostmaster\.cluster\.local\./);
});
