/**
 * `kubespec run`: runs the features against one target in a cucumber child process (wrapped in
 * c8 on the reference), streaming the message report to disk as it goes, then builds the
 * conformance report and claims matrix from that stream.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TARGETS } from '../adapters/registry.ts';
import { DEFAULT_RUN_SEED, parseSeed } from '../adapters/seed.ts';
import { EXIT_FAILURES, EXIT_OK, UsageError } from './usage.ts';
import { saveRunRecord, targetDir, writeTargetReports } from './report/write.ts';
import { printRunSummary } from './summary.ts';

export interface RunOptions {
  target: string;
  tags?: string;
  name?: string;
  seed?: string;
  rerun?: boolean;
  parallel?: string;
  etcdEndpoints?: string;
  kubeconfig?: string;
  coverage?: boolean;
}

/** Rules not yet implemented, or that no scenario can check, are never run. */
const ALWAYS_EXCLUDED = 'not @pending and not @untestable';

export interface RunResult {
  exitCode: number;
  passed: number;
  failed: number;
  skipped: number;
}

export async function run(opts: RunOptions): Promise<RunResult> {
  const info = TARGETS[opts.target];
  if (!info) throw new UsageError(`unknown target "${opts.target}"`, `choose one of: ${Object.keys(TARGETS).join(', ')}`);
  const seed = parseSeedOption(opts.seed);
  const env = targetEnv(opts, seed);
  const problem = await info.preflight?.(env);
  if (problem) throw new UsageError(`the ${opts.target} target cannot run: ${problem}`);
  const capabilities = [...(await info.create(env)).capabilities].sort();
  const dir = targetDir(opts.target);
  fs.mkdirSync(dir, { recursive: true });
  const rerunFile = path.join(dir, 'rerun.txt');
  if (opts.rerun && !hasRerunEntries(rerunFile)) {
    console.log(`kubespec: nothing failed in the last run against ${opts.target}; nothing to rerun.`);
    return { exitCode: EXIT_OK, passed: 0, failed: 0, skipped: 0 };
  }
  saveRunRecord({ target: opts.target, capabilities, seed, command: `kubespec ${process.argv.slice(2).join(' ')}` });
  const args = cucumberArgs(opts, dir, opts.rerun ? rerunFile : undefined);
  const coverage = opts.target === 'reference' && opts.coverage !== false;
  const code = await spawnCucumber(args, env, coverage ? path.join(dir, 'coverage') : undefined);
  const report = writeTargetReports(opts.target);
  printRunSummary(report, dir);
  const s = report.totals.scenarios;
  // Cucumber fails the process for known deviations too; any other non-zero exit with no failed
  // scenario to show for it (a crash in a hook, a bad option) must still fail the run.
  const unexplained = code !== 0 && s.failed === 0 && s['known-deviation'] === 0;
  if (unexplained) console.error(`kubespec: cucumber exited with ${code} without a failed scenario: see the output above`);
  const failed = s.failed + (unexplained ? 1 : 0);
  return { exitCode: failed > 0 ? EXIT_FAILURES : EXIT_OK, passed: s.passed + s['known-deviation'], failed, skipped: s['not-applicable'] };
}

function parseSeedOption(text: string | undefined): number {
  try {
    return parseSeed(text) ?? DEFAULT_RUN_SEED;
  } catch (error) {
    throw new UsageError((error as Error).message, 'pass --seed with the number a failure printed, e.g. --seed 20261130');
  }
}

function targetEnv(opts: RunOptions, seed: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KUBESPEC_TARGET: opts.target,
    KUBESPEC_SEED: String(seed),
    ...(opts.etcdEndpoints ? { KUBESPEC_ETCD_ENDPOINTS: opts.etcdEndpoints } : {}),
    ...(opts.kubeconfig ? { KUBESPEC_KUBECONFIG: path.resolve(process.env.KUBESPEC_CWD ?? '.', opts.kubeconfig) } : {}),
  };
}

function cucumberArgs(opts: RunOptions, dir: string, rerunFile?: string): string[] {
  const tags = opts.tags ? `(${ALWAYS_EXCLUDED}) and (${opts.tags})` : ALWAYS_EXCLUDED;
  const progress = process.stdout.isTTY ? 'progress-bar' : 'progress';
  const args = [
    rerunFile ? `@${rerunFile}` : 'features/**/*.feature',
    '--import', 'steps/**/*.ts',
    '--tags', tags,
    '--format', progress,
    '--format', `message:${path.join(dir, 'messages.ndjson')}`,
    '--format', `html:${path.join(dir, 'cucumber.html')}`,
    '--format', `junit:${path.join(dir, 'junit.xml')}`,
    '--format', `rerun:${path.join(dir, 'rerun.txt')}`,
  ];
  if (opts.name) args.push('--name', opts.name);
  if (opts.parallel) args.push('--parallel', positiveInt(opts.parallel, '--parallel'));
  return args;
}

function positiveInt(text: string, flag: string): string {
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`${flag} takes a positive whole number, got "${text}"`, `e.g. ${flag} 2`);
  return text;
}

function hasRerunEntries(file: string): boolean {
  return fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim().length > 0;
}

function spawnCucumber(args: string[], env: NodeJS.ProcessEnv, coverageDir?: string): Promise<number> {
  const cucumber = path.join('node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
  const command = coverageDir
    ? [path.join('node_modules', 'c8', 'bin', 'c8.js'), ...c8Args(coverageDir), process.execPath, cucumber, ...args]
    : [cucumber, ...args];
  const child = spawn(process.execPath, command, {
    stdio: 'inherit',
    env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import tsx`.trim() },
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
}

function c8Args(reportsDir: string): string[] {
  return [
    '--reports-dir', reportsDir,
    '--reporter', 'html', '--reporter', 'lcov', '--reporter', 'text-summary',
    '--include', 'reference/**',
    '--exclude', '**/*.test.ts',
  ];
}
