/**
 * Failover time on the simulator: virtual milliseconds from killing the leader of a healthy
 * three-member cluster to the first write accepted (committed and applied) by its successor.
 * Expect roughly one to two election timeouts: the followers must first miss the leader for
 * their randomized timeout, then win a vote and commit their no-op.
 */
import { SimCluster } from './cluster.ts';
import { KvRegisterMachine } from './kv-register.ts';

export interface FailoverOptions {
  members?: number;
  tick_ms?: number;
  electionTicks?: number;
}

export async function measureFailover(seed: number, opts: FailoverOptions = {}): Promise<{ failover_ms: number; election_timeout_ms: number }> {
  const tick_ms = opts.tick_ms ?? 10;
  const electionTicks = opts.electionTicks ?? 10;
  const cluster = new SimCluster({ seed, members: opts.members ?? 3, tick_ms, electionTicks, stateMachine: () => new KvRegisterMachine() });
  await writeThroughLeader(cluster, 'warm-up', 5000);
  const killed = cluster.leader();
  if (killed === undefined) throw new Error(`seed ${seed}: no leader to kill`);
  const killedAt_ms = cluster.now_ms;
  cluster.kill(killed);
  await writeThroughLeader(cluster, 'after-failover', 10_000);
  return { failover_ms: cluster.now_ms - killedAt_ms, election_timeout_ms: electionTicks * tick_ms };
}

/** Keep trying a write through whoever leads, one tick apart, until one is accepted. */
async function writeThroughLeader(cluster: SimCluster, value: string, budget_ms: number): Promise<void> {
  const deadline_ms = cluster.now_ms + budget_ms;
  while (cluster.now_ms < deadline_ms) {
    const leader = cluster.leader();
    if (leader !== undefined && (await settles(cluster, cluster.propose(JSON.stringify({ op: 'put', key: 'bench', value }), { via: leader })))) return;
    await cluster.runFor(10);
  }
  throw new Error(`seed ${cluster.seed}: no write accepted within ${budget_ms} virtual ms`);
}

/** Drive the cluster until `p` settles; true when it resolved. */
async function settles(cluster: SimCluster, p: Promise<unknown>): Promise<boolean> {
  let outcome: boolean | undefined;
  p.then(
    () => (outcome = true),
    () => (outcome = false),
  );
  await cluster.runUntil(() => outcome !== undefined, 5000);
  return outcome === true;
}
