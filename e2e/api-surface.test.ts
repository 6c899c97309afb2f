/**
 * The API surface against `kubespec serve`, with the real kubectl and with raw requests shaped
 * like other official client libraries': capitalised booleans, the banner that says what runs,
 * the protobuf kubectl 1.32 sends, and the APIs kubectl's everyday commands call.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { clientFor, kubectl, kubectlMissing, startServeProcess, tempDir, until, type ServeProcess } from './harness.ts';
import type { KubeHttpClient } from '../adapters/kube/http-client.ts';

const missing = kubectlMissing();
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
let client: KubeHttpClient;
const scratch = tempDir('api-surface');
let caches = 0;

function k(args: string[], input?: string) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input });
}

before(async () => {
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec'), args: ['--retention', '10m'] });
  client = await clientFor(serve.kubeconfigPath);
});

after(async () => {
  client?.close();
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('the banner says what runs behind the API server and what does not, and the retention set by --retention', async () => {
  // The banner's lines follow "listening on" (what startServeProcess waits for) in later writes.
  await until('the banner\'s "not running" line', () => /not running: /.test(serve.output()), { budget_ms: 10_000, every_ms: 20 });
  assert.match(serve.output(), /kubespec serve: running: kube-apiserver, kube-controller-manager \([^)]*serviceaccount[^)]*\).*; not running: /);
  assert.match(serve.output(), /history kept 600 s/);
});

test('a watch asked for with ?watch=True (as other official clients send it) streams events', async () => {
  const path = '/api/v1/namespaces/default/configmaps';
  const list = await client.request({ method: 'GET', path });
  const w = await client.watch(`${path}?watch=True&allowWatchBookmarks=True&resourceVersion=${list.json.metadata.resourceVersion}`);
  try {
    assert.equal(w.status, 200);
    const created = await client.request({ method: 'POST', path, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watch-true' } } });
    assert.equal(created.status, 201, created.text);
    await until('the watch to deliver ADDED watch-true', () => w.events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'watch-true'), { budget_ms: 10_000, every_ms: 20 });
  } finally {
    await w.close();
  }
});

test('kubectl 1.32 create rolebinding and create clusterrolebinding (protobuf bodies) succeed, and the bindings read back', skip, async () => {
  const rb = await k(['create', 'rolebinding', 'pb-rb', '--clusterrole=view', '--user=alice', '--serviceaccount=default:robot']);
  assert.equal(rb.code, 0, rb.stderr);
  assert.match(rb.stdout, /rolebinding.rbac.authorization.k8s.io\/pb-rb created/);
  const crb = await k(['create', 'clusterrolebinding', 'pb-crb', '--clusterrole=view', '--group=readers']);
  assert.equal(crb.code, 0, crb.stderr);
  const got = await client.request({ method: 'GET', path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/pb-rb' });
  assert.deepEqual(got.json.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
  assert.deepEqual(got.json.subjects, [
    { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
    { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
  ]);
  const again = await k(['create', 'clusterrolebinding', 'pb-crb', '--clusterrole=view', '--group=readers']);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /clusterrolebindings.rbac.authorization.k8s.io "pb-crb" already exists/);
});

test('kubectl auth whoami names the admin; auth can-i --list lists its rules and, as a viewer, view\'s', skip, async () => {
  const who = await k(['auth', 'whoami']);
  assert.equal(who.code, 0, who.stderr);
  assert.match(who.stdout, /Username\s+kubespec-admin/);
  assert.match(who.stdout, /Groups\s+\[system:masters system:authenticated\]/);
  const list = await k(['auth', 'can-i', '--list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
  const bind = await k(['create', 'rolebinding', 'viewer', '--clusterrole=view', '--user=viewer-1']);
  assert.equal(bind.code, 0, bind.stderr);
  const viewer = await k(['auth', 'can-i', '--list', '--as=viewer-1']);
  assert.equal(viewer.code, 0, viewer.stderr);
  assert.match(viewer.stdout, /^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  assert.doesNotMatch(viewer.stdout, /^secrets\s/m);
});

test('kubectl api-resources lists the storage-only kinds and the review APIs', skip, async () => {
  const r = await k(['api-resources', '-o', 'name']);
  assert.equal(r.code, 0, r.stderr);
  const names = new Set(r.stdout.trim().split('\n'));
  for (const name of [
    'endpoints', 'replicationcontrollers', 'persistentvolumes', 'persistentvolumeclaims', 'resourcequotas', 'limitranges',
    'statefulsets.apps', 'daemonsets.apps', 'cronjobs.batch', 'horizontalpodautoscalers.autoscaling', 'ingresses.networking.k8s.io',
    'networkpolicies.networking.k8s.io', 'storageclasses.storage.k8s.io', 'certificatesigningrequests.certificates.k8s.io',
    'apiservices.apiregistration.k8s.io', 'tokenreviews.authentication.k8s.io', 'selfsubjectreviews.authentication.k8s.io',
    'selfsubjectrulesreviews.authorization.k8s.io',
  ]) assert.ok(names.has(name), `${name} missing from:\n${r.stdout}`);
});

test('storage-only kinds take the real kubectl\'s create commands: cronjob, ingress, quota, and apply of a StatefulSet and a DaemonSet', skip, async () => {
  for (const args of [
    ['create', 'cronjob', 'cj1', '--image=busybox', '--schedule=*/5 * * * *'],
    ['create', 'ingress', 'ing1', '--rule=example.com/=svc1:80'],
    ['create', 'quota', 'q1', '--hard=pods=10'],
  ]) {
    const r = await k(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  const manifest = (kind: string) => `apiVersion: apps/v1
kind: ${kind}
metadata: {name: ${kind.toLowerCase()}-1}
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: c, image: nginx}]}
`;
  const applied = await k(['apply', '-f', '-'], `${manifest('StatefulSet')}---\n${manifest('DaemonSet')}`);
  assert.equal(applied.code, 0, applied.stderr);
  const bad = await k(['create', '-f', '-'], 'apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: no-schedule}\nspec: {jobTemplate: {spec: {}}}\n');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /spec.schedule: Required value/);
});

test('kubectl explain deployment.spec prints upstream\'s field descriptions', skip, async () => {
  const r = await k(['explain', 'deployment.spec']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /DESCRIPTION:\s+Specification of the desired behavior of the Deployment\./);
  assert.match(r.stdout, /replicas\s+<integer>\s+Number of desired pods\./);
  assert.doesNotMatch(r.stdout, /<empty>/);
});

test('a token from kubectl create token passes a TokenReview as its ServiceAccount', skip, async () => {
  const minted = await k(['create', 'token', 'default']);
  assert.equal(minted.code, 0, minted.stderr);
  const r = await client.request({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/tokenreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: minted.stdout.trim() } },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json.status.authenticated, true, r.text);
  assert.equal(r.json.status.user.username, 'system:serviceaccount:default:default');
  assert.ok(r.json.status.user.groups.includes('system:serviceaccounts:default'));
});
