import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultTolerationSeconds } from './index.ts';

const attrs = (object: any, operation = 'CREATE', subresource = '') => ({
  operation, subresource, namespace: 'ns', name: 'p', dryRun: false, user: { username: 'u', groups: [] },
  kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, object,
}) as any;

test('a pod with no tolerations gets not-ready and unreachable NoExecute tolerations of 300 s', async () => {
  const pod = { spec: { containers: [] } } as any;
  await defaultTolerationSeconds().admit(attrs(pod));
  assert.deepEqual(pod.spec.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
});

test('a pod that already tolerates unreachable (its own seconds, or none) keeps that and gains only not-ready', async () => {
  const own = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' };
  const pod = { spec: { tolerations: [own] } } as any;
  await defaultTolerationSeconds().admit(attrs(pod));
  assert.deepEqual(pod.spec.tolerations.map((t: any) => [t.key, t.tolerationSeconds]), [['node.kubernetes.io/unreachable', undefined], ['node.kubernetes.io/not-ready', 300]]);
});

test('a toleration with an empty key and operator Exists covers both; subresources are left alone', async () => {
  const pod = { spec: { tolerations: [{ operator: 'Exists' }] } } as any;
  await defaultTolerationSeconds().admit(attrs(pod));
  assert.equal(pod.spec.tolerations.length, 1);
  const status = { spec: {} } as any;
  await defaultTolerationSeconds().admit(attrs(status, 'UPDATE', 'status'));
  assert.equal(status.spec.tolerations, undefined);
});
