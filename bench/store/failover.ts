/**
 * Leader failover, measured through the adapter contract (MembersFacet + KvFacet + Waiter):
 * kill the leader, wait until the live members agree on a different one, then put. Times are
 * read from the clock the caller gives: the session's virtual clock on the reference (where
 * the waiter drives the simulator in 10 ms steps), performance.now on real etcd (where the
 * waiter polls every 50 ms). Afterwards the killed member is restarted and the cluster waited
 * on until it has a leader again, so the next repetition starts healthy.
 *
 * Also the simulator's own figure, reference/sim/bench.ts `measureFailover`, over many seeds.
 */
import type { Session } from '../../contract/contract.ts';
import { measureFailover } from '../../reference/sim/bench.ts';
import type { ClockReader } from './ops.ts';

export interface FailoverSample {
  killed: string;
  newLeader: string;
  /** From the kill to the live members agreeing on a different leader. */
  new_leader_ms: number;
  /** From the kill to the first put, issued once the new leader was agreed, returning. */
  first_put_ms: number;
}

/** Generous: etcd's own request timeout is 5 s + 2 election timeouts. */
const ELECTION_BUDGET_MS = 20_000;

export async function failoverOnce(session: Session, now_ms: ClockReader): Promise<FailoverSample> {
  const { members, kv, waiter } = session;
  if (!members || !kv) throw new Error('failover needs the kv and kv.members facets');
  let killed: string | undefined;
  await waiter.until('a leader before the kill', async () => (killed = await members.leader()) !== undefined, ELECTION_BUDGET_MS);
  if (killed === undefined) throw new Error('no leader to kill');
  await kv.put('bench-failover/before', 'x');
  const killedAt_ms = now_ms();
  await members.kill(killed);
  let newLeader: string | undefined;
  await waiter.until(`a leader other than ${killed}`, async () => {
    newLeader = await members.leader();
    return newLeader !== undefined && newLeader !== killed;
  }, ELECTION_BUDGET_MS);
  const new_leader_ms = now_ms() - killedAt_ms;
  await kv.put('bench-failover/after', 'x');
  const first_put_ms = now_ms() - killedAt_ms;
  await members.restart(killed);
  await waiter.until('every member back and a leader agreed', async () =>
    (await members.list()).every((m) => m.alive) && (await members.leader()) !== undefined, ELECTION_BUDGET_MS);
  return { killed, newLeader: newLeader ?? '?', new_leader_ms, first_put_ms };
}

export interface SimFailoverSamples {
  election_timeout_ms: number;
  tick_ms: number;
  failover_ms: number[];
}

/** measureFailover over seeds 1..seeds, at the given tick and election timeout (in ticks). */
export async function simFailover(seeds: number, tick_ms: number, electionTicks: number): Promise<SimFailoverSamples> {
  const failover_ms: number[] = [];
  let election_timeout_ms = tick_ms * electionTicks;
  for (let seed = 1; seed <= seeds; seed++) {
    const sample = await measureFailover(seed, { tick_ms, electionTicks });
    failover_ms.push(sample.failover_ms);
    election_timeout_ms = sample.election_timeout_ms;
  }
  return { election_timeout_ms, tick_ms, failover_ms };
}
