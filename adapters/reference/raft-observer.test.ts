import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RaftBackend } from '../../reference/wiring/raft-backend.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { ReferenceMembers } from './members.ts';
import { ReferenceRaftObserver } from './raft-observer.ts';
import { membersFromTags, openStoreSession, retentionFromTags } from './store-session.ts';
import { LocalBackend } from '../../reference/store/local.ts';
import { StoreUnavailableError } from '../../contract/contract.ts';
import { referenceFaultSchedules } from './fault-schedules.ts';
import { ReferenceKv } from './kv.ts';

function observed(members = 3, seed = 5) {
  const backend = new RaftBackend({ seed, members });
  const raft = new ReferenceRaftObserver(backend);
  return { backend, raft, members: new ReferenceMembers(backend, raft) };
}

test('the trace shows the leader appending an entry before any MsgApp carries it, and committing after an acknowledgement', async () => {
  const { backend, raft } = observed();
  await backend.put('/k', 'v');
  const lines = raft.trace();
  const append = lines.findIndex((l) => /^append leader=\d index=\d+ term=\d+ put \/k/.test(l));
  assert.ok(append >= 0, 'the leader appended the put');
  const index = Number(/index=(\d+)/.exec(lines[append]!)![1]);
  const carrying = lines.findIndex((l) => l.startsWith('send MsgApp') && new RegExp(`entries=\\d+\\.\\.${index}\\b`).test(l));
  const ack = lines.findIndex((l) => l.startsWith('recv MsgAppResp') && new RegExp(`index=${index}\\b`).test(l));
  const commit = lines.findIndex((l) => l.startsWith('commit leader=') && Number(/index=(\d+)/.exec(l)![1]) >= index);
  assert.ok(append < carrying && carrying < ack && ack < commit, `append ${append} < MsgApp ${carrying} < ack ${ack} < commit ${commit}`);
});

test('a restarted member is observed again, starting as a follower', async () => {
  const { backend, raft, members } = observed();
  await backend.put('/a', '1');
  const follower = backend.sim.ids.find((id) => id !== backend.sim.leader())!;
  await members.kill(follower);
  await backend.put('/b', '2');
  await members.restart(follower);
  assert.equal(raft.role(follower), 'follower');
  const before = raft.trace().length;
  await backend.advance(1_000);
  assert.ok(raft.trace().slice(before).some((l) => l.startsWith(`recv MsgHeartbeat from=`) && l.includes(`to=${follower}`)), 'its traffic is traced');
  assert.equal(raft.lastLogIndex(follower), raft.lastLogIndex(backend.sim.leader()!));
});

test('the leader stays named while a follower is cut off, and the cut-off member never leads', async () => {
  const { backend, members } = observed();
  await backend.put('/a', '1');
  const leader = (await members.leader())!;
  const cut = backend.sim.ids.find((id) => id !== leader)!;
  await members.partition([[cut], backend.sim.ids.filter((id) => id !== cut)]);
  for (let i = 0; i < 30; i++) {
    await backend.advance(1_000);
    assert.notEqual(backend.sim.status(cut).role, 'leader');
  }
  assert.equal(await members.leader(), leader);
});

test('a session is replicated only when its tags ask for members, and sized by @members:N', () => {
  assert.equal(membersFromTags(['@requires:kv']), undefined);
  assert.equal(membersFromTags(['@requires:kv', '@requires:kv.members']), 3);
  assert.equal(membersFromTags(['@requires:raft.observe', '@members:5']), 5);
  assert.equal(retentionFromTags(['@auto-compaction-retention:2h']), 7_200_000);
});

test('periodic auto-compaction on the session clock discards history older than the retention', async () => {
  const clock = new VirtualClock(0);
  const session = openStoreSession({ seed: 1, tags: ['@auto-compaction-retention:1h'], clock, backend: new LocalBackend() });
  const old = (await session.kv.put('/c', 'old')).revision;
  await session.kv.put('/c', 'new');
  await session.clock.advance(30 * 60_000);
  assert.equal((await session.kv.get('/c', { revision: old })).kv?.value, 'old');
  await session.clock.advance(90 * 60_000);
  await assert.rejects(session.kv.get('/c', { revision: old }), /compacted/);
  await session.close();
});

test('the observer records every leader by term, and a leader killed and replaced shows as two terms with one leader each', async () => {
  const { backend, raft, members } = observed();
  await backend.put('/k', 'v');
  const first = backend.sim.leader()!;
  await members.kill(first);
  await backend.put('/k2', 'v');
  const byTerm = [...raft.leadersByTerm()];
  assert.ok(byTerm.length >= 2, JSON.stringify(byTerm));
  assert.ok(byTerm.every(([, ids]) => ids.length === 1), JSON.stringify(byTerm));
});

test("the replicated store's refusal reaches the kv facet as StoreUnavailableError, not as the simulator's error", async () => {
  const backend = new RaftBackend({ seed: 9, members: 3 });
  const kv = new ReferenceKv(backend);
  await kv.put('/k', 'v');
  const leader = backend.sim.leader()!;
  for (const id of backend.sim.ids.filter((i) => i !== leader)) backend.sim.kill(id);
  await assert.rejects(kv.put('/lost', 'x'), (e: unknown) => e instanceof StoreUnavailableError && e.reason === 'timeout');
});

test('a fault schedule run hands back a history and the leaders of each term, the same for the same seed', async () => {
  const a = await referenceFaultSchedules.run(7);
  const b = await referenceFaultSchedules.run(7);
  assert.equal(a.members, 3);
  assert.ok(a.history.some((op) => op.return_ms !== undefined), 'some calls were answered');
  assert.ok(a.leadersByTerm.size > 0);
  assert.deepEqual(a.history, b.history);
});
