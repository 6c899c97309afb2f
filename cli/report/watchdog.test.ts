import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import type { Envelope } from '@cucumber/messages';
import { KUBESPEC_BIN, PROJECT_DIR } from '../../e2e/harness.ts';
import { closingEnvelopes, RunWatchdog } from './watchdog.ts';
import { scenarioResults } from './scenarios.ts';

const started = (id: string): Envelope[] => [
  { pickle: { id: `p-${id}`, name: `scenario ${id}`, uri: 'f.feature', astNodeIds: [] } },
  { testCase: { id: `c-${id}`, pickleId: `p-${id}` } },
  { testCaseStarted: { id: `r-${id}`, testCaseId: `c-${id}` } },
] as Envelope[];

test('a scenario still open past its budget gets a verdict naming it; one that finished in time does not', () => {
  const dog = new RunWatchdog({ scenarioBudget_ms: 1000, exitGrace_ms: 5000 });
  for (const e of started('a')) dog.take(e, 0);
  dog.take({ testCaseFinished: { testCaseStartedId: 'r-a' } } as Envelope, 900);
  for (const e of started('b')) dog.take(e, 1000);
  assert.equal(dog.check(1900), undefined);
  const v = dog.check(2001);
  assert.equal(v?.kind, 'scenario-over-budget');
  assert.match(v!.message, /"scenario b" ran past its budget of 1 s/);
});

test('a run whose last scenario finished but whose process stays up gets the no-exit verdict after the grace', () => {
  const dog = new RunWatchdog({ scenarioBudget_ms: 1000, exitGrace_ms: 5000 });
  dog.take({ testRunFinished: { success: true } } as Envelope, 100);
  assert.equal(dog.check(5000), undefined);
  assert.equal(dog.check(5101)?.kind, 'no-exit');
});

test('a run with no testRunStarted within the start budget gets the no-start verdict; one that started does not', () => {
  const stuck = new RunWatchdog({ scenarioBudget_ms: 1000, exitGrace_ms: 5000, startBudget_ms: 3000 }, 500);
  assert.equal(stuck.check(3500), undefined);
  const v = stuck.check(3501);
  assert.equal(v?.kind, 'no-start');
  assert.match(v!.message, /did not start within 3 s/);
  const started = new RunWatchdog({ scenarioBudget_ms: 1000, exitGrace_ms: 5000, startBudget_ms: 3000 }, 500);
  started.take({ testRunStarted: { timestamp: { seconds: 0, nanos: 0 } } } as Envelope, 2000);
  assert.equal(started.check(60_000), undefined);
  const unlimited = new RunWatchdog({ scenarioBudget_ms: 1000, exitGrace_ms: 5000 }, 0);
  assert.equal(unlimited.check(3_600_000), undefined);
});

test('the envelopes the watchdog appends make the report show the scenario failed with its message', () => {
  const dog = new RunWatchdog({ scenarioBudget_ms: 10, exitGrace_ms: 10 });
  const stream = started('c');
  for (const e of stream) dog.take(e, 0);
  const v = dog.check(11);
  assert.ok(v?.kind === 'scenario-over-budget');
  const [r] = scenarioResults([...stream, ...closingEnvelopes(v, 11)]);
  assert.equal(r!.outcome, 'failed');
  assert.match(r!.detail ?? '', /watchdog: the scenario "scenario c" ran past its budget/);
});

// ---- end to end: `kubespec run` with a session setup that throws, or a session that leaks -------

const SCENARIO = '^a service account with no bindings is refused like any other user$';
const RUN_BUDGET_MS = 90_000;

function runWithFault(fault: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string; reports: string; elapsed_ms: number }> {
  const reports = mkdtempSync(join(tmpdir(), 'kubespec-watchdog-'));
  const t0 = Date.now();
  const child = spawn(process.execPath, [KUBESPEC_BIN, 'run', '--target', 'reference', '--name', SCENARIO], {
    cwd: PROJECT_DIR,
    env: { ...process.env, KUBESPEC_REFERENCE_FAULT: fault, KUBESPEC_REPORTS_DIR: reports, ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), RUN_BUDGET_MS);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, output, reports, elapsed_ms: Date.now() - t0 });
    }),
  );
}

function reportOf(dir: string): { totals: { scenarios: Record<string, number> }; rules: Array<{ scenarios?: Array<{ outcome: string; detail?: string }> }> } {
  return YAML.parse(readFileSync(join(dir, 'reference', 'conformance-report.yaml'), 'utf8'));
}

test('a session setup that throws fails its scenario, and the run still exits with a report', { timeout: RUN_BUDGET_MS + 10_000 }, async () => {
  const r = await runWithFault('session-setup');
  try {
    assert.equal(r.code, 1, r.output);
    const report = reportOf(r.reports);
    assert.equal(report.totals.scenarios.failed, 1, r.output);
    assert.match(JSON.stringify(report), /fault seam KUBESPEC_REFERENCE_FAULT=session-setup/);
    assert.doesNotMatch(r.output, /watchdog:/, 'the run ended by itself: nothing was left running');
  } finally {
    rmSync(r.reports, { recursive: true, force: true });
  }
});

test('a session that leaves its cluster running is ended by the watchdog, and the run fails with a report', { timeout: RUN_BUDGET_MS + 10_000 }, async () => {
  const r = await runWithFault('leak-session', { KUBESPEC_EXIT_GRACE_MS: '2000' });
  try {
    assert.equal(r.code, 1, r.output);
    assert.match(r.output, /watchdog: every scenario finished but the cucumber process did not exit/);
    assert.equal(reportOf(r.reports).totals.scenarios.passed, 1, r.output);
  } finally {
    rmSync(r.reports, { recursive: true, force: true });
  }
});

test('a run that never starts (cucumber stuck before its first scenario) is ended by the watchdog, and fails with a report', { timeout: RUN_BUDGET_MS + 10_000 }, async () => {
  // A start budget far below the seconds cucumber takes to load the steps stands for a stuck start.
  const r = await runWithFault('none', { KUBESPEC_START_BUDGET_S: '0.2' });
  try {
    assert.equal(r.code, 1, r.output);
    assert.match(r.output, /watchdog: the run did not start within 0.2 s/);
    assert.equal(reportOf(r.reports).totals.scenarios.passed, 0, r.output);
  } finally {
    rmSync(r.reports, { recursive: true, force: true });
  }
});
