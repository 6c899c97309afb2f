import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompactedError, type KvEvent } from '../../contract/contract.ts';
import { COMPACTED_REASON, decodeCommand, encodeCommand, FutureRevisionError, MvccStore, type StoreCommand } from './mvcc.ts';

function put(store: MvccStore, key: string, value: string) {
  const result = store.apply({ op: 'put', key, value });
  assert.equal(result.op, 'put');
  return result;
}

function recorder() {
  const batches: { events: KvEvent[]; revision: number }[] = [];
  const cancels: { reason: string; compactRevision?: number }[] = [];
  return {
    batches,
    cancels,
    events: () => batches.flatMap((b) => b.events),
    handlers: {
      onEvents: (events: KvEvent[], revision: number) => batches.push({ events, revision }),
      onCancel: (reason: string, compactRevision?: number) => cancels.push({ reason, compactRevision }),
    },
  };
}

test('an empty store is at revision 1 and the first write makes it 2, as in etcd', () => {
  const store = new MvccStore();
  assert.equal(store.currentRevision(), 1);
  assert.equal(store.compactRevision(), 0);
  assert.equal(put(store, 'a', '1').revision, 2);
  assert.equal(store.currentRevision(), 2);
});

test('a key keeps its create revision and counts its versions across updates', () => {
  const store = new MvccStore();
  put(store, 'k', 'v1');
  put(store, 'other', 'x');
  const second = put(store, 'k', 'v2');
  assert.deepEqual(second.kv, { key: 'k', value: 'v2', createRevision: 2, modRevision: 4, version: 2 });
  assert.deepEqual(store.get('k'), second.kv);
});

test('a delete leaves a tombstone and a later put recreates the key at version 1', () => {
  const store = new MvccStore();
  put(store, 'k', 'v1');
  const deleted = store.apply({ op: 'delete', key: 'k' });
  assert.deepEqual(deleted, { op: 'delete', revision: 3, deleted: { key: 'k', value: 'v1', createRevision: 2, modRevision: 2, version: 1 } });
  assert.equal(store.get('k'), undefined);
  assert.deepEqual(put(store, 'k', 'v2').kv, { key: 'k', value: 'v2', createRevision: 4, modRevision: 4, version: 1 });
  assert.equal(store.get('k', 3), undefined);
  assert.equal(store.get('k', 2)?.value, 'v1');
});

test('a delete of a missing key changes nothing and does not move the revision', () => {
  const store = new MvccStore();
  put(store, 'a', '1');
  assert.deepEqual(store.apply({ op: 'delete', key: 'missing' }), { op: 'delete', revision: 2 });
  assert.equal(store.currentRevision(), 2);
});

test('a range by prefix returns live keys in key order at any retained revision', () => {
  const store = new MvccStore();
  put(store, '/registry/pods/b', 'b1');
  put(store, '/registry/pods/a', 'a1');
  put(store, '/registry/podsx', 'not-a-child');
  put(store, '/registry/pods/b', 'b2');
  store.apply({ op: 'delete', key: '/registry/pods/a' });
  const now = store.range('/registry/pods/');
  assert.deepEqual(now.kvs.map((kv) => [kv.key, kv.value]), [['/registry/pods/b', 'b2']]);
  assert.equal(now.revision, 6);
  const then = store.range('/registry/pods/', { revision: 4 });
  assert.deepEqual(then.kvs.map((kv) => [kv.key, kv.value]), [['/registry/pods/a', 'a1'], ['/registry/pods/b', 'b1']]);
  assert.equal(then.revision, 4);
  assert.equal(store.range('').kvs.length, 2);
});

test('a range with a limit says there is more, and fromKey continues where it stopped', () => {
  const store = new MvccStore();
  for (const name of ['a', 'b', 'c', 'd', 'e']) put(store, `/p/${name}`, name);
  const first = store.range('/p/', { limit: 2 });
  assert.deepEqual(first.kvs.map((kv) => kv.value), ['a', 'b']);
  assert.equal(first.more, true);
  const second = store.range('/p/', { limit: 2, fromKey: '/p/b\0' });
  assert.deepEqual(second.kvs.map((kv) => kv.value), ['c', 'd']);
  assert.equal(second.more, true);
  const last = store.range('/p/', { limit: 2, fromKey: '/p/e' });
  assert.deepEqual(last.kvs.map((kv) => kv.value), ['e']);
  assert.equal(last.more, false);
});

test('a read above the current revision fails as a future revision', () => {
  const store = new MvccStore();
  put(store, 'a', '1');
  assert.throws(() => store.get('a', 3), FutureRevisionError);
  assert.throws(() => store.range('', { revision: 3 }), /future revision/);
});

test('a compare-and-swap succeeds only when the mod revision matches, and 0 means the key must be absent', () => {
  const store = new MvccStore();
  const created = store.apply({ op: 'txn', cas: { key: 'k', expectModRevision: 0, value: 'v1' } });
  assert.deepEqual(created, { op: 'txn', succeeded: true, revision: 2, kv: { key: 'k', value: 'v1', createRevision: 2, modRevision: 2, version: 1 } });
  const again = store.apply({ op: 'txn', cas: { key: 'k', expectModRevision: 0, value: 'v2' } });
  assert.deepEqual(again, { op: 'txn', succeeded: false, revision: 2, kv: { key: 'k', value: 'v1', createRevision: 2, modRevision: 2, version: 1 } });
  const stale = store.apply({ op: 'txn', cas: { key: 'k', expectModRevision: 1, value: 'v2' } });
  assert.equal(stale.op === 'txn' && stale.succeeded, false);
  assert.equal(store.currentRevision(), 2);
  const updated = store.apply({ op: 'txn', cas: { key: 'k', expectModRevision: 2, value: 'v2' } });
  assert.equal(updated.op === 'txn' && updated.kv?.version, 2);
});

test('a compare-and-swap with a null value deletes the key', () => {
  const store = new MvccStore();
  put(store, 'k', 'v1');
  const removed = store.apply({ op: 'txn', cas: { key: 'k', expectModRevision: 2, value: null } });
  assert.deepEqual(removed, { op: 'txn', succeeded: true, revision: 3 });
  assert.equal(store.get('k'), undefined);
});

test('reads below the compact revision fail with CompactedError, reads at it still work', () => {
  const store = new MvccStore();
  for (let i = 0; i < 5; i++) put(store, 'k', `v${i}`); // revisions 2..6
  assert.deepEqual(store.apply({ op: 'compact', revision: 5 }), { op: 'compact', revision: 6, compactRevision: 5 });
  assert.equal(store.compactRevision(), 5);
  assert.throws(
    () => store.get('k', 3),
    (error: unknown) => error instanceof CompactedError && error.requestedRevision === 3 && error.compactRevision === 5,
  );
  assert.equal(store.get('k', 5)?.value, 'v3');
  assert.equal(store.get('k')?.value, 'v4');
});

test('compaction keeps the latest version of each live key at or before the compact revision', () => {
  const store = new MvccStore();
  put(store, 'kept', 'old'); // 2
  put(store, 'gone', 'x'); // 3
  store.apply({ op: 'delete', key: 'gone' }); // 4
  put(store, 'later', 'y'); // 5
  store.apply({ op: 'compact', revision: 5 });
  assert.equal(store.get('kept', 5)?.value, 'old');
  assert.equal(store.get('gone', 5), undefined);
  assert.deepEqual(JSON.parse(store.snapshot()).keys.map((k: { key: string }) => k.key), ['kept', 'later']);
});

test('compacting a future revision or an already compacted one is refused with etcd errors', () => {
  const store = new MvccStore();
  put(store, 'a', '1');
  const future = store.apply({ op: 'compact', revision: 3 });
  assert.equal(future.op === 'error' && future.code, 'future-revision');
  assert.equal(store.apply({ op: 'compact', revision: 2 }).op, 'compact');
  const twice = store.apply({ op: 'compact', revision: 2 });
  assert.equal(twice.op === 'error' && twice.code, 'compacted');
  assert.equal(store.compactRevision(), 2);
});

test('a watch replays retained events from its start revision and then follows live writes', () => {
  const store = new MvccStore();
  put(store, '/w/a', '1'); // 2
  put(store, '/x/a', 'other'); // 3
  put(store, '/w/a', '2'); // 4
  const seen = recorder();
  store.watch('/w/', 2, seen.handlers);
  assert.deepEqual(seen.batches.map((b) => [b.revision, b.events.map((e) => e.kv.modRevision)]), [[4, [2, 4]]]);
  store.apply({ op: 'delete', key: '/w/a' }); // 5
  const last = seen.events().at(-1)!;
  assert.equal(last.type, 'DELETE');
  assert.deepEqual(last.kv, { key: '/w/a', value: '', createRevision: 0, modRevision: 5, version: 0 });
  assert.equal(last.prevKv?.value, '2');
  assert.equal(seen.events()[1]!.prevKv?.value, '1');
});

test('a watch from revision 0 hears only changes made after it started', () => {
  const store = new MvccStore();
  put(store, 'a', '1');
  const seen = recorder();
  const cancel = store.watch('', 0, seen.handlers);
  put(store, 'b', '2');
  cancel();
  put(store, 'c', '3');
  assert.deepEqual(seen.events().map((e) => e.kv.key), ['b']);
  assert.equal(store.watcherCount(), 0);
});

test('a watch from a compacted revision is cancelled with etcd reason and the compact revision', () => {
  const store = new MvccStore();
  for (let i = 0; i < 5; i++) put(store, 'k', `v${i}`); // 2..6
  store.apply({ op: 'compact', revision: 5 });
  const early = recorder();
  store.watch('k', 3, early.handlers);
  assert.deepEqual(early.cancels, [{ reason: COMPACTED_REASON, compactRevision: 5 }]);
  assert.equal(early.batches.length, 0);
  const atCompaction = recorder();
  store.watch('k', 5, atCompaction.handlers);
  assert.deepEqual(atCompaction.events().map((e) => e.kv.modRevision), [5, 6]);
});

test('watchers hear writes made by other watchers in revision order, each exactly once', () => {
  const store = new MvccStore();
  const order: string[] = [];
  store.watch('', 0, {
    onEvents: (events) => {
      for (const e of events) {
        order.push(`first:${e.kv.key}`);
        if (e.kv.key === 'trigger') store.apply({ op: 'put', key: 'reaction', value: 'x' });
      }
    },
    onCancel: () => {},
  });
  const second = recorder();
  store.watch('', 0, second.handlers);
  put(store, 'trigger', 'go');
  assert.deepEqual(order, ['first:trigger', 'first:reaction']);
  assert.deepEqual(second.events().map((e) => e.kv.key), ['trigger', 'reaction']);
});

test('a throwing watcher does not stop the others and its error surfaces after the write is applied', () => {
  const store = new MvccStore();
  store.watch('', 0, { onEvents: () => { throw new Error('boom'); }, onCancel: () => {} });
  const other = recorder();
  store.watch('', 0, other.handlers);
  assert.throws(() => store.apply({ op: 'put', key: 'a', value: '1' }), /boom/);
  assert.equal(store.get('a')?.value, '1');
  assert.equal(other.events().length, 1);
});

test('the same commands applied to two stores give the same results and snapshots', () => {
  const commands: StoreCommand[] = [
    { op: 'put', key: 'a', value: '1' },
    { op: 'txn', cas: { key: 'a', expectModRevision: 2, value: '2' } },
    { op: 'txn', cas: { key: 'a', expectModRevision: 2, value: 'lost' } },
    { op: 'delete', key: 'a' },
    { op: 'put', key: 'b', value: '3' },
    { op: 'compact', revision: 4 },
    { op: 'compact', revision: 99 },
  ];
  const one = new MvccStore();
  const two = new MvccStore();
  const results = commands.map((c) => one.apply(c));
  const replayed = commands.map((c) => {
    const decoded = decodeCommand(encodeCommand(c));
    assert.ok('command' in decoded);
    return two.apply(decoded.command);
  });
  assert.deepEqual(replayed, results);
  assert.equal(two.snapshot(), one.snapshot());
});

test('a malformed command is refused without changing the store', () => {
  const store = new MvccStore();
  const result = store.apply({ op: 'put', key: '', value: 'x' });
  assert.equal(result.op === 'error' && result.code, 'invalid-command');
  assert.equal(store.apply(JSON.parse('{"op":"explode"}')).op, 'error');
  assert.ok('error' in decodeCommand('not json'));
  assert.equal(store.currentRevision(), 1);
});

test('a restored snapshot answers historical reads and replays watches like the original', () => {
  const store = new MvccStore();
  put(store, 'a', '1'); // 2
  put(store, 'b', '1'); // 3
  store.apply({ op: 'delete', key: 'a' }); // 4
  put(store, 'a', '2'); // 5
  put(store, 'b', '2'); // 6
  store.apply({ op: 'compact', revision: 4 });
  const restored = MvccStore.restore(store.snapshot());
  assert.equal(restored.currentRevision(), 6);
  assert.equal(restored.compactRevision(), 4);
  assert.deepEqual(restored.range('', { revision: 4 }), store.range('', { revision: 4 }));
  const original = recorder();
  const copy = recorder();
  store.watch('', 4, original.handlers);
  restored.watch('', 4, copy.handlers);
  assert.deepEqual(copy.events(), original.events());
  assert.equal(restored.snapshot(), store.snapshot());
  assert.equal(put(restored, 'c', '1').revision, 7);
});

test('a snapshot that is not ours or is inconsistent is refused', () => {
  assert.throws(() => MvccStore.restore('{"format":"something-else"}'), /not an MVCC snapshot/);
  const bad = JSON.stringify({ format: 'kubespec-mvcc-snapshot/1', revision: 3, compactRevision: 0, keys: [{ key: 'a', versions: [['x', 2, 5, 1, 0]] }] });
  assert.throws(() => MvccStore.restore(bad), /not ascending/);
});
