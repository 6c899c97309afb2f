import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactString, escalationReason, ruleCovers, uncoveredRules } from './escalation.ts';
import type { PolicyRule } from './types.ts';

const r = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
  ...(resourceNames ? { resourceNames } : {}),
});

const cases: Array<[string, PolicyRule[], PolicyRule[], boolean]> = [
  ['the same rule covers itself', [r(['get'], [''], ['pods'])], [r(['get'], [''], ['pods'])], true],
  ['more verbs held cover fewer granted', [r(['get', 'list'], [''], ['pods'])], [r(['list'], [''], ['pods'])], true],
  ['a verb not held is not covered', [r(['get'], [''], ['pods'])], [r(['get', 'delete'], [''], ['pods'])], false],
  ['rules held in pieces together cover one granted rule', [r(['get'], [''], ['pods']), r(['list'], [''], ['pods'])], [r(['get', 'list'], [''], ['pods'])], true],
  ['* held covers any verb, group and resource', [r(['*'], ['*'], ['*'])], [r(['escalate', 'bind'], ['rbac.authorization.k8s.io'], ['clusterroles'])], true],
  ['granting * needs * itself, not every verb listed', [r(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [''], ['pods'])], [r(['*'], [''], ['pods'])], false],
  ['granting resource * needs resource *', [r(['get'], [''], ['pods', 'services'])], [r(['get'], [''], ['*'])], false],
  ['a rule on pods does not cover pods/log', [r(['get'], [''], ['pods'])], [r(['get'], [''], ['pods/log'])], false],
  ['*/status covers pods/status', [r(['get'], [''], ['*/status'])], [r(['get'], [''], ['pods/status'])], true],
  ['*/status does not cover pods', [r(['get'], [''], ['*/status'])], [r(['get'], [''], ['pods'])], false],
  ['another group is not covered', [r(['get'], ['apps'], ['deployments'])], [r(['get'], ['extensions'], ['deployments'])], false],
  ['a named-object rule does not cover the whole resource', [r(['get'], [''], ['configmaps'], ['a'])], [r(['get'], [''], ['configmaps'])], false],
  ['a whole-resource rule covers a named object', [r(['get'], [''], ['configmaps'])], [r(['get'], [''], ['configmaps'], ['a'])], true],
  ['named objects are covered one by one', [r(['get'], [''], ['configmaps'], ['a', 'b'])], [r(['get'], [''], ['configmaps'], ['b'])], true],
  ['a prefix* URL covers paths under it', [{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/logs/x'] }], true],
  ['an exact URL does not cover another', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }], false],
  ['a resource rule does not cover a URL', [r(['*'], ['*'], ['*'])], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }], false],
  ['nothing granted is always covered', [], [], true],
];

for (const [name, held, granted, covered] of cases) {
  test(`covers: ${name}`, () => {
    assert.equal(uncoveredRules(held, granted).length === 0, covered);
  });
}

test('ruleCovers compares one tuple against a rule holding many', () => {
  assert.equal(ruleCovers(r(['get', 'list'], ['', 'apps'], ['pods', 'deployments']), r(['list'], ['apps'], ['pods'])), true);
});

test('CompactString prints Go %q lists in upstream field order', () => {
  assert.equal(compactString(r(['get', 'list'], ['apps'], ['deployments'], ['web'])), '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["get" "list"]}');
  assert.equal(compactString({ verbs: ['get'], nonResourceURLs: ['/metrics'] }), '{NonResourceURLs:["/metrics"], Verbs:["get"]}');
});

test('the escalation message names the user, her groups and the missing rules, merged by resource and sorted', () => {
  const user = { name: 'mallory', groups: ['devs', 'system:authenticated'] };
  const msg = escalationReason(user, [r(['get'], [''], ['pods'])], [r(['get', 'delete', 'create'], [''], ['pods', 'secrets'])]);
  assert.equal(
    msg,
    'user "mallory" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "create"]}\n' +
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "create"]}',
  );
  assert.equal(escalationReason(user, [r(['*'], ['*'], ['*'])], [r(['get'], [''], ['pods'])]), undefined);
});

test('a resolution error is appended to the escalation message', () => {
  const msg = escalationReason({ name: 'u', groups: [] }, [], [r(['get'], [''], ['pods'])], 'clusterrole.rbac.authorization.k8s.io "gone" not found');
  assert.match(msg!, /; resolution errors: \[clusterrole\.rbac\.authorization\.k8s\.io "gone" not found\]$/);
});
