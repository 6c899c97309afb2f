/**
 * Steps for aggregated ClusterRoles (RBAC-AGGREGATION): roles with an aggregationRule, roles
 * labelled to be aggregated, and what the clusterrole-aggregation controller writes into the
 * aggregate. Roles made here are cluster-scoped and removed after the scenario.
 */
import assert from 'node:assert/strict';
import { Then, When, Given } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expandNs, expectSuccess, groupResource } from './api.ts';

const CLUSTERROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
const rolePath = (name: string) => `${CLUSTERROLES}/${encodeURIComponent(name)}`;

function labelOf(world: KubespecWorld, text: string): Record<string, string> {
  const [k, v] = expandNs(world.kube(), text).split('=') as [string, string];
  return { [k]: v };
}

async function getRole(world: KubespecWorld, name: string): Promise<any> {
  return expectSuccess(await world.kube().request({ method: 'GET', path: rolePath(expandNs(world.kube(), name)) }), `get ClusterRole "${name}"`);
}

/** Whether a rule of the role allows `verb` on `resource` ("endpoints", "widgets.example.com"). */
function allows(role: any, verb: string, text: string): boolean {
  const { group, resource } = groupResource(text);
  return (role.rules ?? []).some((r: any) => (r.verbs ?? []).includes(verb) && (r.apiGroups ?? []).includes(group) && (r.resources ?? []).includes(resource));
}

async function createRole(world: KubespecWorld, body: any): Promise<any> {
  const kube = world.kube();
  const created = expectSuccess(await kube.request({ method: 'POST', path: CLUSTERROLES, body }), `create ClusterRole "${body.metadata.name}"`);
  world.onCleanup(() => kube.request({ method: 'DELETE', path: rolePath(body.metadata.name) }));
  world.note(`ClusterRole ${body.metadata.name}`, created);
  return created;
}

Given('a ClusterRole {string} with an aggregationRule selecting label {string}', async function (this: KubespecWorld, name: string, label: string) {
  await createRole(this, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: expandNs(this.kube(), name) }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: labelOf(this, label) }] } });
});

When('a ClusterRole {string} allowing {string} on {string} is created with label {string}', async function (this: KubespecWorld, name: string, verb: string, text: string, label: string) {
  const { group, resource } = groupResource(text);
  await createRole(this, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: expandNs(this.kube(), name), labels: labelOf(this, label) }, rules: [{ apiGroups: [group], resources: [resource], verbs: [verb] }] });
});

When('ClusterRole {string} is updated to list a rule allowing {string} on {string}', async function (this: KubespecWorld, name: string, verb: string, text: string) {
  const role = await getRole(this, name);
  const { group, resource } = groupResource(text);
  role.rules = [...(role.rules ?? []), { apiGroups: [group], resources: [resource], verbs: [verb] }];
  const updated = expectSuccess(await this.kube().request({ method: 'PUT', path: rolePath(role.metadata.name), body: role }), `update ClusterRole "${name}"`);
  assert.ok(allows(updated, verb, text), 'the update did not store the rule');
});

When('ClusterRole {string} is deleted', async function (this: KubespecWorld, name: string) {
  expectSuccess(await this.kube().request({ method: 'DELETE', path: rolePath(expandNs(this.kube(), name)) }), `delete ClusterRole "${name}"`);
});

Then(/^within (\d+) s ClusterRole "([^"]+)" lists (a|no) rule allowing "([^"]+)" on "([^"]+)"$/, async function (this: KubespecWorld, secs: string, name: string, which: string, verb: string, text: string) {
  await this.eventually(`ClusterRole "${name}" to list ${which} rule allowing ${verb} on ${text}`, async () => allows(await getRole(this, name), verb, text) === (which === 'a'), Number(secs) * 1000);
});

Then(/^within (\d+) s ClusterRoles ((?:"[^"]+"(?:, | and )?)+) each list (a|no) rule allowing "([^"]+)" on "([^"]+)"$/, async function (this: KubespecWorld, secs: string, list: string, which: string, verb: string, text: string) {
  for (const [, name] of list.matchAll(/"([^"]+)"/g)) {
    await this.eventually(`ClusterRole "${name}" to list ${which} rule allowing ${verb} on ${text}`, async () => allows(await getRole(this, name!), verb, text) === (which === 'a'), Number(secs) * 1000);
  }
});

Then('{string} listing endpoints in the scenario\'s namespace is answered {int}', async function (this: KubespecWorld, user: string, code: number) {
  const kube = this.kube();
  const res = await kube.request({ method: 'GET', path: collectionPath('', 'endpoints', kube.namespace), as: { user: expandNs(kube, user) } });
  assert.equal(res.status, code, res.text.slice(0, 300));
});

Then('ClusterRole {string} is unchanged', async function (this: KubespecWorld, name: string) {
  const before = this.recall<any>(`ClusterRole ${expandNs(this.kube(), name)}`);
  const now = await getRole(this, name);
  assert.equal(now.metadata.resourceVersion, before.metadata.resourceVersion);
  assert.deepEqual(now.rules, before.rules);
});

Then('ClusterRole {string} holds every rule of ClusterRole {string}, and ClusterRole {string} every rule of ClusterRole {string}', async function (this: KubespecWorld, a: string, b: string, c: string, d: string) {
  for (const [outer, inner] of [[a, b], [c, d]] as const) {
    const [o, i] = [await getRole(this, outer), await getRole(this, inner)];
    assert.ok((i.rules ?? []).length > 0, `ClusterRole "${inner}" holds no rules`);
    for (const rule of i.rules) for (const verb of rule.verbs) for (const res of rule.resources ?? []) {
      for (const g of rule.apiGroups ?? ['']) assert.ok((o.rules ?? []).some((r: any) => r.verbs.includes(verb) && (r.apiGroups ?? []).includes(g) && (r.resources ?? []).includes(res)), `"${outer}" lacks ${verb} ${res}.${g}`);
    }
  }
});
