import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionChain } from './chain.ts';
import { podAttrs } from './testutil.ts';

const base = {
  getNamespace: () => ({ status: { phase: 'Active' } }),
  getServiceAccount: () => ({}),
  volumeNameSuffix: () => 'abcde',
};

test('the admission chain runs defaults, namespace lifecycle, ServiceAccount, NodeRestriction, PodSecurity and DefaultTolerationSeconds in upstream order', () => {
  const chain = admissionChain(base);
  assert.deepEqual(chain.mutating.map((p) => p.name), ['Defaults', 'NamespaceLifecycle', 'ServiceAccount', 'NodeRestriction', 'DefaultTolerationSeconds']);
  assert.deepEqual(chain.validating.map((p) => p.name), ['ServiceAccount', 'PodSecurity']);
  assert.deepEqual(admissionChain({ ...base, disablePodSecurity: true }).validating.map((p) => p.name), ['ServiceAccount']);
});

test('webhooks go last and DenyServiceExternalIPs is opt-in', () => {
  const webhooks = {
    lister: { mutatingWebhookConfigurations: () => [], validatingWebhookConfigurations: () => [], namespaceLabels: () => ({}) },
    call: async () => ({ status: 200, body: '' }),
    newUid: () => 'u',
  };
  const chain = admissionChain({ ...base, webhooks, denyServiceExternalIPs: true });
  assert.deepEqual(chain.mutating.map((p) => p.name).slice(-1), ['MutatingAdmissionWebhook']);
  assert.deepEqual(chain.validating.map((p) => p.name), ['ServiceAccount', 'PodSecurity', 'DenyServiceExternalIPs', 'ValidatingAdmissionWebhook']);
});

test('a pod through the whole mutating chain comes out defaulted with a token volume', async () => {
  const chain = admissionChain(base);
  const pod: any = { metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  for (const p of chain.mutating) await p.admit(podAttrs(pod));
  for (const p of chain.validating) await p.validate(podAttrs(pod));
  assert.equal(pod.spec.restartPolicy, 'Always');
  assert.equal(pod.spec.serviceAccountName, 'default');
  assert.equal(pod.spec.volumes[0].name, 'kube-api-access-abcde');
});
