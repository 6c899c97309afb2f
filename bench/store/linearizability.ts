/**
 * Wall-clock time of the simulator's linearizability property over a number of seeds: the
 * first test of reference/sim/linearizability.test.ts, run in its own node process with the
 * seed count its header documents (`SEEDS=N`). The other tests in that file (planted bugs,
 * replay) are skipped by name so the figure is the property run alone.
 */
import { spawn } from 'node:child_process';

export const LINEARIZABILITY_TEST = 'reference/sim/linearizability.test.ts';
/** Matches only the property test's name, "every seeded fault schedule on 3- and 5-member ...". */
const PROPERTY_TEST_PATTERN = '^every seeded fault schedule';

export interface LinearizabilityRun {
  seeds: number;
  passed: boolean;
  /** From spawn to exit: node and tsx start-up included. */
  wall_s: number;
  /** What the test itself printed ("# linearizability: N seeds in X ms"), when it did. */
  inside_s?: number;
  output_tail: string;
}

export async function timeLinearizability(seeds: number, cwd = process.cwd()): Promise<LinearizabilityRun> {
  const args = ['--import', 'tsx', '--test', '--test-name-pattern', PROPERTY_TEST_PATTERN, LINEARIZABILITY_TEST];
  const t0 = performance.now();
  // NODE_TEST_CONTEXT: when this runs under node:test itself, the child must not think it is nested.
  const env = { ...process.env, SEEDS: String(seeds), SEED: undefined, NODE_TEST_CONTEXT: undefined };
  const { code, output } = await run(process.execPath, args, env, cwd);
  const wall_s = (performance.now() - t0) / 1000;
  const inside = /# linearizability: (\d+) seeds in (\d+) ms/.exec(output);
  const ranSeeds = inside ? Number(inside[1]) : Number.NaN;
  return {
    seeds,
    passed: code === 0 && ranSeeds === seeds,
    wall_s,
    ...(inside ? { inside_s: Number(inside[2]) / 1000 } : {}),
    output_tail: output.split('\n').slice(-20).join('\n'),
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}
