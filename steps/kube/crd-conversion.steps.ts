/**
 * Steps for CRD conversion webhooks (features/apiserver/single-entry.feature API-CRD-CONVERSION):
 * a CRD served at v1 and v2 and stored at v1 whose conversion strategy is Webhook, pointed at a
 * hook on the suite's webhook server (steps/support/webhook-server.ts) that answers the
 * apiextensions.k8s.io/v1 ConversionReview. Objects are written at v1, so writing them never needs
 * the webhook; reading them at v2 does.
 *
 * Wire format: kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/
 * ("Webhook request and response": the response echoes request.uid, convertedObjects in the
 * desired apiVersion, result.status Success).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { webhookServer, type RegisteredHook } from '../support/webhook-server.ts';
import { expandNs, expectSuccess, LAST_RESPONSE } from './api.ts';
import { TABLE_ACCEPT } from '../support/table-accept.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

interface ConvertedCrd {
  group: string;
  plural: string;
  kind: string;
  hook?: RegisteredHook;
}

type Behaviour = 'moves spec.size to spec.replicas' | 'answers for another uid' | 'leaves the objects at their version' | 'is down';

/** The ConversionReview answer of each webhook behaviour. */
function answer(behaviour: Behaviour, request: any): unknown {
  const converted = (request.objects ?? []).map((o: any) => {
    const { size, ...spec } = o.spec ?? {};
    return behaviour === 'leaves the objects at their version' ? o : { ...o, apiVersion: request.desiredAPIVersion, spec: { ...spec, replicas: size } };
  });
  const uid = behaviour === 'answers for another uid' ? `not-${request.uid}` : request.uid;
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid, convertedObjects: converted, result: { status: 'Success' } } };
}

function twoVersionCrd(group: string, kind: string, conversion: unknown, printerColumns?: unknown[]): { name: string; plural: string; body: unknown } {
  const plural = `${kind.toLowerCase()}s`;
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } };
  const columns = printerColumns ? { additionalPrinterColumns: printerColumns } : {};
  const body = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema, ...columns }, { name: 'v2', served: true, storage: false, schema, ...columns }],
      conversion,
    },
  };
  return { name: `${plural}.${group}`, plural, body };
}

Given(/^a CustomResourceDefinition for kind "(\w+)" in group "([^"]*)" served at v1 and v2, stored at v1, with a conversion webhook that (moves spec.size to spec.replicas|answers for another uid|leaves the objects at their version|is down)$/, async function (this: KubespecWorld, kind: string, rawGroup: string, behaviour: Behaviour) {
  const kube = this.kube();
  const group = expandNs(kube, rawGroup);
  const server = await webhookServer();
  const id = `${kube.namespace}/conversion`;
  const hook = server.register(id, { review: (request) => answer(behaviour, request) });
  this.onCleanup(async () => server.unregister(id));
  // "Down": port 1 on the webhook server's host, where nothing listens.
  const url = behaviour === 'is down' ? `${new URL(server.baseUrl).origin.replace(/:\d+$/, '')}:1/convert` : hook.url;
  const crd = twoVersionCrd(group, kind, { strategy: 'Webhook', webhook: { clientConfig: { url, caBundle: server.caBundle }, conversionReviewVersions: ['v1'] } });
  expectSuccess(await kube.request({ method: 'POST', path: CRDS, body: crd.body }), `create CustomResourceDefinition ${crd.name}`);
  this.onCleanup(() => kube.request({ method: 'DELETE', path: `${CRDS}/${crd.name}` }));
  await this.eventually(`CustomResourceDefinition ${crd.name} Established`, async () => {
    const got = await kube.request({ method: 'GET', path: `${CRDS}/${crd.name}` });
    return (got.json?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
  });
  this.note('converted crd', { group, plural: crd.plural, kind, hook } satisfies ConvertedCrd);
});

When('a CustomResourceDefinition with conversion strategy Webhook and no webhook is created', async function (this: KubespecWorld) {
  const crd = twoVersionCrd(`${this.kube().namespace}.example.com`, 'Gadget', { strategy: 'Webhook' });
  const res = await this.kube().request({ method: 'POST', path: CRDS, body: crd.body });
  if (res.status < 300) this.onCleanup(() => this.kube().request({ method: 'DELETE', path: `${CRDS}/${crd.name}` }));
  this.note(LAST_RESPONSE, res);
});

function widgetsPath(world: KubespecWorld, version: string, name?: string): string {
  const crd = world.recall<ConvertedCrd>('converted crd');
  const base = `/apis/${crd.group}/${version}/namespaces/${world.kube().namespace}/${crd.plural}`;
  return name ? `${base}/${name}` : base;
}

When(/^(\w+) "([^"]*)" is created at v1 with spec.size (\d+)$/, async function (this: KubespecWorld, kind: string, name: string, size: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const body = { apiVersion: `${crd.group}/v1`, kind, metadata: { name }, spec: { size: Number(size) } };
  // Discovery and the handler may lag the Established condition for a moment on a real cluster.
  await this.eventually(`create ${kind} "${name}"`, async () => {
    const res = await this.kube().request({ method: 'POST', path: widgetsPath(this, 'v1'), body });
    if (res.status === 404) return false;
    expectSuccess(res, `create ${kind} "${name}" at v1`);
    return true;
  });
});

When(/^the client gets \w+ "([^"]*)" at (v\d+)$/, async function (this: KubespecWorld, name: string, version: string) {
  this.note(LAST_RESPONSE, await this.kube().request({ method: 'GET', path: widgetsPath(this, version, name) }));
});

When(/^the client lists \w+s at (v\d+)$/, async function (this: KubespecWorld, version: string) {
  this.note(LAST_RESPONSE, await this.kube().request({ method: 'GET', path: widgetsPath(this, version) }));
});

When(/^the client watches \w+s at (v\d+) from the start$/, async function (this: KubespecWorld, version: string) {
  this.note('conversion watch', await this.kube().watch(`${widgetsPath(this, version)}?watch=true&resourceVersion=0`));
});

Then(/^the response is (\w+) "([^"]*)" at (v\d+) with spec.replicas (\d+)$/, function (this: KubespecWorld, kind: string, name: string, version: string, replicas: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const obj = expectSuccess(this.recall(LAST_RESPONSE), `get ${kind} "${name}"`);
  assert.deepEqual({ apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata?.name, replicas: obj.spec?.replicas },
    { apiVersion: `${crd.group}/${version}`, kind, name, replicas: Number(replicas) }, JSON.stringify(obj));
});

Then(/^the list holds (\w+)s "([^"]*)" at (v\d+), each with spec.replicas (\d+)$/, function (this: KubespecWorld, kind: string, names: string, version: string, replicas: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const list = expectSuccess(this.recall(LAST_RESPONSE), `list ${kind}s`);
  const items = (list.items ?? []).map((o: any) => `${o.metadata?.name} ${o.apiVersion} ${o.spec?.replicas}`);
  assert.deepEqual(items, names.split(',').map((n) => `${n.trim()} ${crd.group}/${version} ${replicas}`), JSON.stringify(list.items));
});

Then(/^the watch delivers (\w+)s "([^"]*)" as ADDED at (v\d+) with spec.replicas (\d+), in that order$/, async function (this: KubespecWorld, kind: string, names: string, version: string, replicas: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const watch = this.recall<{ events: readonly { type: string; object: any }[]; close(): Promise<void> }>('conversion watch');
  const want = names.split(',').map((n) => `ADDED ${n.trim()} ${crd.group}/${version} ${replicas}`);
  const seen = () => watch.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object?.metadata?.name} ${e.object?.apiVersion} ${e.object?.spec?.replicas}`);
  await this.eventually(`${want.length} ${kind} events`, () => seen().length >= want.length);
  await watch.close();
  assert.deepEqual(seen().slice(0, want.length), want);
});

Then(/^the conversion webhook received a ConversionReview for "([^"]*)" holding \w+ "([^"]*)"$/, function (this: KubespecWorld, rawDesired: string, name: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const desired = expandNs(this.kube(), rawDesired);
  const reviews = (crd.hook?.records ?? []) as any[];
  const match = reviews.find((r) => r.apiVersion === 'apiextensions.k8s.io/v1' && r.kind === 'ConversionReview'
    && r.request?.desiredAPIVersion === desired && typeof r.request?.uid === 'string' && r.request.uid !== ''
    && (r.request?.objects ?? []).some((o: any) => o?.metadata?.name === name));
  assert.ok(match, `no v1 ConversionReview to ${desired} holding "${name}" among ${JSON.stringify(reviews.map((r) => r.request?.desiredAPIVersion))}`);
});

// ---- a watch whose events wait for the webhook (WATCH-EVENT-ORDER) --------------------------------

When(/^the client watches \w+s at (v\d+) from the current resourceVersion$/, async function (this: KubespecWorld, version: string) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: widgetsPath(this, version) }), `list at ${version}`);
  const watch = await this.kube().watch(`${widgetsPath(this, version)}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
  this.onCleanup(() => watch.close());
  this.note('conversion watch', watch);
});

When(/^(\w+) "([^"]*)" is updated at v1 to spec.size (\d+)$/, async function (this: KubespecWorld, kind: string, name: string, size: string) {
  const current = expectSuccess(await this.kube().request({ method: 'GET', path: widgetsPath(this, 'v1', name) }), `get ${kind} "${name}" at v1`);
  expectSuccess(await this.kube().request({ method: 'PUT', path: widgetsPath(this, 'v1', name), body: { ...current, spec: { size: Number(size) } } }), `update ${kind} "${name}" at v1`);
});

When(/^the client deletes \w+ "([^"]*)" at v1$/, async function (this: KubespecWorld, name: string) {
  expectSuccess(await this.kube().request({ method: 'DELETE', path: widgetsPath(this, 'v1', name) }), `delete "${name}"`);
});

Then(/^within (\d+) s the conversion watch delivers exactly, each at (v\d+): (.+)$/, async function (this: KubespecWorld, seconds: string, version: string, list: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const watch = this.recall<{ events: readonly { type: string; object: any }[] }>('conversion watch');
  const want = [...list.matchAll(/(ADDED|MODIFIED|DELETED) "([^"]*)" with spec.replicas (\d+)/g)].map((m) => `${m[1]} ${m[2]} ${crd.group}/${version} ${m[3]}`);
  const seen = () => watch.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object?.metadata?.name} ${e.object?.apiVersion} ${e.object?.spec?.replicas}`);
  await this.eventually(`${want.length} events`, () => seen().length >= want.length, Number(seconds) * 1000);
  assert.deepEqual(seen(), want);
});

// ---- a custom resource watched at its other version, strategy None (WATCH-SERIALIZATION) ---------

/**
 * "and an integer printer column "Size" at .spec.size": both versions declare it as
 * additionalPrinterColumns (apiextensions.k8s.io/v1 CustomResourceColumnDefinition: name, type,
 * jsonPath), which kubectl get shows after Name in place of the default Age column.
 */
Given(/^a CustomResourceDefinition for kind "(\w+)" in group "([^"]*)" served at v1 and v2, stored at v1, with conversion strategy None(?: and an integer printer column "(\w+)" at (\.[\w.]+))?$/, async function (this: KubespecWorld, kind: string, rawGroup: string, column: string | undefined, jsonPath: string | undefined) {
  const kube = this.kube();
  const group = expandNs(kube, rawGroup);
  const crd = twoVersionCrd(group, kind, { strategy: 'None' }, column ? [{ name: column, type: 'integer', jsonPath }] : undefined);
  expectSuccess(await kube.request({ method: 'POST', path: CRDS, body: crd.body }), `create CustomResourceDefinition ${crd.name}`);
  this.onCleanup(() => kube.request({ method: 'DELETE', path: `${CRDS}/${crd.name}` }));
  await this.eventually(`CustomResourceDefinition ${crd.name} Established`, async () => {
    const got = await kube.request({ method: 'GET', path: `${CRDS}/${crd.name}` });
    return (got.json?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
  });
  this.note('converted crd', { group, plural: crd.plural, kind } satisfies ConvertedCrd);
});


When(/^the client watches \w+s at (v\d+) as Tables with "([^"]*)"$/, async function (this: KubespecWorld, version: string, query: string) {
  const watch = await this.kube().watch(`${widgetsPath(this, version)}?watch=true&${query}`, { accept: TABLE_ACCEPT });
  this.onCleanup(() => watch.close());
  this.note('table watch', watch);
});

Then(/^each of its rows carries the whole (\w+) at (v\d+), spec.size (\d+)$/, function (this: KubespecWorld, kind: string, version: string, size: string) {
  const crd = this.recall<ConvertedCrd>('converted crd');
  const watch = this.recall<{ events: readonly { type: string; object: any }[] }>('table watch');
  for (const e of watch.events.filter((x) => x.type !== 'BOOKMARK')) {
    const obj = e.object?.rows?.[0]?.object;
    assert.deepEqual({ kind: obj?.kind, apiVersion: obj?.apiVersion, size: obj?.spec?.size }, { kind, apiVersion: `${crd.group}/${version}`, size: Number(size) }, JSON.stringify(e.object));
  }
});

/**
 * The watch ends at an event it cannot convert: upstream's watch server stops at the first event it
 * fails to encode (endpoints/handlers/watch.go, "unable to encode watch object"; kubernetes#84693
 * "Stop Watching when there is encoding error"). An ERROR event before the end is allowed; an
 * object sent unconverted, in the stored version, is not.
 */
Then(/^within (\d+) s the conversion watch has ended, having delivered no (\w+)$/, async function (this: KubespecWorld, seconds: string, kind: string) {
  const watch = this.recall<{ events: readonly { type: string; object: any }[]; ended: boolean }>('conversion watch');
  await this.eventually('the watch to end', () => watch.ended, Number(seconds) * 1000);
  const objects = watch.events.filter((e) => e.object?.kind === kind);
  assert.equal(objects.length, 0, `no ${kind} may be delivered unconverted: ${JSON.stringify(watch.events)}`);
});

// ---- a custom resource's watch from a compacted resourceVersion (WATCH-410) ----------------------

Given(/^the resourceVersion of \w+ "([^"]*)" at (v\d+) is noted as "([^"]*)"$/, async function (this: KubespecWorld, name: string, version: string, label: string) {
  const obj = expectSuccess(await this.kube().request({ method: 'GET', path: widgetsPath(this, version, name) }), `get "${name}" at ${version}`);
  this.note(label, obj.metadata.resourceVersion);
});

/** Kept as "watch", the name the WATCH-410 steps (watch.steps.ts) read. */
When(/^the client watches \w+s at (v\d+) from resourceVersion "([^"]*)"$/, async function (this: KubespecWorld, version: string, label: string) {
  const watch = await this.kube().watch(`${widgetsPath(this, version)}?watch=true&resourceVersion=${encodeURIComponent(this.recall<string>(label))}`);
  this.onCleanup(() => watch.close());
  this.note('watch', watch);
});

// ---- a custom resource's own printer columns in a Table watch (WATCH-SERIALIZATION) --------------

/**
 * The CRD's table convertor (apiextensions-apiserver pkg/registry/customresource/tableconvertor):
 * Name, then the version's additionalPrinterColumns, each cell the value at its jsonPath (an
 * integer column's cell a JSON number); the default Age column only when none is declared.
 */
Then(/^the first of its Tables has the columns ((?:"\w+"(?:, | and )?)+), and each of its rows the \w+'s name and spec.size (\d+)$/, function (this: KubespecWorld, list: string, size: string) {
  const tables = this.recall<{ events: readonly { type: string; object: any }[] }>('table watch').events.filter((x) => x.type !== 'BOOKMARK').map((e) => e.object);
  assert.ok(tables.length > 0, 'at least one Table');
  const want = [...list.matchAll(/"(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual((tables[0].columnDefinitions ?? []).map((c: any) => c.name), want, `the first Table's columns: ${JSON.stringify(tables[0].columnDefinitions)}`);
  for (const t of tables) {
    const row = t.rows?.[0];
    assert.deepEqual(row?.cells, [row?.object?.metadata?.name, Number(size)], `the row's cells: ${JSON.stringify(t)}`);
  }
});
