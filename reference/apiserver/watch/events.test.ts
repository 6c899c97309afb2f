import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvEvent } from '../../../contract/contract.ts';
import { encodeEvent, encodeShared, toWatchEvent } from './events.ts';

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

test('each encoding of a shared event is made once: the JSON line and the protobuf frame are the same value for every watcher', () => {
  let made = 0;
  const frame = (ev: { type: string }) => (made++, Uint8Array.of(made, ev.type.length));
  const first = toWatchEvent(put(), all)!;
  const bytes = encodeShared(first, 'protobuf', frame);
  assert.equal(encodeShared(toWatchEvent(put(), all)!, 'protobuf', frame), bytes);
  assert.equal(made, 1);
  // Another type, or another encoding, of the same object is another value.
  assert.notEqual(encodeShared({ type: 'MODIFIED', object: first.object }, 'protobuf', frame), bytes);
  assert.equal(typeof encodeShared(first, 'json', (ev) => JSON.stringify(ev)), 'string');
  // An object no store event decoded (a Status, a bookmark) is encoded every time.
  const status = { type: 'ERROR' as const, object: { kind: 'Status' } };
  encodeShared(status, 'protobuf', frame);
  encodeShared(status, 'protobuf', frame);
  assert.equal(made, 4);
});
