import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestAttributes } from '../pipeline.ts';
import { forbiddenMessage, forbiddenStatus } from './forbidden.ts';

const base: RequestAttributes = {
  user: { name: 'bob', groups: ['system:authenticated'] },
  verb: 'get',
  resourceRequest: true,
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'default',
  name: 'x',
  path: '/api/v1/namespaces/default/pods/x',
};

const cases: Array<[string, Partial<RequestAttributes>, string]> = [
  ['a named namespaced object', {}, 'pods "x" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"'],
  [
    'a list without a name',
    { verb: 'list', name: '' },
    'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"',
  ],
  [
    'a cluster-scoped resource of a named group',
    { apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', namespace: '', name: '', verb: 'list' },
    'clusterroles.rbac.authorization.k8s.io is forbidden: User "bob" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
  ],
  [
    'a subresource',
    { verb: 'update', subresource: 'status' },
    'pods "x" is forbidden: User "bob" cannot update resource "pods/status" in API group "" in the namespace "default"',
  ],
  ['a non-resource path', { resourceRequest: false, resource: '', name: '', namespace: '', path: '/healthz' }, 'forbidden: User "bob" cannot get path "/healthz"'],
];

for (const [what, patch, expected] of cases) {
  test(`the Forbidden message for ${what} reads as upstream's`, () => {
    assert.equal(forbiddenMessage({ ...base, ...patch }), expected);
  });
}

test('an authorizer reason is appended after a colon', () => {
  assert.match(forbiddenMessage(base, 'RBAC: role.rbac.authorization.k8s.io "r" not found'), /namespace "default": RBAC: role/);
});

test('the Forbidden Status carries reason, code and details like apierrors.NewForbidden', () => {
  assert.deepEqual(forbiddenStatus({ ...base, apiGroup: 'apps', resource: 'deployments', name: 'web' }), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments" in API group "apps" in the namespace "default"',
    reason: 'Forbidden',
    details: { name: 'web', group: 'apps', kind: 'deployments' },
    code: 403,
  });
});
