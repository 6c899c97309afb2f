/**
 * Seeded fault schedules: from one PRNG, a plan of crashes, restarts, partitions and network
 * weather over a run, then a final "all clear" (heal, restart everyone) so outstanding
 * requests can settle. Decisions that depend on the run (which member leads) are taken
 * when the action fires — still a function of the seed, since the run is.
 */
import type { NetworkFaults, SimCluster } from './cluster.ts';
import type { Prng } from './prng.ts';

export type FaultAction =
  | { kind: 'kill'; member: string }
  | { kind: 'killLeader' }
  | { kind: 'restart'; member: string }
  | { kind: 'partition'; groups: string[][] }
  | { kind: 'isolateLeader' }
  | { kind: 'heal' }
  | { kind: 'network'; faults: Partial<NetworkFaults> };

export interface TimedFault {
  at_ms: number;
  action: FaultAction;
}

export interface FaultPlanOptions {
  ids: readonly string[];
  /** Faults are planned in [0, duration_ms); the all-clear comes at duration_ms. */
  duration_ms: number;
  /** Mean gap between faults. Default 250 ms. */
  meanGap_ms?: number;
}

/** Network weather for a whole run: from calm to lossy, reordering and duplicating. */
export function randomNetwork(rng: Prng): NetworkFaults {
  const maxDelay_ms = rng.pick([5, 10, 20, 40]);
  return {
    minDelay_ms: 1,
    maxDelay_ms,
    dropRate: rng.pick([0, 0.01, 0.05, 0.1]),
    duplicateRate: rng.pick([0, 0.01, 0.05]),
  };
}

export function planFaults(rng: Prng, opts: FaultPlanOptions): TimedFault[] {
  const plan: TimedFault[] = [];
  const gap_ms = opts.meanGap_ms ?? 250;
  for (let at_ms = rng.intBetween(50, 2 * gap_ms); at_ms < opts.duration_ms; at_ms += rng.intBetween(gap_ms / 2, (3 * gap_ms) / 2)) {
    plan.push({ at_ms, action: randomAction(rng, opts.ids) });
  }
  plan.push({ at_ms: opts.duration_ms, action: { kind: 'heal' } });
  for (const member of opts.ids) plan.push({ at_ms: opts.duration_ms, action: { kind: 'restart', member } });
  plan.push({ at_ms: opts.duration_ms, action: { kind: 'network', faults: { dropRate: 0, duplicateRate: 0 } } });
  return plan;
}

function randomAction(rng: Prng, ids: readonly string[]): FaultAction {
  const roll = rng.intBelow(100);
  if (roll < 15) return { kind: 'kill', member: rng.pick(ids) };
  if (roll < 25) return { kind: 'killLeader' };
  if (roll < 45) return { kind: 'restart', member: rng.pick(ids) };
  if (roll < 60) return { kind: 'partition', groups: randomSplit(rng, ids) };
  if (roll < 75) return { kind: 'isolateLeader' };
  if (roll < 95) return { kind: 'heal' };
  return { kind: 'network', faults: randomNetwork(rng) };
}

/** Two random non-empty sides (for a 1-member cluster, the member alone). */
function randomSplit(rng: Prng, ids: readonly string[]): string[][] {
  const sides: string[][] = [[], []];
  for (const id of ids) sides[rng.intBelow(2)]!.push(id);
  return sides.filter((s) => s.length > 0);
}

export function scheduleFaults(cluster: SimCluster, plan: readonly TimedFault[]): void {
  for (const f of plan) cluster.after(f.at_ms - cluster.now_ms, () => applyFault(cluster, f.action));
}

export function applyFault(cluster: SimCluster, action: FaultAction): void {
  switch (action.kind) {
    case 'kill':
      return cluster.kill(action.member);
    case 'killLeader': {
      const leader = cluster.leader();
      return leader === undefined ? undefined : cluster.kill(leader);
    }
    case 'restart':
      return cluster.restart(action.member);
    case 'partition':
      return cluster.partition(action.groups);
    case 'isolateLeader': {
      const leader = cluster.leader();
      return leader === undefined ? undefined : cluster.partition([[leader], cluster.ids.filter((id) => id !== leader)]);
    }
    case 'heal':
      return cluster.heal();
    case 'network':
      return cluster.setNetwork(action.faults);
  }
}
