/**
 * `kubespec run --repeat N`: the flake hunt. Runs the features N times, the first with the run
 * seed (--seed, or the fixed default) and the others with fresh random seeds, then prints every
 * scenario whose outcome changed with its seed, with a seed that gives each outcome so both can
 * be replayed (`--seed S --name ...`). A scenario whose outcome depends on the seed is a flake
 * on a real target and a hidden bug (or an unseeded source of randomness) on the reference.
 */
import { randomInt } from 'node:crypto';
import { DEFAULT_RUN_SEED, parseSeed } from '../adapters/seed.ts';
import type { Outcome } from './report/scenarios.ts';
import { run, type RunOptions, type RunResult } from './run.ts';
import { EXIT_FAILURES, UsageError } from './usage.ts';

/** A shell's code for a command ended by Ctrl-C (128 + SIGINT). */
const EXIT_INTERRUPTED = 130;

export interface Flake {
  scenario: string;
  /** Each outcome seen, with the first seed that produced it. */
  seeds: Partial<Record<Outcome, number>>;
}

export async function runRepeated(opts: RunOptions, repeatText: string): Promise<RunResult> {
  if (!/^[1-9]\d*$/.test(repeatText)) throw new UsageError(`--repeat takes a positive whole number, got "${repeatText}"`, 'e.g. --repeat 20');
  const times = Number(repeatText);
  if (opts.rerun) throw new UsageError('--repeat and --rerun do not go together');
  let first: number;
  try {
    first = parseSeed(opts.seed) ?? DEFAULT_RUN_SEED;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const outcomes = new Map<string, Map<Outcome, number>>();
  let failedRuns = 0;
  const total: RunResult = { exitCode: 0, passed: 0, failed: 0, skipped: 0 };
  for (let i = 0; i < times; i++) {
    const seed = i === 0 ? first : randomInt(1, 0xffffffff);
    console.log(`\n== kubespec run --repeat: run ${i + 1} of ${times}, seed ${seed} ==`);
    // The outcomes come back from the run itself, read while it still held reports/<target>/.
    const result = await run({ ...opts, seed: String(seed), coverage: false, scenarioOutcomes: true });
    if (result.interrupted) {
      // A stopped run's unfinished scenarios are not outcomes of its seed: no verdict, and no next run.
      console.log(`\nkubespec run --repeat: ${result.interrupted} during run ${i + 1} of ${times}; stopped, no flake verdict`);
      return { ...total, exitCode: EXIT_INTERRUPTED };
    }
    if (result.exitCode !== 0) failedRuns++;
    total.passed += result.passed;
    total.failed += result.failed;
    total.skipped += result.skipped;
    for (const r of result.scenarios ?? []) {
      const key = `${r.uri}: ${r.name}`;
      const seen = outcomes.get(key) ?? new Map<Outcome, number>();
      if (!seen.has(r.outcome)) seen.set(r.outcome, seed);
      outcomes.set(key, seen);
    }
  }
  const flakes = flakesOf(outcomes);
  printFlakes(flakes, times, opts.target);
  total.exitCode = flakes.length > 0 || failedRuns > 0 ? EXIT_FAILURES : 0;
  return total;
}

export function flakesOf(outcomes: Map<string, Map<Outcome, number>>): Flake[] {
  return [...outcomes]
    .filter(([, seen]) => seen.size > 1)
    .map(([scenario, seen]) => ({ scenario, seeds: Object.fromEntries(seen) }));
}

function printFlakes(flakes: Flake[], times: number, target: string): void {
  console.log(`\nkubespec run --repeat ${times} on ${target}: ${flakes.length} scenario(s) changed outcome with the seed`);
  for (const f of flakes) {
    console.log(`  ${f.scenario}`);
    for (const [outcome, seed] of Object.entries(f.seeds)) console.log(`    ${outcome.padEnd(15)} --seed ${seed}`);
  }
}
