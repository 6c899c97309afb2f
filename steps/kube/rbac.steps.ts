/**
 * Steps for RBAC and authorization (features/apiserver/rbac.feature, pipeline.feature PIPE-AUTHZ,
 * practices/pitfalls.feature): Roles, ClusterRoles and their bindings written as the admin, then
 * requests made as other users by impersonation (`KubeRequest.as`), and SubjectAccessReviews.
 * Objects made outside the scenario's namespace are removed after the scenario.
 */
import assert from 'node:assert/strict';
import { type DataTable, Given, Then, When } from '@cucumber/cucumber';
import type { Identity, KubeFacet, KubeRequest } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, configMapsPath, expandNs, expectSuccess, groupResource, LAST_RESPONSE, words } from './api.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC = `/apis/${RBAC_GROUP}/v1`;

/** Create an object as the admin; a cluster-scoped one (or a namespace) is deleted after the scenario. */
async function createObject(world: KubespecWorld, collection: string, body: any, clusterScoped: boolean): Promise<any> {
  const kube = world.kube();
  const created = expectSuccess(await kube.request({ method: 'POST', path: collection, body }), `create ${body.kind} "${body.metadata.name}"`);
  if (clusterScoped) world.onCleanup(() => kube.request({ method: 'DELETE', path: `${collection}/${encodeURIComponent(body.metadata.name)}` }));
  return created;
}

function rules(verbs: string, resources: string, resourceName?: string | null): unknown[] {
  // One rule per API group, as `kubectl create role` writes them.
  const byGroup = new Map<string, string[]>();
  for (const r of words(resources)) {
    // "pods/log": a core resource's subresource, not a resource "log" of a group "pods".
    const { group, resource } = /^(pods|services|nodes|serviceaccounts|namespaces)\//.test(r) ? { group: '', resource: r } : groupResource(r);
    byGroup.set(group, [...(byGroup.get(group) ?? []), resource]);
  }
  const names = resourceName ? { resourceNames: [resourceName] } : {};
  return [...byGroup].map(([group, res]) => ({ apiGroups: [group], resources: res, verbs: words(verbs), ...names }));
}

function subject(kube: KubeFacet, kind: string, rawName: string): Record<string, string> {
  const name = expandNs(kube, rawName);
  if (kind === 'service account') return { kind: 'ServiceAccount', name, namespace: kube.namespace };
  return { kind: kind === 'user' ? 'User' : 'Group', apiGroup: RBAC_GROUP, name };
}

Given('a Role {string} in the scenario\'s namespace allowing {string} on {string}', async function (this: KubespecWorld, name: string, verbs: string, resources: string) {
  const body = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'Role', metadata: { name: expandNs(this.kube(), name) }, rules: rules(verbs, resources) };
  await createObject(this, `${RBAC}/namespaces/${this.kube().namespace}/roles`, body, false);
});

Given(/^a ClusterRole "([^"]*)" allowing "([^"]*)" on "([^"]*)"(?: named "([^"]*)")?$/, async function (this: KubespecWorld, name: string, verbs: string, resources: string, named: string | null) {
  const body = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: expandNs(this.kube(), name) }, rules: rules(verbs, resources, named) };
  await createObject(this, `${RBAC}/clusterroles`, body, true);
});

Given(/^a RoleBinding(?: in the scenario's namespace)? binding (Role|ClusterRole) "([^"]*)" to (user|group|service account) "([^"]*)"$/, async function (this: KubespecWorld, roleKind: string, role: string, kind: string, name: string) {
  const kube = this.kube();
  const roleName = expandNs(kube, role);
  const body = {
    apiVersion: `${RBAC_GROUP}/v1`, kind: 'RoleBinding', metadata: { name: `${roleName}-${kind.replace(' ', '')}-${expandNs(kube, name)}`.replace(/[^a-z0-9.-]/g, '-') },
    roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: roleName },
    subjects: [subject(kube, kind, name)],
  };
  await createObject(this, `${RBAC}/namespaces/${kube.namespace}/rolebindings`, body, false);
});

Given(/^a ClusterRoleBinding binding ClusterRole "([^"]*)" to (user|group|service account) "([^"]*)"$/, async function (this: KubespecWorld, role: string, kind: string, name: string) {
  const kube = this.kube();
  const roleName = expandNs(kube, role);
  const body = {
    apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: { name: `${roleName}-${kind.replace(' ', '')}-${expandNs(kube, name)}`.replace(/[^a-z0-9.-]/g, '-') },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    subjects: [subject(kube, kind, name)],
  };
  await createObject(this, `${RBAC}/clusterrolebindings`, body, true);
});

Given('Namespace {string} exists', async function (this: KubespecWorld, name: string) {
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: expandNs(this.kube(), name) } };
  await createObject(this, '/api/v1/namespaces', body, true);
});

async function createServiceAccounts(world: KubespecWorld, names: string[]): Promise<void> {
  for (const name of names) {
    const body = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } };
    await createObject(world, `/api/v1/namespaces/${world.kube().namespace}/serviceaccounts`, body, false);
  }
}

Given(/^service accounts? ((?:"[^"]*"(?:, | and )?)+) in the scenario's namespace$/, async function (this: KubespecWorld, names: string) {
  await createServiceAccounts(this, [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!));
});

// ---- requests as another user ----------------------------------------------------------------

// An optional group a regex did not match arrives as null.
function identity(kube: KubeFacet, user: string, group?: string | null): Identity {
  return !group ? { user: expandNs(kube, user) } : { user: expandNs(kube, user), groups: [group] };
}

async function requestAs(world: KubespecWorld, as: Identity, req: Omit<KubeRequest, 'as'>): Promise<void> {
  world.note(LAST_RESPONSE, await world.kube().request({ ...req, as }));
}

function namespaceOf(world: KubespecWorld, where: string | null): string {
  return !where ? world.kube().namespace : expandNs(world.kube(), where);
}

/** "pods", "ConfigMaps", "secrets", "endpoints" as the features write them → the resource. */
function resourceNamed(text: string): { group: string; resource: string } {
  return groupResource(text === 'ConfigMaps' ? 'configmaps' : text);
}

When(/^"([^"]*)"(?: in group "([^"]*)")? lists (pods|ConfigMaps|secrets|endpoints) in (?:the scenario's namespace|Namespace "([^"]*)")$/, async function (this: KubespecWorld, user: string, group: string | null, what: string, where: string | null) {
  const { group: apiGroup, resource } = resourceNamed(what);
  await requestAs(this, identity(this.kube(), user, group), { method: 'GET', path: collectionPath(apiGroup, resource, namespaceOf(this, where)) });
});

When('{string} lists nodes', async function (this: KubespecWorld, user: string) {
  await requestAs(this, identity(this.kube(), user), { method: 'GET', path: '/api/v1/nodes' });
});

When('{string} deletes Pod {string} in the scenario\'s namespace', async function (this: KubespecWorld, user: string, name: string) {
  await requestAs(this, identity(this.kube(), user), { method: 'DELETE', path: `${collectionPath('', 'pods', this.kube().namespace)}/${encodeURIComponent(name)}` });
});

When('{string} creates ConfigMap {string}', async function (this: KubespecWorld, user: string, name: string) {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '0' } };
  await requestAs(this, identity(this.kube(), user), { method: 'POST', path: configMapsPath(this.kube()), body });
});

// ---- writing roles and bindings as another user (RBAC-NO-ESCALATION) ----------------------------

/** POST as `who`; a cluster-scoped object that was created is removed after the scenario. */
async function createAs(world: KubespecWorld, who: string, collection: string, body: any, clusterScoped: boolean): Promise<void> {
  const kube = world.kube();
  const res = await kube.request({ method: 'POST', path: collection, body, as: identity(kube, who) });
  if (clusterScoped && res.status === 201) world.onCleanup(() => kube.request({ method: 'DELETE', path: `${collection}/${encodeURIComponent(body.metadata.name)}` }));
  world.note(LAST_RESPONSE, res);
}

function bindingBody(kube: KubeFacet, kind: string, name: string, roleKind: string, role: string, user: string): any {
  return {
    apiVersion: `${RBAC_GROUP}/v1`, kind, metadata: { name: expandNs(kube, name) },
    roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: expandNs(kube, role) },
    subjects: [subject(kube, 'user', user)],
  };
}

When('{string} creates a ClusterRole {string} allowing {string} on {string}', async function (this: KubespecWorld, who: string, name: string, verbs: string, resources: string) {
  const body = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: expandNs(this.kube(), name) }, rules: rules(verbs, resources) };
  await createAs(this, who, `${RBAC}/clusterroles`, body, true);
});

When('{string} creates a Role {string} in the scenario\'s namespace allowing {string} on {string}', async function (this: KubespecWorld, who: string, name: string, verbs: string, resources: string) {
  const body = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'Role', metadata: { name: expandNs(this.kube(), name) }, rules: rules(verbs, resources) };
  await createAs(this, who, `${RBAC}/namespaces/${this.kube().namespace}/roles`, body, false);
});

When('{string} creates a ClusterRoleBinding {string} binding ClusterRole {string} to user {string}', async function (this: KubespecWorld, who: string, name: string, role: string, user: string) {
  await createAs(this, who, `${RBAC}/clusterrolebindings`, bindingBody(this.kube(), 'ClusterRoleBinding', name, 'ClusterRole', role, user), true);
});

When(/^"([^"]*)" creates a RoleBinding "([^"]*)" in (?:the scenario's namespace|Namespace "([^"]*)") binding (Role|ClusterRole) "([^"]*)" to user "([^"]*)"$/, async function (this: KubespecWorld, who: string, name: string, where: string | null, roleKind: string, role: string, user: string) {
  const body = bindingBody(this.kube(), 'RoleBinding', name, roleKind, role, user);
  await createAs(this, who, `${RBAC}/namespaces/${namespaceOf(this, where)}/rolebindings`, body, false);
});

When('{string} updates Role {string} to allow {string} on {string}', async function (this: KubespecWorld, who: string, name: string, verbs: string, resources: string) {
  const kube = this.kube();
  const path = `${RBAC}/namespaces/${kube.namespace}/roles/${encodeURIComponent(expandNs(kube, name))}`;
  const current = expectSuccess(await kube.request({ method: 'GET', path, as: identity(kube, who) }), `${who} reads Role "${name}"`);
  await requestAs(this, identity(kube, who), { method: 'PUT', path, body: { ...current, rules: rules(verbs, resources) } });
});

Then('ClusterRole {string} does not exist', async function (this: KubespecWorld, name: string) {
  const res = await this.kube().request({ method: 'GET', path: `${RBAC}/clusterroles/${encodeURIComponent(expandNs(this.kube(), name))}` });
  assert.equal(res.status, 404, `ClusterRole "${name}" should not have been stored; GET answered ${res.status}`);
});

// ---- subresources ---------------------------------------------------------------------------------

When(/^"([^"]*)" sends (GET|POST|PUT) to (?:the "([^"]*)" subresource of )?Pod "([^"]*)"$/, async function (this: KubespecWorld, who: string, method: string, sub: string | null, name: string) {
  const kube = this.kube();
  const path = `${collectionPath('', 'pods', kube.namespace)}/${encodeURIComponent(name)}${sub ? `/${sub}` : ''}`;
  // A body only where the verb takes one (a status update); authorization answers before it is read.
  const body = method === 'PUT' ? { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: kube.namespace } } : undefined;
  await requestAs(this, identity(kube, who), { method: method as KubeRequest['method'], path: sub === 'exec' ? `${path}?command=true&stdout=true` : path, ...(body ? { body } : {}) });
});

// ---- SubjectAccessReview: the authorizer's answer without the request ----------------------------

async function accessReview(world: KubespecWorld, user: string, verb: string, resource: string): Promise<any> {
  const kube = world.kube();
  const { group } = resourceNamed(resource);
  const body = {
    apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
    spec: { user: expandNs(kube, user), resourceAttributes: { namespace: kube.namespace, verb, group, resource: resourceNamed(resource).resource } },
  };
  const res = await kube.request({ method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews', body });
  return expectSuccess(res, `SubjectAccessReview for ${user} ${verb} ${resource}`);
}

When('a SubjectAccessReview asks whether {string} may {string} {string} in the scenario\'s namespace', async function (this: KubespecWorld, user: string, verb: string, resource: string) {
  this.note('review', await accessReview(this, user, verb, resource));
});

Then('the review\'s status.allowed is {word}', function (this: KubespecWorld, allowed: string) {
  const review = this.recall<any>('review');
  assert.equal(review.status?.allowed === true, allowed === 'true', `review status: ${JSON.stringify(review.status)}`);
});

Then('a SubjectAccessReview asking whether {string} may {string} {string} in the scenario\'s namespace has status.allowed {word}', async function (this: KubespecWorld, user: string, verb: string, resource: string, allowed: string) {
  const review = await accessReview(this, user, verb, resource);
  assert.equal(review.status?.allowed === true, allowed === 'true', `review status: ${JSON.stringify(review.status)}`);
});

// ---- what one rule matches, asked through SubjectAccessReviews (RBAC-RULE-MATCH) --------------------

/** A table cell as a list: words split by commas, "-" or empty for none. */
function cells(text: string | undefined): string[] | undefined {
  return !text || text === '-' ? undefined : words(text);
}

Given(/^a (ClusterRole "[^"]*"|Role "[^"]*" in the scenario's namespace) with the rules:$/, async function (this: KubespecWorld, what: string, table: DataTable) {
  const kube = this.kube();
  const name = expandNs(kube, /"([^"]*)"/.exec(what)![1]!);
  const ruleList = table.hashes().map((row) => {
    const rule: Record<string, string[]> = { verbs: cells(row.verbs)! };
    for (const field of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) {
      // An apiGroups cell of '""' is the core group.
      const value = cells(row[field])?.map((v) => (v === '""' ? '' : v));
      if (value) rule[field] = value;
    }
    return rule;
  });
  const cluster = what.startsWith('ClusterRole');
  const body = { apiVersion: `${RBAC_GROUP}/v1`, kind: cluster ? 'ClusterRole' : 'Role', metadata: { name }, rules: ruleList };
  await createObject(this, cluster ? `${RBAC}/clusterroles` : `${RBAC}/namespaces/${kube.namespace}/roles`, body, cluster);
});

/**
 * One SubjectAccessReview per row: a resource request (group, resource, subresource, name; in
 * the scenario's namespace unless the namespace cell says "other-{ns}" or "-" for cluster scope)
 * or, when the path cell is set, a non-resource request.
 */
Then('SubjectAccessReviews for {string} answer:', async function (this: KubespecWorld, user: string, table: DataTable) {
  const kube = this.kube();
  const wrong: string[] = [];
  for (const row of table.hashes()) {
    const namespace = row.namespace === undefined || row.namespace === '' ? kube.namespace : row.namespace === '-' ? '' : expandNs(kube, row.namespace);
    const attrs = row.path && row.path !== '-'
      ? { nonResourceAttributes: { path: row.path, verb: row.verb } }
      : { resourceAttributes: { namespace, verb: row.verb, group: row.group === '""' || row.group === '-' ? '' : row.group, resource: row.resource, ...(row.subresource && row.subresource !== '-' ? { subresource: row.subresource } : {}), ...(row.name && row.name !== '-' ? { name: row.name } : {}) } };
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: expandNs(kube, user), ...attrs } };
    const review = expectSuccess(await kube.request({ method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews', body }), `SubjectAccessReview ${JSON.stringify(row)}`);
    if ((review.status?.allowed === true) !== (row.allowed === 'true')) wrong.push(`${JSON.stringify(row)} → ${JSON.stringify(review.status)}`);
  }
  assert.deepEqual(wrong, [], 'reviews answered otherwise than expected');
});

// A RoleBinding's ServiceAccount subject may leave out its namespace: it then means the binding's
// own (appliesToUser in pkg/registry/rbac/validation/rule.go).
Given('a RoleBinding binding Role {string} to service account {string} named without a namespace', async function (this: KubespecWorld, role: string, name: string) {
  const kube = this.kube();
  const body = {
    apiVersion: `${RBAC_GROUP}/v1`, kind: 'RoleBinding', metadata: { name: `${expandNs(kube, role)}-sa-${name}-no-ns` },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: expandNs(kube, role) },
    subjects: [{ kind: 'ServiceAccount', name }],
  };
  await createObject(this, `${RBAC}/namespaces/${kube.namespace}/rolebindings`, body, false);
});
