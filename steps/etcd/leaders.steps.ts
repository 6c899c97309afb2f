/**
 * Steps for the Raft safety claims that must hold at every instant, not only at the end of a
 * wait: at most one leader per term, no leader without a majority, a cut-off member never
 * leading. What "every instant" means depends on the target:
 * - with `raft.observe` (the reference), the observer records every member that led each term
 *   at every state change of every member (RaftObserver.leadersByTerm);
 * - everywhere, every poll of a wait also samples the members' own reports (role and term), so
 *   on real etcd the record is as fine as the polling.
 * Uses only the `members` facet (plus `raft` where declared), so it runs on real etcd too.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { StoreUnavailableError, type Session, type Waiter } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';

/** term → members seen leading it. */
type LeaderRecord = Map<number, Set<string>>;

const RECORD = 'leaders by term';
/** Budget for one election during churn: a few election timeouts on etcd's defaults. */
const ELECTION_BUDGET_MS = 10_000;

function record(world: KubespecWorld): LeaderRecord {
  return world.recall<LeaderRecord>(RECORD);
}

/** One look at every live member's own report; leaders go into the record. */
async function sampleLeaders(world: KubespecWorld): Promise<void> {
  const rec = record(world);
  for (const m of await world.members().list()) {
    if (!m.alive || m.role !== 'leader' || m.term === undefined) continue;
    rec.set(m.term, (rec.get(m.term) ?? new Set()).add(m.id));
  }
}

/** What the record holds, merged with the observer's complete one where the target has it. */
function leadersByTerm(world: KubespecWorld): LeaderRecord {
  const merged: LeaderRecord = new Map([...record(world)].map(([t, ids]) => [t, new Set(ids)]));
  for (const [term, ids] of world.session.raft?.leadersByTerm() ?? []) {
    if (term < world.recall<number>('leaders recorded from term')) continue;
    for (const id of ids) merged.set(term, (merged.get(term) ?? new Set()).add(id));
  }
  return merged;
}

/**
 * From now on, every poll of every wait in this scenario first samples the leaders. The
 * session's waiter is wrapped (the session object itself is left as it is, behind a prototype),
 * so waits that steps start through `eventually` or `settleWithin` all sample.
 */
function sampleOnEveryPoll(world: KubespecWorld): void {
  const inner = world.session.waiter;
  const waiter: Waiter = {
    until: (what, condition, budget_ms) => inner.until(what, async () => {
      await sampleLeaders(world);
      const met = await condition();
      // Once more when the wait ends: a leader the members have just agreed on may be killed by
      // the very next step, and a target may only report a leader's term once it is confirmed.
      if (met) await sampleLeaders(world);
      return met;
    }, budget_ms),
  };
  const wrapped = Object.create(world.session) as Session;
  Object.defineProperty(wrapped, 'waiter', { value: waiter });
  world.session = wrapped;
}

async function highestTerm(world: KubespecWorld): Promise<number> {
  return Math.max(0, ...(await world.members().list()).map((m) => m.term ?? 0));
}

Given('the leader of every term is recorded from now on', async function (this: KubespecWorld) {
  this.note(RECORD, new Map() as LeaderRecord);
  this.note('leaders recorded from term', await highestTerm(this));
  sampleOnEveryPoll(this);
  await sampleLeaders(this);
});

/** Time passes, sampled: a wait whose only condition is the clock (virtual or real). */
async function passSampled(world: KubespecWorld, ms: number): Promise<void> {
  // The observer already records every leader at every state change: no polling needed.
  if (world.session.raft && world.session.clock) return world.session.clock.advance(ms);
  const now = (): number => world.session.clock?.now_ms() ?? Date.now();
  const end = now() + ms;
  await world.eventually(`${ms / 1000} s to pass`, () => now() >= end, ms + 1_000);
}

When('the store is left alone for {int} s', async function (this: KubespecWorld, seconds: number) {
  await passSampled(this, seconds * 1000);
});

When('the leader is killed and, once another member leads, restarted, {int} times', async function (this: KubespecWorld, rounds: number) {
  for (let round = 1; round <= rounds; round++) {
    let old: string | undefined;
    await this.eventually('a leader', async () => (old = await this.members().leader()) !== undefined, ELECTION_BUDGET_MS);
    await this.members().kill(old!);
    await this.eventually(`round ${round}: a leader other than ${old}`, async () => {
      const now = await this.members().leader();
      return now !== undefined && now !== old;
    }, ELECTION_BUDGET_MS);
    await this.members().restart(old!);
  }
});

/**
 * Seeded churn on a partitionable store: each round cuts the members into two random sides (or
 * isolates the leader), lets elections run on both, then heals. The seed is the scenario's, so a
 * failure replays.
 */
When('the members are split at random into two sides and healed, {int} times', async function (this: KubespecWorld, rounds: number) {
  const members = this.members();
  assert.ok(members.partition && members.heal, 'this target declares net.partition but offers no partition()/heal()');
  const ids = (await members.list()).map((m) => m.id);
  let state = this.session.seed >>> 0 || 1;
  const next = (n: number): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    // The high bits: the low bit of a power-of-two LCG just alternates, which put the same members
    // on the same side every round (with PreVote, the leader then never lost its majority).
    return (state >>> 16) % n;
  };
  for (let round = 0; round < rounds; round++) {
    const sides: string[][] = [[], []];
    for (const id of ids) sides[next(2)]!.push(id);
    await members.partition.call(members, sides.filter((s) => s.length > 0));
    await passSampled(this, 500 + next(2_500));
    await members.heal.call(members);
    await passSampled(this, 200 + next(1_000));
  }
});

Then('no term had more than one leader', function (this: KubespecWorld) {
  const twice = [...leadersByTerm(this)].filter(([, ids]) => ids.size > 1);
  assert.deepEqual(twice.map(([t, ids]) => `term ${t}: ${[...ids].join(', ')}`), [], 'terms with two leaders');
});

Then('leaders were recorded in at least {int} different terms', function (this: KubespecWorld, count: number) {
  const terms = [...leadersByTerm(this).keys()].sort((a, b) => a - b);
  assert.ok(terms.length >= count, `leaders were seen in ${terms.length} terms only (${terms.join(', ')}): the churn did not force enough elections`);
});

/** Member ids noted by earlier steps under a name ("partitioned", "stale member"). */
Then('the {word} member has not led any term since it was recorded', function (this: KubespecWorld, label: string) {
  const id = this.recall<string>(`${label} member`);
  const led = [...leadersByTerm(this)].filter(([, ids]) => ids.has(id)).map(([t]) => t);
  assert.deepEqual(led, [], `member ${id} led these terms`);
});

// ---- a slow disk ------------------------------------------------------------------------------

When('the leader\'s disk starts taking {int} ms per sync', async function (this: KubespecWorld, latency_ms: number) {
  const members = this.members();
  assert.ok(members.setDiskLatency, 'this target declares disk.latency but offers no setDiskLatency()');
  let leader: string | undefined;
  await this.eventually('a leader', async () => (leader = await members.leader()) !== undefined, ELECTION_BUDGET_MS);
  await members.setDiskLatency.call(members, leader!, latency_ms);
  this.note('slowed member', leader!);
});

When('both followers\' disks start taking {int} ms per sync', async function (this: KubespecWorld, latency_ms: number) {
  const members = this.members();
  assert.ok(members.setDiskLatency, 'this target declares disk.latency but offers no setDiskLatency()');
  let leader: string | undefined;
  await this.eventually('a leader', async () => (leader = await members.leader()) !== undefined, ELECTION_BUDGET_MS);
  const followers = (await members.list()).filter((m) => m.alive && m.id !== leader);
  assert.equal(followers.length, 2, `live followers: ${followers.map((m) => m.id).join(', ')}`);
  for (const f of followers) await members.setDiskLatency.call(members, f.id, latency_ms);
});

/**
 * A write acknowledged with no time passing at all never went to a follower and back: a
 * replicated write takes at least one round trip to a majority. Past this many in a row, the
 * loop below would otherwise never reach its end (and grow the store until memory runs out).
 */
const PUTS_WITHOUT_TIME = 1000;

When('keys are put one after another for {int} s', async function (this: KubespecWorld, seconds: number) {
  const now = (): number => this.clock().now_ms();
  const end = now() + seconds * 1000;
  let acknowledged = 0;
  let timeless = 0;
  const refused: StoreUnavailableError[] = [];
  for (let i = 1; now() < end; i++) {
    const before = now();
    try {
      await this.kv().put(`/slow-disk/${i}`, String(i));
      acknowledged++;
    } catch (error) {
      // The store refusing (no leader, timed out) is what a slow disk may cause; anything else is not.
      if (!(error instanceof StoreUnavailableError)) throw error;
      refused.push(error);
    }
    timeless = now() === before ? timeless + 1 : 0;
    if (timeless >= PUTS_WITHOUT_TIME) {
      throw new Error(`${PUTS_WITHOUT_TIME} puts in a row were answered without any time passing: a write replicated to a majority takes at least a round trip to the followers`);
    }
  }
  this.note('acknowledged puts', acknowledged);
  this.note('refused puts', refused);
});

Then('leaders were recorded in exactly {int} term(s)', function (this: KubespecWorld, count: number) {
  const terms = [...leadersByTerm(this).keys()];
  assert.equal(terms.length, count, `leaders were seen in terms ${terms.join(', ')}`);
});

Then('at least {int} of the puts were acknowledged', function (this: KubespecWorld, count: number) {
  const acknowledged = this.recall<number>('acknowledged puts');
  assert.ok(acknowledged >= count, `only ${acknowledged} puts were acknowledged`);
});
