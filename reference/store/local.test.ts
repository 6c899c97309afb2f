import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompactedError, type KvEvent } from '../../contract/contract.ts';
import type { Backend } from './backend.ts';
import { LocalBackend } from './local.ts';
import { FutureRevisionError } from './mvcc.ts';

test('a local backend offers the Backend interface with etcd revisions', async () => {
  const backend: Backend = new LocalBackend();
  assert.equal(backend.currentRevision(), 1);
  const created = await backend.put('/registry/pods/default/a', '{}');
  assert.deepEqual(created, { revision: 2, kv: { key: '/registry/pods/default/a', value: '{}', createRevision: 2, modRevision: 2, version: 1 } });
  assert.equal((await backend.get('/registry/pods/default/a'))?.version, 1);
  const listed = await backend.range('/registry/pods/', { limit: 10 });
  assert.deepEqual([listed.kvs.length, listed.revision, listed.more], [1, 2, false]);
  const deleted = await backend.delete('/registry/pods/default/a');
  assert.equal(deleted.revision, 3);
  assert.equal(deleted.deleted?.value, '{}');
  assert.deepEqual(await backend.delete('/registry/pods/default/a'), { revision: 3 });
});

test('a local backend compare-and-swap reports the current key when it loses', async () => {
  const backend = new LocalBackend();
  await backend.put('k', 'v1');
  const lost = await backend.txn({ key: 'k', expectModRevision: 0, value: 'v2' });
  assert.deepEqual(lost, { succeeded: false, revision: 2, kv: { key: 'k', value: 'v1', createRevision: 2, modRevision: 2, version: 1 } });
  const won = await backend.txn({ key: 'k', expectModRevision: 2, value: 'v2' });
  assert.equal(won.succeeded, true);
  assert.equal(won.kv?.value, 'v2');
});

test('a local backend rejects compacted and future reads and compactions with typed errors', async () => {
  const backend = new LocalBackend();
  for (let i = 0; i < 4; i++) await backend.put('k', `v${i}`);
  await backend.compact(4);
  await assert.rejects(backend.get('k', 3), CompactedError);
  await assert.rejects(backend.range('', { revision: 9 }), FutureRevisionError);
  await assert.rejects(backend.compact(4), CompactedError);
  await assert.rejects(backend.compact(99), FutureRevisionError);
  assert.equal(backend.compactRevision(), 4);
});

test('a local backend delivers watch events synchronously, before the write promise resolves', async () => {
  const backend = new LocalBackend();
  const events: KvEvent[] = [];
  let seenWhenPutReturned = -1;
  backend.watch('/w/', 0, { onEvents: (batch) => events.push(...batch), onCancel: () => {} });
  const pending = backend.put('/w/a', '1');
  seenWhenPutReturned = events.length;
  await pending;
  assert.equal(seenWhenPutReturned, 1);
});

test('a throwing watch handler goes to onHandlerError and does not fail the write', async () => {
  const errors: unknown[] = [];
  const backend = new LocalBackend(undefined, { onHandlerError: (e) => errors.push(e) });
  backend.watch('', 0, { onEvents: () => { throw new Error('handler bug'); }, onCancel: () => {} });
  const result = await backend.put('a', '1');
  assert.equal(result.revision, 2);
  assert.equal(errors.length, 1);
});

test('a local backend restored from its snapshot continues at the same revision', async () => {
  const backend = new LocalBackend();
  await backend.put('a', '1');
  await backend.put('b', '2');
  const copy = LocalBackend.fromSnapshot(backend.snapshot());
  assert.equal(copy.currentRevision(), 3);
  assert.equal((await copy.put('c', '3')).revision, 4);
  assert.equal((await copy.get('a'))?.value, '1');
});

test('a watch on a local backend from a compacted revision is cancelled', async () => {
  const backend = new LocalBackend();
  for (let i = 0; i < 4; i++) await backend.put('k', `v${i}`);
  await backend.compact(4);
  const cancels: [string, number | undefined][] = [];
  backend.watch('k', 2, { onEvents: () => assert.fail('no events after cancel'), onCancel: (r, c) => cancels.push([r, c]) });
  assert.deepEqual(cancels, [['mvcc: required revision has been compacted', 4]]);
});
