import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from '../testing/harness.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

function widgetCrd(extra: { versions?: unknown[]; name?: string; plural?: string } = {}): any {
  const plural = extra.plural ?? 'widgets';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: extra.name ?? `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, kind: 'Widget', shortNames: ['wd'] },
      versions: extra.versions ?? [{
        name: 'v1', served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: { type: 'object', required: ['size'], properties: {
            size: { type: 'string', enum: ['small', 'large'] },
            replicas: { type: 'integer', minimum: 0, maximum: 10 },
            name: { type: 'string', pattern: '^[a-z]+$' },
            extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          } },
          status: { type: 'object', properties: { replicas: { type: 'integer' } } },
        } } },
      }],
    },
  };
}

const widget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });

test('a created CRD is NamesAccepted and Established, and its resource is served with discovery', async () => {
  const h = await harness();
  const r = await h.call('POST', CRDS, widgetCrd());
  assert.equal(r.status, 201);
  const conds = Object.fromEntries(r.json.status.conditions.map((c: any) => [c.type, c]));
  assert.equal(conds.NamesAccepted.status, 'True');
  assert.equal(conds.Established.status, 'True');
  assert.equal(r.json.status.acceptedNames.listKind, 'WidgetList');
  assert.deepEqual(r.json.status.storedVersions, ['v1']);
  const list = await h.call('GET', '/apis/example.com/v1');
  assert.equal(list.status, 200);
  assert.deepEqual(list.json.resources.map((x: any) => x.name), ['widgets', 'widgets/status', 'widgets/scale']);
  const groups = await h.call('GET', '/apis');
  assert.ok(groups.json.groups.some((g: any) => g.name === 'example.com'));
  assert.equal((await h.call('POST', WIDGETS, widget('w1', { size: 'small' }))).status, 201);
  assert.equal((await h.call('GET', `${WIDGETS}/w1`)).json.spec.size, 'small');
});

test("a CRD whose name is not plural.group is refused with upstream's 422", async () => {
  const h = await harness();
  const r = await h.call('POST', CRDS, widgetCrd({ name: 'gadgets.example.com' }));
  assert.equal(r.status, 422);
  assert.match(r.json.message, /metadata\.name: Invalid value: "gadgets\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/);
});

test('a second CRD claiming the same kind in the group is not accepted and serves nothing', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  const second = widgetCrd({ plural: 'widgetz' });
  second.spec.names.singular = 'widgetz';
  second.spec.names.shortNames = [];
  const r = await h.call('POST', CRDS, second);
  assert.equal(r.status, 201);
  const conds = Object.fromEntries(r.json.status.conditions.map((c: any) => [c.type, c]));
  assert.equal(conds.NamesAccepted.status, 'False');
  assert.equal(conds.NamesAccepted.reason, 'KindConflict');
  assert.equal(conds.Established.status, 'False');
  assert.equal((await h.call('GET', '/apis/example.com/v1/namespaces/default/widgetz')).status, 404);
});

test("a custom resource is validated against the CRD's schema with upstream's messages", async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  const r = await h.call('POST', WIDGETS, widget('w1', { size: 'huge', replicas: 20, name: 'A1' }));
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'Widget.example.com "w1" is invalid: [spec.size: Unsupported value: "huge": supported values: "small", "large", '
    + "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10, spec.name: Invalid value: \"A1\": spec.name in body should match '^[a-z]+$']");
  const typed = await h.call('POST', WIDGETS, widget('w2', { size: 'small', replicas: 'three' }));
  assert.equal(typed.status, 422);
  assert.match(typed.json.message, /spec\.replicas: Invalid value: "three": spec\.replicas in body must be of type integer: "string"/);
  const missing = await h.call('POST', WIDGETS, widget('w3', {}));
  assert.match(missing.json.message, /spec\.size: Required value/);
});

test('unknown fields are pruned unless the schema preserves them; Strict refuses them', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  const r = await h.call('POST', WIDGETS, { ...widget('w1', { size: 'small', bogus: 1, extra: { anything: [1] } }), top: true });
  assert.equal(r.status, 201);
  assert.equal(r.json.spec.bogus, undefined);
  assert.equal(r.json.top, undefined);
  assert.deepEqual(r.json.spec.extra, { anything: [1] });
  assert.match(r.headers.warning ?? '', /unknown field \\"spec.bogus\\"/);
  const strict = await h.call('POST', `${WIDGETS}?fieldValidation=Strict`, widget('w2', { size: 'small', bogus: 1 }));
  assert.equal(strict.status, 400);
  assert.match(strict.json.message, /strict decoding error: unknown field "spec.bogus"/);
});

test('status and scale subresources: a main write keeps status, generation moves on spec only, scale writes the replicas path', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  const created = await h.call('POST', WIDGETS, { ...widget('w1', { size: 'small', replicas: 1 }), status: { replicas: 9 } });
  assert.equal(created.json.status, undefined);
  const st = await h.call('PUT', `${WIDGETS}/w1/status`, { ...created.json, status: { replicas: 1 } });
  assert.equal(st.json.status.replicas, 1);
  assert.equal(st.json.metadata.generation, 1);
  const scaled = await h.call('PATCH', `${WIDGETS}/w1/scale`, { spec: { replicas: 3 } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(scaled.status, 200);
  assert.equal(scaled.json.kind, 'Scale');
  assert.equal(scaled.json.spec.replicas, 3);
  const after = await h.call('GET', `${WIDGETS}/w1`);
  assert.equal(after.json.spec.replicas, 3);
  assert.equal(after.json.metadata.generation, 2);
  assert.equal(after.json.status.replicas, 1);
});

test('merge and JSON patches apply; a strategic merge patch is 415', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  await h.call('POST', WIDGETS, widget('w1', { size: 'small' }));
  const merge = await h.call('PATCH', `${WIDGETS}/w1`, { spec: { size: 'large' } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(merge.json.spec.size, 'large');
  const json = await h.call('PATCH', `${WIDGETS}/w1`, [{ op: 'replace', path: '/spec/size', value: 'small' }], { 'content-type': 'application/json-patch+json' });
  assert.equal(json.json.spec.size, 'small');
  const smp = await h.call('PATCH', `${WIDGETS}/w1`, { spec: { size: 'large' } }, { 'content-type': 'application/strategic-merge-patch+json' });
  assert.equal(smp.status, 415);
  const bad = await h.call('PATCH', `${WIDGETS}/w1`, { spec: { size: 'nope' } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(bad.status, 422);
});

test('several versions share one storage version: an object written in one is read in the other', async () => {
  const h = await harness();
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  const crd = widgetCrd({ versions: [{ name: 'v1beta1', served: true, storage: false, schema }, { name: 'v1', served: true, storage: true, schema }] });
  assert.equal((await h.call('POST', CRDS, crd)).status, 201);
  const created = await h.call('POST', '/apis/example.com/v1beta1/namespaces/default/widgets', { apiVersion: 'example.com/v1beta1', kind: 'Widget', metadata: { name: 'w1' }, spec: { a: 1 } });
  assert.equal(created.json.apiVersion, 'example.com/v1beta1');
  const stored = await h.backend.get('/registry/example.com/widgets/default/w1');
  assert.equal(JSON.parse(stored!.value).apiVersion, 'example.com/v1');
  const read = await h.call('GET', `${WIDGETS}/w1`);
  assert.equal(read.json.apiVersion, 'example.com/v1');
  const group = await h.call('GET', '/apis/example.com');
  assert.equal(group.json.preferredVersion.version, 'v1');
});

test('deleting the CRD deletes its objects and stops serving the resource', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  await h.call('POST', WIDGETS, widget('w1', { size: 'small' }));
  assert.equal((await h.call('DELETE', `${CRDS}/widgets.example.com`)).status, 200);
  assert.equal((await h.backend.range('/registry/example.com/widgets/')).kvs.length, 0);
  assert.equal((await h.call('GET', WIDGETS)).status, 404);
  await h.call('POST', CRDS, widgetCrd());
  assert.equal((await h.call('GET', WIDGETS)).json.items.length, 0);
});

test('a watch on a custom resource sees its events', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  const w = await h.watch(`${WIDGETS}?watch=true`);
  await h.call('POST', WIDGETS, widget('w1', { size: 'small' }));
  await new Promise((r) => setImmediate(r));
  w.stop();
  assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED w1']);
});

test('aggregated discovery (apidiscovery.k8s.io/v2, what kubectl asks for first) lists the custom resource with its subresources', async () => {
  const h = await harness();
  await h.call('POST', CRDS, widgetCrd());
  const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
  const r = await h.call('GET', '/apis', undefined, { accept });
  assert.equal(r.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  assert.equal(r.json.kind, 'APIGroupDiscoveryList');
  const group = r.json.items.find((g: any) => g.metadata.name === 'example.com');
  const widgets = group.versions[0].resources[0];
  assert.deepEqual({ resource: widgets.resource, scope: widgets.scope, shortNames: widgets.shortNames }, { resource: 'widgets', scope: 'Namespaced', shortNames: ['wd'] });
  assert.deepEqual(widgets.subresources.map((s: any) => s.subresource), ['status', 'scale']);
  const core = await h.call('GET', '/api', undefined, { accept });
  assert.deepEqual(core.json.items.map((g: any) => g.versions[0].version), ['v1']);
  assert.ok(core.json.items[0].versions[0].resources.some((x: any) => x.resource === 'pods'));
});
