/**
 * Steps about a replicated store's members (features/etcd/cluster-size.feature, raft-roles,
 * write-flow): killing and restarting members, leaders, and whether writes go through. They use
 * only the `members` and `kv` facets, so they run against real etcd (real time, bounded budgets)
 * and the reference (virtual time) alike.
 */
import assert from 'node:assert/strict';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { Given, Then, When } from '@cucumber/cucumber';
import { StoreUnavailableError, type MemberInfo } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { electionSettled } from './raft-trace.ts';
import { acknowledge, acknowledged, settleWithin } from './support.ts';

/** Budget for an election a step needs before it can act ("the leader is killed"). */
const LEADER_BUDGET_MS = 10_000;
/** Pause between put attempts, so a member refusing at once is not hammered. */
const RETRY_PAUSE_MS = 50;

/**
 * The pause in the target's own time: virtual on the reference. A real-time sleep there lets
 * the step's virtual-time wait run through the rest of its budget while the attempt sleeps, so
 * a put that failed once (e.g. no leader yet) never got a second attempt in time. The event
 * loop gets a turn first: the step's own wait moves on in turns, and an attempt that fails
 * without ever leaving the microtask queue must not starve it.
 */
async function pause(world: KubespecWorld, ms: number): Promise<void> {
  if (!world.session.clock) return void (await delay(ms));
  await nextTurn();
  await world.session.clock.advance(ms);
}

async function currentLeader(world: KubespecWorld): Promise<string> {
  let leader: string | undefined;
  await world.eventually('the members to agree on a leader', async () => (leader = await world.members().leader()) !== undefined, LEADER_BUDGET_MS);
  return leader!;
}

async function kill(world: KubespecWorld, ids: string[]): Promise<void> {
  world.note('term before the kill', Math.max(0, ...(await world.members().list()).map((m) => m.term ?? 0)));
  for (const id of ids) await world.members().kill(id);
  world.note('killed', [...killed(world), ...ids]);
}

function killed(world: KubespecWorld): string[] {
  try {
    return world.recall<string[]>('killed');
  } catch {
    return [];
  }
}

async function liveFollowers(world: KubespecWorld, leader: string): Promise<string[]> {
  return (await world.members().list()).filter((m) => m.alive && m.id !== leader).map((m) => m.id);
}

Given('a {int}-member store', async function (this: KubespecWorld, count: number) {
  const members = await this.members().list();
  assert.equal(members.length, count, `the store has members ${members.map((m) => m.id).join(', ')}`);
  assert.ok(members.every((m) => m.alive), `every member is alive: ${JSON.stringify(members)}`);
});

Given('a {int}-member store with a stable leader', async function (this: KubespecWorld, count: number) {
  const members = await this.members().list();
  assert.equal(members.length, count, `the store has members ${members.map((m) => m.id).join(', ')}`);
  const leader = await currentLeader(this);
  // Where a transcript exists, "since the leader was stable" starts once the election that
  // made it is over (its last vote answers delivered), not the instant a leader exists.
  const raft = this.session.raft;
  if (raft) {
    await this.eventually('an election timeout with no vote or pre-vote message', () => electionSettled(raft.trace()), 10_000);
    assert.equal(await currentLeader(this), leader, 'the leader changed while the election settled');
    this.note('trace mark', raft.trace().length);
  }
  this.note('leader', leader);
});

When('the leader is killed', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  this.note('old leader', leader);
  await kill(this, [leader]);
});

When('a follower is killed', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  const [follower] = await liveFollowers(this, leader);
  assert.ok(follower, 'there is a live follower to kill');
  await kill(this, [follower]);
});

When('{int} followers are killed', async function (this: KubespecWorld, count: number) {
  const leader = await currentLeader(this);
  const followers = (await liveFollowers(this, leader)).slice(0, count);
  assert.equal(followers.length, count, `only ${followers.length} live followers`);
  await kill(this, followers);
});

When('{int} members are killed', async function (this: KubespecWorld, count: number) {
  const alive = (await this.members().list()).filter((m) => m.alive).map((m) => m.id);
  assert.ok(alive.length >= count, `only ${alive.length} members are alive`);
  await kill(this, alive.slice(0, count));
});

When('it is restarted', async function (this: KubespecWorld) {
  const last = killed(this).at(-1);
  assert.ok(last, 'no member was killed earlier in this scenario');
  await this.members().restart(last);
  this.note('restarted', last);
});

When(/^(?:both|the) killed members are restarted$/, async function (this: KubespecWorld) {
  const ids = killed(this);
  assert.ok(ids.length > 0, 'no member was killed earlier in this scenario');
  for (const id of ids) await this.members().restart(id);
  this.note('killed', []);
});

Then(/^within (\d+) s(?: of virtual time)? a new leader is elected$/, async function (this: KubespecWorld, seconds: string) {
  const old = this.recall<string>('old leader');
  let leader: string | undefined;
  await this.eventually(`a leader other than ${old}`, async () => {
    leader = await this.members().leader();
    return leader !== undefined && leader !== old;
  }, Number(seconds) * 1000);
  this.note('leader', leader);
});

Then(/^(?:within (\d+) s )?a put of key "([^"]*)" succeeds(?: within (\d+) s)?$/, async function (this: KubespecWorld, before: string | undefined, key: string, after: string | undefined) {
  const budget_ms = Number(before ?? after ?? 5) * 1000;
  const value = `value of ${key}`;
  let stop = false;
  const outcome = await settleWithin(this.session.waiter, `a put of "${key}"`, () => retryPut(this, key, value, () => stop), budget_ms);
  stop = true;
  assert.ok(outcome.settled, `the put of "${key}" was not acknowledged within ${budget_ms / 1000} s`);
  assert.ok(outcome.ok, `the put of "${key}" failed: ${outcome.ok ? '' : String(outcome.error)}`);
  acknowledge(this, key, value);
});

/** How each failed put attempt ended, so "does not succeed" can say why. */
interface PutAttempts {
  /** The store's own refusals: not committed in time, or no leader (StoreUnavailableError timeout / no-leader). */
  refusals: string[];
  /** The member the client spoke to was down: says nothing about the protocol; tried again. */
  unreachable: number;
}

function isRefusal(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError && error.reason !== 'unreachable';
}

/**
 * Put, and while the store is unavailable (no leader yet, not committed in time, member down)
 * try again, until one succeeds or the step gives up waiting. Any other error ends the attempts:
 * it is not "the store is unavailable", and must not pass for it.
 */
async function retryPut(world: KubespecWorld, key: string, value: string, stopped: () => boolean, seen: PutAttempts = { refusals: [], unreachable: 0 }): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await world.kv().put(key, value);
      return;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || stopped()) throw error;
      if (error.reason === 'unreachable') seen.unreachable++;
      else seen.refusals.push(error.message);
      world.log(`put attempt ${attempt} of "${key}" failed: ${String(error)}`);
      await pause(world, RETRY_PAUSE_MS);
    }
  }
}

Then('a put of key {string} does not succeed within {int} s', async function (this: KubespecWorld, key: string, seconds: number) {
  // Keep trying for the whole budget: a put refused only because the client picked a dead member
  // must not pass for "the store refuses writes", and neither may an unrelated error.
  let stop = false;
  const seen: PutAttempts = { refusals: [], unreachable: 0 };
  const outcome = await settleWithin(this.session.waiter, `a put of "${key}"`, () => retryPut(this, key, 'never acknowledged', () => stop, seen), seconds * 1000);
  stop = true;
  assert.ok(!(outcome.settled && outcome.ok), `a put of "${key}" was acknowledged within ${seconds} s`);
  if (outcome.settled && !outcome.ok) {
    assert.ok(isRefusal(outcome.error), `the put of "${key}" failed, but not as the store refusing it (no commit, no leader): ${String(outcome.error)}`);
  }
  // Either the store refused (timed out / no leader) or the last attempt is still waiting for a
  // commit that never comes; a run of "member down" answers alone proves nothing.
  assert.ok(seen.refusals.length > 0 || !outcome.settled,
    `no attempt reached the store's protocol: ${seen.unreachable} attempts found their member down`);
  this.log(`the put of "${key}" was refused ${seen.refusals.length} times (${[...new Set(seen.refusals)].join('; ')})${outcome.settled ? '' : '; the last attempt was still waiting for a commit'}`);
});

Then('every key acknowledged in this scenario reads back with the value written', async function (this: KubespecWorld) {
  const written = acknowledged(this);
  assert.ok(written.size > 0, 'no write was acknowledged in this scenario');
  for (const [key, value] of written) assert.equal((await this.kv().get(key)).kv?.value, value, `acknowledged key "${key}"`);
});

Then('a linearizable get of {string} returns the value written', async function (this: KubespecWorld, key: string) {
  const value = acknowledged(this).get(key);
  assert.ok(value !== undefined, `no put of "${key}" was acknowledged in this scenario`);
  assert.equal((await this.kv().get(key)).kv?.value, value);
});

// ---- leaders and roles, as the members report them ------------------------------------------

function leadersAmong(members: MemberInfo[]): string[] {
  return members.filter((m) => m.alive && m.role === 'leader').map((m) => m.id);
}

Then(/^within (\d+) s(?: of virtual time)? exactly one member reports itself leader$/, async function (this: KubespecWorld, seconds: string) {
  let leaders: string[] = [];
  await this.eventually('exactly one leader', async () => (leaders = leadersAmong(await this.members().list())).length === 1, Number(seconds) * 1000);
  this.note('leader', leaders[0]);
});

Then('every live member names that member as leader', async function (this: KubespecWorld) {
  const leader = this.recall<string>('leader');
  await this.eventually(`every live member to name ${leader}`, async () => (await this.members().leader()) === leader, 2_000);
  const terms = new Set((await this.members().list()).filter((m) => m.alive).map((m) => m.term));
  assert.equal(terms.size, 1, `every live member is in the leader's term: ${[...terms].join(', ')}`);
});

When('a follower is partitioned from the other two members', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  const members = (await this.members().list()).map((m) => m.id);
  assert.equal(members.length, 3, 'this step is about a 3-member store');
  const follower = members.find((id) => id !== leader)!;
  const partition = this.members().partition;
  assert.ok(partition, 'this target declares net.partition but offers no partition()');
  await partition.call(this.members(), [[follower], members.filter((id) => id !== follower)]);
  this.note('partitioned', follower);
  this.note('partitioned member', follower);
  this.note('leader', leader);
});

Then('the other two members still agree on one leader', async function (this: KubespecWorld) {
  const cut = this.recall<string>('partitioned');
  const leader = await this.members().leader();
  assert.ok(leader !== undefined && leader !== cut, `the majority side has a leader (got ${leader})`);
  const leaders = leadersAmong((await this.members().list()).filter((m) => m.id !== cut));
  assert.deepEqual(leaders, [leader], 'exactly one leader on the majority side');
});

/**
 * "However long it waits": sample the members' reports at every poll for the whole span, and fail
 * on the first report that breaks the claim. `now` is the virtual clock where there is one.
 */
async function neverFor(world: KubespecWorld, ms: number, what: string, violation: (members: MemberInfo[]) => string | undefined): Promise<void> {
  const now = (): number => world.session.clock?.now_ms() ?? Date.now();
  const end = now() + ms;
  let seen: string | undefined;
  let samples = 0;
  await world.eventually(`${ms / 1000} s of ${what}`, async () => {
    seen ??= violation(await world.members().list());
    samples++;
    return seen !== undefined || now() >= end;
  }, ms + 1_000);
  assert.equal(seen, undefined, `${what} broke after ${samples} samples`);
  world.log(`${what} held over ${samples} samples`);
}

Then(/^for (\d+) s(?: of virtual time)? the partitioned member never reports itself leader$/, async function (this: KubespecWorld, seconds: string) {
  const cut = this.recall<string>('partitioned');
  await neverFor(this, Number(seconds) * 1000, `${cut} not leading`, (members) => {
    const info = members.find((m) => m.id === cut);
    if (!info?.alive) return `${cut} is down`;
    return info.role === 'leader' ? `${cut} reports itself leader in term ${info.term}` : undefined;
  });
});

Then(/^for (\d+) s(?: of virtual time)? no live member reports itself leader in a term after the kill$/, async function (this: KubespecWorld, seconds: string) {
  const before = this.recall<number>('term before the kill');
  await neverFor(this, Number(seconds) * 1000, 'no new leader', (members) => {
    const elected = members.filter((m) => m.alive && m.role === 'leader' && (m.term ?? 0) > before);
    return elected.length > 0 ? `elected: ${JSON.stringify(elected)}` : undefined;
  });
});

When('a follower is killed and noted as the stale member', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  const [follower] = await liveFollowers(this, leader);
  assert.ok(follower, 'there is a live follower to kill');
  await kill(this, [follower]);
  this.note('stale member', follower);
});

When('the other members are killed', async function (this: KubespecWorld) {
  await kill(this, (await this.members().list()).filter((m) => m.alive).map((m) => m.id));
});

When('the stale member is restarted', async function (this: KubespecWorld) {
  await this.members().restart(this.recall<string>('stale member'));
});

When('one of the members that holds the writes is restarted', async function (this: KubespecWorld) {
  const stale = this.recall<string>('stale member');
  const holder = killed(this).find((id) => id !== stale);
  assert.ok(holder, 'a member that holds the writes was killed earlier');
  await this.members().restart(holder);
});

When('the partition is healed', async function (this: KubespecWorld) {
  const heal = this.members().heal;
  assert.ok(heal, 'this target declares net.partition but offers no heal()');
  await heal.call(this.members());
});

When('the leader and one follower are partitioned from the other three members', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  const ids = (await this.members().list()).map((m) => m.id);
  assert.equal(ids.length, 5, 'this step is about a 5-member store');
  const minority = [leader, ids.find((id) => id !== leader)!];
  const partition = this.members().partition;
  assert.ok(partition, 'this target declares net.partition but offers no partition()');
  await partition.call(this.members(), [minority, ids.filter((id) => !minority.includes(id))]);
  this.note('old leader', leader);
  this.note('minority', minority);
});

Then(/^within (\d+) s(?: of virtual time)? (?:the surviving member|the old leader) no longer reports itself leader$/, async function (this: KubespecWorld, seconds: string) {
  const alive = (await this.members().list()).filter((m) => m.alive).map((m) => m.id);
  let old: string | undefined;
  try {
    old = this.recall<string>('old leader');
  } catch {
    [old] = alive;
    assert.equal(alive.length, 1, 'one member survives');
  }
  await this.eventually(`${old} to stop reporting itself leader`, async () => {
    const info = (await this.members().list()).find((m) => m.id === old);
    return info !== undefined && info.alive && info.role !== 'leader';
  }, Number(seconds) * 1000);
});

Then(/^within (\d+) s(?: of virtual time)? the other three members agree on a new leader$/, async function (this: KubespecWorld, seconds: string) {
  const minority = this.recall<string[]>('minority');
  await this.eventually('a new leader on the majority side', async () => {
    const leader = await this.members().leader();
    return leader !== undefined && !minority.includes(leader);
  }, Number(seconds) * 1000);
});

When('the leader and the term it leads in are noted', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  const term = (await this.members().list()).find((m) => m.id === leader)?.term;
  assert.ok(term !== undefined, `${leader} reports the term it leads`);
  this.note('noted leader', leader);
  this.note('noted term', term);
});

Then('the noted leader still leads, in the noted term, and every live member is in that term', async function (this: KubespecWorld) {
  const leader = this.recall<string>('noted leader');
  const term = this.recall<number>('noted term');
  await this.eventually(`every live member to name ${leader} again`, async () => (await this.members().leader()) !== undefined, 5_000);
  const members = (await this.members().list()).filter((m) => m.alive);
  assert.equal(await this.members().leader(), leader, 'the leader the members name');
  assert.deepEqual(members.map((m) => `${m.id}:${m.term}`), members.map((m) => `${m.id}:${term}`), 'every live member\'s term');
});

/**
 * Each round cuts one follower off (the followers in turn) and heals: the member comes back at
 * a different point of its election timer every time, also just as it asks for pre-votes.
 */
When('a follower is cut off for {int} s and then rejoins for {int} s, {int} times', async function (this: KubespecWorld, cut_s: number, back_s: number, rounds: number) {
  const leader = await currentLeader(this);
  const ids = (await this.members().list()).map((m) => m.id);
  const followers = ids.filter((id) => id !== leader);
  const { partition, heal } = this.members();
  assert.ok(partition && heal, 'this target declares net.partition but offers no partition()/heal()');
  for (let round = 0; round < rounds; round++) {
    const cut = followers[round % followers.length]!;
    await partition.call(this.members(), [[cut], ids.filter((id) => id !== cut)]);
    await pause(this, cut_s * 1000);
    await heal.call(this.members());
    await pause(this, back_s * 1000);
  }
});

/*
 * Durability across a crash (RAFT-PERSISTENT-STATE): what a member has written to stable storage
 * before it crashed is what it comes back with. Raft Figure 2, "Persistent state on all servers
 * (Updated on stable storage before responding to RPCs)": currentTerm, votedFor, log[].
 */

When('the last live member is killed, and the others restarted', async function (this: KubespecWorld) {
  const alive = (await this.members().list()).filter((m) => m.alive).map((m) => m.id);
  assert.equal(alive.length, 1, `one member is alive, not ${alive.join(', ')}`);
  const others = killed(this);
  await kill(this, alive);
  for (const id of others) await this.members().restart(id);
  this.note('killed', alive);
});

When('it is killed and restarted again', async function (this: KubespecWorld) {
  const id = this.recall<string>('restarted');
  await kill(this, [id]);
  await this.members().restart(id);
  this.note('killed', []);
});

/** Kill the leader and start it again at once: the members then elect a leader in a new term. */
When('the leader is killed and at once restarted', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  await this.members().kill(leader);
  await this.members().restart(leader);
  this.note('old leader', leader);
});

When('a follower is killed, with the term it reports noted', async function (this: KubespecWorld) {
  const leader = await currentLeader(this);
  const members = await this.members().list();
  const follower = members.find((m) => m.alive && m.id !== leader && m.term !== undefined);
  assert.ok(follower, `a live follower that reports its term: ${JSON.stringify(members)}`);
  this.note('term before the crash', follower.term!);
  await kill(this, [follower.id]);
});

Then('the first term it reports after the restart is at least the noted one', async function (this: KubespecWorld) {
  const id = this.recall<string>('restarted');
  const before = this.recall<number>('term before the crash');
  let term: number | undefined;
  // The first answer that carries a term, whatever it is: waiting for a larger one would let
  // the member learn the term back from the leader instead of from its own storage.
  await this.eventually(`member ${id} to report its term`, async () => (term = (await this.members().list()).find((m) => m.id === id && m.alive)?.term) !== undefined, 10_000);
  assert.ok(term! >= before, `member ${id} was in term ${before} before the crash and came back in term ${term}`);
});

/**
 * RAFT-REJOIN-KEEPS-LEADER with the leader gone: a follower is cut off while a key commits (its
 * log is now behind), the leader dies, and the cut is healed once the other follower has gone a
 * while without a leader. Only that follower can win; the stale member's pre-votes are refused
 * (§5.4.1), and being refused must not move anyone's term (PreVote, dissertation §9.6). Each
 * round restarts the dead leader once the new one is elected, so the next round starts from
 * three members again. The term each new leader leads in is noted against its predecessor's.
 */
When('{int} times a follower is cut off, a key is put, the leader is killed and after {int} s the cut is healed', async function (this: KubespecWorld, rounds: number, wait_s: number) {
  const { partition, heal } = this.members();
  assert.ok(partition && heal, 'this target declares net.partition but offers no partition()/heal()');
  const ids = (await this.members().list()).map((m) => m.id);
  const terms: { leader: string; term: number; after: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const leader = await currentLeader(this);
    const before = (await this.members().list()).find((m) => m.id === leader)?.term;
    assert.ok(before !== undefined, `${leader} reports the term it leads`);
    const cut = ids.filter((id) => id !== leader)[round % 2]!;
    await partition.call(this.members(), [[cut], ids.filter((id) => id !== cut)]);
    const key = `/round/${round}`;
    await this.kv().put(key, 'v');
    acknowledge(this, key, 'v');
    await this.members().kill(leader);
    await pause(this, wait_s * 1000);
    await heal.call(this.members());
    let next: string | undefined;
    await this.eventually(`round ${round}: a leader other than ${leader}`, async () => (next = await this.members().leader()) !== undefined && next !== leader, 10_000);
    const term = (await this.members().list()).find((m) => m.id === next)?.term;
    assert.ok(term !== undefined, `${next} reports the term it leads`);
    terms.push({ leader: next!, term, after: before });
    await this.members().restart(leader);
    await pause(this, 1000);
  }
  this.note('leader terms', terms);
});

Then('each new leader leads in the term right after the one its predecessor led in', function (this: KubespecWorld) {
  const terms = this.recall<{ leader: string; term: number; after: number }[]>('leader terms');
  const skipped = terms.filter((t) => t.term !== t.after + 1);
  assert.deepEqual(skipped, [], `rounds whose new leader's term is not its predecessor's + 1, of ${JSON.stringify(terms)}`);
});

/**
 * Kill the leader, and once another member leads restart it, until the member restarted last by
 * "it is restarted" leads: what a member serves as leader comes from its own log.
 */
When('the leader is killed and restarted until it leads, at most {int} times', async function (this: KubespecWorld, rounds: number) {
  const id = this.recall<string>('restarted');
  for (let round = 0; round < rounds; round++) {
    const leader = await currentLeader(this);
    if (leader === id) return;
    await this.members().kill(leader);
    await this.eventually(`a leader other than ${leader}`, async () => {
      const next = await this.members().leader();
      return next !== undefined && next !== leader;
    }, LEADER_BUDGET_MS);
    await this.members().restart(leader);
  }
  assert.equal(await currentLeader(this), id, `member ${id} did not come to lead in ${rounds} rounds`);
});
