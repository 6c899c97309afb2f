/**
 * One half of the bench per system, both through the registry's targets and the adapter
 * contract: open a session sized for a 3-member replicated store, take put/get and watch
 * figures on it, then leader failovers.
 */
import { TARGETS } from '../../adapters/registry.ts';
import type { Session, Target } from '../../contract/contract.ts';
import type { Figure } from '../lib.ts';
import { failoverOnce, simFailover } from './failover.ts';
import { failoverFigures, kvFigures, watchFigures, type SystemName } from './figures.ts';
import { measureKvOps, timedOps, uniqueSuffix, type ClockReader } from './ops.ts';
import { measureWatchDelivery } from './watch.ts';

export interface StoreBenchConfig {
  /** Keys per put/get measurement. */
  ops: number;
  /** Callers in flight for the concurrent measurement (the sequential one has 1). */
  concurrency: number;
  /** Untimed puts first: JIT, connections, the reference's first election. */
  warmup: number;
  watchEvents: number;
  /** Seeds for reference/sim/bench.ts measureFailover. */
  simFailoverSeeds: number;
  /** Reference sessions (one seed each) failed over through the adapter. */
  referenceFailovers: number;
  /** Leader kills on the real etcd cluster. */
  etcdFailovers: number;
  /** Seeds of the linearizability property run; 0 skips it. */
  linearizabilitySeeds: number;
}

/**
 * Tags that give a 3-member Raft store on both targets: the reference sizes a replicated store
 * from `@requires:kv.members` / `@members:N` (adapters/reference/store-session.ts), etcd picks its
 * cluster by `@members:N` (adapters/etcd/index.ts).
 */
export const THREE_MEMBER_TAGS = ['@requires:kv', '@requires:kv.watch', '@requires:kv.members', '@members:3'] as const;

/** RaftBackend's defaults (reference/wiring/raft-backend.ts): etcd's 100 ms heartbeat, 10-tick election. */
export const RAFT_BACKEND_TICK_MS = 100;
export const RAFT_BACKEND_ELECTION_TICKS = 10;
/** etcd's default --election-timeout (https://etcd.io/docs/v3.4/tuning/#time-parameters). */
export const ETCD_ELECTION_TIMEOUT_MS = 1000;

export interface SystemResult {
  figures: Figure[];
  notes: string[];
}

async function openThreeMembers(target: Target, seed: number): Promise<Session> {
  const session = await target.openSession({ seed, name: `bench store ${seed}`, tags: THREE_MEMBER_TAGS });
  // Attached etcd endpoints have no members facet; then the cluster's size is whatever it is.
  const members = await session.members?.list();
  if (!session.kv || (members !== undefined && members.length !== 3)) {
    await session.close();
    throw new Error(`${target.name} did not give a 3-member replicated kv store (members: ${members?.length ?? 'none'})`);
  }
  return session;
}

/** put/get sequential and concurrent, then watch delivery, on one session. */
async function kvAndWatch(system: SystemName, session: Session, config: StoreBenchConfig): Promise<Figure[]> {
  const kv = session.kv!;
  const clock = session.clock;
  const virtualNow: ClockReader | undefined = clock ? () => clock.now_ms() : undefined;
  const warm = `bench-warmup-${uniqueSuffix()}/`;
  await timedOps(config.warmup, config.concurrency, (i) => kv.put(`${warm}${i}`, 'x'));
  const figures: Figure[] = [];
  for (const concurrency of [1, config.concurrency]) {
    figures.push(...kvFigures(system, await measureKvOps(kv, config.ops, concurrency, virtualNow)));
  }
  const watch = await measureWatchDelivery(kv, session.waiter, config.watchEvents);
  if (watch.delivered !== watch.n) throw new Error(`${system}: ${watch.delivered} of ${watch.n} watch events arrived`);
  figures.push(...watchFigures(system, watch));
  return figures;
}

export async function measureReference(config: StoreBenchConfig): Promise<SystemResult> {
  const target = await TARGETS.reference!.create(process.env);
  await target.start();
  const figures: Figure[] = [];
  try {
    const session = await openThreeMembers(target, 1);
    try {
      figures.push(...(await kvAndWatch('reference', session, config)));
    } finally {
      await session.close();
    }
    const adapter = await referenceAdapterFailovers(target, config.referenceFailovers);
    figures.push(...failoverFigures('reference', 'failover through the adapter, kill → first put', adapter.first_put_ms, 'virtual ms', adapter.election_timeout_ms));
    figures.push(...failoverFigures('reference', 'failover through the adapter, kill → new leader agreed', adapter.new_leader_ms, 'virtual ms', adapter.election_timeout_ms).slice(0, 1).map(withoutGoal));
  } finally {
    await target.stop();
  }
  const backend = await simFailover(config.simFailoverSeeds, RAFT_BACKEND_TICK_MS, RAFT_BACKEND_ELECTION_TICKS);
  figures.push(...failoverFigures('reference', `sim failover (measureFailover, ${backend.tick_ms} ms ticks), kill → first write`, backend.failover_ms, 'virtual ms', backend.election_timeout_ms));
  const simDefault = await simFailover(config.simFailoverSeeds, 10, 10);
  figures.push(...failoverFigures('reference', `sim failover (measureFailover, sim default ${simDefault.tick_ms} ms ticks), kill → first write`, simDefault.failover_ms, 'virtual ms', simDefault.election_timeout_ms));
  return {
    figures,
    notes: [
      `reference: 3-member RaftBackend per session (tags ${THREE_MEMBER_TAGS.join(' ')}); ops/s and ms are wall-clock, "virtual ms" is the simulator's clock.`,
      `reference failover through the adapter and the ${RAFT_BACKEND_TICK_MS} ms-tick sim figures use RaftBackend's configuration: election timeout ${RAFT_BACKEND_TICK_MS * RAFT_BACKEND_ELECTION_TICKS} ms (${RAFT_BACKEND_ELECTION_TICKS} ticks of ${RAFT_BACKEND_TICK_MS} ms; measureFailover keeps SimCluster's 2-tick heartbeat, RaftBackend uses 1); the sim default is 10 ticks of 10 ms = 100 ms.`,
      'reference failover through the adapter: the waiter drives the simulator in 10 ms steps, so "new leader agreed" is rounded up to the next 10 virtual ms.',
    ],
  };
}

function withoutGoal(f: Figure): Figure {
  const { goal: _goal, ...rest } = f;
  return rest;
}

/** One fresh session per seed: kill its leader once, on virtual time. */
async function referenceAdapterFailovers(target: Target, count: number) {
  const first_put_ms: number[] = [];
  const new_leader_ms: number[] = [];
  for (let seed = 1; seed <= count; seed++) {
    const session = await openThreeMembers(target, seed);
    try {
      const clock = session.clock!;
      const sample = await failoverOnce(session, () => clock.now_ms());
      first_put_ms.push(sample.first_put_ms);
      new_leader_ms.push(sample.new_leader_ms);
    } finally {
      await session.close();
    }
  }
  return { first_put_ms, new_leader_ms, election_timeout_ms: RAFT_BACKEND_TICK_MS * RAFT_BACKEND_ELECTION_TICKS };
}

/** The etcd half: the same figures on the real cluster the etcd target starts (or attaches to). */
export async function measureEtcd(config: StoreBenchConfig): Promise<SystemResult> {
  const target = await TARGETS.etcd!.create(process.env);
  await target.start();
  const figures: Figure[] = [];
  const notes: string[] = [];
  try {
    const session = await openThreeMembers(target, 1);
    try {
      figures.push(...(await kvAndWatch('etcd', session, config)));
      if (session.members) {
        const samples = [];
        for (let i = 0; i < config.etcdFailovers; i++) samples.push(await failoverOnce(session, () => performance.now()));
        figures.push(...failoverFigures('etcd', 'failover, SIGKILL leader → first put', samples.map((s) => s.first_put_ms), 'ms', ETCD_ELECTION_TIMEOUT_MS));
        figures.push(...failoverFigures('etcd', 'failover, SIGKILL leader → new leader agreed', samples.map((s) => s.new_leader_ms), 'ms', ETCD_ELECTION_TIMEOUT_MS).slice(0, 1).map(withoutGoal));
        notes.push(`etcd: 3 members on loopback, started by the etcd adapter; failover is wall-clock against etcd's default ${ETCD_ELECTION_TIMEOUT_MS} ms election timeout, the members facet polled every 50 ms; the put is issued once the live members agree on a new leader.`);
      } else {
        notes.push('etcd: attached endpoints (no kv.members facet): failover not measured.');
      }
    } finally {
      await session.close();
    }
  } finally {
    await target.stop();
  }
  return { figures, notes };
}
