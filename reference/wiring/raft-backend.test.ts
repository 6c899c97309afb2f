import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompactedError, type KvEvent } from '../../contract/contract.ts';
import { RaftBackend, RequestTimeoutError } from './raft-backend.ts';

async function started(members = 3, seed = 7): Promise<RaftBackend> {
  const backend = new RaftBackend({ seed, members });
  assert.ok(await backend.run(() => backend.sim.leader() !== undefined, 5_000), 'a leader within 5 s of virtual time');
  return backend;
}

test('a write is acknowledged with etcd revisions and every member applies it', async () => {
  const backend = await started();
  const first = await backend.put('/a', '1');
  assert.equal(first.revision, 2);
  assert.deepEqual(first.kv, { key: '/a', value: '1', createRevision: 2, modRevision: 2, version: 1 });
  await backend.advance(500);
  for (const id of backend.sim.ids) assert.equal(backend.storeOf(id)?.get('/a')?.value, '1', `member ${id}`);
  assert.equal((await backend.get('/a'))?.value, '1');
});

test('a client call moves virtual time forward, and the listener hears by how much', async () => {
  let heard_ms = 0;
  const backend = new RaftBackend({ seed: 3, members: 3, onAdvance: (ms) => (heard_ms += ms) });
  await backend.put('/k', 'v');
  assert.ok(backend.now_ms() > 0, 'the first put waited for an election');
  assert.equal(heard_ms, backend.now_ms());
});

test('reads at old revisions, compaction and its error work through the log', async () => {
  const backend = await started();
  const r1 = (await backend.put('/h', 'v1')).revision;
  await backend.put('/h', 'v2');
  assert.equal((await backend.get('/h', r1))?.value, 'v1');
  await backend.compact(r1 + 1);
  await assert.rejects(backend.get('/h', r1), CompactedError);
  await assert.rejects(backend.compact(r1), CompactedError);
  assert.equal(backend.compactRevision(), r1 + 1);
});

test('with two of three members down a write times out after the request timeout, then succeeds once they return', async () => {
  const backend = await started();
  await backend.put('/acked', 'yes');
  const leader = backend.sim.leader()!;
  const followers = backend.sim.ids.filter((id) => id !== leader);
  for (const id of followers) backend.sim.kill(id);
  const start_ms = backend.now_ms();
  await assert.rejects(backend.put('/lost', 'no'), RequestTimeoutError);
  assert.ok(backend.now_ms() - start_ms >= backend.requestTimeout_ms, 'it waited the whole request timeout');
  for (const id of followers) backend.sim.restart(id);
  await backend.put('/after', 'yes');
  assert.equal((await backend.get('/acked'))?.value, 'yes');
});

test('a watch replays from a revision and keeps going after the serving leader crashes', async () => {
  const backend = await started(3, 11);
  const from = (await backend.put('/w/a', '1')).revision;
  const events: KvEvent[] = [];
  backend.watch('/w/', from, { onEvents: (e) => events.push(...e), onCancel: () => assert.fail('not cancelled') });
  assert.deepEqual(events.map((e) => e.kv.value), ['1']);
  backend.sim.kill(backend.sim.leader()!);
  await backend.put('/w/b', '2');
  await backend.put('/w/c', '3');
  assert.deepEqual(events.map((e) => e.kv.value), ['1', '2', '3'], 'each event once, in order');
});

test('a snapshot of the replicated store restores into an equal single store', async () => {
  const backend = await started(5);
  await backend.put('/s/1', 'a');
  await backend.delete('/s/1');
  await backend.put('/s/2', 'b');
  const snapshot = backend.snapshot();
  assert.match(snapshot, /kubespec-mvcc-snapshot/);
  assert.equal(JSON.parse(snapshot).revision, backend.currentRevision());
});
