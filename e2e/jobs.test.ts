/**
 * Jobs and node drains with the real kubectl against `kubespec serve --nodes 2`: pods scheduled
 * onto the serve's kubelets and run by its fake container runtime (the image
 * `kubespec/exit:CODE:AFTER_S` exits with CODE after AFTER_S seconds), so a Job completes by
 * the Job controller's work alone.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, kubectlMissing, startServeProcess, tempDir, until, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the Job end-to-end tests: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('jobs');
let caches = 0;

function k(args: string[], input?: string, timeout_ms?: number) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input, ...(timeout_ms ? { timeout_ms } : {}) });
}

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec'), args: ['--nodes', '2'] });
});

after(async () => {
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('kubectl create job, then kubectl wait --for=condition=complete: the Job ran its pod to success', skip, async () => {
  const created = await k(['create', 'job', 'hello', '--image=kubespec/exit:0:1']);
  assert.equal(created.code, 0, created.stderr);
  const waited = await k(['wait', '--for=condition=complete', 'job/hello', '--timeout=60s'], undefined, 70_000);
  assert.equal(waited.code, 0, `${waited.stderr}\n${serve.output().slice(-2000)}`);
  assert.match(waited.stdout, /job.batch\/hello condition met/);
  const status = await k(['get', 'job', 'hello', '-o', 'jsonpath={.status.succeeded}/{.status.failed}/{.spec.selector.matchLabels}']);
  assert.match(status.stdout, /^1\/(0)?\/.*batch.kubernetes.io\/controller-uid/);
  const pods = await k(['get', 'pods', '-l', 'batch.kubernetes.io/job-name=hello', '-o', 'jsonpath={range .items[*]}{.status.phase} {.spec.nodeName}{end}']);
  assert.match(pods.stdout, /^Succeeded node-[12]$/);
  const table = await k(['get', 'job', 'hello']);
  assert.match(table.stdout, /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nhello\s+Complete\s+1\/1\s+\d+s\s+\d+s/, table.stdout);
});

test('a Job whose pods fail is Failed with BackoffLimitExceeded after backoffLimit + 1 pods, and kubectl wait --for=condition=failed sees it', skip, async () => {
  const job = `apiVersion: batch/v1
kind: Job
metadata: {name: flaky}
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: "kubespec/exit:1:1"}]
`;
  const applied = await k(['apply', '-f', '-'], job);
  assert.equal(applied.code, 0, applied.stderr);
  const waited = await k(['wait', '--for=condition=failed', 'job/flaky', '--timeout=60s'], undefined, 70_000);
  assert.equal(waited.code, 0, waited.stderr);
  const reason = await k(['get', 'job', 'flaky', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason} {.status.failed}']);
  assert.equal(reason.stdout, 'BackoffLimitExceeded 1');
});

test('a Job whose pods would restart Always is refused 422 with the API\'s message', skip, async () => {
  const job = `apiVersion: batch/v1
kind: Job
metadata: {name: forever}
spec:
  template:
    spec:
      restartPolicy: Always
      containers: [{name: main, image: "kubespec/exit:0:1"}]
`;
  const applied = await k(['create', '-f', '-'], job);
  assert.notEqual(applied.code, 0);
  assert.match(applied.stderr, /spec\.template\.spec\.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"/);
});

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: web, image: "registry.k8s.io/pause:3.9"}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
`;

async function webPods(): Promise<string[]> {
  const out = await k(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.spec.nodeName}:{.status.conditions[?(@.type=="Ready")].status}:{.metadata.deletionTimestamp} {end}']);
  return out.stdout.trim().split(/\s+/).filter(Boolean);
}

test('kubectl drain node-1 with a budget of minAvailable 1: cordoned, evictions retried while refused, the pods recreated on node-2', skip, async () => {
  // Both replicas on node-1: node-2 is cordoned while they are placed.
  assert.equal((await k(['cordon', 'node-2'])).code, 0);
  const applied = await k(['apply', '-f', '-'], WEB);
  assert.equal(applied.code, 0, applied.stderr);
  await until('2 ready web pods on node-1', async () => (await webPods()).filter((p) => p === 'node-1:True:').length === 2, { budget_ms: 60_000, every_ms: 250, serve });
  assert.equal((await k(['uncordon', 'node-2'])).code, 0);
  await until('the budget to allow one disruption', async () => (await k(['get', 'pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}'])).stdout === '1', { budget_ms: 60_000, every_ms: 250, serve });
  const drained = await k(['drain', 'node-1', '--ignore-daemonsets', '--timeout=90s'], undefined, 100_000);
  assert.equal(drained.code, 0, `${drained.stdout}\n${drained.stderr}`);
  assert.match(drained.stdout, /node\/node-1 drained/);
  // The second eviction was refused (429) until the first pod's replacement was Ready on node-2.
  assert.match(drained.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
  assert.equal((await k(['get', 'node', 'node-1', '-o', 'jsonpath={.spec.unschedulable}'])).stdout, 'true');
  await until('2 ready web pods on node-2', async () => (await webPods()).filter((p) => p === 'node-2:True:').length === 2, { budget_ms: 60_000, every_ms: 250, serve });
  assert.deepEqual((await webPods()).filter((p) => p.startsWith('node-1')), []);
});
