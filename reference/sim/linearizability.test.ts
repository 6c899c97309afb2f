/**
 * The simulator's central property: under any seeded fault schedule — crashes, restarts,
 * partitions, message loss, delay, reordering and duplication — the history of put / get /
 * compare-and-swap calls that concurrent clients observe is linearizable.
 *
 *   SEEDS=5000 node --import tsx --test reference/sim/linearizability.test.ts   # more seeds
 *   SEED=123   node --import tsx --test reference/sim/linearizability.test.ts   # replay one seed
 *
 * The second half proves the property has teeth: with a planted safety bug, the checker
 * finds a violation within a bounded number of seeds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LivelockError, type SimBugs } from './cluster.ts';
import { describeFailure, runTrial, type TrialResult } from './workload.ts';

const TEST_FILE = 'reference/sim/linearizability.test.ts';
const REPLAY_SEED = process.env.SEED === undefined ? undefined : Number(process.env.SEED) >>> 0;
const SEED_COUNT = Number(process.env.SEEDS ?? 600);

/** Odd seeds run 3 members, even seeds 5: both sizes see every kind of schedule. */
function membersFor(seed: number): number {
  return seed % 2 === 1 ? 3 : 5;
}

function seedsToRun(): number[] {
  if (REPLAY_SEED !== undefined) return [REPLAY_SEED];
  return Array.from({ length: SEED_COUNT }, (_, i) => i + 1);
}

test(`every seeded fault schedule on 3- and 5-member clusters yields a linearizable history (${REPLAY_SEED === undefined ? `${SEED_COUNT} seeds` : `seed ${REPLAY_SEED}`})`, async () => {
  const totals = { answered: 0, indeterminate: 0, rejected: 0, elections: 0, messages: 0 };
  const startedAt = process.hrtime.bigint();
  for (const seed of seedsToRun()) {
    const result = await runTrial({ seed, members: membersFor(seed) }).catch((err: Error) =>
      assert.fail(`seed ${seed}: ${err.message}\nreplay: SEED=${seed} node --import tsx --test ${TEST_FILE}`),
    );
    if (result.check.outcome !== 'ok') assert.fail(describeFailure(result, TEST_FILE));
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += result.stats[k];
  }
  const elapsed_ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
  console.log(`# linearizability: ${seedsToRun().length} seeds in ${elapsed_ms.toFixed(0)} ms; ${JSON.stringify(totals)}`);
  // A property that held only because nothing happened would prove nothing.
  assert.ok(totals.answered > 50 * seedsToRun().length, 'clients got plenty of answers');
  if (REPLAY_SEED === undefined) {
    assert.ok(totals.elections > seedsToRun().length, 'faults forced re-elections');
    assert.ok(totals.indeterminate > 0, 'some calls ended with an unknown outcome');
  }
});

/** Run seeds from 1 until the checker reports a violation; returns the first failing trial. */
async function firstViolation(bugs: SimBugs, maxSeeds: number): Promise<{ found?: TrialResult; livelocks: number }> {
  let livelocks = 0;
  for (let seed = 1; seed <= maxSeeds; seed++) {
    try {
      const result = await runTrial({ seed, members: membersFor(seed), bugs });
      if (result.check.outcome === 'illegal') return { found: result, livelocks };
    } catch (err) {
      // A broken protocol may also spin forever; that seed is inconclusive for the checker.
      if (!(err instanceof LivelockError)) throw err;
      livelocks++;
    }
  }
  return { livelocks };
}

test('the checker catches the planted commitWithoutMajority bug within 100 seeds', async () => {
  const { found, livelocks } = await firstViolation({ commitWithoutMajority: true }, 100);
  assert.ok(found, `no violation found in 100 seeds (${livelocks} livelocked)`);
  console.log(`# commitWithoutMajority caught on seed ${found.seed}:\n${describeFailure(found, TEST_FILE).split('\n').slice(0, 12).join('\n')}`);
});

test('the checker catches reads served without ReadIndex (a deposed leader answering stale) within 300 seeds', async () => {
  const { found } = await firstViolation({ readsWithoutReadIndex: true }, 300);
  assert.ok(found, 'no violation found in 300 seeds');
  console.log(`# readsWithoutReadIndex caught on seed ${found.seed}`);
});

test('a seed replays the identical run', async () => {
  const seed = REPLAY_SEED ?? 4242;
  const a = await runTrial({ seed, members: membersFor(seed) });
  const b = await runTrial({ seed, members: membersFor(seed) });
  assert.equal(a.fingerprint, b.fingerprint);
  assert.deepEqual(a.cluster.trace(), b.cluster.trace());
  assert.deepEqual(a.history, b.history);
});
