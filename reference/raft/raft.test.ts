import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../sim/prng.ts';
import { RaftNode } from './raft.ts';
import { TestNetwork, hup } from './testnet.ts';
import type { Entry, Message } from './types.ts';

function msg(fields: Partial<Message> & Pick<Message, 'type' | 'from' | 'to' | 'term'>): Message {
  return { index: 0, logTerm: 0, entries: [], commit: 0, reject: false, rejectHint: 0, context: '', ...fields };
}

/** Tick until exactly one leader exists; returns it. */
function electLeader(net: TestNetwork, maxTicks = 200): string {
  for (let i = 0; i < maxTicks; i++) {
    net.tickAll();
    const leaders = net.leaders();
    if (leaders.length === 1 && leaders[0] !== undefined) return leaders[0];
  }
  throw new Error('no single leader emerged');
}

function entry(term: number, index: number, data: string | null = `t${term}i${index}`): Entry {
  return { term, index, data };
}

test('the election timeout is drawn from [electionTicks, 2 × electionTicks) by the injected PRNG', () => {
  const seen = new Set<number>();
  for (let seed = 1; seed <= 200; seed++) {
    const node = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(seed), electionTicks: 10 });
    let ticks = 0;
    while (node.role === 'follower' && ticks < 100) {
      node.tick();
      ticks++;
    }
    assert.equal(node.role, 'pre-candidate', 'PreVote is on by default: the first step is a pre-election');
    assert.ok(ticks >= 10 && ticks < 20, `timed out after ${ticks} ticks`);
    seen.add(ticks);
  }
  assert.ok(seen.size > 5, 'timeouts are spread out');
});

test('a member starts as a follower of term 0 and knows no leader', () => {
  const node = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1) });
  assert.deepEqual([node.role, node.term, node.leaderId, node.commitIndex, node.lastIndex], ['follower', 0, null, 0, 0]);
});

test('a candidate hands its vote to the host to persist in the same Ready as its vote requests', () => {
  const node = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1), preVote: false });
  node.step(hup('a'));
  const rd = node.ready();
  assert.deepEqual(rd.hardState, { term: 1, vote: 'a', commit: 0 });
  assert.deepEqual(rd.messages.map((m) => `${m.type}->${m.to}`), ['MsgVote->b', 'MsgVote->c']);
  assert.throws(() => node.tick(), /between ready\(\) and advance\(\)/);
  node.advance(rd);
  assert.equal(node.hasReady(), false);
});

test('a three-member cluster elects exactly one leader that every member follows', () => {
  const net = new TestNetwork(3, { seed: 7 });
  const leader = electLeader(net);
  const term = net.node(leader).term;
  for (const id of net.ids) {
    assert.equal(net.node(id).term, term);
    assert.equal(net.node(id).leaderId, leader);
  }
  assert.equal(net.node(leader).commitIndex, 1, 'the no-op of the new term is committed');
});

test('a single-member cluster elects itself and commits on its own', () => {
  const net = new TestNetwork(1);
  const leader = electLeader(net);
  net.propose(leader, 'x');
  assert.equal(net.node(leader).commitIndex, 2);
  assert.deepEqual(net.applied.get(leader), ['x']);
});

test('a vote is refused to a candidate whose log is less up to date (§5.4.1)', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  net.isolate('n3');
  net.propose('n1', 'only-on-n1-and-n2');
  net.recover();
  net.isolate('n1');
  net.campaign('n3');
  assert.equal(net.node('n3').role, 'candidate', 'n2 refused: its log is longer than n3s');
  net.campaign('n2');
  assert.equal(net.node('n2').role, 'leader');
});

test('when the leader is isolated the others elect a new leader in a higher term, and the old one follows it after healing', () => {
  const net = new TestNetwork(3, { seed: 3 });
  const old = electLeader(net);
  const oldTerm = net.node(old).term;
  net.isolate(old);
  let fresh: string | undefined;
  for (let i = 0; i < 100 && fresh === undefined; i++) {
    net.tickAll();
    fresh = net.leaders().find((l) => l !== old);
  }
  assert.ok(fresh, 'a new leader was elected');
  assert.ok(net.node(fresh).term > oldTerm);
  net.recover();
  net.tickAll(3);
  assert.equal(net.node(old).role, 'follower');
  assert.equal(net.node(old).leaderId, fresh);
});

test('a proposal is replicated to every member and applied everywhere in the same order', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  for (const d of ['a', 'b', 'c']) net.propose('n1', d);
  net.tickAll(); // a heartbeat carries the final commit index to the followers
  for (const id of net.ids) {
    assert.deepEqual(net.node(id).entries().map((e) => e.data), [null, 'a', 'b', 'c']);
    assert.equal(net.node(id).commitIndex, 4);
    assert.deepEqual(net.applied.get(id), ['a', 'b', 'c']);
  }
});

test('an entry held by 1 of 3 members is not committed; a second copy commits it', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  net.isolate('n1');
  const at = net.propose('n1', 'lonely');
  assert.deepEqual(at, { index: 2, term: 1 });
  net.tickAll(5);
  assert.equal(net.node('n1').commitIndex, 1);
  assert.deepEqual(net.applied.get('n1'), []);
  net.recover();
  net.cut('n1', 'n3');
  net.tickAll();
  assert.equal(net.node('n1').commitIndex, 2, 'leader + n2 is a majority of 3');
  assert.deepEqual(net.applied.get('n1'), ['lonely']);
});

test('a deposed leader in a minority cannot commit, and its entries are replaced once it rejoins', () => {
  const net = new TestNetwork(5);
  net.campaign('n1');
  net.isolate('n1');
  net.campaign('n2');
  assert.equal(net.node('n2').role, 'leader');
  net.propose('n1', 'stale-write');
  net.propose('n2', 'fresh-write');
  net.tickAll(3);
  assert.equal(net.node('n1').role, 'leader', 'without CheckQuorum it still believes it leads');
  assert.equal(net.node('n1').commitIndex, 1);
  net.recover();
  net.tickAll(3);
  for (const id of net.ids) {
    assert.deepEqual(net.applied.get(id), ['fresh-write']);
    assert.ok(!net.node(id).entries().some((e) => e.data === 'stale-write'));
  }
});

test('with CheckQuorum an isolated leader steps down within two election timeouts', () => {
  const net = new TestNetwork(3, { checkQuorum: true });
  net.campaign('n1');
  net.isolate('n1');
  net.tickAll(20);
  assert.notEqual(net.node('n1').role, 'leader');
});

test('a leader only commits an old-term entry by committing one of its own term (Figure 8)', () => {
  const net = new TestNetwork(3);
  // n1 led term 1 and wrote index 2 only to itself; n2 was elected in term 2 without it.
  net.start('n1', { hardState: { term: 2, vote: null, commit: 1 }, entries: [entry(1, 1), entry(1, 2)] });
  net.start('n2', { hardState: { term: 2, vote: 'n2', commit: 1 }, entries: [entry(1, 1)] });
  net.start('n3', { hardState: { term: 2, vote: 'n2', commit: 1 }, entries: [entry(1, 1)] });
  net.campaign('n1'); // n1 wins term 3: its log is the most up to date
  assert.equal(net.node('n1').role, 'leader');
  const log = net.node('n1').entries();
  assert.deepEqual(log.map((e) => e.term), [1, 1, 3]);
  assert.equal(net.node('n1').commitIndex, 3, 'index 2 commits together with the term-3 no-op');
});

test('conflicting follower entries are found by backtracking and overwritten by the leader', () => {
  const net = new TestNetwork(3);
  const common = [entry(1, 1), entry(1, 2)];
  net.start('n1', { hardState: { term: 3, vote: null, commit: 2 }, entries: [...common, entry(2, 3), entry(2, 4), entry(2, 5)] });
  net.start('n2', { hardState: { term: 3, vote: null, commit: 2 }, entries: [...common, entry(3, 3), entry(3, 4)] });
  net.start('n3', { hardState: { term: 3, vote: null, commit: 2 }, entries: [...common, entry(3, 3)] });
  net.campaign('n2');
  assert.equal(net.node('n2').role, 'leader');
  net.propose('n2', 'after');
  net.tickAll();
  const expected = net.node('n2').entries();
  assert.deepEqual(expected.map((e) => e.term), [1, 1, 3, 3, 4, 4]);
  for (const id of net.ids) assert.deepEqual(net.node(id).entries(), expected, `${id} converged`);
  assert.deepEqual(net.storage.get('n1')?.entries, expected, 'the overwrite reached stable storage too');
});

test('a restarted member comes back with its term, vote, log and commit index and re-applies its committed entries', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  net.propose('n1', 'a');
  net.propose('n1', 'b');
  net.tickAll();
  const before = net.node('n2');
  const snapshot = [before.term, before.votedFor, before.lastIndex, before.commitIndex];
  net.crash('n2');
  net.start('n2');
  const after = net.node('n2');
  assert.deepEqual([after.term, after.votedFor, after.lastIndex, after.commitIndex], snapshot);
  assert.equal(after.role, 'follower');
  net.drain();
  assert.deepEqual(net.applied.get('n2'), ['a', 'b']);
});

test('a whole cluster restarted from storage keeps its committed data and moves to a higher term', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  net.propose('n1', 'kept');
  const oldTerm = net.node('n1').term;
  for (const id of net.ids) net.crash(id);
  for (const id of net.ids) net.start(id);
  const leader = electLeader(net);
  assert.ok(net.node(leader).term > oldTerm);
  net.propose(leader, 'next');
  net.tickAll();
  for (const id of net.ids) assert.deepEqual(net.applied.get(id), ['kept', 'next']);
});

test('a four-member cluster keeps committing with one member down but not with two', () => {
  const net = new TestNetwork(4);
  net.campaign('n1');
  net.crash('n4');
  net.propose('n1', 'three-of-four');
  assert.equal(net.node('n1').commitIndex, 2, '3 of 4 is a majority');
  net.crash('n3');
  net.propose('n1', 'two-of-four');
  net.tickAll(5);
  assert.equal(net.node('n1').commitIndex, 2, '2 of 4 is not a majority');
  net.crash('n1');
  net.tickAll(60);
  assert.equal(net.leaders().length, 0, 'n2 alone cannot win an election among 4 voters');
});

test('ReadIndex releases a read at the commit index only after a quorum confirmed the leadership', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  net.propose('n1', 'w');
  assert.equal(net.node('n1').readIndex('r1'), true);
  net.drain();
  assert.deepEqual(net.readStates.get('n1'), ['r1@2']);
  assert.equal(net.node('n2').readIndex('r2'), false, 'a follower does not serve ReadIndex');
});

test('ReadIndex on an isolated leader never confirms', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  net.isolate('n1');
  net.node('n1').readIndex('isolated');
  net.tickAll(5);
  assert.deepEqual(net.readStates.get('n1'), []);
});

test('a new leader holds a read back until it has committed an entry of its own term (§8)', () => {
  const a = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1), preVote: false });
  const drainReady = () => {
    const rd = a.ready();
    a.advance(rd);
    return rd;
  };
  a.step(hup('a'));
  drainReady();
  a.step(msg({ type: 'MsgVoteResp', from: 'b', to: 'a', term: 1 }));
  assert.equal(a.role, 'leader');
  drainReady();
  assert.equal(a.readIndex('early'), true);
  assert.deepEqual(drainReady().messages, [], 'no confirmation round before the no-op commits');
  a.step(msg({ type: 'MsgAppResp', from: 'b', to: 'a', term: 1, index: 1 }));
  const heartbeats = drainReady().messages.filter((m) => m.type === 'MsgHeartbeat');
  assert.deepEqual(heartbeats.map((m) => m.context), ['early', 'early']);
  a.step(msg({ type: 'MsgHeartbeatResp', from: 'c', to: 'a', term: 1, context: 'early' }));
  assert.deepEqual(drainReady().readStates, [{ context: 'early', index: 1 }]);
});

test('the planted commitWithoutMajority bug lets an isolated leader commit alone (test-only fault)', () => {
  const net = new TestNetwork(3, { bugs: { commitWithoutMajority: true } });
  net.campaign('n1');
  net.isolate('n1');
  net.propose('n1', 'unsafe');
  assert.equal(net.node('n1').commitIndex, 2);
  assert.deepEqual(net.applied.get('n1'), ['unsafe']);
});

test('every message a member emits is counted by type', () => {
  const net = new TestNetwork(3);
  net.campaign('n1');
  const counts = net.node('n1').messageCounts();
  assert.equal(counts.MsgVote, 2);
  assert.equal(counts.MsgApp, 4, 'the no-op to each follower, then the commit index to each');
  assert.equal(net.node('n2').messageCounts().MsgVoteResp, 1);
});
