import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, pod } from '../testing/harness.ts';

async function withPods(n: number) {
  const h = await harness();
  for (let i = 0; i < n; i++) {
    const r = await h.call('POST', '/api/v1/namespaces/default/pods', pod(`p${String(i).padStart(2, '0')}`, { labels: { parity: i % 2 ? 'odd' : 'even' } }));
    assert.equal(r.status, 201);
  }
  return h;
}

test('a paginated list returns every object exactly once, all pages at the first page\'s revision', async () => {
  const h = await withPods(7);
  const names: string[] = [];
  let token = '';
  let revision = '';
  for (let page = 0; page < 10; page++) {
    const r = await h.call('GET', `/api/v1/namespaces/default/pods?limit=3${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    assert.equal(r.status, 200);
    names.push(...r.json.items.map((p: any) => p.metadata.name));
    revision ||= r.json.metadata.resourceVersion;
    assert.equal(r.json.metadata.resourceVersion, revision);
    if (page === 0) await h.call('POST', '/api/v1/namespaces/default/pods', pod('zz-late'));
    token = r.json.metadata.continue ?? '';
    if (!token) break;
  }
  assert.deepEqual(names, ['p00', 'p01', 'p02', 'p03', 'p04', 'p05', 'p06']);
});

test('limit counts matching objects when a label selector filters the list', async () => {
  const h = await withPods(6);
  const r = await h.call('GET', '/api/v1/namespaces/default/pods?limit=2&labelSelector=parity%3Dodd');
  assert.deepEqual(r.json.items.map((p: any) => p.metadata.name), ['p01', 'p03']);
  const rest = await h.call('GET', `/api/v1/namespaces/default/pods?limit=2&labelSelector=parity%3Dodd&continue=${encodeURIComponent(r.json.metadata.continue)}`);
  assert.deepEqual(rest.json.items.map((p: any) => p.metadata.name), ['p05']);
  assert.equal(rest.json.metadata.continue, undefined);
});

test('a continue token from before a compaction is 410 Expired with etcd3\'s message', async () => {
  const h = await withPods(4);
  const first = await h.call('GET', '/api/v1/namespaces/default/pods?limit=2');
  await h.call('POST', '/api/v1/namespaces/default/pods', pod('later'));
  await h.backend.compact(h.backend.currentRevision());
  const r = await h.call('GET', `/api/v1/namespaces/default/pods?limit=2&continue=${encodeURIComponent(first.json.metadata.continue)}`);
  assert.equal(r.status, 410);
  assert.equal(r.json.reason, 'Expired');
  assert.match(r.json.message, /^The provided continue parameter is too old/);
});

test('a list at an exact compacted resourceVersion is 410 Expired, at a retained one it shows that past', async () => {
  const h = await withPods(2);
  const before = await h.call('GET', '/api/v1/namespaces/default/pods');
  await h.call('POST', '/api/v1/namespaces/default/pods', pod('later'));
  const past = await h.call('GET', `/api/v1/namespaces/default/pods?resourceVersion=${before.json.metadata.resourceVersion}&resourceVersionMatch=Exact`);
  assert.equal(past.json.items.length, 2);
  await h.backend.compact(h.backend.currentRevision());
  const r = await h.call('GET', `/api/v1/namespaces/default/pods?resourceVersion=${before.json.metadata.resourceVersion}&resourceVersionMatch=Exact`);
  assert.equal(r.status, 410);
  assert.equal(r.json.message, 'The resourceVersion for the provided list is too old.');
});

test('a garbage continue token is 400, not 500', async () => {
  const h = await withPods(1);
  const r = await h.call('GET', '/api/v1/namespaces/default/pods?limit=1&continue=%%%');
  assert.equal(r.status, 400);
});

test('field selectors select pods by node and phase across namespaces', async () => {
  const h = await withPods(2);
  await h.call('POST', '/api/v1/namespaces/default/pods/p00/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p00' }, target: { kind: 'Node', name: 'n1' } });
  const r = await h.call('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1,status.phase%3DPending');
  assert.deepEqual(r.json.items.map((p: any) => p.metadata.name), ['p00']);
  const unbound = await h.call('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3D');
  assert.deepEqual(unbound.json.items.map((p: any) => p.metadata.name), ['p01']);
});
