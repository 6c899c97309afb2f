import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalBackend } from '../store/local.ts';
import { harness } from './testing/harness.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const CONTROLLER_ROLES = ['deployment-controller', 'endpointslice-controller', 'generic-garbage-collector', 'node-controller', 'replicaset-controller', 'job-controller', 'ttl-after-finished-controller', 'disruption-controller', 'endpoint-controller', 'namespace-controller', 'clusterrole-aggregation-controller', 'pod-garbage-collector'].map((n) => `system:controller:${n}`);
const USER_ROLES = ['admin', 'edit', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'view'];
const BOOTSTRAP_ROLES = ['cluster-admin', 'system:basic-user', ...CONTROLLER_ROLES, 'system:discovery', 'system:kube-controller-manager', 'system:kube-scheduler', 'system:node-proxier', 'system:public-info-viewer', ...USER_ROLES].sort();

test('a fresh server holds the bootstrap ClusterRoles, each marked as upstream marks its default policy', async () => {
  const h = await harness();
  const roles = (await h.call('GET', `${RBAC}/clusterroles`)).json.items;
  assert.deepEqual(roles.map((r: any) => r.metadata.name).sort(), BOOTSTRAP_ROLES);
  for (const role of roles) {
    assert.equal(role.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults', role.metadata.name);
    assert.equal(role.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true', role.metadata.name);
    assert.ok(role.metadata.uid && role.metadata.resourceVersion, `${role.metadata.name} was stored like any created object`);
  }
});

test('system:basic-user lets a user review their own access and identity, and system:public-info-viewer only reads health and version', async () => {
  const h = await harness();
  const basic = (await h.call('GET', `${RBAC}/clusterroles/system:basic-user`)).json;
  assert.deepEqual(basic.rules, [
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
    { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
  ]);
  const pub = (await h.call('GET', `${RBAC}/clusterroles/system:public-info-viewer`)).json;
  assert.deepEqual(pub.rules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }]);
});

test('the bootstrap bindings give cluster-admin to system:masters, discovery and basic-user to authenticated users, public info to everyone', async () => {
  const h = await harness();
  const bindings = (await h.call('GET', `${RBAC}/clusterrolebindings`)).json.items;
  const subjects = Object.fromEntries(bindings.map((b: any) => [b.metadata.name, `${b.roleRef.name} <- ${b.subjects.map((s: any) => `${s.kind}:${s.name}`).join(', ')}`]));
  assert.deepEqual(subjects, {
    'cluster-admin': 'cluster-admin <- Group:system:masters',
    'system:discovery': 'system:discovery <- Group:system:authenticated',
    'system:basic-user': 'system:basic-user <- Group:system:authenticated',
    'system:public-info-viewer': 'system:public-info-viewer <- Group:system:authenticated, Group:system:unauthenticated',
    'system:kube-controller-manager': 'system:kube-controller-manager <- User:system:kube-controller-manager',
    'system:kube-scheduler': 'system:kube-scheduler <- User:system:kube-scheduler',
    ...Object.fromEntries(CONTROLLER_ROLES.map((r) => [r, `${r} <- ServiceAccount:${r.slice('system:controller:'.length)}, User:system:kube-controller-manager`])),
    'system:node-proxier': 'system:node-proxier <- User:system:kube-proxy',
  });
});

test('a server started over a store that already holds the bootstrap objects writes nothing, and keeps an edited role as it is', async () => {
  const backend = new LocalBackend();
  const first = await harness({ backend });
  const role = (await first.call('GET', `${RBAC}/clusterroles/system:discovery`)).json;
  role.rules = [{ verbs: ['get'], nonResourceURLs: ['/version'] }];
  assert.equal((await first.call('PUT', `${RBAC}/clusterroles/system:discovery`, role)).status, 200);
  const revision = backend.currentRevision();
  const second = await harness({ backend });
  assert.equal(backend.currentRevision(), revision);
  assert.deepEqual((await second.call('GET', `${RBAC}/clusterroles/system:discovery`)).json.rules, role.rules);
});

test('with bootstrap off the server creates no policy', async () => {
  const h = await harness({ bootstrap: false });
  assert.deepEqual((await h.call('GET', `${RBAC}/clusterroles`)).json.items, []);
});
