import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, pod } from '../testing/harness.ts';

const PODS = '/api/v1/namespaces/default/pods';

test('a watch from a resourceVersion replays later changes, then streams new ones', async () => {
  const h = await harness();
  const created = await h.call('POST', PODS, pod('a'));
  const rv = created.json.metadata.resourceVersion;
  await h.call('PATCH', `${PODS}/a`, { metadata: { labels: { x: '1' } } }, { 'content-type': 'application/merge-patch+json' });
  const w = await h.watch(`${PODS}?watch=true&resourceVersion=${rv}`);
  await h.call('DELETE', `${PODS}/a?gracePeriodSeconds=0`);
  assert.deepEqual(w.events.map((e) => e.type), ['MODIFIED', 'DELETED']);
  assert.equal(w.events[0]!.object.metadata.labels.x, '1');
  w.stop();
  assert.equal(w.ended, true);
});

test('a watch without a resourceVersion starts with the current objects as ADDED', async () => {
  const h = await harness();
  await h.call('POST', PODS, pod('a'));
  await h.call('POST', PODS, pod('b'));
  const w = await h.watch(`${PODS}?watch=1`);
  assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'ADDED b']);
});

test('after compaction a watch from an older resourceVersion gets HTTP 200 and one ERROR event with a 410 Expired Status', async () => {
  const h = await harness();
  const first = await h.call('POST', PODS, pod('a'));
  for (const n of ['b', 'c']) await h.call('POST', PODS, pod(n));
  const current = h.backend.currentRevision();
  await h.backend.compact(current);
  const w = await h.watch(`${PODS}?watch=true&resourceVersion=${first.json.metadata.resourceVersion}`);
  assert.equal(w.status, 200);
  assert.equal(w.events.length, 1);
  assert.equal(w.events[0]!.type, 'ERROR');
  assert.deepEqual(
    { code: w.events[0]!.object.code, reason: w.events[0]!.object.reason, kind: w.events[0]!.object.kind },
    { code: 410, reason: 'Expired', kind: 'Status' },
  );
  assert.equal(w.events[0]!.object.message, `too old resource version: ${first.json.metadata.resourceVersion} (${current - 1})`);
  assert.equal(w.ended, true);
  // From the compaction point on, history is still there.
  const ok = await h.watch(`${PODS}?watch=true&resourceVersion=${current - 1}`);
  assert.deepEqual(ok.events.map((e) => e.type), ['ADDED']);
});

test('label selectors turn a label change into ADDED and DELETED for the watcher', async () => {
  const h = await harness();
  await h.call('POST', PODS, pod('a'));
  const w = await h.watch(`${PODS}?watch=true&resourceVersion=${h.backend.currentRevision()}&labelSelector=app%3Dweb`);
  const merge = { 'content-type': 'application/merge-patch+json' };
  await h.call('PATCH', `${PODS}/a`, { metadata: { labels: { app: 'web' } } }, merge);
  await h.call('PATCH', `${PODS}/a`, { metadata: { labels: { app: 'web', v: '2' } } }, merge);
  await h.call('PATCH', `${PODS}/a`, { metadata: { labels: { app: 'db' } } }, merge);
  assert.deepEqual(w.events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
});

test('bookmarks carry the latest resourceVersion and timeoutSeconds ends the stream', async () => {
  const h = await harness({ bookmarkInterval_ms: 1000 });
  const w = await h.watch(`${PODS}?watch=true&resourceVersion=${h.backend.currentRevision()}&allowWatchBookmarks=true&timeoutSeconds=5`);
  const created = await h.call('POST', PODS, pod('a'));
  h.timers.advance(1000);
  const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
  assert.equal(bookmark?.object.metadata.resourceVersion, created.json.metadata.resourceVersion);
  assert.equal(bookmark?.object.kind, 'Pod');
  h.timers.advance(4000);
  assert.equal(w.ended, true);
});

test('sendInitialEvents ends the initial ADDED events with an initial-events-end bookmark', async () => {
  const h = await harness();
  await h.call('POST', PODS, pod('a'));
  const w = await h.watch(`${PODS}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`);
  assert.deepEqual(w.events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
  assert.equal(w.events[1]!.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
});

test('without any compaction, a watch from a resourceVersion that has left the watch cache window is 410 Expired', async () => {
  const h = await harness();
  const first = await h.call('POST', PODS, pod('a'));
  await h.call('POST', PODS, pod('b'));
  h.clock.advance(76_000);
  const merge = { 'content-type': 'application/merge-patch+json' };
  for (let i = 0; i < 100; i++) await h.call('PATCH', `${PODS}/b`, { metadata: { labels: { n: String(i) } } }, merge);
  assert.equal(h.backend.compactRevision() <= Number(first.json.metadata.resourceVersion), true, 'the store still has the history');
  const w = await h.watch(`${PODS}?watch=true&resourceVersion=${first.json.metadata.resourceVersion}`);
  assert.equal(w.events[0]?.type, 'ERROR');
  assert.equal(w.events[0]!.object.code, 410);
  assert.match(w.events[0]!.object.message, /^too old resource version: \d+ \(\d+\)$/);
  // The newest events are still in the window.
  const last = await h.call('GET', `${PODS}/b`);
  const ok = await h.watch(`${PODS}?watch=true&resourceVersion=${Number(last.json.metadata.resourceVersion) - 1}`);
  assert.deepEqual(ok.events.map((e) => e.type), ['MODIFIED']);
});

test('pod watches by spec.nodeName (the indexed trigger) get exactly the events the selector passes: on, onto and off the node', async () => {
  const h = await harness({ bookmarkInterval_ms: 1000 });
  const rv = h.backend.currentRevision();
  const watch = (selector: string, extra = '') => h.watch(`/api/v1/pods?watch=true&resourceVersion=${rv}&fieldSelector=${encodeURIComponent(selector)}${extra}`);
  const [a, b, unbound, notA] = await Promise.all([watch('spec.nodeName=node-a', '&allowWatchBookmarks=true'), watch('spec.nodeName==node-b'), watch('spec.nodeName='), watch('spec.nodeName!=node-a')]);
  const seen = (w: typeof a) => w.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata.name}`);
  await h.call('POST', PODS, { ...pod('p1'), spec: { ...pod('p1').spec, nodeName: 'node-a' } });
  await h.call('POST', PODS, pod('p2'));
  await h.call('POST', `${PODS}/p2/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p2' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-b' } });
  await h.call('PATCH', `${PODS}/p1`, { metadata: { labels: { x: '1' } } }, { 'content-type': 'application/merge-patch+json' });
  await h.call('DELETE', `${PODS}/p1?gracePeriodSeconds=0`);
  await h.call('DELETE', `${PODS}/p2?gracePeriodSeconds=0`);
  assert.deepEqual(seen(a), ['ADDED p1', 'MODIFIED p1', 'DELETED p1']);
  assert.deepEqual(seen(b), ['ADDED p2', 'DELETED p2']);
  assert.deepEqual(seen(unbound), ['ADDED p2', 'DELETED p2']);
  assert.deepEqual(seen(notA), ['ADDED p2', 'MODIFIED p2', 'DELETED p2']);
  // The last writes were node-b's: node-a's watch was not offered them, and its bookmark still moves past them.
  h.timers.advance(1000);
  assert.equal(a.events.at(-1)?.type, 'BOOKMARK');
  assert.equal(a.events.at(-1)!.object.metadata.resourceVersion, String(h.backend.currentRevision()));
});
