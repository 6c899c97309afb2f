/**
 * The real kubectl's workload commands against `kubespec serve`: `rollout status`, `scale`,
 * `set image`, `rollout history`, `rollout undo`, and `wait`. The Deployment's pods name a
 * scheduler nobody runs, and the test marks them Running and Ready through the status
 * subresource — the kubelet's part, played here as upstream's Deployment integration tests play
 * it — so every other step is the controller manager's work, seen through kubectl.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { clientFor, kubectl, kubectlMissing, startServeProcess, tempDir, type ServeProcess } from './harness.ts';
import type { KubeHttpClient } from '../adapters/kube/http-client.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the controller end-to-end tests: ${missing}`);
const skip = missing ? { skip: missing } : {};

const NS = 'rollouts';
let serve: ServeProcess;
let client: KubeHttpClient;
const scratch = tempDir('controllers');
let caches = 0;
let kubeletOn = true;
let kubeletLoop: Promise<void> | undefined;
let stopping = false;

function k(args: string[], input?: string, timeout_ms?: number) {
  return kubectl(['--namespace', NS, ...args], { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input, ...(timeout_ms ? { timeout_ms } : {}) });
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      schedulerName: kubespec-no-scheduler
      containers:
      - name: main
        image: nginx:1.27
`;

/** The kubelet's part: every pod not yet Ready becomes Running and Ready. */
async function markPodsReady(): Promise<void> {
  const pods = (await client.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/pods` })).json?.items ?? [];
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp || (pod.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')) continue;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    pod.status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] };
    await client.request({ method: 'PUT', path: `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}/status`, body: pod });
  }
}

async function runKubelet(): Promise<void> {
  while (!stopping) {
    if (kubeletOn) await markPodsReady().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function replicaSets(): Promise<{ name: string; revision: string; replicas: number; image: string }[]> {
  const items = (await client.request({ method: 'GET', path: `/apis/apps/v1/namespaces/${NS}/replicasets` })).json?.items ?? [];
  return items.map((rs: any) => ({ name: rs.metadata.name, revision: rs.metadata.annotations?.['deployment.kubernetes.io/revision'], replicas: rs.spec.replicas, image: rs.spec.template.spec.containers[0].image }))
    .sort((a: any, b: any) => Number(a.revision) - Number(b.revision));
}

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec') });
  client = await clientFor(serve.kubeconfigPath);
  await client.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } });
  kubeletLoop = runKubelet();
});

after(async () => {
  stopping = true;
  await kubeletLoop;
  client?.close();
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('kubectl rollout status waits for a new Deployment and reports it rolled out', skip, async () => {
  assert.equal((await k(['apply', '-f', '-'], DEPLOYMENT)).code, 0);
  const status = await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /deployment "web" successfully rolled out/);
  assert.deepEqual((await replicaSets()).map((rs) => [rs.revision, rs.replicas]), [['1', 3]]);
});

test('kubectl scale resizes the current ReplicaSet through the scale subresource', skip, async () => {
  const scaled = await k(['scale', 'deployment/web', '--replicas=5']);
  assert.equal(scaled.code, 0, scaled.stderr);
  assert.equal((await k(['rollout', 'status', 'deployment/web', '--timeout=60s'])).code, 0);
  assert.deepEqual((await replicaSets()).map((rs) => [rs.revision, rs.replicas]), [['1', 5]]);
});

test('kubectl set image rolls out a second ReplicaSet; rollout history lists both revisions', skip, async () => {
  assert.equal((await k(['set', 'image', 'deployment/web', 'main=nginx:1.28'])).code, 0);
  const status = await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal(status.code, 0, status.stderr);
  assert.deepEqual((await replicaSets()).map((rs) => [rs.revision, rs.replicas, rs.image]), [['1', 0, 'nginx:1.27'], ['2', 5, 'nginx:1.28']]);
  const history = await k(['rollout', 'history', 'deployment/web']);
  assert.equal(history.code, 0, history.stderr);
  assert.match(history.stdout, /REVISION\s+CHANGE-CAUSE\s+1\s+<none>\s+2\s+<none>/);
});

test('kubectl rollout undo brings revision 1 back as revision 3', skip, async () => {
  const undo = await k(['rollout', 'undo', 'deployment/web']);
  assert.equal(undo.code, 0, undo.stderr);
  assert.match(undo.stdout, /rolled back/);
  assert.equal((await k(['rollout', 'status', 'deployment/web', '--timeout=60s'])).code, 0);
  assert.deepEqual((await replicaSets()).map((rs) => [rs.revision, rs.replicas, rs.image]), [['2', 0, 'nginx:1.28'], ['3', 5, 'nginx:1.27']]);
});

test('kubectl wait --for=condition=Available succeeds for a rolled-out Deployment', skip, async () => {
  const waited = await k(['wait', '--for=condition=Available', 'deployment/web', '--timeout=30s']);
  assert.equal(waited.code, 0, waited.stderr);
  assert.match(waited.stdout, /condition met/);
});

test('without a kubelet making pods ready, rollout status does not claim success', skip, async () => {
  kubeletOn = false;
  try {
    assert.equal((await k(['set', 'image', 'deployment/web', 'main=nginx:1.29'])).code, 0);
    const status = await k(['rollout', 'status', 'deployment/web', '--timeout=3s']);
    assert.notEqual(status.code, 0, status.stdout);
    assert.match(status.stdout + status.stderr, /Waiting for deployment "web" rollout to finish/);
  } finally {
    kubeletOn = true;
  }
});
