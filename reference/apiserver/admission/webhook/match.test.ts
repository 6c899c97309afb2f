import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionAttributes } from '../../pipeline.ts';
import { isExemptConfigurationResource, namespaceSelectorMatches, objectSelectorMatches, ruleMatches } from './match.ts';
import type { RuleWithOperations } from './types.ts';
import { attrsFor, podAttrs } from '../testutil.ts';

const pods: RuleWithOperations = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
const pod = podAttrs({ metadata: { name: 'p', labels: { app: 'web' } } });

const ruleCases: Array<[string, RuleWithOperations, AdmissionAttributes, boolean]> = [
  ['a rule for pod creation matches a pod create', pods, pod, true],
  ['a rule for pod creation does not match a pod update', pods, { ...pod, operation: 'UPDATE' }, false],
  ['a rule for pods does not match the pods/status subresource', pods, { ...pod, subresource: 'status' }, false],
  ['pods/* matches every pod subresource', { ...pods, resources: ['pods/*'] }, { ...pod, subresource: 'status' }, true],
  ['pods/* also matches the pod itself, as upstream rules.go compares sub == "*" first', { ...pods, resources: ['pods/*'] }, pod, true],
  ['*/status matches any resource status', { ...pods, resources: ['*/status'] }, { ...pod, subresource: 'status' }, true],
  ['wildcards match any group, version and operation', { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }, { ...pod, operation: 'DELETE' }, true],
  ['a rule for apps does not match core pods', { ...pods, apiGroups: ['apps'] }, pod, false],
  ['Namespaced scope matches a namespaced object', { ...pods, scope: 'Namespaced' }, pod, true],
  ['Cluster scope does not match a namespaced object', { ...pods, scope: 'Cluster' }, pod, false],
  [
    'Cluster scope matches a Namespace object',
    { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], scope: 'Cluster' },
    attrsFor('namespaces', 'Namespace', '', { metadata: { name: 'n' } }, { namespace: '' }),
    true,
  ],
];

for (const [name, rule, attrs, expected] of ruleCases) {
  test(name, () => assert.equal(ruleMatches(rule, attrs), expected));
}

test('an objectSelector matches the object or the old object labels', () => {
  assert.equal(objectSelectorMatches({ matchLabels: { app: 'web' } }, pod), true);
  assert.equal(objectSelectorMatches({ matchLabels: { app: 'db' } }, pod), false);
  const del = { ...pod, object: undefined, oldObject: { metadata: { labels: { app: 'db' } } }, operation: 'DELETE' as const };
  assert.equal(objectSelectorMatches({ matchLabels: { app: 'db' } }, del), true);
  assert.equal(objectSelectorMatches(undefined, pod), true);
});

test('a namespaceSelector reads the labels of the request namespace', async () => {
  const labels = (ns: string) => (ns === 'default' ? { env: 'prod' } : undefined);
  assert.deepEqual(await namespaceSelectorMatches({ matchLabels: { env: 'prod' } }, pod, labels), { matches: true });
  assert.deepEqual(await namespaceSelectorMatches({ matchLabels: { env: 'dev' } }, pod, labels), { matches: false });
  assert.deepEqual(await namespaceSelectorMatches({ matchLabels: { env: 'prod' } }, { ...pod, namespace: 'gone' }, labels), { namespaceMissing: 'gone' });
});

test('a namespaceSelector always matches cluster-scoped objects other than namespaces', async () => {
  const node = attrsFor('nodes', 'Node', '', { metadata: { name: 'n' } }, { namespace: '' });
  assert.deepEqual(await namespaceSelectorMatches({ matchLabels: { env: 'prod' } }, node, () => undefined), { matches: true });
});

test('a namespace being created is matched by its own labels', async () => {
  const ns = attrsFor('namespaces', 'Namespace', '', { metadata: { name: 'n', labels: { env: 'prod' } } }, { namespace: '' });
  assert.deepEqual(await namespaceSelectorMatches({ matchLabels: { env: 'prod' } }, ns, () => undefined), { matches: true });
});

test('webhook configurations are exempt from webhooks', () => {
  const cfg = attrsFor('validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', 'admissionregistration.k8s.io', {}, { namespace: '' });
  assert.equal(isExemptConfigurationResource(cfg), true);
  assert.equal(isExemptConfigurationResource(pod), false);
});
