/**
 * Steps that look inside Raft through the `raft.observe` facet (the reference): roles, terms,
 * logs, commit indexes and the protocol transcript. Trace lines are read with the formats
 * adapters/reference/raft-observer.ts documents; the helpers in raft-trace.ts parse them.
 * "Since" means since the scenario's stable-leader (or start) mark.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { agreedPrefix, appendsOf, commitsOf, electionSettled, entriesSentTo, entryIndexOf, HEARTBEAT_INTERVAL_MS, lastLineWhere, logsFromTrace, parseTrace, sendsOf, timeOf, type TraceLine } from './raft-trace.ts';

function traceSinceMark(world: KubespecWorld): TraceLine[] {
  let mark = 0;
  try {
    mark = world.recall<number>('trace mark');
  } catch {
    // no mark: the whole trace
  }
  return parseTrace(world.raft().trace().slice(mark));
}

function mark(world: KubespecWorld): void {
  world.note('trace mark', world.raft().trace().length);
}

async function liveIds(world: KubespecWorld): Promise<string[]> {
  return (await world.members().list()).filter((m) => m.alive).map((m) => m.id);
}

/** The entry the scenario's last put created, by the key it wrote. */
function lastEntry(world: KubespecWorld): { index: number; leader: string } {
  const key = world.recall<string>('last put key');
  return entryIndexOf(parseTrace(world.raft().trace()), key);
}

Given('a {int}-member store that has just started, with no virtual time elapsed', async function (this: KubespecWorld, count: number) {
  const members = await this.members().list();
  assert.equal(members.length, count);
  assert.deepEqual(sendsOf(parseTrace(this.raft().trace())), [], 'no member has sent anything yet');
});

Given('a {int}-member store with a stable leader in term {word}', async function (this: KubespecWorld, count: number, label: string) {
  const members = await this.members().list();
  assert.equal(members.length, count);
  let leader: string | undefined;
  await this.eventually('a leader every member names', async () => (leader = await this.members().leader()) !== undefined, 10_000);
  await this.eventually('an election timeout with no vote or pre-vote message', () => electionSettled(this.raft().trace()), 10_000);
  assert.equal(await this.members().leader(), leader, 'the leader changed while the election settled');
  this.note('leader', leader);
  this.note(`term ${label}`, this.raft().term(leader!));
  mark(this);
});

Then('every member\'s role is {string}', async function (this: KubespecWorld, role: string) {
  for (const id of await liveIds(this)) assert.equal(this.raft().role(id), role, `member ${id}`);
});

Then('no member\'s term is greater than {int}', async function (this: KubespecWorld, term: number) {
  for (const id of await liveIds(this)) assert.ok(this.raft().term(id) <= term, `member ${id} is in term ${this.raft().term(id)}`);
});

Then('the restarted member\'s role is {string}', function (this: KubespecWorld, role: string) {
  const id = this.recall<string>('restarted');
  assert.equal(this.raft().role(id), role, `member ${id}`);
});

Then(/^within (\d+) s of virtual time its last log index equals the leader's$/, async function (this: KubespecWorld, seconds: string) {
  const id = this.recall<string>('restarted');
  await this.eventually(`member ${id} to catch up with the leader's log`, async () => {
    const leader = await this.members().leader();
    return leader !== undefined && this.raft().lastLogIndex(id) === this.raft().lastLogIndex(leader);
  }, Number(seconds) * 1000);
});

/**
 * Replication cost: what the leader sends a member that came back, counted in entries, against
 * what it lacked — every entry of the leader's log past the point where their logs agreed when
 * it came back (the writes made since count too). Upstream needs about one copy of each: it
 * finds the agreeing point by probing, one MsgApp at a time, with the follower's conflict hint
 * (Raft §5.3; etcd-io/raft tracker/progress.go, StateProbe and MaybeDecrTo), and then streams.
 */
Then('the entries sent to it since its restart number at most twice those it lacked', async function (this: KubespecWorld) {
  const id = this.recall<string>('restarted');
  const leader = await this.members().leader();
  assert.ok(leader !== undefined && leader !== id, `another member leads (got ${leader})`);
  const lines = parseTrace(this.raft().trace());
  const restartAt = lastLineWhere(lines, (l) => l.text.startsWith(`restart member=${id} `));
  assert.ok(restartAt >= 0, `the trace holds no restart of member ${id}`);
  const held = logsFromTrace(lines, restartAt).get(id) ?? [];
  const leaders = logsFromTrace(lines).get(leader) ?? [];
  const agreed = agreedPrefix(held, leaders);
  const lacked = leaders.length - agreed;
  const sent = entriesSentTo(lines.slice(restartAt), id);
  this.log(`member ${id} came back holding ${held.length} entries, ${agreed} of them agreeing with leader ${leader}'s ${leaders.length}; it lacked ${lacked} and was sent ${sent}`);
  assert.ok(held.length > agreed, `member ${id}'s log held no entry the leader's lacks: the scenario did not build a diverging log`);
  assert.ok(sent <= 2 * lacked, `member ${id} was sent ${sent} entries for the ${lacked} it lacked`);
});

/**
 * A member that does not answer is probed, not fed: etcd-io/raft keeps such a follower in
 * StateProbe, where "leader sends at most one replication message per heartbeat interval"
 * (tracker/progress.go), whatever the write rate — so a dead member costs the leader nothing
 * in proportion to the writes. Counted from the moment the current leader took office.
 */
Then('the leader sent the killed member at most one MsgApp per heartbeat interval', async function (this: KubespecWorld) {
  const dead = this.recall<string[]>('killed');
  assert.equal(dead.length, 1, `one member is down, not ${dead.join(', ')}`);
  const id = dead[0]!;
  const leader = await this.members().leader();
  assert.ok(leader !== undefined, 'a member leads');
  const lines = parseTrace(this.raft().trace());
  const since = lastLineWhere(lines, (l) => l.kind === 'became' && l.role === 'leader' && l.member === leader);
  assert.ok(since >= 0, `the trace holds no "became leader member=${leader}"`);
  const tail = lines.slice(since);
  const span_ms = (timeOf(tail.at(-1)!.text) ?? 0) - (timeOf(tail[0]!.text) ?? 0);
  const proposals = appendsOf(tail).filter((a) => a.member === leader && a.command !== undefined).length;
  const sent = tail.filter((l) => l.kind === 'send' && l.type === 'MsgApp' && l.from === leader && l.to === id).length;
  const allowed = Math.floor(span_ms / HEARTBEAT_INTERVAL_MS) + 1;
  this.log(`in ${span_ms} ms of leader ${leader}'s term, with ${proposals} writes appended, it sent ${sent} MsgApp to member ${id}, which is down (at most ${allowed})`);
  assert.ok(proposals >= 100, `only ${proposals} writes were appended: the scenario did not load the leader`);
  assert.ok(sent <= allowed, `leader ${leader} sent ${sent} MsgApp to member ${id} in ${span_ms} ms; one per heartbeat interval allows ${allowed}`);
});

/**
 * Once every follower holds the leader's log and commit index, there is nothing to replicate:
 * the leader's only traffic is the heartbeat that keeps followers from campaigning (etcd-io/raft
 * bcastHeartbeat every heartbeat interval; a MsgApp goes out only for entries or a commit index
 * a follower lacks).
 */
Then('over the next {int} s of virtual time the leader sends nothing but heartbeats', async function (this: KubespecWorld, seconds: number) {
  const leader = await this.members().leader();
  assert.ok(leader !== undefined, 'a member leads');
  const from = this.raft().trace().length;
  await this.clock().advance(seconds * 1000);
  const sent = sendsOf(parseTrace(this.raft().trace().slice(from))).filter((l) => l.from === leader);
  const byType = new Map<string, number>();
  for (const l of sent) byType.set(l.type!, (byType.get(l.type!) ?? 0) + 1);
  this.log(`leader ${leader} sent ${JSON.stringify(Object.fromEntries(byType))} in ${seconds} s`);
  assert.equal(await this.members().leader(), leader, 'the leader changed meanwhile');
  // Exactly the heartbeats: none at all would fail too (a leader that stopped heartbeating is deposed).
  assert.deepEqual([...byType.keys()], ['MsgHeartbeat'], `leader ${leader} sent ${JSON.stringify(Object.fromEntries(byType))} while nothing was written`);
});

/**
 * In steady state a follower is replicated to, not probed: etcd-io/raft's StateReplicate
 * "optimistically increases next to the latest entry sent" (tracker/progress.go), so on a
 * network that loses nothing each entry travels to each follower once — resending what is
 * already in flight is replication cost spent twice.
 */
Then('each follower was sent each of the unanswered puts\' entries exactly once', async function (this: KubespecWorld) {
  const leader = await this.members().leader();
  assert.ok(leader !== undefined, 'a member leads');
  const followers = (await liveIds(this)).filter((id) => id !== leader);
  const lines = parseTrace(this.raft().trace());
  const puts = appendsOf(lines).filter((a) => a.member === leader && a.role === 'leader' && a.command?.startsWith('put /unanswered/'));
  assert.ok(puts.length >= 100, `the leader appended ${puts.length} of the puts: the scenario did not load it`);
  const sends = sendsOf(lines).filter((l) => l.type === 'MsgApp' && l.from === leader);
  const wrong: string[] = [];
  for (const id of followers) {
    const times = new Map<number, number>();
    for (const l of sends) {
      if (l.to !== id || l.entriesFrom === undefined) continue;
      for (let i = l.entriesFrom; i <= l.entriesTo!; i++) times.set(i, (times.get(i) ?? 0) + 1);
    }
    for (const p of puts) if (times.get(p.index!) !== 1) wrong.push(`index ${p.index} to member ${id}: ${times.get(p.index!) ?? 0} times`);
  }
  this.log(`${puts.length} entries, ${followers.length} followers, ${sends.length} MsgApp from leader ${leader}`);
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} entries were not sent exactly once to a follower`);
});

Then('the trace shows each of the {int} entries appended first by the leader', function (this: KubespecWorld, count: number) {
  const keys = this.recall<string[]>('put keys');
  assert.equal(keys.length, count);
  const appends = appendsOf(parseTrace(this.raft().trace()));
  for (const key of keys) {
    const first = appends.find((a) => a.command === `put ${key}`);
    assert.ok(first, `no member appended the entry for "${key}"`);
    assert.equal(first.role, 'leader', `the first append of "${key}" was by ${first.role} ${first.member}`);
  }
});

Then('every follower\'s last log index equals the leader\'s', async function (this: KubespecWorld) {
  await this.eventually('every follower to hold the leader\'s whole log', async () => {
    const leader = await this.members().leader();
    if (leader === undefined) return false;
    const last = this.raft().lastLogIndex(leader);
    return (await liveIds(this)).every((id) => this.raft().lastLogIndex(id) === last);
  }, 2_000);
});

Then(/^every "MsgApp" and "MsgHeartbeat" in the trace was sent by the leader$/, function (this: KubespecWorld) {
  const leader = this.recall<string>('leader');
  const sends = sendsOf(traceSinceMark(this)).filter((s) => s.type === 'MsgApp' || s.type === 'MsgHeartbeat');
  assert.ok(sends.length > 0, 'the trace holds no MsgApp or MsgHeartbeat at all');
  const strays = sends.filter((s) => s.from !== leader);
  assert.deepEqual(strays.map((s) => s.text), [], `sent by someone other than the leader ${leader}`);
});

Then(/^every message a follower sent was a "MsgAppResp", a "MsgHeartbeatResp", or a "MsgProp" forwarded to the leader$/, function (this: KubespecWorld) {
  const leader = this.recall<string>('leader');
  const fromFollowers = sendsOf(traceSinceMark(this)).filter((s) => s.from !== leader);
  assert.ok(fromFollowers.length > 0, 'the followers sent nothing at all');
  const allowed = (s: TraceLine) => s.type === 'MsgAppResp' || s.type === 'MsgHeartbeatResp' || (s.type === 'MsgProp' && s.to === leader);
  assert.deepEqual(fromFollowers.filter((s) => !allowed(s)).map((s) => s.text), [], 'other messages from followers');
});

Then(/^within (\d+) s of virtual time some member has been "candidate" in a term above (\w+)$/, async function (this: KubespecWorld, seconds: string, label: string) {
  const above = this.recall<number>(`term ${label}`);
  let found: TraceLine | undefined;
  await this.eventually(`a candidate in a term above ${above}`, () => {
    found = traceSinceMark(this).find((l) => l.kind === 'became' && l.role === 'candidate' && l.term > above);
    return found !== undefined;
  }, Number(seconds) * 1000);
  this.note('candidate term', found!.term);
});

Then('the trace holds {string} messages for that term', function (this: KubespecWorld, type: string) {
  const term = this.recall<number>('candidate term');
  const sent = sendsOf(traceSinceMark(this)).filter((s) => s.type === type && s.term === term);
  assert.ok(sent.length > 0, `no ${type} was sent in term ${term}`);
});

Then('no member has been {string} since', function (this: KubespecWorld, role: string) {
  const became = traceSinceMark(this).filter((l) => l.kind === 'became' && l.role === role);
  assert.deepEqual(became.map((l) => l.text), [], `members that became ${role}`);
});

Then('every member\'s term is still {word}', async function (this: KubespecWorld, label: string) {
  const term = this.recall<number>(`term ${label}`);
  for (const id of await liveIds(this)) assert.equal(this.raft().term(id), term, `member ${id}`);
});

// ---- the write flow -------------------------------------------------------------------------

Then('the entry for {string} was appended first by the leader', function (this: KubespecWorld, key: string) {
  const first = appendsOf(parseTrace(this.raft().trace())).find((a) => a.command === `put ${key}`);
  assert.ok(first, `no member appended the entry for "${key}"`);
  assert.equal(first.role, 'leader', `the first append of "${key}" was by ${first.role} ${first.member}`);
  assert.equal(first.member, this.recall<string>('leader'), 'the leader the scenario saw');
});

Then('every follower appended it only after receiving a {string} from the leader carrying it', async function (this: KubespecWorld, type: string) {
  const { index, leader } = lastEntry(this);
  const followers = (await liveIds(this)).filter((m) => m !== leader);
  // The put is acknowledged once a majority holds the entry; the append to the remaining
  // follower may still be in flight (or dropped and resent), so wait for every follower's
  // append before judging where it came from.
  const appendOf = (id: string) => parseTrace(this.raft().trace()).findIndex((l) => l.kind === 'append' && l.member === id && l.index === index);
  await this.eventually(`every follower to append index ${index}`, () => followers.every((id) => appendOf(id) >= 0), 2_000);
  const lines = parseTrace(this.raft().trace());
  for (const id of followers) {
    const appendAt = appendOf(id);
    const carriedAt = lines.findIndex((l) => l.kind === 'recv' && l.type === type && l.from === leader && l.to === id && carries(l, index));
    assert.ok(carriedAt >= 0 && carriedAt < appendAt, `follower ${id} appended index ${index} (line ${appendAt}) before receiving a ${type} carrying it (line ${carriedAt})`);
  }
});

Then(/^the trace shows a "MsgApp" carrying the entry sent to each of the (\d+) followers$/, async function (this: KubespecWorld, count: string) {
  const { index, leader } = lastEntry(this);
  const followers = (await this.members().list()).map((m) => m.id).filter((id) => id !== leader);
  assert.equal(followers.length, Number(count), `the store has ${followers.length} followers`);
  const carrying = sendsOf(parseTrace(this.raft().trace())).filter((s) => s.type === 'MsgApp' && s.from === leader && carries(s, index));
  assert.deepEqual([...new Set(carrying.map((s) => s.to))].sort(), followers.sort(), `followers sent a MsgApp carrying index ${index}`);
  this.log(`${carrying.length} MsgApp carried index ${index}; messages by type: ${JSON.stringify(this.raft().messageCounts())}`);
});

Then(/^within (\d+) s of virtual time all (\d+) members have the entry in their log$/, async function (this: KubespecWorld, seconds: string, count: string) {
  const { index } = lastEntry(this);
  const key = this.recall<string>('last put key');
  const ids = await liveIds(this);
  assert.equal(ids.length, Number(count));
  await this.eventually(`all ${count} members to append index ${index}`, () => {
    const appended = new Set(appendsOf(parseTrace(this.raft().trace())).filter((a) => a.index === index && a.command === `put ${key}`).map((a) => a.member));
    return ids.every((id) => appended.has(id) && this.raft().lastLogIndex(id) >= index);
  }, Number(seconds) * 1000);
});

Then(/^in the trace the line "append leader=<leader> index=<i>" comes before every "MsgApp" carrying index <i>$/, function (this: KubespecWorld) {
  const { index, leader } = lastEntry(this);
  const lines = parseTrace(this.raft().trace());
  const appendAt = lines.findIndex((l) => l.kind === 'append' && l.role === 'leader' && l.member === leader && l.index === index);
  assert.ok(appendAt >= 0, `no "append leader=${leader} index=${index}"`);
  const carrying = lines.map((l, at) => ({ l, at })).filter(({ l }) => l.kind === 'send' && l.type === 'MsgApp' && carries(l, index));
  assert.ok(carrying.length > 0, `no MsgApp carried index ${index}`);
  for (const { l, at } of carrying) assert.ok(at > appendAt, `"${l.text}" (line ${at}) comes before the leader's append (line ${appendAt})`);
});

Then(/^in the trace the first "MsgAppResp" for the entry's index comes before "commit leader=<leader> index=<i>"$/, async function (this: KubespecWorld) {
  const { index, leader } = lastEntry(this);
  const lines = parseTrace(this.raft().trace());
  const commitAt = commitsOf(lines).find((c) => c.member === leader && c.role === 'leader' && c.index >= index)?.at;
  assert.ok(commitAt !== undefined, `the leader ${leader} never committed index ${index}`);
  const acksBefore = new Set(lines.slice(0, commitAt)
    .filter((l) => l.kind === 'recv' && l.type === 'MsgAppResp' && l.to === leader && !l.reject && (l.index ?? 0) >= index)
    .map((l) => l.from));
  const members = (await this.members().list()).length;
  const quorum = Math.floor(members / 2) + 1;
  assert.ok(acksBefore.size >= quorum - 1,
    `the leader committed index ${index} having received acknowledgements from ${acksBefore.size} follower(s) (${[...acksBefore].join(', ')}); a majority of ${members} needs ${quorum - 1} besides itself`);
});

When('key {string} is put with value {string} and its entry index is {word}', async function (this: KubespecWorld, key: string, value: string, label: string) {
  await this.kv().put(key, value);
  this.note('last put key', key);
  this.note(`index ${label}`, lastEntry(this).index);
});

Then('every member\'s commit index is at least {word}', async function (this: KubespecWorld, label: string) {
  const index = this.recall<number>(`index ${label}`);
  for (const id of await liveIds(this)) assert.ok(this.raft().commitIndex(id) >= index, `member ${id} commit index ${this.raft().commitIndex(id)} < ${index}`);
});

/**
 * Raft Figure 2: a member's commitIndex "increases monotonically"; what is known committed stays
 * so. Checked over the whole transcript, member by member. A restart begins a new life: Figure 2
 * lists commitIndex among the volatile state, "initialized to 0" (etcd-io/raft keeps it in the
 * persisted HardState, but the claim does not ask for that), so only moves back within one life count.
 */
Then('no member\'s commit index ever moved back', function (this: KubespecWorld) {
  const lines = parseTrace(this.raft().trace());
  assert.ok(commitsOf(lines).length > 0, 'the trace holds no commit line at all');
  const last = new Map<string, number>();
  const back: string[] = [];
  for (const l of lines) {
    const restarted = /^restart member=(\S+)/.exec(l.text);
    if (restarted) last.delete(restarted[1]!);
    if (l.kind !== 'commit' || l.member === undefined || l.index === undefined) continue;
    const before = last.get(l.member) ?? 0;
    if (l.index < before) back.push(`${l.text} (after index ${before})`);
    last.set(l.member, l.index);
  }
  assert.deepEqual(back, [], 'commit indexes that moved back');
});

/**
 * A follower only learns the commit index from a leader (Raft §5.3: "the leader keeps track of the
 * highest index it knows to be committed, and it includes that index in future AppendEntries"):
 * every follower commit line in the transcript follows a leader's commit line at least as high.
 */
Then('in the trace every follower\'s commit index reaches an index only after a leader\'s did', function (this: KubespecWorld) {
  const commits = commitsOf(parseTrace(this.raft().trace()));
  let leaderHighest = 0;
  const ahead: string[] = [];
  for (const c of commits) {
    if (c.role === 'leader') leaderHighest = Math.max(leaderHighest, c.index);
    else if (c.index > leaderHighest) ahead.push(`${c.text} (no leader had committed past ${leaderHighest})`);
  }
  assert.ok(commits.some((c) => c.role !== 'leader'), 'the trace holds no follower commit line at all');
  assert.deepEqual(ahead, [], 'followers that counted an entry as committed before any leader did');
});

Then(/^within (\d+) s of virtual time every member applies the entry$/, async function (this: KubespecWorld, seconds: string) {
  const { index } = lastEntry(this);
  const ids = await liveIds(this);
  await this.eventually(`every member to apply index ${index}`, () => {
    const applied = parseTrace(this.raft().trace()).filter((l) => l.kind === 'apply' && (l.index ?? 0) >= index).map((l) => l.member);
    return ids.every((id) => applied.includes(id));
  }, Number(seconds) * 1000);
});

function carries(l: TraceLine, index: number): boolean {
  return l.entriesFrom !== undefined && l.entriesTo !== undefined && l.entriesFrom <= index && index <= l.entriesTo;
}
