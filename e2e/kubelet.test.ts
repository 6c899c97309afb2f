/**
 * The kubelets of `kubespec serve --nodes 2` seen through the real kubectl: a pod applied with
 * spec.nodeName reaches Running on the fake runtime; `get pods -o wide`, `describe pod` and
 * `logs` show what the kubelet reported and what the container printed; a delete is finished by
 * the kubelet. Real time: every wait is bounded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, kubectlMissing, startServeProcess, tempDir, until, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the kubelet end-to-end tests: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('kubelet');
let caches = 0;

function k(args: string[], input?: string) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input });
}

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: hello
spec:
  nodeName: node-2
  containers:
  - name: main
    image: busybox
    command: ["sh", "-c", "trap 'exit 0' TERM; echo hello from kubespec; sleep 3600 & wait"]
`;

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec'), args: ['--nodes', '2'] });
});

after(async () => {
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('a pod applied with kubectl reaches Running on node-2, and get, describe and logs show it', skip, async () => {
  const applied = await k(['apply', '-f', '-'], POD);
  assert.equal(applied.code, 0, applied.stderr);
  await until('pod hello Running', async () => (await k(['get', 'pod', 'hello', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', { budget_ms: 20_000, every_ms: 200, serve });
  const wide = await k(['get', 'pods', '-o', 'wide']);
  assert.match(wide.stdout, /^hello\s+1\/1\s+Running\s+0\s+\S+\s+127\.\d+\.\d+\.\d+\s+node-2/m, wide.stdout);
  const described = await k(['describe', 'pod', 'hello']);
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /Node:\s+node-2\//);
  assert.match(described.stdout, /Status:\s+Running/);
  assert.match(described.stdout, /Ready\s+True/);
  assert.match(described.stdout, /Started\s+.*kubelet\s+Started container main/);
  const logs = await k(['logs', 'hello']);
  assert.equal(logs.code, 0, logs.stderr);
  assert.equal(logs.stdout, 'hello from kubespec\n');
});

test('kubectl delete waits for the kubelet to stop the container, then the pod is gone', skip, async () => {
  const deleted = await k(['delete', 'pod', 'hello', '--timeout=30s']);
  assert.equal(deleted.code, 0, deleted.stderr);
  const gone = await k(['get', 'pod', 'hello']);
  assert.match(gone.stderr, /NotFound/);
});

test('the nodes are registered by their kubelets, with leases they renew', skip, async () => {
  const nodes = await k(['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.status.nodeInfo.kubeletVersion} {end}']);
  assert.match(nodes.stdout, /node-1=v1\.\S+ node-2=v1\.\S+/);
  const lease = await k(['get', 'lease', '-n', 'kube-node-lease', 'node-1', '-o', 'jsonpath={.spec.holderIdentity}']);
  assert.equal(lease.stdout, 'node-1');
});
