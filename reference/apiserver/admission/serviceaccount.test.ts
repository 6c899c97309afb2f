import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionDenied } from '../pipeline.ts';
import { serviceAccountAdmission } from './serviceaccount.ts';
import { randomSuffix } from './names.ts';
import { podAttrs } from './testutil.ts';

function plugin(accounts: Record<string, any> = { 'default/default': {} }) {
  let seed = 0.1;
  return serviceAccountAdmission({
    getServiceAccount: async (ns, name) => accounts[`${ns}/${name}`],
    volumeNameSuffix: () => randomSuffix(() => (seed = (seed * 7.31) % 1)),
  });
}

const pod = (spec: any = {}) => ({ metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

test('a pod without serviceAccountName gets the default ServiceAccount', async () => {
  const p: any = pod();
  await plugin().admit(podAttrs(p));
  assert.equal(p.spec.serviceAccountName, 'default');
  assert.equal(p.spec.serviceAccount, 'default');
});

test('a pod gets a projected kube-api-access volume mounted in every container', async () => {
  const p: any = pod({ initContainers: [{ name: 'init', image: 'busybox' }] });
  await plugin().admit(podAttrs(p));
  const volume = p.spec.volumes[0];
  assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume.projected.sources[0], { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } });
  assert.equal(volume.projected.sources[1].configMap.name, 'kube-root-ca.crt');
  assert.equal(volume.projected.sources[2].downwardAPI.items[0].fieldRef.fieldPath, 'metadata.namespace');
  for (const c of [...p.spec.containers, ...p.spec.initContainers]) {
    assert.deepEqual(c.volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
  }
});

test('a pod that opts out of automounting gets no token volume', async () => {
  const p: any = pod({ automountServiceAccountToken: false });
  await plugin().admit(podAttrs(p));
  assert.equal(p.spec.volumes, undefined);
});

test('a ServiceAccount that opts out of automounting is overridden by the pod', async () => {
  const accounts = { 'default/bot': { automountServiceAccountToken: false } };
  const off: any = pod({ serviceAccountName: 'bot' });
  await plugin(accounts).admit(podAttrs(off));
  assert.equal(off.spec.volumes, undefined);
  const on: any = pod({ serviceAccountName: 'bot', automountServiceAccountToken: true });
  await plugin(accounts).admit(podAttrs(on));
  assert.equal(on.spec.volumes.length, 1);
});

test('a container that already mounts the token path keeps its own mount', async () => {
  const mount = { name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  const p: any = pod({ containers: [{ name: 'c', image: 'x', volumeMounts: [mount] }], volumes: [{ name: 'mine', emptyDir: {} }] });
  await plugin().admit(podAttrs(p));
  assert.deepEqual(p.spec.containers[0].volumeMounts, [mount]);
  assert.equal(p.spec.volumes.length, 1, 'no container needed the token volume');
});

test('a pod inherits the ServiceAccount imagePullSecrets when it lists none', async () => {
  const p: any = pod({ serviceAccountName: 'puller' });
  await plugin({ 'default/puller': { imagePullSecrets: [{ name: 'regcred' }] } }).admit(podAttrs(p));
  assert.deepEqual(p.spec.imagePullSecrets, [{ name: 'regcred' }]);
});

test('a pod whose ServiceAccount does not exist is forbidden with upstream message', async () => {
  const p: any = pod({ serviceAccountName: 'ghost' });
  await assert.rejects(plugin().admit(podAttrs(p)), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.code, 403);
    assert.equal(e.message, 'pods "web" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
    return true;
  });
  await assert.rejects(plugin().validate(podAttrs(p)), AdmissionDenied);
});

test('only pod creation is touched: updates and other resources pass unchanged', async () => {
  const p: any = pod();
  await plugin({}).admit(podAttrs(p, { operation: 'UPDATE' }));
  await plugin({}).admit(podAttrs(p, { resource: { group: '', version: 'v1', resource: 'configmaps' } }));
  assert.equal(p.spec.serviceAccountName, undefined);
});

test('a mirror pod may not name a ServiceAccount and is otherwise left alone', async () => {
  const mirror: any = { metadata: { name: 'm', annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: { containers: [] } };
  await plugin().admit(podAttrs(mirror));
  assert.equal(mirror.spec.serviceAccountName, undefined);
  mirror.spec.serviceAccountName = 'default';
  await assert.rejects(plugin().admit(podAttrs(mirror)), /a mirror pod may not reference service accounts/);
});
