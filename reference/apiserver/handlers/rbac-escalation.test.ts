import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenFileAuthenticator } from '../authn/tokenfile.ts';
import { rbacAuthorizer, ruleResolver } from '../authz/rbac.ts';
import type { RbacLister } from '../authz/types.ts';
import { harness, type Harness } from '../testing/harness.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const ADMIN = { authorization: 'Bearer admin-token' };
const BOB = { authorization: 'Bearer bob-token' };
const TOKENS = 'admin-token,admin,u0,system:masters\nbob-token,bob,u1';

/** A secure server whose RBAC reads its objects back through the API as the admin. */
async function secureServer(): Promise<Harness> {
  let h: Harness | undefined;
  const items = async (path: string) => (await h!.call('GET', path, undefined, ADMIN)).json.items ?? [];
  const lister: RbacLister = {
    roles: (ns) => items(`${RBAC}/namespaces/${ns}/roles`),
    clusterRoles: () => items(`${RBAC}/clusterroles`),
    roleBindings: (ns) => items(`${RBAC}/namespaces/${ns}/rolebindings`),
    clusterRoleBindings: () => items(`${RBAC}/clusterrolebindings`),
  };
  h = await harness({
    authenticators: [tokenFileAuthenticator({ csv: TOKENS })],
    authorizer: rbacAuthorizer({ lister }),
    ruleResolver: ruleResolver({ lister }),
  });
  return h;
}

const rule = (verbs: string[], resources: string[], apiGroups = ['rbac.authorization.k8s.io']) => ({ apiGroups, resources, verbs });
const clusterRole = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules });
const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, roleKind: string, role: string, user = 'bob') => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
});

async function as(h: Harness, headers: Record<string, string>, method: string, path: string, body?: unknown) {
  return h.call(method, path, body, headers);
}

/** Gives bob a ClusterRole of these rules, cluster-wide. */
async function grantBob(h: Harness, name: string, rules: unknown[]): Promise<void> {
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterroles`, clusterRole(name, rules))).status, 201);
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterrolebindings`, binding('ClusterRoleBinding', `bob-${name}`, 'ClusterRole', name))).status, 201);
}

const EVERYTHING = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }];

test('a user allowed only to create ClusterRoles cannot create one granting more than she holds', async () => {
  const h = await secureServer();
  await grantBob(h, 'role-maker', [rule(['create'], ['clusterroles'])]);
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterroles`, clusterRole('god', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]));
  assert.equal(r.status, 403);
  assert.equal(r.json.reason, 'Forbidden');
  assert.equal(
    r.json.message,
    'clusterroles.rbac.authorization.k8s.io "god" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
  );
  assert.deepEqual(r.json.details, { name: 'god', group: 'rbac.authorization.k8s.io', kind: 'clusterroles' });
  assert.equal((await as(h, ADMIN, 'GET', `${RBAC}/clusterroles/god`)).status, 404, 'nothing was stored');
});

test('a ClusterRole holding only rules she holds is created', async () => {
  const h = await secureServer();
  await grantBob(h, 'role-maker', [rule(['create'], ['clusterroles']), rule(['get', 'list'], ['pods'], [''])]);
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterroles`, clusterRole('pod-lister', [rule(['list'], ['pods'], [''])]));
  assert.equal(r.status, 201, JSON.stringify(r.json));
});

test('the escalate verb lets her create a role beyond her own rights', async () => {
  const h = await secureServer();
  await grantBob(h, 'escalator', [rule(['create', 'escalate'], ['clusterroles'])]);
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterroles`, clusterRole('god', EVERYTHING));
  assert.equal(r.status, 201, JSON.stringify(r.json));
});

test('an update that adds rules she does not hold is refused, and one that keeps within them passes', async () => {
  const h = await secureServer();
  await grantBob(h, 'role-editor', [rule(['create', 'get', 'update'], ['clusterroles']), rule(['get'], ['pods'], [''])]);
  const created = await as(h, BOB, 'POST', `${RBAC}/clusterroles`, clusterRole('mine', [rule(['get'], ['pods'], [''])]));
  assert.equal(created.status, 201);
  const widened = { ...created.json, rules: [rule(['get', 'delete'], ['pods'], [''])] };
  const refused = await as(h, BOB, 'PUT', `${RBAC}/clusterroles/mine`, widened);
  assert.equal(refused.status, 403);
  assert.match(refused.json.message, /not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["delete"\]\}$/);
  const relabelled = { ...created.json, metadata: { ...created.json.metadata, labels: { a: 'b' } } };
  assert.equal((await as(h, BOB, 'PUT', `${RBAC}/clusterroles/mine`, relabelled)).status, 200);
});

test('an aggregationRule needs every right, whatever the rules say', async () => {
  const h = await secureServer();
  await grantBob(h, 'role-maker', [rule(['create'], ['clusterroles'])]);
  const body = { ...clusterRole('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterroles`, body);
  assert.equal(r.status, 403);
  assert.match(r.json.message, /is forbidden: must have cluster-admin privileges to use the aggregationRule$/);
});

test('a user allowed only to create ClusterRoleBindings cannot bind herself to a role with rights she lacks', async () => {
  const h = await secureServer();
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterroles`, clusterRole('all', EVERYTHING))).status, 201);
  await grantBob(h, 'binder', [rule(['create'], ['clusterrolebindings'])]);
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterrolebindings`, binding('ClusterRoleBinding', 'bob-all', 'ClusterRole', 'all'));
  assert.equal(r.status, 403);
  assert.match(r.json.message, /^clusterrolebindings\.rbac\.authorization\.k8s\.io "bob-all" is forbidden: user "bob" .* not currently held:\n/);
  assert.equal((await as(h, BOB, 'GET', '/api/v1/namespaces/default/secrets')).status, 403, 'she gained nothing');
});

test('the bind verb on that role lets her bind it', async () => {
  const h = await secureServer();
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterroles`, clusterRole('all', EVERYTHING))).status, 201);
  await grantBob(h, 'binder', [rule(['create'], ['clusterrolebindings']), { ...rule(['bind'], ['clusterroles']), resourceNames: ['all'] }]);
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterrolebindings`, binding('ClusterRoleBinding', 'bob-all', 'ClusterRole', 'all'));
  assert.equal(r.status, 201, JSON.stringify(r.json));
});

test('a RoleBinding to a ClusterRole needs its rights only in the binding namespace', async () => {
  const h = await secureServer();
  for (const ns of ['x', 'y']) assert.equal((await as(h, ADMIN, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterroles`, clusterRole('pod-reader', [rule(['get'], ['pods'], [''])]))).status, 201);
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterroles`, clusterRole('ns-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]))).status, 201);
  // bob is admin of namespace x only (a RoleBinding there), and may create bindings everywhere.
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/namespaces/x/rolebindings`, binding('RoleBinding', 'bob-admin', 'ClusterRole', 'ns-admin'))).status, 201);
  await grantBob(h, 'binder', [rule(['create'], ['rolebindings'])]);
  const inX = await as(h, BOB, 'POST', `${RBAC}/namespaces/x/rolebindings`, binding('RoleBinding', 'carol-reads', 'ClusterRole', 'pod-reader', 'carol'));
  assert.equal(inX.status, 201, JSON.stringify(inX.json));
  const inY = await as(h, BOB, 'POST', `${RBAC}/namespaces/y/rolebindings`, binding('RoleBinding', 'carol-reads', 'ClusterRole', 'pod-reader', 'carol'));
  assert.equal(inY.status, 403);
  assert.match(inY.json.message, /^rolebindings\.rbac\.authorization\.k8s\.io "carol-reads" is forbidden: user "bob"/);
});

test('a binding to a role that does not exist is refused with the lookup error', async () => {
  const h = await secureServer();
  await grantBob(h, 'binder', [rule(['create'], ['clusterrolebindings'])]);
  const r = await as(h, BOB, 'POST', `${RBAC}/clusterrolebindings`, binding('ClusterRoleBinding', 'b', 'ClusterRole', 'missing'));
  assert.equal(r.status, 403);
  assert.equal(r.json.message, 'clusterrolebindings.rbac.authorization.k8s.io "b" is forbidden: clusterrole.rbac.authorization.k8s.io "missing" not found');
});

test('system:masters may create any role and binding', async () => {
  const h = await secureServer();
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterroles`, clusterRole('all', EVERYTHING))).status, 201);
  assert.equal((await as(h, ADMIN, 'POST', `${RBAC}/clusterrolebindings`, binding('ClusterRoleBinding', 'bob-all', 'ClusterRole', 'all'))).status, 201);
});
