/**
 * PreVote (Raft dissertation §9.6; etcd-io/raft's Config.PreVote, MsgPreVote/MsgPreVoteResp,
 * StatePreCandidate): a member asks before it bumps its term, and is answered yes only by
 * members that have lost their leader and whose logs are no more up to date than its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../sim/prng.ts';
import { RaftNode } from './raft.ts';
import { TestNetwork, hup } from './testnet.ts';
import type { Message } from './types.ts';

function msg(fields: Partial<Message> & Pick<Message, 'type' | 'from' | 'to' | 'term'>): Message {
  return { index: 0, logTerm: 0, entries: [], commit: 0, reject: false, rejectHint: 0, context: '', ...fields };
}

/** What an etcd server runs: CheckQuorum and PreVote both on. */
function etcdLike(preVote = true): TestNetwork {
  return new TestNetwork(3, { seed: 3, checkQuorum: true, preVote });
}

function drain(node: RaftNode): Message[] {
  const rd = node.ready();
  node.advance(rd);
  return [...rd.messages];
}

/** A follower of a leader elected in term 1, its log holding the leader's no-op. */
function followerOfTerm1(preVote = true): RaftNode {
  const b = new RaftNode({ id: 'b', voters: ['a', 'b', 'c'], rng: new Prng(1), preVote });
  b.step(msg({ type: 'MsgApp', from: 'a', to: 'b', term: 1, entries: [{ term: 1, index: 1, data: null }], commit: 1 }));
  drain(b);
  return b;
}

function isolateForTimeouts(net: TestNetwork, id: string, timeouts: number): void {
  net.isolate(id);
  net.tickAll(timeouts * 2 * 10);
}

test('a pre-candidate keeps its term and its vote and asks about the next term', () => {
  const a = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1) });
  a.step(hup('a'));
  assert.deepEqual([a.role, a.term, a.votedFor], ['pre-candidate', 0, null]);
  const rd = a.ready();
  assert.equal(rd.hardState, undefined, 'nothing to persist: a pre-vote changes no stable state');
  assert.deepEqual(rd.messages.map((m) => `${m.type}->${m.to} term=${m.term}`), ['MsgPreVote->b term=1', 'MsgPreVote->c term=1']);
  a.advance(rd);
});

test('a majority of pre-votes starts the real election in the next term, which the member then wins', () => {
  const net = etcdLike();
  net.campaign('n1');
  assert.equal(net.node('n1').role, 'leader');
  assert.equal(net.node('n1').term, 1);
  const counts = net.node('n1').messageCounts();
  assert.deepEqual([counts.MsgPreVote, counts.MsgVote], [2, 2]);
});

test('a member isolated for several election timeouts keeps its term, and rejoining leaves the leader in place', () => {
  const net = etcdLike();
  net.campaign('n1');
  net.propose('n1', 'x');
  isolateForTimeouts(net, 'n3', 5);
  assert.equal(net.node('n3').term, 1, 'its pre-votes went unanswered, so it never entered term 2');
  assert.ok(net.node('n3').messageCounts().MsgPreVote! >= 8, 'it did keep asking');
  net.recover();
  net.tickAll(40);
  assert.deepEqual(net.leaders(), ['n1']);
  for (const id of net.ids) assert.equal(net.node(id).term, 1, `${id} is still in term 1`);
  assert.equal(net.node('n3').leaderId, 'n1');
});

test('without PreVote the same rejoin deposes the healthy leader (what the option prevents)', () => {
  const net = etcdLike(false);
  net.campaign('n1');
  isolateForTimeouts(net, 'n3', 5);
  assert.ok(net.node('n3').term > 3, 'each timeout bumped its term');
  net.recover();
  net.tickAll(40);
  assert.ok(net.node('n1').term > 1, 'the old leader was pushed out of term 1');
});

test('a pre-vote is refused to a log less up to date than the voter\'s, even by a member without a leader', () => {
  const b = followerOfTerm1();
  b.tick();
  for (let i = 0; i < 40 && b.role === 'follower'; i++) b.tick(); // lose the leader: lease over
  drain(b);
  b.step(msg({ type: 'MsgPreVote', from: 'c', to: 'b', term: 2, index: 0, logTerm: 0 }));
  const [resp] = drain(b).filter((m) => m.type === 'MsgPreVoteResp');
  assert.ok(resp, 'the voter answers');
  assert.equal(resp.reject, true);
});

test('a voter that heard from its leader within the election timeout ignores a pre-vote; after the timeout it grants it', () => {
  const b = followerOfTerm1();
  b.step(msg({ type: 'MsgPreVote', from: 'c', to: 'b', term: 2, index: 1, logTerm: 1 }));
  assert.deepEqual(drain(b), [], 'no answer while the leader is fresh');
  assert.equal(b.term, 1);
  for (let i = 0; i < 10; i++) b.tick(); // one election timeout (10 ticks) without the leader
  drain(b);
  b.step(msg({ type: 'MsgPreVote', from: 'c', to: 'b', term: 2, index: 1, logTerm: 1 }));
  const [resp] = drain(b).filter((m) => m.type === 'MsgPreVoteResp');
  assert.ok(resp);
  assert.deepEqual([resp.reject, resp.term], [false, 2], 'granted, at the term asked about');
});

test('granting a pre-vote records no vote and does not move the voter to the next term', () => {
  const b = followerOfTerm1();
  for (let i = 0; i < 10; i++) b.tick();
  drain(b);
  b.step(msg({ type: 'MsgPreVote', from: 'c', to: 'b', term: 2, index: 1, logTerm: 1 }));
  drain(b);
  assert.deepEqual([b.term, b.votedFor], [1, null]);
  // A real vote for another candidate in term 2 is still free to give.
  b.step(msg({ type: 'MsgVote', from: 'a', to: 'b', term: 2, index: 1, logTerm: 1 }));
  const [resp] = drain(b).filter((m) => m.type === 'MsgVoteResp');
  assert.deepEqual([resp?.reject, b.votedFor], [false, 'a']);
});

test('a pre-candidate behind in term is refused with the voter\'s term and catches up to it', () => {
  const a = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1) });
  a.step(hup('a'));
  drain(a);
  a.step(msg({ type: 'MsgPreVoteResp', from: 'b', to: 'a', term: 5, reject: true }));
  assert.deepEqual([a.role, a.term], ['follower', 5]);
});

test('a voter answers a pre-vote from an older term with a refusal carrying its own term', () => {
  const b = followerOfTerm1();
  b.step(msg({ type: 'MsgPreVote', from: 'c', to: 'b', term: 0, index: 5, logTerm: 0 }));
  const [resp] = drain(b);
  assert.deepEqual([resp?.type, resp?.reject, resp?.term], ['MsgPreVoteResp', true, 1]);
});

test('a pre-candidate refused by a majority returns to follower in the same term', () => {
  const a = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1) });
  a.step(hup('a'));
  drain(a);
  a.step(msg({ type: 'MsgPreVoteResp', from: 'b', to: 'a', term: 0, reject: true }));
  assert.equal(a.role, 'pre-candidate', 'one refusal of three decides nothing');
  a.step(msg({ type: 'MsgPreVoteResp', from: 'c', to: 'a', term: 0, reject: true }));
  assert.deepEqual([a.role, a.term], ['follower', 0]);
});

test('a pre-candidate ignores real vote answers, and a candidate ignores pre-vote answers', () => {
  const a = new RaftNode({ id: 'a', voters: ['a', 'b', 'c'], rng: new Prng(1) });
  a.step(hup('a'));
  drain(a);
  a.step(msg({ type: 'MsgVoteResp', from: 'b', to: 'a', term: 0 }));
  assert.equal(a.role, 'pre-candidate');
  a.step(msg({ type: 'MsgPreVoteResp', from: 'b', to: 'a', term: 1 }));
  assert.deepEqual([a.role, a.term], ['candidate', 1], 'two pre-votes of three (its own and b\'s) start the election');
  drain(a);
  a.step(msg({ type: 'MsgPreVoteResp', from: 'c', to: 'a', term: 1 }));
  assert.equal(a.role, 'candidate', 'a late pre-vote is no vote');
});

test('with PreVote a leader crash still gets a new leader, and only one term later', () => {
  const net = etcdLike();
  net.campaign('n1');
  net.crash('n1');
  let leader: string | undefined;
  for (let i = 0; i < 200 && leader === undefined; i++) {
    net.tickAll();
    leader = net.leaders()[0];
  }
  assert.ok(leader !== undefined && leader !== 'n1');
  assert.equal(net.node(leader).term, 2);
});

test('a member cut off from the leader alone cannot win pre-votes from a follower that still hears the leader', () => {
  const net = etcdLike();
  net.campaign('n1');
  net.cut('n1', 'n3');
  net.tickAll(100);
  assert.deepEqual(net.leaders(), ['n1']);
  assert.deepEqual([net.node('n1').term, net.node('n2').term], [1, 1], 'n2 never answered n3 while n1 was fresh');
});
