import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SimCluster, type SimClusterOptions } from './cluster.ts';
import { MemberCrashedError, NotLeaderError, ProposalTimeoutError, SimClientError } from './errors.ts';
import { KvRegisterMachine } from './kv-register.ts';
import type { StateMachine } from './state-machine.ts';

function cluster(members: number, extra: Partial<SimClusterOptions> = {}): SimCluster {
  return new SimCluster({ seed: 42, members, stateMachine: () => new KvRegisterMachine(), ...extra });
}

const put = (key: string, value: string) => JSON.stringify({ op: 'put', key, value });
const get = (key: string) => JSON.stringify({ op: 'get', key });

/** Drive virtual time until the promise settles; returns its value or the error it failed with. */
async function settle<T>(c: SimCluster, p: Promise<T>, budget_ms = 5000): Promise<T | Error> {
  let outcome: { value: T } | { error: Error } | undefined;
  p.then((value) => (outcome = { value }), (error: Error) => (outcome = { error }));
  await c.runUntil(() => outcome !== undefined, budget_ms);
  if (outcome === undefined) throw new Error(`still pending after ${budget_ms} virtual ms`);
  return 'value' in outcome ? outcome.value : outcome.error;
}

async function awaitLeader(c: SimCluster, budget_ms = 3000): Promise<string> {
  assert.ok(await c.runUntil(() => c.leader() !== undefined, budget_ms), 'a leader was elected');
  return c.leader()!;
}

test('a fresh three-member cluster elects a leader within a few election timeouts', async () => {
  const c = cluster(3);
  const leader = await awaitLeader(c, 1000);
  assert.ok(c.now_ms < 1000);
  for (const id of c.ids) assert.equal(c.status(id).term, c.status(leader).term);
  assert.ok(c.trace().some((l) => l.startsWith(`${leader} became leader`)));
});

test('a proposal resolves with the leader’s apply result and every member applies the same commands', async () => {
  const c = cluster(3);
  await awaitLeader(c);
  assert.equal(await settle(c, c.propose(put('x', '1'))), true);
  assert.equal(await settle(c, c.propose(JSON.stringify({ op: 'cas', key: 'x', expect: '0', value: '2' }))), false);
  await c.runFor(100);
  const snapshots = c.ids.map((id) => c.stateMachine(id)?.snapshot?.());
  assert.deepEqual(snapshots, Array(3).fill('[["x","1"]]'));
  assert.ok(c.trace().some((l) => /^append leader=\d index=2 term=\d/.test(l)));
});

test('a ReadIndex read sees the latest committed write', async () => {
  const c = cluster(5);
  await awaitLeader(c);
  await settle(c, c.propose(put('k', 'v1')));
  assert.equal(await settle(c, c.read(get('k'))), 'v1');
  assert.equal(await settle(c, c.read(get('absent'))), null);
});

test('without a query method, a read goes through the log', async () => {
  const logOnly = (): StateMachine => {
    const kv = new KvRegisterMachine();
    return { apply: (cmd) => kv.apply(cmd) };
  };
  const c = cluster(3, { stateMachine: logOnly });
  const leader = await awaitLeader(c);
  await settle(c, c.propose(put('k', 'v')));
  const before = c.status(leader).lastIndex ?? 0;
  assert.equal(await settle(c, c.read(get('k'))), 'v');
  assert.equal(c.status(leader).lastIndex, before + 1);
});

test('a request sent to a follower fails with NotLeaderError and certainly had no effect', async () => {
  const c = cluster(3);
  const leader = await awaitLeader(c);
  await c.runFor(100); // long enough for the followers to hear from their new leader
  const follower = c.ids.find((id) => id !== leader)!;
  const err = await settle(c, c.propose(put('x', '1'), { via: follower }));
  assert.ok(err instanceof NotLeaderError);
  assert.equal(err.indeterminate, false);
  assert.match(err.message, new RegExp(`follows ${leader}`));
});

test('a four-member cluster keeps accepting writes with one member down but not with two', async () => {
  const c = cluster(4);
  const leader = await awaitLeader(c);
  c.kill(c.ids.find((id) => id !== leader)!);
  assert.equal(await settle(c, c.propose(put('x', 'three-of-four'))), true);
  c.kill(c.ids.find((id) => id !== leader && c.isAlive(id))!);
  // Raft, not the simulator, refuses: the leader cannot commit with two of four, so the
  // proposal times out (or, once CheckQuorum deposed the leader, there is none to ask).
  const err = await settle(c, c.propose(put('x', 'two-of-four')));
  assert.ok(err instanceof ProposalTimeoutError || err instanceof NotLeaderError, String(err));
});

test('after the leader crashes a new one is elected, and the crashed member restarts from storage and catches up', async () => {
  const c = cluster(3);
  const first = await awaitLeader(c);
  await settle(c, c.propose(put('x', 'before')));
  c.kill(first);
  assert.equal(c.status(first).alive, false);
  const second = await awaitLeader(c);
  assert.notEqual(second, first);
  await settle(c, c.propose(put('x', 'after')));
  c.restart(first);
  await c.runFor(500);
  assert.equal(c.stateMachine(first)?.snapshot?.(), '[["x","after"]]');
  assert.equal(c.status(first).role, 'follower');
});

test('requests pending on a member that crashes fail as indeterminate', async () => {
  const c = cluster(3);
  const leader = await awaitLeader(c);
  c.partition([[leader], c.ids.filter((id) => id !== leader)]);
  const p = c.propose(put('x', 'lost?'));
  c.kill(leader);
  const err = await settle(c, p);
  assert.ok(err instanceof MemberCrashedError);
  assert.equal((err as SimClientError).indeterminate, true);
});

test('a leader cut off in a minority cannot commit: its client times out while the majority elects a new leader', async () => {
  const c = cluster(5, { requestTimeout_ms: 400 });
  const old = await awaitLeader(c);
  c.partition([[old, c.ids.find((id) => id !== old)!], c.ids.filter((id) => id !== old).slice(1)]);
  const stale = c.propose(put('x', 'minority'), { via: old });
  const err = await settle(c, stale);
  assert.ok(err instanceof ProposalTimeoutError || err instanceof NotLeaderError, String(err));
  const fresh = c.leader();
  assert.ok(fresh !== undefined && fresh !== old);
  assert.equal(await settle(c, c.propose(put('x', 'majority'))), true);
  c.heal();
  await c.runFor(500);
  for (const id of c.ids) assert.equal(c.stateMachine(id)?.snapshot?.(), '[["x","majority"]]');
});

test('a read on a leader deposed by a partition is refused rather than answered stale', async () => {
  const c = cluster(3, { checkQuorum: false });
  const old = await awaitLeader(c);
  await settle(c, c.propose(put('x', 'old')));
  c.partition([[old], c.ids.filter((id) => id !== old)]);
  await c.runUntil(() => c.ids.some((id) => id !== old && c.status(id).role === 'leader'), 2000);
  await settle(c, c.propose(put('x', 'new')));
  const err = await settle(c, c.read(get('x'), { via: old }), 5000);
  assert.ok(err instanceof ProposalTimeoutError, `the old leader never confirms the read: ${String(err)}`);
});

test('the same seed replays the identical trace; another seed does not', async () => {
  async function run(seed: number) {
    const c = new SimCluster({ seed, members: 5, stateMachine: () => new KvRegisterMachine(), network: { maxDelay_ms: 30, dropRate: 0.05, duplicateRate: 0.05 } });
    await c.runFor(300);
    c.kill(c.leader() ?? '1');
    void c.propose(put('x', '1')).catch(() => undefined);
    await c.runFor(700);
    return { trace: c.trace().join('\n'), fingerprint: c.fingerprint(), counts: c.messageCounts() };
  }
  const a = await run(7);
  const b = await run(7);
  assert.deepEqual(a, b);
  assert.notEqual((await run(8)).fingerprint, a.fingerprint);
});

test('message counts are kept by Raft message type and survive a member’s crash', async () => {
  const c = cluster(3);
  await awaitLeader(c);
  await c.runFor(200);
  const before = c.messageCounts();
  for (const t of ['MsgVote', 'MsgVoteResp', 'MsgApp', 'MsgAppResp', 'MsgHeartbeat', 'MsgHeartbeatResp']) assert.ok((before[t] ?? 0) > 0, t);
  c.kill(c.leader()!);
  assert.ok((c.messageCounts().MsgHeartbeat ?? 0) >= (before.MsgHeartbeat ?? 0));
});

test('a single-member cluster commits on its own', async () => {
  const c = cluster(1);
  await awaitLeader(c);
  assert.equal(await settle(c, c.propose(put('solo', '1'))), true);
  assert.equal(await settle(c, c.read(get('solo'))), '1');
});

test('a leader whose disk syncs slower than the election timeout loses its leadership under writes; an instant disk keeps it', async () => {
  for (const [latency_ms, expectChange] of [[0, false], [400, true]] as const) {
    const c = cluster(3);
    const first = await awaitLeader(c);
    c.setDiskLatency(first, latency_ms);
    for (let i = 0; i < 5; i++) await settle(c, c.propose(put('x', String(i))), 5000).catch(() => undefined);
    await c.runFor(1000);
    const terms = new Set(c.trace().filter((l) => / became leader /.test(l)).map((l) => l));
    assert.equal(terms.size > 1, expectChange, `latency ${latency_ms} ms: leaders ${[...terms].join(' | ')}`);
  }
});
