import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestAttributes, UserInfo } from '../pipeline.ts';
import { rbacAuthorizer } from './rbac.ts';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, RbacLister, Role, RoleBinding, Subject } from './types.ts';

const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const devs: UserInfo = { name: 'dana', groups: ['devs', 'system:authenticated'] };
const saBuilder: UserInfo = {
  name: 'system:serviceaccount:a:builder',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:a', 'system:authenticated'],
};
const admin: UserInfo = { name: 'root', groups: ['system:masters'] };

const role = (ns: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { name, namespace: ns }, rules });
const crole = (name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  rules,
});
const user = (name: string): Subject => ({ kind: 'User', name, apiGroup: 'rbac.authorization.k8s.io' });
const rb = (ns: string, name: string, kind: string, ref: string, subjects: Subject[]): RoleBinding => ({
  metadata: { name, namespace: ns },
  subjects,
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: ref },
});
const crb = (name: string, ref: string, subjects: Subject[]): ClusterRoleBinding => ({
  metadata: { name },
  subjects,
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ref },
});

const podReader: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] };

const world = {
  roles: [
    role('a', 'pod-reader', [podReader]),
    role('a', 'status-writer', [{ apiGroups: [''], resources: ['pods/status'], verbs: ['update'] }]),
    role('a', 'one-config', [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'], verbs: ['get'] }]),
    role('a', 'deploy-admin', [{ apiGroups: ['apps'], resources: ['*'], verbs: ['*'] }]),
    role('b', 'status-any', [{ apiGroups: ['*'], resources: ['*/status'], verbs: ['get'] }]),
  ],
  clusterRoles: [
    crole('view-pods', [podReader]),
    crole('health', [{ nonResourceURLs: ['/healthz', '/logs/*'], verbs: ['get'] }]),
    crole('node-reader', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }]),
    crole('monitoring-endpoints', [{ apiGroups: [''], resources: ['endpoints'], verbs: ['list'] }], { 'rbac.example.com/aggregate-to-monitoring': 'true' }),
    { metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] }, rules: [] },
  ] as ClusterRole[],
  roleBindings: [
    rb('a', 'bob-reads-pods', 'Role', 'pod-reader', [user('bob')]),
    rb('a', 'bob-writes-status', 'Role', 'status-writer', [user('bob')]),
    rb('a', 'bob-one-config', 'Role', 'one-config', [user('bob')]),
    rb('a', 'devs-deploy', 'Role', 'deploy-admin', [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }]),
    rb('a', 'builder-views', 'ClusterRole', 'view-pods', [{ kind: 'ServiceAccount', name: 'builder' }]),
    rb('b', 'bob-status-any', 'Role', 'status-any', [user('bob')]),
    rb('c', 'dangling', 'Role', 'missing-role', [user('bob')]),
  ],
  clusterRoleBindings: [
    crb('everyone-health', 'health', [{ kind: 'Group', name: 'system:authenticated', apiGroup: 'rbac.authorization.k8s.io' }]),
    crb('dana-nodes', 'node-reader', [user('dana')]),
    crb('dana-monitoring', 'monitoring', [user('dana')]),
  ],
};

const lister: RbacLister = {
  roles: (ns) => world.roles.filter((r) => r.metadata.namespace === ns),
  clusterRoles: () => world.clusterRoles,
  roleBindings: async (ns) => world.roleBindings.filter((b) => b.metadata.namespace === ns),
  clusterRoleBindings: () => world.clusterRoleBindings,
};

function req(u: UserInfo, verb: string, resource: string, ns: string, extra: Partial<RequestAttributes> = {}): RequestAttributes {
  const [res, sub] = resource.split('/');
  return {
    user: u,
    verb,
    resourceRequest: true,
    apiGroup: '',
    apiVersion: 'v1',
    resource: res!,
    subresource: sub ?? '',
    namespace: ns,
    name: '',
    path: '',
    ...extra,
  };
}

const nonResource = (u: UserInfo, path: string): RequestAttributes => ({ ...req(u, 'get', '', ''), resourceRequest: false, path });

const cases: Array<{ name: string; attrs: RequestAttributes; allowed: boolean; reason?: string }> = [
  {
    name: 'a user bound by a RoleBinding in ns a can list pods in ns a',
    attrs: req(bob, 'list', 'pods', 'a'),
    allowed: true,
    reason: 'RBAC: allowed by RoleBinding "bob-reads-pods/a" of Role "pod-reader" to User "bob"',
  },
  { name: 'a user bound by a RoleBinding in ns a cannot list pods in ns b', attrs: req(bob, 'list', 'pods', 'b'), allowed: false, reason: '' },
  { name: 'a user bound by a RoleBinding cannot list pods across all namespaces', attrs: req(bob, 'list', 'pods', ''), allowed: false },
  { name: 'a read-only role does not allow deleting pods', attrs: req(bob, 'delete', 'pods', 'a', { name: 'p' }), allowed: false },
  { name: 'a role on pods does not cover the pods/status subresource', attrs: req(bob, 'get', 'pods/status', 'a'), allowed: false },
  { name: 'a rule on pods/status allows updating pod status', attrs: req(bob, 'update', 'pods/status', 'a'), allowed: true },
  { name: 'a rule on pods/status does not allow updating the pod itself', attrs: req(bob, 'update', 'pods', 'a'), allowed: false },
  { name: 'a */status rule allows the status of any resource', attrs: req(bob, 'get', 'deployments/status', 'b', { apiGroup: 'apps' }), allowed: true },
  { name: 'a */status rule does not allow the resource itself', attrs: req(bob, 'get', 'deployments', 'b', { apiGroup: 'apps' }), allowed: false },
  { name: 'resourceNames allow the named object', attrs: req(bob, 'get', 'configmaps', 'a', { name: 'app-config' }), allowed: true },
  { name: 'resourceNames deny other objects', attrs: req(bob, 'get', 'configmaps', 'a', { name: 'other' }), allowed: false },
  {
    name: 'a group subject grants its members wildcard verbs on every resource of a group',
    attrs: req(devs, 'deletecollection', 'replicasets', 'a', { apiGroup: 'apps' }),
    allowed: true,
    reason: 'RBAC: allowed by RoleBinding "devs-deploy/a" of Role "deploy-admin" to Group "devs"',
  },
  { name: 'a rule for apps does not allow the core group', attrs: req(devs, 'get', 'pods', 'a'), allowed: false },
  {
    name: 'a RoleBinding to a ClusterRole grants a ServiceAccount of the binding namespace',
    attrs: req(saBuilder, 'watch', 'pods', 'a'),
    allowed: true,
    reason: 'RBAC: allowed by RoleBinding "builder-views/a" of ClusterRole "view-pods" to ServiceAccount "builder/a"',
  },
  { name: 'a RoleBinding to a ClusterRole grants nothing outside its namespace', attrs: req(saBuilder, 'watch', 'pods', 'b'), allowed: false },
  {
    name: 'a ClusterRoleBinding grants cluster-scoped resources',
    attrs: req(devs, 'list', 'nodes', ''),
    allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "dana-nodes" of ClusterRole "node-reader" to User "dana"',
  },
  {
    name: 'a ClusterRoleBinding to an aggregated ClusterRole grants the rules of the roles it selects',
    attrs: req(devs, 'list', 'endpoints', 'z'),
    allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "dana-monitoring" of ClusterRole "monitoring" to User "dana"',
  },
  {
    name: 'a nonResourceURL rule allows its exact path',
    attrs: nonResource(bob, '/healthz'),
    allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "everyone-health" of ClusterRole "health" to Group "system:authenticated"',
  },
  { name: 'a nonResourceURL rule ending in * allows paths under it', attrs: nonResource(bob, '/logs/kube.log'), allowed: true },
  { name: 'a nonResourceURL rule does not allow other paths', attrs: nonResource(bob, '/metrics'), allowed: false },
  { name: 'a user with no bindings is denied', attrs: req({ name: 'eve', groups: [] }, 'get', 'pods', 'a'), allowed: false, reason: '' },
  { name: 'the system:masters group is allowed everything', attrs: req(admin, 'delete', 'nodes', '', { name: 'n1' }), allowed: true, reason: '' },
  {
    name: 'a binding to a missing role denies with the resolution error as reason',
    attrs: req(bob, 'get', 'pods', 'c'),
    allowed: false,
    reason: 'RBAC: role.rbac.authorization.k8s.io "missing-role" not found',
  },
];

/**
 * The lister an informer cache is (reference/wiring/cached-reader.ts): each list frozen and served
 * as the same array until `write` replaces it. The authorizer remembers decisions against such lists.
 */
function frozenLister(state: { roles: Role[]; clusterRoles: ClusterRole[]; roleBindings: RoleBinding[]; clusterRoleBindings: ClusterRoleBinding[] }) {
  const lists = new Map<string, readonly unknown[]>();
  const served = <T>(key: string, make: () => T[]): T[] => {
    if (!lists.has(key)) lists.set(key, Object.freeze([...make()]));
    return lists.get(key) as T[];
  };
  const l: RbacLister = {
    roles: (ns) => served(`roles/${ns}`, () => state.roles.filter((r) => r.metadata.namespace === ns)),
    clusterRoles: () => served('clusterroles', () => state.clusterRoles),
    roleBindings: (ns) => served(`rolebindings/${ns}`, () => state.roleBindings.filter((b) => b.metadata.namespace === ns)),
    clusterRoleBindings: () => served('clusterrolebindings', () => state.clusterRoleBindings),
  };
  // A write serves new arrays for its own kind only ("roles", "rolebindings", ...), as a store watch invalidates.
  const write = (kind: string, change: () => void) => {
    change();
    for (const key of [...lists.keys()]) if (key.split('/')[0] === kind) lists.delete(key);
  };
  return { lister: l, write };
}

for (const c of cases) {
  test(c.name, async () => {
    const decision = await rbacAuthorizer({ lister }).authorize(c.attrs);
    assert.equal(decision.allowed, c.allowed);
    if (c.reason !== undefined) assert.equal(decision.reason, c.reason);
  });
}

test('over frozen lists every case decides the same, asked once or again (the second answer remembered)', async () => {
  const authorizer = rbacAuthorizer({ lister: frozenLister(world).lister });
  for (let round = 0; round < 2; round++) {
    for (const c of cases) {
      const decision = await authorizer.authorize(c.attrs);
      assert.equal(decision.allowed, c.allowed, `${c.name} (round ${round + 1})`);
      if (c.reason !== undefined) assert.equal(decision.reason, c.reason, `${c.name} (round ${round + 1})`);
    }
  }
});

test('a remembered decision follows a write to any list it was read from', async () => {
  const state = { roles: [...world.roles], clusterRoles: [...world.clusterRoles], roleBindings: [...world.roleBindings], clusterRoleBindings: [...world.clusterRoleBindings] };
  const { lister: l, write } = frozenLister(state);
  const authorizer = rbacAuthorizer({ lister: l });
  const listSecrets = req(bob, 'list', 'secrets', 'a');
  assert.equal((await authorizer.authorize(listSecrets)).allowed, false);
  assert.equal((await authorizer.authorize(listSecrets)).allowed, false);
  write('roles', () => state.roles.push(role('a', 'secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }])));
  assert.equal((await authorizer.authorize(listSecrets)).allowed, false, 'a Role alone grants nothing');
  write('rolebindings', () => state.roleBindings.push(rb('a', 'bob-secrets', 'Role', 'secret-reader', [user('bob')])));
  assert.equal((await authorizer.authorize(listSecrets)).allowed, true, 'a new RoleBinding takes effect');
  write('roles', () => (state.roles = state.roles.filter((r) => r.metadata.name !== 'secret-reader')));
  assert.equal((await authorizer.authorize(listSecrets)).reason, 'RBAC: role.rbac.authorization.k8s.io "secret-reader" not found', 'its Role deleted');
  const getNodes = req(bob, 'get', 'nodes', '');
  assert.equal((await authorizer.authorize(getNodes)).allowed, false);
  write('clusterrolebindings', () => state.clusterRoleBindings.push(crb('bob-nodes', 'node-reader', [user('bob')])));
  assert.equal((await authorizer.authorize(getNodes)).allowed, true, 'a new ClusterRoleBinding takes effect');
  write('clusterroles', () => (state.clusterRoles = state.clusterRoles.map((r) => (r.metadata.name === 'node-reader' ? crole('node-reader', []) : r))));
  assert.equal((await authorizer.authorize(getNodes)).allowed, false, 'and a ClusterRole emptied takes it back');
});

test('lists that are not frozen are read on every request: a change in place counts at once', async () => {
  const state = { ...world, roleBindings: [...world.roleBindings] };
  const bindings = state.roleBindings.filter((b) => b.metadata.namespace === 'a');
  const roles = world.roles.filter((r) => r.metadata.namespace === 'a');
  // The same arrays every time, as a lister without a frozen cache might serve them.
  const l: RbacLister = { ...lister, roles: () => roles, roleBindings: async () => bindings };
  const authorizer = rbacAuthorizer({ lister: l });
  const deleteDeployments = req(bob, 'delete', 'deployments', 'a', { apiGroup: 'apps' });
  assert.equal((await authorizer.authorize(deleteDeployments)).allowed, false);
  bindings.push(rb('a', 'bob-deploys', 'Role', 'deploy-admin', [user('bob')]));
  assert.equal((await authorizer.authorize(deleteDeployments)).allowed, true);
});

test('with aggregation resolution off, an aggregated ClusterRole grants only its stored rules', async () => {
  const decision = await rbacAuthorizer({ lister, resolveAggregation: false }).authorize(req(devs, 'list', 'endpoints', 'z'));
  assert.equal(decision.allowed, false);
});

test('a ServiceAccount subject names its namespace explicitly in a ClusterRoleBinding', async () => {
  const l: RbacLister = {
    ...lister,
    clusterRoleBindings: () => [crb('sa-nodes', 'node-reader', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'a' }])],
  };
  const ok = await rbacAuthorizer({ lister: l }).authorize(req(saBuilder, 'get', 'nodes', ''));
  assert.deepEqual(ok, {
    allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "sa-nodes" of ClusterRole "node-reader" to ServiceAccount "builder/a"',
  });
  const other = { ...saBuilder, name: 'system:serviceaccount:b:builder' };
  assert.equal((await rbacAuthorizer({ lister: l }).authorize(req(other, 'get', 'nodes', ''))).allowed, false);
});
