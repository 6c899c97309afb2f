import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalBackend } from '../../store/local.ts';
import { referenceSecurity } from '../../wiring/security.ts';
import { harness } from '../testing/harness.ts';

const CSV = 'admin-token,admin,admin-uid,"system:masters"\nalice-token,alice,alice-uid,"devs"\n';
const admin = { authorization: 'Bearer admin-token' };
const alice = { authorization: 'Bearer alice-token' };

async function secured() {
  const backend = new LocalBackend();
  const security = referenceSecurity({ backend, clock: { now_ms: () => Date.UTC(2024, 0, 1) }, random: () => 0.5, tokenCsv: CSV, anonymous: true, resolveAggregation: true });
  // No controller manager runs here, so aggregated roles are resolved when asked.
  return harness({ backend, ...security.options });
}

const review = (kind: string, group: string, extra: Record<string, unknown> = {}) => ({ apiVersion: `${group}/v1`, kind, ...extra });

test('SelfSubjectReview answers the caller\'s own user info (kubectl auth whoami)', async () => {
  const h = await secured();
  const r = await h.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', review('SelfSubjectReview', 'authentication.k8s.io'), alice);
  assert.equal(r.status, 201, JSON.stringify(r.json));
  assert.deepEqual(r.json.status.userInfo, { username: 'alice', uid: 'alice-uid', groups: ['devs', 'system:authenticated'] });
});

test('TokenReview authenticates a token as the server would, and says false for an unknown one', async () => {
  const h = await secured();
  const path = '/apis/authentication.k8s.io/v1/tokenreviews';
  const ok = await h.call('POST', path, review('TokenReview', 'authentication.k8s.io', { spec: { token: 'alice-token' } }), admin);
  assert.equal(ok.status, 201, JSON.stringify(ok.json));
  assert.equal(ok.json.status.authenticated, true);
  assert.equal(ok.json.status.user.username, 'alice');
  const bad = await h.call('POST', path, review('TokenReview', 'authentication.k8s.io', { spec: { token: 'nope' } }), admin);
  assert.equal(bad.status, 201);
  assert.notEqual(bad.json.status.authenticated, true);
  const denied = await h.call('POST', path, review('TokenReview', 'authentication.k8s.io', { spec: { token: 'alice-token' } }), alice);
  assert.equal(denied.status, 403, 'creating a TokenReview needs RBAC permission (system:auth-delegator)');
});

test('SelfSubjectRulesReview lists the rules bound to the caller in the namespace; system:masters gets the * rules', async () => {
  const h = await secured();
  const rb = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'devs-view' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } };
  assert.equal((await h.call('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', rb, admin)).status, 201);
  const path = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
  const mine = await h.call('POST', path, review('SelfSubjectRulesReview', 'authorization.k8s.io', { spec: { namespace: 'default' } }), alice);
  assert.equal(mine.status, 201, JSON.stringify(mine.json));
  const pods = mine.json.status.resourceRules.find((r: any) => r.resources.includes('pods') && r.apiGroups.includes(''));
  assert.deepEqual(pods?.verbs, ['get', 'list', 'watch'], 'view (aggregated from system:aggregate-to-view) reads pods');
  assert.ok(!mine.json.status.resourceRules.some((r: any) => r.resources.includes('secrets')), 'view does not read secrets');
  assert.ok(mine.json.status.resourceRules.some((r: any) => r.resources.includes('selfsubjectrulesreviews')), 'system:basic-user applies everywhere');
  const elsewhere = await h.call('POST', path, review('SelfSubjectRulesReview', 'authorization.k8s.io', { spec: { namespace: 'kube-system' } }), alice);
  assert.ok(!elsewhere.json.status.resourceRules.some((r: any) => r.resources.includes('pods')), 'a RoleBinding applies in its namespace only');
  const root = await h.call('POST', path, review('SelfSubjectRulesReview', 'authorization.k8s.io', { spec: { namespace: 'default' } }), admin);
  assert.deepEqual(root.json.status.resourceRules[0], { verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
  assert.equal(root.json.status.incomplete, false);
});

test('edit includes view and admin includes edit, by aggregation', async () => {
  const h = await secured();
  const bind = (name: string, role: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role } });
  const can = async (verb: string, resource: string, group = '') => {
    const r = await h.call('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review('SelfSubjectAccessReview', 'authorization.k8s.io', { spec: { resourceAttributes: { namespace: 'default', verb, resource, group } } }), alice);
    return r.json.status.allowed;
  };
  await h.call('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', bind('e', 'edit'), admin);
  assert.equal(await can('list', 'pods'), true);
  assert.equal(await can('create', 'deployments', 'apps'), true);
  assert.equal(await can('get', 'secrets'), true);
  assert.equal(await can('create', 'rolebindings', 'rbac.authorization.k8s.io'), false, 'edit cannot grant');
  await h.call('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', bind('a', 'admin'), admin);
  assert.equal(await can('create', 'rolebindings', 'rbac.authorization.k8s.io'), true);
});
