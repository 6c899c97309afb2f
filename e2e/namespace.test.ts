/**
 * The real kubectl deleting namespaces against `kubespec serve` (NS-DELETE-CONTENT end to end):
 * `kubectl delete -f` of a manifest holding a Namespace and content in it, and `kubectl delete
 * namespace x --wait`, return once the namespace controller has emptied the namespace and the
 * API server has removed it; afterwards `kubectl get namespace` says NotFound.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, kubectlMissing, startServeProcess, tempDir, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the namespace end-to-end tests: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('namespaces');
let caches = 0;

function k(args: string[], input?: string) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input, timeout_ms: 90_000 });
}

const MANIFEST = `apiVersion: v1
kind: Namespace
metadata:
  name: team-e2e
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: team-e2e
data:
  mode: test
---
apiVersion: v1
kind: Secret
metadata:
  name: token
  namespace: team-e2e
stringData:
  key: value
`;

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec') });
});

after(async () => {
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('kubectl delete -f of a namespace manifest returns once the namespace and its content are gone', skip, async () => {
  const applied = await k(['apply', '-f', '-'], MANIFEST);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match((await k(['get', 'configmap', 'settings', '-n', 'team-e2e', '-o', 'name'])).stdout, /configmap\/settings/);
  const deleted = await k(['delete', '-f', '-'], MANIFEST);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.match(deleted.stdout, /namespace "team-e2e" deleted/);
  const gone = await k(['get', 'namespace', 'team-e2e']);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /namespaces "team-e2e" not found/);
});

test('kubectl delete namespace --wait returns once the namespace is gone; while it terminates nothing new is admitted', skip, async () => {
  assert.equal((await k(['create', 'namespace', 'scratch-e2e'])).code, 0);
  assert.equal((await k(['create', 'configmap', 'c', '-n', 'scratch-e2e', '--from-literal=a=b'])).code, 0);
  // Hold the namespace with a finalizer on a ConfigMap, to see it Terminating.
  assert.equal((await k(['patch', 'configmap', 'c', '-n', 'scratch-e2e', '--type=merge', '-p', '{"metadata":{"finalizers":["kubespec.io/hold"]}}'])).code, 0);
  assert.equal((await k(['delete', 'namespace', 'scratch-e2e', '--wait=false'])).code, 0);
  const phase = await k(['get', 'namespace', 'scratch-e2e', '-o', 'jsonpath={.status.phase}']);
  assert.equal(phase.stdout, 'Terminating');
  const refused = await k(['create', 'configmap', 'late', '-n', 'scratch-e2e']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /unable to create new content in namespace scratch-e2e because it is being terminated/);
  assert.equal((await k(['patch', 'configmap', 'c', '-n', 'scratch-e2e', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])).code, 0);
  const waited = await k(['delete', 'namespace', 'scratch-e2e', '--wait', '--ignore-not-found', '--timeout=60s']);
  assert.equal(waited.code, 0, waited.stderr);
  const gone = await k(['get', 'namespace', 'scratch-e2e']);
  assert.match(gone.stderr, /namespaces "scratch-e2e" not found/);
});
