import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from '../testing/harness.ts';

test('/version reports a gitVersion in the range Google\'s kubectl dispatcher bundles', async () => {
  const h = await harness();
  const r = await h.call('GET', '/version');
  assert.match(r.json.gitVersion, /^v1\.(2[7-9]|3[0-3])\./);
});

test('/api/v1 lists pods with verbs, short names and the pods/status, pods/binding and pods/eviction subresources', async () => {
  const h = await harness();
  const r = await h.call('GET', '/api/v1');
  assert.equal(r.json.kind, 'APIResourceList');
  const byName = new Map(r.json.resources.map((x: any) => [x.name, x]));
  const pods: any = byName.get('pods');
  assert.deepEqual(pods.shortNames, ['po']);
  assert.equal(pods.namespaced, true);
  assert.ok(pods.verbs.includes('watch'));
  assert.ok(byName.has('pods/status') && byName.has('pods/binding'));
  assert.equal((byName.get('pods/eviction') as any).group, 'policy');
  assert.equal((byName.get('nodes') as any).namespaced, false);
});

test('/apis lists every group with a preferred version, and each group-version has its resources', async () => {
  const h = await harness();
  const r = await h.call('GET', '/apis');
  const names = r.json.groups.map((g: any) => g.name);
  for (const g of ['apps', 'batch', 'discovery.k8s.io', 'coordination.k8s.io', 'scheduling.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'authorization.k8s.io', 'admissionregistration.k8s.io']) {
    assert.ok(names.includes(g), g);
  }
  const apps = await h.call('GET', '/apis/apps/v1');
  assert.ok(apps.json.resources.some((x: any) => x.name === 'deployments/scale' && x.kind === 'Scale'));
  assert.equal((await h.call('GET', '/apis/nope/v1')).status, 404);
});

test('the OpenAPI v3 patch operation carries the GVK extension and a fieldValidation parameter, as kubectl apply checks', async () => {
  const h = await harness();
  const index = await h.call('GET', '/openapi/v3');
  const url: string = index.json.paths['apis/apps/v1'].serverRelativeURL;
  const doc = await h.call('GET', url);
  const op = doc.json.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
  assert.deepEqual(op['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' });
  assert.ok(op.parameters.some((p: any) => p.name === 'fieldValidation' && p.in === 'query'));
  const schema = doc.json.components.schemas['io.k8s.api.apps.v1.Deployment'];
  assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
  const containers = schema.properties.spec.properties.template.properties.spec.properties.containers;
  assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
  assert.equal((await h.call('GET', '/openapi/v2')).status, 404);
});

test('the health endpoints answer ok', async () => {
  const h = await harness();
  for (const p of ['/healthz', '/livez', '/readyz']) {
    const r = await h.call('GET', p);
    assert.equal(r.status, 200);
    assert.equal(r.json, 'ok');
  }
});
