/**
 * Steps for the request pipeline (features/apiserver/pipeline.feature, single-entry.feature):
 * requests whose answer is kept for "the response …" steps, requests made with other
 * credentials (`kube.authn`), bodies that break the schema, and the request trace (`kube.audit`).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeCredentials, KubeFacet, KubeRequest, KubeResponse, PipelineStage, RequestTraceEntry } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, configMapsPath, expandNs, LAST_RESPONSE, traceSinceMark, words } from './api.ts';

// ---- the scenario's client, keeping the answer -----------------------------------------------

async function keep(world: KubespecWorld, req: KubeRequest): Promise<void> {
  world.note(LAST_RESPONSE, await world.kube().request(req));
}

When('the client creates ConfigMap {string}', async function (this: KubespecWorld, name: string) {
  await keep(this, { method: 'POST', path: configMapsPath(this.kube()), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '0' } } });
});

When('the client gets ConfigMap {string}', async function (this: KubespecWorld, name: string) {
  await keep(this, { method: 'GET', path: configMapsPath(this.kube(), name) });
});

When('the client deletes ConfigMap {string}', async function (this: KubespecWorld, name: string) {
  await keep(this, { method: 'DELETE', path: configMapsPath(this.kube(), name) });
});

When('Pod {string} is created with no containers', async function (this: KubespecWorld, name: string) {
  await keep(this, { method: 'POST', path: collectionPath('', 'pods', this.kube().namespace), body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [] } } });
});

When('Deployment {string} is created with body field {string} set to the string {string}', async function (this: KubespecWorld, name: string, field: string, value: string) {
  const labels = { app: name };
  const body: any = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } },
  };
  setPath(body, field, value);
  await keep(this, { method: 'POST', path: collectionPath('apps', 'deployments', this.kube().namespace), body });
});

When('the client creates ConfigMap {string} holding {int} bytes of data', async function (this: KubespecWorld, name: string, bytes: number) {
  await keep(this, { method: 'POST', path: configMapsPath(this.kube()), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: 'x'.repeat(bytes) } } });
});

When('the client creates ConfigMap {string} from a body that gives data key {string} twice, with fieldValidation {string}', async function (this: KubespecWorld, name: string, key: string, directive: string) {
  // Written by hand: no JSON serializer emits a key twice.
  const k = JSON.stringify(key);
  const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":${JSON.stringify(name)}},"data":{${k}:"first",${k}:"second"}}`;
  await keep(this, { method: 'POST', path: `${configMapsPath(this.kube())}?fieldValidation=${directive}`, body, headers: { 'content-type': 'application/json' } });
});

Then('the response carries a Warning containing {string}', function (this: KubespecWorld, text: string) {
  const res = this.recall<KubeResponse>(LAST_RESPONSE);
  assert.ok((res.headers['warning'] ?? '').includes(JSON.stringify(text).slice(1, -1)), `Warning header should mention ${text}: ${JSON.stringify(res.headers['warning'] ?? null)}`);
});

Then('the response carries no Warning', function (this: KubespecWorld) {
  const res = this.recall<KubeResponse>(LAST_RESPONSE);
  assert.equal(res.headers['warning'], undefined, `unexpected Warning: ${res.headers['warning']}`);
});

function setPath(obj: any, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let at = obj;
  for (const p of parts.slice(0, -1)) at = at[p] ??= {};
  at[parts.at(-1)!] = value;
}

// ---- other credentials (kube.authn) ----------------------------------------------------------

function withCredentials(kube: KubeFacet): NonNullable<KubeFacet['requestWithCredentials']> {
  assert.ok(kube.requestWithCredentials, 'this target declares kube.authn but offers no requestWithCredentials()');
  return kube.requestWithCredentials.bind(kube);
}

async function keepWith(world: KubespecWorld, creds: KubeCredentials, req: KubeRequest): Promise<void> {
  world.note(LAST_RESPONSE, await withCredentials(world.kube())(creds, req));
}

Given('an anonymous request for GET {string} is answered {int}', async function (this: KubespecWorld, path: string, code: number) {
  const res = await withCredentials(this.kube())({ anonymous: true }, { method: 'GET', path });
  assert.equal(res.status, code, `anonymous GET ${path}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
});

When('a request with bearer token {string} asks for GET {string}', async function (this: KubespecWorld, token: string, path: string) {
  await keepWith(this, { token }, { method: 'GET', path });
});

When('a request with bearer token {string} lists pods in the scenario\'s namespace', async function (this: KubespecWorld, token: string) {
  await keepWith(this, { token }, { method: 'GET', path: collectionPath('', 'pods', this.kube().namespace) });
});

When('a request with no credentials lists pods in the scenario\'s namespace', async function (this: KubespecWorld) {
  await keepWith(this, { anonymous: true }, { method: 'GET', path: collectionPath('', 'pods', this.kube().namespace) });
});

When(/^a request with a client certificate for user "([^"]*)" in group "([^"]*)" lists (pods|ConfigMaps) in the scenario's namespace$/, async function (this: KubespecWorld, cn: string, o: string, what: string) {
  const resource = what === 'ConfigMaps' ? 'configmaps' : 'pods';
  await keepWith(this, { clientCert: { cn, o: [o] } }, { method: 'GET', path: collectionPath('', resource, this.kube().namespace) });
});

When('a request with a client certificate for user {string} in group {string} deletes ConfigMap {string} in the scenario\'s namespace', async function (this: KubespecWorld, cn: string, o: string, name: string) {
  await keepWith(this, { clientCert: { cn, o: [o] } }, { method: 'DELETE', path: configMapsPath(this.kube(), name) });
});

When('a request with no credentials asks for GET {string}', async function (this: KubespecWorld, path: string) {
  await keepWith(this, { anonymous: true }, { method: 'GET', path });
});

When(/^a request with a self-signed client certificate for user "([^"]*)" in group "([^"]*)" lists pods in the scenario's namespace$/, async function (this: KubespecWorld, cn: string, o: string) {
  await keepWith(this, { clientCert: { cn, o: [o], untrusted: true } }, { method: 'GET', path: collectionPath('', 'pods', this.kube().namespace) });
});

// ---- ServiceAccount tokens from the TokenRequest API -------------------------------------------

const SA_TOKEN = 'service account token';

When('a token valid for {int} seconds is requested for service account {string} through its token subresource', async function (this: KubespecWorld, seconds: number, name: string) {
  const kube = this.kube();
  const path = `${collectionPath('', 'serviceaccounts', kube.namespace)}/${encodeURIComponent(name)}/token`;
  const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: seconds } };
  const res = await kube.request({ method: 'POST', path, body });
  assert.equal(res.status, 201, `POST ${path}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  assert.ok(typeof res.json?.status?.token === 'string' && res.json.status.token !== '', `no status.token in ${res.text.slice(0, 300)}`);
  this.note(SA_TOKEN, res.json.status.token);
});

When(/^a request with that token lists (pods|ConfigMaps) in the scenario's namespace$/, async function (this: KubespecWorld, what: string) {
  const resource = what === 'ConfigMaps' ? 'configmaps' : 'pods';
  await keepWith(this, { token: this.recall<string>(SA_TOKEN) }, { method: 'GET', path: collectionPath('', resource, this.kube().namespace) });
});

// ---- the request trace (kube.audit) ----------------------------------------------------------

/** The scenario's own requests: those made as its default identity. */
function byClient(world: KubespecWorld, entries: RequestTraceEntry[]): RequestTraceEntry[] {
  const user = world.kube().identity?.user;
  assert.ok(user, 'this target does not say who its default identity is (KubeFacet.identity)');
  return entries.filter((t) => t.user === user);
}

Given('the request trace is recording', async function (this: KubespecWorld) {
  const kube = this.kube();
  assert.ok(kube.traces, 'this target declares kube.audit but offers no traces()');
  this.note('trace mark', Math.max(0, ...(await kube.traces()).map((t) => t.id)));
});

Then('the request trace holds exactly {int} completed entries made by the scenario\'s client', async function (this: KubespecWorld, count: number) {
  const mine = byClient(this, await traceSinceMark(this));
  assert.equal(mine.length, count, `entries: ${mine.map((t) => `${t.method} ${t.path} ${t.code}`).join('; ')}`);
  this.note('trace entries', mine);
});

Then(/^their response codes are ((?:\d+(?:, | and )?)+) in that order$/, function (this: KubespecWorld, codes: string) {
  const entries = this.recall<RequestTraceEntry[]>('trace entries');
  assert.deepEqual(entries.map((t) => t.code), codes.split(/, | and /).map(Number));
});

const ORDINALS = ['first', 'second', 'third', 'fourth'];

async function nthRequest(world: KubespecWorld, ordinal: string, method: string, rawPath: string): Promise<RequestTraceEntry> {
  const path = expandNs(world.kube(), rawPath);
  const matching = byClient(world, await traceSinceMark(world)).filter((t) => t.method === method && t.path === path);
  const entry = matching[ORDINALS.indexOf(ordinal)];
  assert.ok(entry, `the trace holds ${matching.length} ${method} ${path} by the scenario's client, not a ${ordinal}`);
  return entry;
}

function stagesOf(entry: RequestTraceEntry): string {
  return entry.stages.map((s) => `${s.stage}:${s.outcome}`).join(', ');
}

Then(/^the (first|second|third|fourth) (GET|POST|PUT|PATCH|DELETE) to "([^"]*)" in the request trace passed the stages "([^"]*)"$/, async function (this: KubespecWorld, ordinal: string, method: string, path: string, stages: string) {
  const entry = await nthRequest(this, ordinal, method, path);
  const expected = words(stages) as PipelineStage[];
  assert.equal(stagesOf(entry), expected.map((s) => `${s}:passed`).join(', '));
});

Then(/^the (first|second|third|fourth) (GET|POST|PUT|PATCH|DELETE) to "([^"]*)" in the request trace was refused at "([^"]*)" after passing "([^"]*)"$/, async function (this: KubespecWorld, ordinal: string, method: string, path: string, refusedAt: string, passed: string) {
  const entry = await nthRequest(this, ordinal, method, path);
  const expected = [...words(passed).map((s) => `${s}:passed`), `${refusedAt}:rejected`];
  assert.equal(stagesOf(entry), expected.join(', '));
});

// ---- what mutating admission left in the stored object (PIPE-MUTATING) ---------------------------

async function podAsReadBack(world: KubespecWorld, name: string): Promise<any> {
  const kube = world.kube();
  const res = await kube.request({ method: 'GET', path: `/api/v1/namespaces/${kube.namespace}/pods/${name}` });
  assert.equal(res.status, 200, `read back Pod "${name}": ${res.status} ${res.text.slice(0, 300)}`);
  return res.json;
}

Then('Pod {string} as read back has containers {string} and {string} in that order', async function (this: KubespecWorld, name: string, first: string, second: string) {
  const pod = await podAsReadBack(this, name);
  assert.deepEqual((pod.spec?.containers ?? []).map((c: any) => c.name), [first, second]);
});

Then('Pod {string} as read back tolerates {string} with effect {string} for {int} s', async function (this: KubespecWorld, name: string, key: string, effect: string, seconds: number) {
  const pod = await podAsReadBack(this, name);
  const tolerations: any[] = pod.spec?.tolerations ?? [];
  assert.ok(tolerations.some((t) => t.key === key && t.effect === effect && t.operator === 'Exists' && t.tolerationSeconds === seconds), `tolerations: ${JSON.stringify(tolerations)}`);
});
