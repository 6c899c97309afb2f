/**
 * What clients other than kubectl and client-go rely on: capitalised booleans, key order that
 * differs from ours, upstream's update rules for Secrets and ConfigMaps, remainingItemCount.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, pod } from './testing/harness.ts';

const NS = '/api/v1/namespaces/default';
const merge = { 'content-type': 'application/merge-patch+json' };

test('?watch=True and allowWatchBookmarks=True are a watch with bookmarks, as apimachinery parses booleans', async () => {
  const h = await harness();
  await h.call('POST', `${NS}/pods`, pod('a'));
  const w = await h.watch(`${NS}/pods?watch=True&allowWatchBookmarks=True&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&resourceVersion=0`);
  assert.equal(w.status, 200, JSON.stringify(w.body));
  assert.deepEqual(w.events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
  const list = await h.watch(`${NS}/pods?watch=false`);
  assert.equal(list.body?.kind, 'PodList');
  w.stop();
});

test('a pod update whose spec lists the same keys in another order changes nothing and is accepted', async () => {
  const h = await harness();
  const created = await h.call('POST', `${NS}/pods`, pod('a'));
  const reordered = (o: any): any => (Array.isArray(o) ? o.map(reordered) : o && typeof o === 'object' ? Object.fromEntries(Object.keys(o).reverse().map((k) => [k, reordered(o[k])])) : o);
  const body = { ...created.json, metadata: { ...created.json.metadata, labels: { x: '1' } }, spec: reordered(created.json.spec) };
  const r = await h.call('PUT', `${NS}/pods/a`, body);
  assert.equal(r.status, 200, JSON.stringify(r.json));
});

test('an immutable ConfigMap keeps its data and its mark (422 Forbidden, upstream\'s wording)', async () => {
  const h = await harness();
  await h.call('POST', `${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' }, immutable: true });
  const data = await h.call('PATCH', `${NS}/configmaps/c`, { data: { k: 'w' } }, merge);
  assert.equal(data.status, 422);
  assert.equal(data.json.message, 'ConfigMap "c" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  const mark = await h.call('PATCH', `${NS}/configmaps/c`, { immutable: false }, merge);
  assert.equal(mark.status, 422);
  assert.deepEqual(mark.json.details.causes.map((c: any) => c.field), ['immutable']);
  const labels = await h.call('PATCH', `${NS}/configmaps/c`, { metadata: { labels: { a: 'b' } } }, merge);
  assert.equal(labels.status, 200, 'metadata stays mutable');
});

test('an immutable Secret keeps its data, and no Secret may change its type', async () => {
  const h = await harness();
  await h.call('POST', `${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'dg==' }, immutable: true });
  const data = await h.call('PATCH', `${NS}/secrets/s`, { data: { k: 'dw==' } }, merge);
  assert.equal(data.status, 422);
  assert.equal(data.json.message, 'Secret "s" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  await h.call('POST', `${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 't' }, data: { k: 'dg==' } });
  const type = await h.call('PATCH', `${NS}/secrets/t`, { type: 'example.com/other' }, merge);
  assert.equal(type.status, 422);
  assert.equal(type.json.message, 'Secret "t" is invalid: type: Invalid value: "example.com/other": field is immutable');
  const data2 = await h.call('PATCH', `${NS}/secrets/t`, { data: { k: 'dw==' } }, merge);
  assert.equal(data2.status, 200, 'a mutable Secret\'s data may change');
});

test('a limited list without a selector says how many items remain; with a selector it does not', async () => {
  const h = await harness();
  for (const n of ['a', 'b', 'c', 'd']) await h.call('POST', `${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { x: '1' } } });
  const page = await h.call('GET', `${NS}/configmaps?limit=1`);
  assert.equal(page.json.metadata.remainingItemCount, 3);
  const next = await h.call('GET', `${NS}/configmaps?limit=2&continue=${encodeURIComponent(page.json.metadata.continue)}`);
  assert.equal(next.json.metadata.remainingItemCount, 1);
  const selected = await h.call('GET', `${NS}/configmaps?limit=1&labelSelector=x%3D1`);
  assert.equal(selected.json.metadata.remainingItemCount, undefined);
  assert.ok(selected.json.metadata.continue);
  const last = await h.call('GET', `${NS}/configmaps?limit=4`);
  assert.equal(last.json.metadata.remainingItemCount, undefined);
});

test('a JSON patch with an unknown op is 422 Invalid', async () => {
  const h = await harness();
  await h.call('POST', `${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
  const r = await h.call('PATCH', `${NS}/configmaps/c`, [{ op: 'merge', path: '/data', value: {} }], { 'content-type': 'application/json-patch+json' });
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'Unexpected kind: merge');
});
