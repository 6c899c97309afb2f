import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvEvent } from '../../../contract/contract.ts';
import { encodeEvent, toWatchEvent } from './events.ts';

const stored = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', labels: { app: 'web' } }, data: { k: 'v' } });
const put = (): KvEvent => ({ type: 'PUT', kv: { key: '/registry/configmaps/ns/a', value: stored, createRevision: 7, modRevision: 7, version: 1 } });
const all = () => true;

test('every watcher of one store event gets the same decoded object, frozen, with the event revision as resourceVersion', () => {
  // Each watcher hears of the event through its own copy of it, as the store hands them out.
  const first = toWatchEvent(put(), all)!;
  const second = toWatchEvent(put(), all)!;
  assert.equal(first.type, 'ADDED');
  assert.equal(second.object, first.object);
  assert.equal((first.object as any).metadata.resourceVersion, '7');
  assert.ok(Object.isFrozen((first.object as any).metadata.labels));
});

test('an event line is the same string for every watcher and the same bytes as JSON.stringify of the event', () => {
  const first = toWatchEvent(put(), all)!;
  const line = encodeEvent(first);
  assert.equal(line, JSON.stringify(first) + '\n');
  assert.equal(encodeEvent(toWatchEvent(put(), all)!), line);
  assert.equal(encodeEvent({ type: 'MODIFIED', object: first.object }), JSON.stringify({ type: 'MODIFIED', object: first.object }) + '\n');
});

test('a different value or revision is decoded on its own, and events of other objects encode as before', () => {
  const base = put();
  const later: KvEvent = { type: 'PUT', kv: { ...base.kv, modRevision: 8, version: 2 }, prevKv: base.kv };
  const ev = toWatchEvent(later, all)!;
  assert.equal(ev.type, 'MODIFIED');
  assert.equal((ev.object as any).metadata.resourceVersion, '8');
  assert.notEqual(ev.object, toWatchEvent(put(), all)!.object);
  const bookmark = { type: 'BOOKMARK' as const, object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '8' } } };
  assert.equal(encodeEvent(bookmark), JSON.stringify(bookmark) + '\n');
});
