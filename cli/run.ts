/**
 * `kubespec run`: runs the features against one target in a cucumber child process (wrapped in
 * c8 on the reference), streaming the message report to disk as it goes, then builds the
 * conformance report and claims matrix from that stream.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Envelope } from '@cucumber/messages';
import { createTargetFromEnv, TARGETS } from '../adapters/registry.ts';
import { CONTRACT_VERSION } from '../contract/contract.ts';
import { TargetConfigError } from '../adapters/plugin.ts';
import type { Target } from '../contract/contract.ts';
import { resolveTarget, type ResolvedTarget } from './config.ts';
import { DEFAULT_RUN_SEED, parseSeed } from '../adapters/seed.ts';
import { EXIT_FAILURES, EXIT_OK, UsageError } from './usage.ts';
import { saveRunRecord, targetDir, writeTargetReports } from './report/write.ts';
import { closingEnvelopes, RunWatchdog, startFailureEnvelopes, type Verdict, type WatchdogOptions } from './report/watchdog.ts';
import { printRunSummary } from './summary.ts';
import { SCHEMA_PATH, schemaProblems } from './report/schema.ts';
import { FAULTS, parseFaults } from '../reference/faults.ts';
import { cucumberLoad, type CucumberLoad } from './cucumber-bundle.ts';
import { lockReportsDir } from './report/run-lock.ts';
import { readMessages, scenarioResults, type ScenarioResult } from './report/scenarios.ts';

export interface RunOptions {
  target: string;
  tags?: string;
  name?: string;
  seed?: string;
  rerun?: boolean;
  parallel?: string;
  etcdEndpoints?: string;
  kubeconfig?: string;
  /** kube target: the cluster DNS server, HOST:PORT (declares cluster.dns). */
  dnsServer?: string;
  coverage?: boolean;
  /** Seconds of wall time one scenario may take before the watchdog ends the run. */
  scenarioBudget?: string;
  /** Plug-in targets: tsx (default) or ts-node. */
  loader?: string;
  /** A config file other than ./kubespec.config.{json,ts}. */
  config?: string;
  /** Build the target, open one session, list what would run; run nothing (check-target). */
  dryRun?: boolean;
  /** Fault models to inject into the reference (reference/faults.ts), comma-separated. */
  fault?: string;
  /** Return each scenario's outcome (RunResult.scenarios), read from this run's own stream. */
  scenarioOutcomes?: boolean;
}

/** Rules not yet implemented, or that no scenario can check, are never run. */
const ALWAYS_EXCLUDED = 'not @pending and not @untestable';

export interface RunResult {
  exitCode: number;
  passed: number;
  failed: number;
  skipped: number;
  /** With RunOptions.scenarioOutcomes: every scenario's outcome in this run. */
  scenarios?: ScenarioResult[];
  /** The signal (Ctrl-C, SIGTERM) that ended the run before cucumber finished, if one did. */
  interrupted?: NodeJS.Signals;
}

/** --dns-server: an IP address and a port (a resolver is pointed at it), for the kube target. */
function checkDnsServer(opts: RunOptions): void {
  if (opts.dnsServer === undefined) return;
  if (!/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d{1,5})?$/.test(opts.dnsServer)) {
    throw new UsageError(`--dns-server must be an IP address with an optional port, got "${opts.dnsServer}"`, 'e.g. --dns-server 10.96.0.10 (kube-dns\'s ClusterIP, port 53) or --dns-server 127.0.0.1:5353');
  }
}

export async function run(opts: RunOptions): Promise<RunResult> {
  const seed = parseSeedOption(opts.seed);
  checkFaults(opts);
  checkDnsServer(opts);
  const { resolved, target, env } = await buildTarget(opts, seed);
  if (opts.dryRun) {
    const { checkTargetReport } = await import('./check-target.ts');
    return { exitCode: await checkTargetReport(target, resolved), passed: 0, failed: 0, skipped: 0 };
  }
  const name = env.KUBESPEC_TARGET!;
  const dir = targetDir(name);
  const release = lockReportsDir(dir);
  try {
    return await runHoldingDir(opts, { seed, resolved, target, env, name, dir });
  } finally {
    release();
  }
}

/** The run itself, once it holds reports/<target>/ (run-lock.ts). */
async function runHoldingDir(opts: RunOptions, built: { seed: number; resolved: ResolvedTarget; target: Target; env: NodeJS.ProcessEnv; name: string; dir: string }): Promise<RunResult> {
  const { seed, resolved, target, env, name, dir } = built;
  const capabilities = [...target.capabilities].sort();
  env.KUBESPEC_RUN_DIR = path.resolve(dir);
  fs.rmSync(path.join(dir, 'versions.json'), { force: true });
  const rerunFile = path.join(dir, 'rerun.txt');
  if (opts.rerun && !hasRerunEntries(rerunFile)) {
    console.log(`kubespec: nothing failed in the last run against ${name}; nothing to rerun.`);
    return { exitCode: EXIT_OK, passed: 0, failed: 0, skipped: 0 };
  }
  saveRunRecord({ target: name, capabilities, seed, contractVersion: target.contractVersion ?? CONTRACT_VERSION, command: `kubespec ${process.argv.slice(2).join(' ')}` });
  // c8 only when asked (--coverage): V8's precise coverage and c8's report cost a run about 40 % more CPU.
  const coverage = name === 'reference' && !resolved.env.KUBESPEC_TARGET_MODULE && opts.coverage === true;
  // The support code bundled, or through tsx (cucumber-bundle.ts says when).
  const load = await cucumberLoad({ coverage, env });
  const args = cucumberArgs(opts, dir, load, opts.rerun ? rerunFile : undefined);
  // A run without --coverage leaves no earlier run's c8 report behind for the matrix to link.
  if (!coverage) fs.rmSync(path.join(dir, 'coverage'), { recursive: true, force: true });
  const messages = path.join(dir, 'messages.ndjson');
  fs.rmSync(messages, { force: true }); // the watchdog must not read the last run's stream
  const watchdog = { ...watchdogOptions(opts), messages };
  const { code, verdict, interrupted } = await spawnCucumber(args, env, load, watchdog, coverage ? path.join(dir, 'coverage') : undefined);
  if (verdict) console.error(`kubespec: ${verdict.message}`);
  if (!fs.existsSync(messages)) return noStream(code, interrupted);
  const results = scenarioResults(readMessages(messages));
  const report = writeTargetReports(name, results);
  printRunSummary(report, dir);
  // What the suite writes must read back under the schema it ships; a report that does not is a bug here.
  const invalid = schemaProblems(report);
  for (const p of invalid) console.error(`kubespec: conformance-report.yaml does not validate against ${SCHEMA_PATH}: ${p}`);
  const s = report.totals.scenarios;
  // Cucumber fails the process for known deviations too; any other non-zero exit with no failed
  // scenario to show for it (a crash in a hook, a bad option, a process that would not exit)
  // must still fail the run.
  const unexplained = code !== 0 && s.failed === 0 && s['known-deviation'] === 0;
  if (unexplained && !verdict) console.error(`kubespec: cucumber exited with ${code} without a failed scenario: see the output above`);
  const failed = s.failed + (unexplained || verdict?.kind === 'no-exit' || verdict?.kind === 'no-start' ? 1 : 0) + (invalid.length ? 1 : 0);
  return {
    exitCode: failed > 0 ? EXIT_FAILURES : EXIT_OK, passed: s.passed + s['known-deviation'], failed, skipped: s['not-applicable'],
    ...(opts.scenarioOutcomes ? { scenarios: results } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
}

/**
 * Cucumber ended before writing a single message (stopped while it loaded, or failed to load):
 * there is nothing to report on, which is said plainly rather than as a missing-file error.
 */
function noStream(code: number, interrupted: NodeJS.Signals | undefined): RunResult {
  if (interrupted) {
    console.error(`kubespec: ${interrupted} before the first scenario ran; no report written`);
    return { exitCode: EXIT_FAILURES, passed: 0, failed: 0, skipped: 0, interrupted };
  }
  console.error(`kubespec: cucumber exited with ${code} before running any scenario; no report written (see its output above)`);
  return { exitCode: EXIT_FAILURES, passed: 0, failed: 1, skipped: 0 };
}

/** --fault names registered fault models, and only the reference can have them injected. */
function checkFaults(opts: RunOptions): void {
  if (!opts.fault) return;
  // The kernel target programs the real kernel with the reference's kube-proxy: its proxy faults apply there too.
  if (opts.target !== 'reference' && opts.target !== 'kernel') throw new UsageError(`--fault injects fault models into the reference; the ${opts.target} target has none`, 'use --target reference');
  let faults: ReturnType<typeof parseFaults>;
  try {
    faults = parseFaults(opts.fault);
  } catch (error) {
    throw new UsageError((error as Error).message, 'kubespec selftest --list shows the fault models');
  }
  const notProxy = [...faults].filter((f) => FAULTS[f].component !== 'proxy');
  if (opts.target === 'kernel' && notProxy.length > 0) throw new UsageError(`the kernel target takes only kube-proxy's fault models, not ${notProxy.join(', ')}`, 'use --target reference');
}

function parseSeedOption(text: string | undefined): number {
  try {
    return parseSeed(text) ?? DEFAULT_RUN_SEED;
  } catch (error) {
    throw new UsageError((error as Error).message, 'pass --seed with the number a failure printed, e.g. --seed 20261130');
  }
}

/**
 * Resolves --target (built-in, config entry, module), runs the built-in's preflight, and builds
 * the target once here, so that every configuration error — a bad module, a contract version
 * mismatch, an unknown capability — is exit 2 with a hint before cucumber starts. The
 * environment returned makes every worker build the same target; KUBESPEC_TARGET is the name
 * reports are filed under (a plug-in's own name).
 */
export async function buildTarget(opts: RunOptions, seed: number): Promise<{ resolved: ResolvedTarget; target: Target; env: NodeJS.ProcessEnv }> {
  try {
    const resolved = await resolveTarget(opts.target, { cwd: process.env.KUBESPEC_CWD ?? '.', config: opts.config, loader: opts.loader });
    const env = { ...targetEnv(opts, seed), ...resolved.env };
    const problem = await resolved.builtin?.preflight?.(env);
    if (problem) throw new UsageError(`the ${opts.target} target cannot run: ${problem}`);
    const target = await createTargetFromEnv(env);
    if (resolved.env.KUBESPEC_TARGET_MODULE) {
      if (TARGETS[target.name]) throw new TargetConfigError(`the plug-in target calls itself "${target.name}", a built-in target's name`, 'give it a name of its own: reports are filed under reports/<name>/');
      env.KUBESPEC_TARGET = target.name;
    }
    return { resolved, target, env };
  } catch (error) {
    if (error instanceof TargetConfigError) throw new UsageError(error.message, error.hint);
    throw error;
  }
}

function targetEnv(opts: RunOptions, seed: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KUBESPEC_TARGET: opts.target,
    KUBESPEC_SEED: String(seed),
    KUBESPEC_FAULTS: opts.fault ?? '',
    ...(opts.etcdEndpoints ? { KUBESPEC_ETCD_ENDPOINTS: opts.etcdEndpoints } : {}),
    ...(opts.kubeconfig ? { KUBESPEC_KUBECONFIG: path.resolve(process.env.KUBESPEC_CWD ?? '.', opts.kubeconfig) } : {}),
    ...(opts.dnsServer ? { KUBESPEC_DNS_SERVER: opts.dnsServer } : {}),
  };
}

function cucumberArgs(opts: RunOptions, dir: string, load: CucumberLoad, rerunFile?: string): string[] {
  const tags = opts.tags ? `(${ALWAYS_EXCLUDED}) and (${opts.tags})` : ALWAYS_EXCLUDED;
  const args = [
    rerunFile ? `@${rerunFile}` : 'features/**/*.feature',
    ...load.importArgs,
    '--tags', tags,
    // kubespec's own console output (steps/support/formatter.ts): outcomes per Rule, a known
    // deviation as one line with its reason; the summary after the run prints failure details.
    '--format', load.formatter,
    '--format', `message:${path.join(dir, 'messages.ndjson')}`,
    '--format', `html:${path.join(dir, 'cucumber.html')}`,
    '--format', `junit:${path.join(dir, 'junit.xml')}`,
    '--format', `rerun:${path.join(dir, 'rerun.txt')}`,
  ];
  if (opts.name) args.push('--name', opts.name);
  const parallel = opts.parallel ? positiveInt(opts.parallel, '--parallel') : defaultParallel(opts, rerunFile);
  if (parallel !== undefined) args.push('--parallel', parallel);
  return args;
}

/**
 * The whole suite on the reference runs in two workers by default (where the machine has two
 * cores): its scenarios are independent — each opens its own cluster on its own virtual clock,
 * seeded from the run seed and the scenario's identity (adapters/seed.ts) — so outcomes and
 * reports are the same in any order or worker, and the run takes about half the wall time.
 * A run narrowed by --name, --tags or --rerun, and every real target, keeps one worker.
 */
function defaultParallel(opts: RunOptions, rerunFile: string | undefined): string | undefined {
  if (opts.target !== 'reference' || opts.name || opts.tags || rerunFile) return undefined;
  return os.availableParallelism() >= 2 ? '2' : undefined;
}

function positiveInt(text: string, flag: string): string {
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`${flag} takes a positive whole number, got "${text}"`, `e.g. ${flag} 2`);
  return text;
}

function hasRerunEntries(file: string): boolean {
  return fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim().length > 0;
}

/** Default scenario budgets: the reference runs on virtual time; real targets wait in real time. */
const REFERENCE_SCENARIO_BUDGET_S = 60;
const REAL_TARGET_SCENARIO_BUDGET_S = 600;

function watchdogOptions(opts: RunOptions): WatchdogOptions {
  const budget_s = opts.scenarioBudget !== undefined
    ? Number(positiveInt(opts.scenarioBudget, '--scenario-budget'))
    : opts.target === 'reference' ? REFERENCE_SCENARIO_BUDGET_S : REAL_TARGET_SCENARIO_BUDGET_S;
  // Hidden knob for the watchdog's own test: how long a finished run may take to exit.
  const grace_ms = Number(process.env.KUBESPEC_EXIT_GRACE_MS ?? 20_000);
  // Loading ~100 step files through tsx takes seconds, minutes only on a starved machine.
  const start_s = Number(process.env.KUBESPEC_START_BUDGET_S ?? 300);
  return { scenarioBudget_ms: budget_s * 1000, exitGrace_ms: grace_ms, startBudget_ms: start_s * 1000 };
}

/** How often the watchdog reads the message stream and checks the clock. */
const WATCHDOG_POLL_MS = 250;

function spawnCucumber(args: string[], env: NodeJS.ProcessEnv, load: CucumberLoad, wd: WatchdogOptions & { messages: string }, coverageDir?: string): Promise<{ code: number; verdict?: Verdict; interrupted?: NodeJS.Signals }> {
  const cucumber = path.join('node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
  const command = coverageDir
    ? [path.join('node_modules', 'c8', 'bin', 'c8.js'), ...c8Args(coverageDir), process.execPath, ...load.preloadArgs, cucumber, ...args]
    : [...load.preloadArgs, cucumber, ...args];
  // Its own process group, so the watchdog can end cucumber and whatever it started (c8's child).
  const child = spawn(process.execPath, command, {
    stdio: 'inherit',
    detached: true,
    env: { ...env, NODE_OPTIONS: load.nodeOptions(env.NODE_OPTIONS) },
  });
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  // A detached group no longer gets the terminal's Ctrl-C: pass it on, and remember it, so a
  // caller running several runs (--repeat) stops instead of starting the next.
  let interrupted: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => () => {
    interrupted ??= signal;
    killGroup(signal);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt).on('SIGTERM', onTerm);
  const tail = new StreamTail(wd.messages);
  const dog = new RunWatchdog(wd, Date.now());
  let verdict: Verdict | undefined;
  const timer = setInterval(() => {
    if (verdict) return;
    for (const e of tail.read()) dog.take(e, Date.now());
    verdict = dog.check(Date.now());
    if (verdict) killGroup('SIGKILL');
  }, WATCHDOG_POLL_MS);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      killGroup('SIGKILL'); // anything cucumber left behind in its group
      if (verdict?.kind === 'scenario-over-budget') appendEnvelopes(wd.messages, closingEnvelopes(verdict, Date.now()));
      if (verdict?.kind === 'no-start') appendEnvelopes(wd.messages, startFailureEnvelopes(verdict, Date.now()));
      resolve({ code: code ?? (signal ? 128 : 1), ...(verdict ? { verdict } : {}), ...(interrupted ? { interrupted } : {}) });
    }),
  );
}

/** Reads the envelopes appended to a growing NDJSON file since the last read. */
class StreamTail {
  private offset = 0;
  private partial = '';
  constructor(private readonly file: string) {}

  read(): Envelope[] {
    if (!fs.existsSync(this.file)) return [];
    const fd = fs.openSync(this.file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= this.offset) return [];
      const buf = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      const lines = (this.partial + buf.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      return lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as Envelope);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** Adds envelopes after a killed writer's last complete line (a half-written one is dropped by the reader). */
function appendEnvelopes(file: string, envelopes: Envelope[]): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  fs.appendFileSync(file, lead + envelopes.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

function c8Args(reportsDir: string): string[] {
  return [
    '--reports-dir', reportsDir,
    '--reporter', 'html', '--reporter', 'lcov', '--reporter', 'text-summary',
    '--include', 'reference/**',
    '--exclude', '**/*.test.ts',
  ];
}
