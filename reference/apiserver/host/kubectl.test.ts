/**
 * End to end with the real kubectl (Google's dispatcher at /usr/bin/kubectl): the reference API
 * server on a loopback port, a kubeconfig pointing at it, a fresh discovery cache.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LocalBackend } from '../../store/local.ts';
import { createApiServer } from '../server.ts';
import { listen, realTimers, type Listening } from './listen.ts';

const KUBECTL = '/usr/bin/kubectl';
const skip = existsSync(KUBECTL) ? false : `real kubectl not found at ${KUBECTL}`;
const run = promisify(execFile);

let dir = '';
let http: Listening | undefined;

function deploymentYaml(image: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports: [{containerPort: 80}]
        env: [{name: MODE, value: "a"}]
      - name: sidecar
        image: busybox:1.36
`;
}

async function kubectl(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(KUBECTL, ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), ...args], { timeout: 60_000 });
    return { stdout: r.stdout, stderr: r.stderr, code: 0 };
  } catch (e: any) {
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? String(e), code: e.code ?? 1 };
  }
}

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'kubespec-kubectl-'));
  const api = createApiServer({ backend: new LocalBackend(), clock: { now_ms: () => Date.now() }, timers: realTimers });
  http = await listen(api.handler, { port: 0 });
  writeFileSync(join(dir, 'config'), `apiVersion: v1
kind: Config
clusters: [{name: ref, cluster: {server: "${http.url}"}}]
users: [{name: ref, user: {}}]
contexts: [{name: ref, context: {cluster: ref, user: ref, namespace: default}}]
current-context: ref
`);
});

after(async () => {
  await http?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('kubectl apply creates a deployment, validating it against the server\'s OpenAPI v3 without --validate=false', { skip }, async () => {
  writeFileSync(join(dir, 'd.yaml'), deploymentYaml('nginx:1.25', 2));
  const r = await kubectl('apply', '-f', join(dir, 'd.yaml'));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'deployment.apps/web created');
  assert.equal(r.stderr, '');
});

test('kubectl apply twice with a change sends a strategic merge patch that keeps the other container and the env', { skip }, async () => {
  writeFileSync(join(dir, 'd.yaml'), deploymentYaml('nginx:1.26', 3));
  const r = await kubectl('apply', '-f', join(dir, 'd.yaml'));
  assert.equal(r.stdout.trim(), 'deployment.apps/web configured', r.stderr);
  const again = await kubectl('apply', '-f', join(dir, 'd.yaml'));
  assert.equal(again.stdout.trim(), 'deployment.apps/web unchanged');
  const got = JSON.parse((await kubectl('get', 'deployment', 'web', '-o', 'json')).stdout);
  assert.equal(got.spec.replicas, 3);
  assert.deepEqual(got.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`), ['nginx=nginx:1.26', 'sidecar=busybox:1.36']);
  assert.deepEqual(got.spec.template.spec.containers[0].env, [{ name: 'MODE', value: 'a' }]);
  assert.equal(got.metadata.generation, 2);
  const table = await kubectl('get', 'deployments');
  assert.match(table.stdout.split('\n')[0]!, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/);
  assert.match(table.stdout.split('\n')[1]!, /^web\s+0\/3\s+0\s+0\s+\d+s$/);
});

test('kubectl patch, scale and server-side apply change the deployment', { skip }, async () => {
  assert.equal((await kubectl('patch', 'deployment', 'web', '-p', '{"spec":{"replicas":4}}')).stdout.trim(), 'deployment.apps/web patched');
  assert.equal((await kubectl('scale', 'deployment', 'web', '--replicas=5')).stdout.trim(), 'deployment.apps/web scaled');
  const ssa = await kubectl('apply', '--server-side', '--force-conflicts', '-f', join(dir, 'd.yaml'));
  assert.equal(ssa.stdout.trim(), 'deployment.apps/web serverside-applied', ssa.stderr);
  const got = JSON.parse((await kubectl('get', 'deployment', 'web', '-o', 'json')).stdout);
  assert.equal(got.spec.replicas, 3);
});

test('kubectl get -w prints the changes a watch delivers', { skip }, async () => {
  const watcher = spawn(KUBECTL, ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), 'get', 'pods', '-w', '--output-watch-events', '-o', 'jsonpath={.type} {.object.metadata.name}{"\\n"}'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  watcher.stdout.on('data', (c) => (out += c));
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await kubectl('run', 'p1', '--image=nginx')).code, 0);
  assert.equal((await kubectl('label', 'pod', 'p1', 'x=y')).code, 0);
  assert.equal((await kubectl('delete', 'pod', 'p1')).stdout.trim(), 'pod "p1" deleted');
  const deadline = Date.now() + 10_000;
  while (!out.includes('DELETED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  watcher.kill();
  assert.deepEqual(out.trim().split('\n'), ['ADDED p1', 'MODIFIED p1', 'DELETED p1']);
});

test('kubectl auth can-i, delete and a NotFound error read as on a real cluster', { skip }, async () => {
  assert.equal((await kubectl('auth', 'can-i', 'create', 'pods')).stdout.trim(), 'yes');
  assert.equal((await kubectl('delete', 'deployment', 'web')).stdout.trim(), 'deployment.apps "web" deleted');
  const missing = await kubectl('get', 'deployment', 'web');
  assert.notEqual(missing.code, 0);
  assert.equal(missing.stderr.trim(), 'Error from server (NotFound): deployments.apps "web" not found');
});
