/**
 * The `kv.fault-schedules` facet on the reference: one seeded trial of the deterministic Raft
 * simulator (reference/sim/workload.ts — the same trials the 600-seed property test runs),
 * handed back as the contract's history. The verdict is not given here: the steps check the
 * history with the suite's linearizability checker (lincheck/).
 */
import { runTrial } from '../../reference/sim/workload.ts';
import type { SimBugs } from '../../reference/sim/cluster.ts';
import { NO_FAULTS, type Faults } from '../../reference/faults.ts';
import { simFaults } from '../../reference/wiring/raft-backend.ts';
import type { FaultScheduleRun, FaultSchedulesFacet, KvHistoryOperation } from '../../contract/contract.ts';

/** Odd seeds run 3 members, even seeds 5, as in reference/sim/linearizability.test.ts. */
export function membersForSeed(seed: number): number {
  return seed % 2 === 1 ? 3 : 5;
}

/** "3 became leader term=4" / "3 is still leader term=5": the simulator's role-change lines. */
const LEADER_LINE = /^(\S+) (?:became|is still) leader term=(\d+)/;

export const referenceFaultSchedules: FaultSchedulesFacet = faultSchedulesWith(NO_FAULTS);

/** The trials with the run's Raft fault models injected (reference/faults.ts). */
export function faultSchedulesWith(faults: Faults): FaultSchedulesFacet {
  const bugs = faults.size > 0 ? simFaults(faults).bugs : undefined;
  return { run: (seed) => runSchedule(seed, bugs) };
}

async function runSchedule(seed: number, bugs: SimBugs | undefined): Promise<FaultScheduleRun> {
  const members = membersForSeed(seed);
  const trial = await runTrial({ seed, members, ...(bugs ? { bugs } : {}) });
  const leadersByTerm = new Map<number, string[]>();
  for (const line of trial.cluster.trace()) {
    const m = LEADER_LINE.exec(line);
    if (!m) continue;
    const ids = leadersByTerm.get(Number(m[2])) ?? [];
    if (!ids.includes(m[1]!)) leadersByTerm.set(Number(m[2]), [...ids, m[1]!]);
  }
  const history = trial.history.map((op): KvHistoryOperation => ({
    client: op.client,
    input: op.input,
    call_ms: op.call_ms,
    ...(op.return_ms !== undefined ? { return_ms: op.return_ms, output: op.output as string | null | boolean } : {}),
  }));
  return { seed, members, history, leadersByTerm, replay: `SEED=${seed} node --import tsx --test reference/sim/linearizability.test.ts` };
}
