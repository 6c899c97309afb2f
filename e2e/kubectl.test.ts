/**
 * The real kubectl against `kubespec serve` over HTTPS with the admin client certificate:
 * apply with strict validation (OpenAPI v3 from the server), get, get --watch, patch, delete,
 * `auth can-i`, and bad manifests. The non-admin user is `--as=someone` (impersonation, which
 * the admin's system:masters group may do): someone has only serve's default policy — discovery
 * and self access reviews — so anything else is forbidden to them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, kubectlMissing, KUBECTL, startServeProcess, tempDir, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the kubectl end-to-end tests: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('kubectl');
let caches = 0;

/** kubectl with a fresh discovery cache: each test starts cold, as a first use does. */
function k(args: string[], input?: string) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input });
}

function deployment(name: string, replicas: number, extraSpec = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}${extraSpec}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: main
        image: nginx:1.27
`;
}

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec') });
});

after(async () => {
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('kubectl apply with strict validation creates a Deployment, and applying a change configures it', skip, async () => {
  const created = await k(['apply', '--validate=strict', '-f', '-'], deployment('web', 2));
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /deployment\.apps\/web created/);
  const changed = await k(['apply', '--validate=strict', '-f', '-'], deployment('web', 4));
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(changed.stdout, /deployment\.apps\/web configured/);
  const got = await k(['get', 'deployment', 'web', '-o', 'json']);
  assert.equal(got.code, 0, got.stderr);
  const object = JSON.parse(got.stdout);
  assert.equal(object.spec.replicas, 4);
  assert.equal(object.metadata.namespace, 'default');
  assert.ok(object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
});

test('kubectl get lists objects as a table and reads one as YAML', skip, async () => {
  assert.equal((await k(['create', 'configmap', 'listed', '--from-literal=a=1'])).code, 0);
  const table = await k(['get', 'configmaps']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^NAME\s+DATA\s+AGE/m);
  assert.match(table.stdout, /^listed\s+1\s+/m);
  const yaml = await k(['get', 'configmap', 'listed', '-o', 'yaml']);
  assert.match(yaml.stdout, /a: "1"/);
  const nodes = await k(['get', 'nodes']);
  assert.match(nodes.stdout, /^node-1\s+Ready/m);
});

test('kubectl get --watch prints objects created while it watches', skip, async () => {
  assert.equal((await k(['create', 'namespace', 'watched'])).code, 0);
  const watcher = spawn(KUBECTL, ['--kubeconfig', serve.kubeconfigPath, '--cache-dir', join(scratch.path, 'cache-watch'), '-n', 'watched', 'get', 'configmaps', '--watch', '-o', 'name']);
  let seen = '';
  watcher.stdout.on('data', (c: Buffer) => (seen += c.toString()));
  let stderr = '';
  watcher.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    // Give the watch a moment to be established; objects created before it would come from the list anyway.
    await new Promise((r) => setTimeout(r, 1000));
    for (const name of ['w1', 'w2', 'w3']) assert.equal((await k(['-n', 'watched', 'create', 'configmap', name])).code, 0);
    const deadline = Date.now() + 20_000;
    while (!/configmap\/w3/.test(seen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(seen.trim().split('\n'), ['configmap/w1', 'configmap/w2', 'configmap/w3'], stderr);
    assert.equal(watcher.exitCode, null, 'the watch is still open');
  } finally {
    watcher.kill('SIGKILL');
  }
});

test('kubectl patch changes a Deployment with a strategic merge patch and with a JSON merge patch', skip, async () => {
  assert.equal((await k(['apply', '-f', '-'], deployment('patched', 1))).code, 0);
  const strategic = await k(['patch', 'deployment', 'patched', '-p', '{"spec":{"replicas":3}}']);
  assert.equal(strategic.code, 0, strategic.stderr);
  assert.match(strategic.stdout, /deployment\.apps\/patched patched/);
  const merge = await k(['patch', 'deployment', 'patched', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"front"}}}']);
  assert.equal(merge.code, 0, merge.stderr);
  const got = JSON.parse((await k(['get', 'deployment', 'patched', '-o', 'json'])).stdout);
  assert.equal(got.spec.replicas, 3);
  assert.equal(got.metadata.labels.tier, 'front');
});

test('kubectl delete removes a Deployment, after which get says NotFound', skip, async () => {
  assert.equal((await k(['apply', '-f', '-'], deployment('doomed', 1))).code, 0);
  const deleted = await k(['delete', 'deployment', 'doomed']);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.match(deleted.stdout, /deployment\.apps "doomed" deleted/);
  const gone = await k(['get', 'deployment', 'doomed']);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /Error from server \(NotFound\): deployments\.apps "doomed" not found/);
});

test('kubectl auth can-i says yes to the admin and no to a user without bindings, who is then forbidden', skip, async () => {
  const admin = await k(['auth', 'can-i', 'create', 'deployments']);
  assert.equal(admin.code, 0, admin.stderr);
  assert.equal(admin.stdout.trim(), 'yes');
  const someone = await k(['auth', 'can-i', 'create', 'deployments', '--as=someone']);
  assert.equal(someone.code, 1, someone.stderr);
  assert.equal(someone.stdout.trim(), 'no');
  const forbidden = await k(['get', 'pods', '--as=someone']);
  assert.equal(forbidden.code, 1);
  assert.match(forbidden.stderr, /Error from server \(Forbidden\): pods is forbidden: User "someone" cannot list resource "pods" in API group "" in the namespace "default"/);
});

test('a RoleBinding grants the other user exactly what its Role allows', skip, async () => {
  const role = await k(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']);
  assert.equal(role.code, 0, role.stderr);
  // Applied as YAML here; `kubectl create rolebinding` (protobuf on the wire) is e2e/api-surface.test.ts's.
  const binding = await k(['apply', '-f', '-'], `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: someone-reads}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: someone}]
`);
  assert.equal(binding.code, 0, binding.stderr);
  const list = await k(['auth', 'can-i', 'list', 'pods', '--as=someone']);
  assert.equal(list.stdout.trim(), 'yes', list.stderr);
  const del = await k(['auth', 'can-i', 'delete', 'pods', '--as=someone']);
  assert.equal(del.stdout.trim(), 'no', del.stderr);
});

test('kubectl apply as a user who may only create ClusterRoleBindings cannot bind her to cluster-admin (RBAC escalation prevention)', skip, async () => {
  const grant = await k(['apply', '-f', '-'], `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: binder-only}
rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [clusterrolebindings], verbs: [create, get, patch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: mallory-binder}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: binder-only}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: mallory}]
`);
  assert.equal(grant.code, 0, grant.stderr);
  const escalate = await k(['apply', '--as=mallory', '-f', '-'], `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: mallory-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: mallory}]
`);
  assert.equal(escalate.code, 1, escalate.stdout);
  assert.match(escalate.stderr, /clusterrolebindings\.rbac\.authorization\.k8s\.io "mallory-admin" is forbidden: user "mallory" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held/);
  const secrets = await k(['get', 'secrets', '--as=mallory']);
  assert.equal(secrets.code, 1, 'she gained nothing');
});

test('kubectl create token mints a ServiceAccount token the server accepts', skip, async () => {
  const sa = await k(['apply', '-f', '-'], 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: robot}\n');
  assert.equal(sa.code, 0, sa.stderr);
  const token = await k(['create', 'token', 'robot', '--duration=10m']);
  assert.equal(token.code, 0, token.stderr);
  const jwt = token.stdout.trim();
  assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  // A kubeconfig with only the server and the token: with the admin certificate too, the certificate would win.
  const tokenOnly = join(scratch.path, 'kubeconfig.token');
  writeFileSync(tokenOnly, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'robot',
    clusters: [{ name: 'serve', cluster: { server: serve.url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'robot', user: { token: jwt } }],
    contexts: [{ name: 'robot', context: { cluster: 'serve', user: 'robot', namespace: 'default' } }],
  }));
  const asRobot = await kubectl(['get', 'pods'], { kubeconfig: tokenOnly, cacheDir: join(scratch.path, `cache-${++caches}`) });
  assert.equal(asRobot.code, 1);
  assert.match(asRobot.stderr, /User "system:serviceaccount:default:robot" cannot list resource "pods"/);
});

test('malformed manifests fail with kubectl or the server saying what is wrong', skip, async () => {
  const syntax = await k(['apply', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: [name: x\n');
  assert.notEqual(syntax.code, 0);
  assert.match(syntax.stderr, /error converting YAML to JSON/);
  const unknownField = await k(['apply', '--validate=strict', '-f', '-'], deployment('strict', 1, '\n  bogusField: 1'));
  assert.notEqual(unknownField.code, 0);
  assert.match(unknownField.stderr, /strict decoding error: unknown field "spec\.bogusField"/);
  const invalid = await k(['apply', '-f', '-'], 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nosel\nspec:\n  template: {}\n');
  assert.notEqual(invalid.code, 0);
  assert.match(invalid.stderr, /The Deployment "nosel" is invalid/);
  assert.match(invalid.stderr, /spec\.selector: Required value/);
});
