import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeObject, encodeObject, encodeStored, parseStored, sharedObject } from './codec.ts';
import type { KeyValue } from '../../../contract/contract.ts';

const pod = (phase: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: '3' }, spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase } });
const kv = (key: string, value: string, modRevision: number): KeyValue => ({ key, value, modRevision, createRevision: 1, version: 1 }) as KeyValue;

test('a shared object is the stored object at its revision, as decodeObject reads it, and frozen through and through', () => {
  const stored = kv('/registry/pods/ns/p', encodeObject(pod('Running')), 7);
  const shared = sharedObject(stored);
  assert.deepEqual(shared, decodeObject(stored));
  assert.equal(shared.metadata.resourceVersion, '7');
  assert.ok(Object.isFrozen(shared) && Object.isFrozen(shared.metadata) && Object.isFrozen(shared.spec.containers[0]));
  assert.throws(() => {
    shared.status.phase = 'Failed';
  }, TypeError);
  assert.equal(sharedObject(stored, 9).metadata.resourceVersion, '9', 'shown at another revision (a deletion)');
});

test('one text is decoded once for every reader; the key\'s previous text stays decoded too, and a new text is decoded anew', () => {
  const key = '/registry/pods/ns/q';
  const before = kv(key, encodeObject(pod('Pending')), 4);
  const after = kv(key, encodeObject(pod('Running')), 5);
  const a = sharedObject(before);
  const b = sharedObject(after);
  assert.equal(b.status.phase, 'Running');
  // The nested objects are the very same: the text was not decoded again.
  assert.equal(sharedObject(after).spec, b.spec);
  assert.equal(sharedObject({ ...before, value: String(before.value) }).spec, a.spec, 'an equal text from another read is a hit');
  assert.equal(sharedObject(before).status.phase, 'Pending', 'the previous state, as a watch event shows it beside the new one');
});

test('the same key in two stores (two clusters in one process) never mixes their objects: the text decides', () => {
  const key = '/registry/pods/ns/r';
  const one = sharedObject(kv(key, encodeObject(pod('Pending')), 2));
  const other = sharedObject(kv(key, encodeObject({ ...pod('Succeeded'), metadata: { ...pod('x').metadata, uid: 'u2' } }), 2));
  assert.equal(one.status.phase, 'Pending');
  assert.equal(other.status.phase, 'Succeeded');
  assert.equal(other.metadata.uid, 'u2');
});

test('the writer decodes its own write from the bytes it encoded: the same object as reading the text back, and shared with the text\'s readers', () => {
  const encoded = encodeStored(pod('Pending'));
  assert.equal(encoded.value, encodeObject(pod('Pending')), 'the same text as encodeObject');
  assert.ok(encoded.unknown, 'a Pod is an envelope');
  const stored = kv('/registry/pods/ns/from-bytes', encoded.value, 11);
  const mine = sharedObject(stored, stored.modRevision, encoded);
  assert.deepEqual(mine, decodeObject(stored));
  assert.equal(JSON.stringify(mine), JSON.stringify(decodeObject(stored)), 'key order too');
  assert.equal(Object.getPrototypeOf(sharedObject(stored)), Object.getPrototypeOf(mine));
  assert.equal(sharedObject(stored).spec, mine.spec, 'the text\'s readers get the decode the writer made');
  // Bytes that are not this text's are never taken for it.
  const other = encodeStored(pod('Failed'));
  const stored2 = kv('/registry/pods/ns/from-bytes-2', encoded.value, 12);
  assert.equal(sharedObject(stored2, 12, other).status.phase, 'Pending');
  assert.deepEqual(parseStored(encodeStored({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }).value), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }, 'a kind without a message is JSON');
});
