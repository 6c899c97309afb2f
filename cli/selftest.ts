/**
 * `kubespec selftest`: the suite checks itself. It runs the features on the reference once as it
 * is, then once per fault model (reference/faults.ts) — only the features of the fault's
 * component, so it stays fast — and reports, per fault, the Rules that caught it. A Rule catches
 * a fault when one of its scenarios passed without the fault and fails with it. A fault that no
 * scenario catches fails the command: a suite that cannot tell that implementation from the
 * reference would certify it.
 *
 * Each run is a cucumber child process (faults reach the reference adapter as KUBESPEC_FAULTS);
 * up to --parallel of them at once. Writes reports/selftest/{selftest.json,index.md,index.html}.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RUN_SEED, parseSeed } from '../adapters/seed.ts';
import { FAULTS, isFaultName, type FaultName } from '../reference/faults.ts';
import { readMessages, scenarioResults, type ScenarioResult } from './report/scenarios.ts';
import { EXIT_FAILURES, EXIT_OK, UsageError } from './usage.ts';
import { cucumberLoad, type CucumberLoad } from './cucumber-bundle.ts';

export interface SelftestOptions {
  /** Comma-separated fault names; default every fault in the registry. */
  fault?: string;
  parallel?: string;
  seed?: string;
  list?: boolean;
}

export interface FaultVerdict {
  fault: FaultName;
  component: string;
  /** Rule ids with a scenario that passed on the reference and failed with the fault. */
  caughtBy: string[];
  /** The scenarios that did, `uri: name`. */
  scenarios: string[];
  /** Why the fault's run could not be judged (crash, timeout), if it could not. */
  problem?: string;
  seconds: number;
}

export interface SelftestResult {
  exitCode: number;
  verdicts: FaultVerdict[];
  passed: number;
  failed: number;
}

const OUT_DIR = path.join('reports', 'selftest');
/** One fault's run may take this long before it is ended (a fault can make a scenario hang). */
const RUN_TIMEOUT_MS = 240_000;
const ALWAYS_EXCLUDED = 'not @pending and not @untestable';

export async function selftest(opts: SelftestOptions = {}): Promise<SelftestResult> {
  if (opts.list) {
    for (const [name, f] of Object.entries(FAULTS)) console.log(`${name.padEnd(32)} ${f.component.padEnd(22)} ${f.description}`);
    return { exitCode: EXIT_OK, verdicts: [], passed: 0, failed: 0 };
  }
  const faults = selectedFaults(opts.fault);
  const parallel = opts.parallel ? Number(opts.parallel) : Math.max(1, Math.min(2, os.availableParallelism()));
  if (!Number.isInteger(parallel) || parallel < 1) throw new UsageError(`--parallel takes a positive whole number, got "${opts.parallel}"`);
  let seed: number;
  try {
    seed = parseSeed(opts.seed) ?? DEFAULT_RUN_SEED;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  fs.mkdirSync(path.join(OUT_DIR, 'runs'), { recursive: true });
  const features = [...new Set(faults.flatMap((f) => existing(FAULTS[f].features)))].sort();
  console.log(`kubespec selftest: ${faults.length} fault model(s), seed ${seed}; the reference as it is first (${features.length} feature files)`);
  const load = await cucumberLoad();
  const baseline = await featureRun('baseline', features, undefined, seed, load);
  if (baseline.problem) console.error(`kubespec selftest: the reference run itself had a problem: ${baseline.problem}`);
  const passing = new Map([...keyed(baseline.results)].filter(([, r]) => r.outcome === 'passed'));
  const verdicts = await pool(faults, parallel, async (fault) => {
    const started = Date.now();
    const files = existing(FAULTS[fault].features);
    let run = await featureRun(fault, files, fault, seed, load);
    // A run that stopped early (a crash, a starved machine) proves nothing either way: once more.
    if (run.problem) run = await featureRun(fault, files, fault, seed, load);
    const caught = [...keyed(run.results)].filter(([key, r]) => passing.has(key) && caughtBy(r)).map(([, r]) => r);
    const verdict: FaultVerdict = {
      fault,
      component: FAULTS[fault].component,
      caughtBy: [...new Set(caught.map((r) => r.ruleId))].sort(),
      scenarios: caught.map((r) => `${r.uri}: ${r.name}`),
      ...(run.problem ? { problem: run.problem } : {}),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
    printVerdict(verdict);
    return verdict;
  });
  const failed = verdicts.filter((v) => v.caughtBy.length === 0).length;
  writeReports(verdicts, seed);
  console.log(`\nkubespec selftest: ${verdicts.length - failed} of ${verdicts.length} fault models caught; report: ${path.join(OUT_DIR, 'index.md')}`);
  if (failed > 0) console.log(`kubespec selftest: not caught: ${verdicts.filter((v) => v.caughtBy.length === 0).map((v) => v.fault).join(', ')}`);
  return { exitCode: failed > 0 ? EXIT_FAILURES : EXIT_OK, verdicts, passed: verdicts.length - failed, failed };
}

function selectedFaults(text: string | undefined): FaultName[] {
  if (!text) return Object.keys(FAULTS) as FaultName[];
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0) throw new UsageError(`unknown fault model(s): ${unknown.join(', ')}`, 'kubespec selftest --list shows them');
  return names as FaultName[];
}

function existing(files: readonly string[]): string[] {
  return files.filter((f) => fs.existsSync(f));
}

/** Scenario identity across runs: feature file, name, and its position among same-named ones (outlines). */
function keyed(results: ScenarioResult[]): Map<string, ScenarioResult> {
  const seen = new Map<string, number>();
  const out = new Map<string, ScenarioResult>();
  for (const r of results) {
    const base = `${r.uri}|${r.name}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(`${base}#${n}`, r);
  }
  return out;
}

/** Failed on its own assertions: a scenario the run never finished says nothing about the fault. */
function caughtBy(r: ScenarioResult): boolean {
  return r.outcome === 'failed' && !r.detail?.startsWith('did not finish');
}

function printVerdict(v: FaultVerdict): void {
  const head = `${v.caughtBy.length > 0 ? 'caught  ' : 'MISSED  '} ${v.fault.padEnd(32)} (${v.seconds}s)`;
  console.log(v.caughtBy.length > 0 ? `${head} by ${v.caughtBy.join(', ')}` : `${head}${v.problem ? ` — ${v.problem}` : ''}`);
}

interface FeatureRun {
  results: ScenarioResult[];
  problem?: string;
}

/** One cucumber child on the reference target, with `fault` injected; its message stream kept under runs/. */
function featureRun(label: string, features: string[], fault: FaultName | undefined, seed: number, load: CucumberLoad): Promise<FeatureRun> {
  const messages = path.join(OUT_DIR, 'runs', `${label}.ndjson`);
  fs.rmSync(messages, { force: true });
  const cucumber = path.join('node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
  const args = [...load.preloadArgs, cucumber, ...features, ...load.importArgs, '--tags', ALWAYS_EXCLUDED, '--format', `message:${messages}`];
  const env: NodeJS.ProcessEnv = { ...process.env, KUBESPEC_TARGET: 'reference', KUBESPEC_SEED: String(seed), NODE_OPTIONS: load.nodeOptions(process.env.NODE_OPTIONS) };
  delete env.KUBESPEC_FAULTS;
  if (fault) env.KUBESPEC_FAULTS = fault;
  // Its output is kept beside the message stream, for a run that needs looking into.
  const log = fs.openSync(path.join(OUT_DIR, 'runs', `${label}.log`), 'w');
  const child = spawn(process.execPath, args, { stdio: ['ignore', log, 'pipe'], detached: true, env });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    fs.writeSync(log, d);
    stderr = (stderr + d.toString()).slice(-2000);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.on('exit', () => {
      clearTimeout(timer);
      fs.closeSync(log);
      const results = fs.existsSync(messages) ? scenarioResults(readMessages(messages)) : [];
      const unfinished = results.filter((r) => r.detail?.startsWith('did not finish')).length;
      const lastWords = stderr.trim().split('\n').slice(-3).join(' ');
      const problem = timedOut
        ? `ended after ${RUN_TIMEOUT_MS / 1000}s`
        : results.length === 0
          ? `no scenario ran: ${lastWords}`
          : unfinished > 0 ? `the run stopped with ${unfinished} scenario(s) unfinished: ${lastWords}` : undefined;
      resolve({ results, ...(problem ? { problem } : {}) });
    }),
  );
}

/** Runs `work` over `items`, at most `width` at a time, keeping the items' order in the answer. */
async function pool<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

// ---- reports ---------------------------------------------------------------------------------

function writeReports(verdicts: FaultVerdict[], seed: number): void {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(path.join(OUT_DIR, 'selftest.json'), JSON.stringify({ seed, verdicts }, null, 2) + '\n');
  fs.writeFileSync(path.join(OUT_DIR, 'index.md'), selftestMarkdown(verdicts, seed));
  fs.writeFileSync(path.join(OUT_DIR, 'index.html'), selftestHtml(verdicts, seed));
}

/** Rule ids (rows) that caught at least one fault, sorted. */
function rulesOf(verdicts: FaultVerdict[]): string[] {
  return [...new Set(verdicts.flatMap((v) => v.caughtBy))].sort();
}

export function selftestMarkdown(verdicts: FaultVerdict[], seed: number): string {
  const lines = [
    '# Self-test: the fault models and the Rules that catch them',
    '',
    `Seed ${seed}. A Rule catches a fault when one of its scenarios passes on the reference and fails with the fault injected (\`kubespec run --target reference --fault NAME\`). The gallery: docs/faults.md.`,
    '',
    '| fault | component | caught by | seconds |',
    '|---|---|---|---|',
    ...verdicts.map((v) => `| ${v.fault} | ${v.component} | ${v.caughtBy.length > 0 ? v.caughtBy.join(', ') : '**not caught**'} | ${v.seconds} |`),
    '',
    '## Rule × fault',
    '',
  ];
  const rules = rulesOf(verdicts);
  lines.push(`| Rule | ${verdicts.map((v) => v.fault).join(' | ')} |`, `|---|${verdicts.map(() => ':-:').join('|')}|`);
  for (const rule of rules) lines.push(`| ${rule} | ${verdicts.map((v) => (v.caughtBy.includes(rule) ? '✔' : '')).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export function selftestHtml(verdicts: FaultVerdict[], seed: number): string {
  const rules = rulesOf(verdicts);
  const head = verdicts.map((v) => `<th class="f" title="${escapeHtml(FAULTS[v.fault].description)}"><span>${escapeHtml(v.fault)}</span></th>`).join('');
  const rows = rules.map((rule) => `<tr><th>${escapeHtml(rule)}</th>${verdicts.map((v) => `<td>${v.caughtBy.includes(rule) ? '✔' : ''}</td>`).join('')}</tr>`).join('\n');
  const missed = verdicts.map((v) => `<td class="${v.caughtBy.length > 0 ? 'ok' : 'missed'}">${v.caughtBy.length}</td>`).join('');
  return `<!doctype html><meta charset="utf-8"><title>kubespec self-test</title>
<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:center}th.f{height:14em;vertical-align:bottom}th.f span{writing-mode:vertical-rl;transform:rotate(180deg)}td.missed{background:#f99}td.ok{background:#9f9}tbody th{text-align:left}</style>
<h1>Self-test: Rule × fault</h1>
<p>Seed ${seed}. A Rule catches a fault when one of its scenarios passes on the reference and fails with the fault injected. Hover a fault for what it breaks; the gallery is docs/faults.md.</p>
<table><thead><tr><th>Rule</th>${head}</tr></thead><tbody>
${rows}
<tr><th>Rules catching it</th>${missed}</tr>
</tbody></table>
`;
}
