/**
 * Steps for lists (features/apiserver/list.feature): label and field selectors, limit/continue
 * paging, and resourceVersion semantics. A list answer is kept as 'list' (and as the last
 * response, for "the response status is …"); paging keeps every page as 'pages'.
 */
import assert from 'node:assert/strict';
import { Given, Then, When, type DataTable } from '@cucumber/cucumber';
import type { KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, configMapsPath, expandNs, expectSuccess, LAST_RESPONSE } from './api.ts';

/** Bound on pages read in one list: a server that ignores `continue` must fail, not loop. */
const MAX_PAGES = 20;

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [k, v] = pair.split('=') as [string, string];
    labels[k] = v ?? '';
  }
  return labels;
}

async function createLabelled(world: KubespecWorld, name: string, labels: Record<string, string>): Promise<void> {
  const kube = world.kube();
  const res = await kube.request({ method: 'POST', path: configMapsPath(kube), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { v: '0' } } });
  expectSuccess(res, `create ConfigMap "${name}"`);
}

/** GET a collection with the given query; keeps the answer as the last response and, when 200, as 'list'. */
async function listWith(world: KubespecWorld, path: string, query: Record<string, string>): Promise<KubeResponse> {
  const q = new URLSearchParams(query).toString();
  const res = await world.kube().request({ method: 'GET', path: q ? `${path}?${q}` : path });
  world.note(LAST_RESPONSE, res);
  if (res.status === 200) world.note('list', res.json);
  return res;
}

function itemNames(list: any): string[] {
  return (list?.items ?? []).map((i: any) => i.metadata?.name).sort();
}

Given('ConfigMaps labelled:', async function (this: KubespecWorld, table: DataTable) {
  for (const row of table.hashes()) await createLabelled(this, row.name!, labelsOf(row.labels ?? ''));
});

Given('ConfigMaps {names} labelled {string}', async function (this: KubespecWorld, names: string[], labels: string) {
  for (const name of names) await createLabelled(this, name, labelsOf(labels));
});

Given(/^pod "([^"]*)" bound to node "([^"]*)" and pod "([^"]*)" bound to node "([^"]*)"$/, async function (this: KubespecWorld, a: string, na: string, b: string, nb: string) {
  const kube = this.kube();
  for (const [name, nodeName] of [[a, na], [b, nb]] as const) {
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } };
    expectSuccess(await kube.request({ method: 'POST', path: collectionPath('', 'pods', kube.namespace), body }), `create pod "${name}"`);
  }
});

When('the client lists ConfigMaps with label selector {string}', async function (this: KubespecWorld, selector: string) {
  await listWith(this, configMapsPath(this.kube()), { labelSelector: selector });
});

When('the client lists ConfigMaps with label selector {string} and field selector {string}', async function (this: KubespecWorld, labels: string, fields: string) {
  await listWith(this, configMapsPath(this.kube()), { labelSelector: labels, fieldSelector: expandNs(this.kube(), fields) });
});

When('the client lists pods with field selector {string}', async function (this: KubespecWorld, fields: string) {
  await listWith(this, collectionPath('', 'pods', this.kube().namespace), { fieldSelector: expandNs(this.kube(), fields) });
});

When('the client lists ConfigMaps with label selector {string} at resourceVersion {string}', async function (this: KubespecWorld, selector: string, rv: string) {
  await listWith(this, configMapsPath(this.kube()), { labelSelector: selector, resourceVersion: rv });
});

When('the client lists ConfigMaps with label selector {string} at resourceVersion {string} matching {string}', async function (this: KubespecWorld, selector: string, label: string, match: string) {
  await listWith(this, configMapsPath(this.kube()), { labelSelector: selector, resourceVersion: this.recall<string>(label), resourceVersionMatch: match });
});

When('the client lists ConfigMaps with query {string}', async function (this: KubespecWorld, query: string) {
  await listWith(this, configMapsPath(this.kube()), Object.fromEntries(new URLSearchParams(query)));
});

Then(/^the list holds exactly the (ConfigMaps|pods) ((?:"[^"]*"(?:, | and )?)+)$/, function (this: KubespecWorld, _kind: string, names: string) {
  const expected = [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!).sort();
  const last = this.recall<KubeResponse>(LAST_RESPONSE);
  assert.equal(last.status, 200, `the list was refused: ${last.status} ${last.text.slice(0, 400)}`);
  assert.deepEqual(itemNames(this.recall('list')), expected);
});

Then('the list holds no pods', function (this: KubespecWorld) {
  const last = this.recall<KubeResponse>(LAST_RESPONSE);
  assert.equal(last.status, 200, `the list was refused: ${last.status} ${last.text.slice(0, 400)}`);
  assert.deepEqual(itemNames(this.recall('list')), []);
});

Then("the list's resourceVersion equals {string}", function (this: KubespecWorld, label: string) {
  assert.equal(this.recall<any>('list').metadata?.resourceVersion, this.recall<string>(label));
});

// ---- paging -------------------------------------------------------------------------------------

interface Page {
  names: string[];
  continue?: string;
  resourceVersion?: string;
}

async function readPage(world: KubespecWorld, selector: string, limit: number, token?: string): Promise<Page> {
  const query: Record<string, string> = { labelSelector: selector, limit: String(limit) };
  if (token) query.continue = token;
  const res = await listWith(world, configMapsPath(world.kube()), query);
  const list = expectSuccess(res, `list page ${token ? 'after continue' : '1'}`);
  const page: Page = { names: (list.items ?? []).map((i: any) => i.metadata.name), resourceVersion: list.metadata?.resourceVersion };
  if (list.metadata?.continue) page.continue = list.metadata.continue;
  return page;
}

async function readAllPages(world: KubespecWorld, selector: string, limit: number, afterFirst?: () => Promise<void>): Promise<Page[]> {
  const pages = [await readPage(world, selector, limit)];
  if (afterFirst) await afterFirst();
  while (pages.at(-1)!.continue) {
    assert.ok(pages.length < MAX_PAGES, `more than ${MAX_PAGES} pages of ${limit}: the continue token does not move the list on (${JSON.stringify(pages.slice(0, 3))})`);
    pages.push(await readPage(world, selector, limit, pages.at(-1)!.continue));
  }
  world.note('pages', pages);
  return pages;
}

When('the client lists ConfigMaps with label selector {string} in pages of {int}', async function (this: KubespecWorld, selector: string, limit: number) {
  await readAllPages(this, selector, limit);
});

When('the client lists ConfigMaps with label selector {string} in pages of {int}, creating ConfigMap {string} and deleting ConfigMap {string} after the first page', async function (this: KubespecWorld, selector: string, limit: number, created: string, deleted: string) {
  await readAllPages(this, selector, limit, async () => {
    await createLabelled(this, created, labelsOf(selector));
    expectSuccess(await this.kube().request({ method: 'DELETE', path: configMapsPath(this.kube(), deleted) }), `delete ConfigMap "${deleted}"`);
  });
});

When('the client lists the first page of {int} ConfigMaps with label selector {string}', async function (this: KubespecWorld, limit: number, selector: string) {
  const page = await readPage(this, selector, limit);
  assert.ok(page.continue, `a first page of ${limit} out of more should carry a continue token: ${JSON.stringify(page)}`);
  this.note('next page', { selector, limit, token: page.continue });
});

When('the client asks for the next page', async function (this: KubespecWorld) {
  const { selector, limit, token } = this.recall<{ selector: string; limit: number; token: string }>('next page');
  await listWith(this, configMapsPath(this.kube()), { labelSelector: selector, limit: String(limit), continue: token });
});

Then(/^there are at least (\d+) pages, each of at most (\d+) ConfigMaps, every page but the last with a continue token$/, function (this: KubespecWorld, min: string, limit: string) {
  const pages = this.recall<Page[]>('pages');
  assert.ok(pages.length >= Number(min), `only ${pages.length} page(s): ${JSON.stringify(pages)}`);
  for (const [i, p] of pages.entries()) {
    assert.ok(p.names.length <= Number(limit), `page ${i + 1} holds ${p.names.length} > ${limit}: ${p.names.join(', ')}`);
    assert.equal(Boolean(p.continue), i < pages.length - 1, `page ${i + 1} of ${pages.length} ${p.continue ? 'has' : 'lacks'} a continue token`);
  }
});

Then('the pages together hold each of {names} exactly once', function (this: KubespecWorld, names: string[]) {
  const seen = this.recall<Page[]>('pages').flatMap((p) => p.names);
  assert.deepEqual([...seen].sort(), [...names].sort(), `pages held: ${seen.join(', ')}`);
});

Then("every page carries the first page's resourceVersion", function (this: KubespecWorld) {
  const pages = this.recall<Page[]>('pages');
  for (const p of pages) assert.equal(p.resourceVersion, pages[0]!.resourceVersion, `resourceVersions: ${pages.map((x) => x.resourceVersion).join(', ')}`);
});
