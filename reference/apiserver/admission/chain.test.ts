import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionChain } from './chain.ts';
import { attrsFor, podAttrs } from './testutil.ts';

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

test('a plugin that says it does not handle a request would have done nothing with it: no change, no lookup, no warning, no denial', async () => {
  const calls: string[] = [];
  const seen = <T>(what: string, v: T) => () => (calls.push(what), v);
  const chain = admissionChain({
    getNamespace: seen('getNamespace', { metadata: { name: 'default', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } }, status: { phase: 'Active' } }),
    getServiceAccount: seen('getServiceAccount', undefined),
    volumeNameSuffix: seen('volumeNameSuffix', 'abcde'),
    priorityClasses: { getPriorityClass: seen('getPriorityClass', undefined), listPriorityClasses: seen('listPriorityClasses', []) },
    denyServiceExternalIPs: true,
  });
  const node = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
  const alice = { name: 'alice', groups: ['system:authenticated'] };
  // Objects that would be changed or refused by the plugin that handles them.
  const objects: Record<string, any> = {
    pods: { metadata: { name: 'p' }, spec: { nodeName: 'n2', priorityClassName: 'none', hostNetwork: true, containers: [{ name: 'c', image: 'i' }] } },
    services: { metadata: { name: 's' }, spec: { externalIPs: ['1.2.3.4'] } },
    nodes: { metadata: { name: 'n2' } },
    leases: { metadata: { name: 'n2' } },
    namespaces: { metadata: { name: 'default', labels: { 'pod-security.kubernetes.io/enforce': 'nope' } } },
    deployments: { metadata: { name: 'd' }, spec: { template: { spec: { hostNetwork: true, containers: [{ name: 'c', image: 'i' }] } } } },
    configmaps: { metadata: { name: 'c' }, data: { k: 'v' } },
  };
  const groups: Record<string, string> = { leases: 'coordination.k8s.io', deployments: 'apps' };
  let skipped = 0;
  for (const operation of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const)
    for (const resource of Object.keys(objects))
      for (const subresource of ['', 'status', 'binding', 'scale'])
        for (const user of [node, alice]) {
          const namespace = resource === 'leases' ? 'kube-node-lease' : resource === 'nodes' || resource === 'namespaces' ? '' : 'default';
          for (const [p, run] of [
            ...chain.mutating.map((p) => [p, (a: any) => p.admit(a)] as const),
            ...chain.validating.map((p) => [p, (a: any) => p.validate(a)] as const),
          ]) {
            const object = structuredClone(objects[resource]);
            const notes: string[] = [];
            const attrs = attrsFor(resource, resource, groups[resource] ?? '', object, {
              operation, subresource, user, namespace, name: object.metadata.name,
              ...(operation === 'CREATE' ? {} : { oldObject: structuredClone(objects[resource]) }),
              warn: (m) => notes.push(m), annotate: (k, v) => notes.push(`${k}=${v}`),
            });
            if (p.handles === undefined || p.handles(attrs)) continue;
            skipped++;
            calls.length = 0;
            const what = `${p.name} ${operation} ${resource}/${subresource} as ${user.name}`;
            await assert.doesNotReject(run(attrs), what);
            assert.deepEqual(attrs.object, objects[resource], what);
            assert.deepEqual([calls, notes], [[], []], what);
          }
        }
  assert.ok(skipped > 500, `${skipped} skipped calls checked`);
});
