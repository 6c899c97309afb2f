/**
 * The run's watchdog: reads cucumber's message stream as it is written and decides when a run
 * must be ended from outside, so that a hung run still ends and still writes its report.
 *
 * Two ways a run hangs, each with its own verdict:
 * - a scenario runs past its budget (a step or hook that never settles, or a session setup
 *   stuck on a resource that never answers): the scenario is failed with a message saying so;
 * - every scenario finished (`testRunFinished` was written) but the cucumber process does not
 *   exit: something a session started was never stopped and keeps the event loop alive;
 * - the run never starts (no `testRunStarted` within the start budget): cucumber, or the process
 *   wrapping it, is stuck before its first scenario — loading step definitions, a preload, c8.
 *
 * The core is pure: envelopes and the current time in, a verdict out. cli/run.ts owns the
 * polling, the clock and the kill.
 */
import type { Envelope } from '@cucumber/messages';

export interface WatchdogOptions {
  /** Wall time one scenario (hooks included) may take before the run is ended. */
  scenarioBudget_ms: number;
  /** Wall time the process may take to exit after its last scenario finished. */
  exitGrace_ms: number;
  /** Wall time from the spawn to cucumber's `testRunStarted`; absent: no limit. */
  startBudget_ms?: number;
}

export type Verdict =
  | { kind: 'scenario-over-budget'; testCaseStartedId: string; testCaseId: string; name: string; message: string }
  | { kind: 'no-exit'; message: string }
  | { kind: 'no-start'; message: string };

interface Open {
  testCaseId: string;
  since_ms: number;
}

export class RunWatchdog {
  private readonly names = new Map<string, string>(); // pickle id → scenario name
  private readonly caseToPickle = new Map<string, string>();
  private readonly open = new Map<string, Open>(); // testCaseStarted id → since when
  private finishedAt_ms?: number;
  private started = false;

  /** `spawnedAt_ms`: when the cucumber process was started, for the start budget. */
  constructor(private readonly opts: WatchdogOptions, private readonly spawnedAt_ms = 0) {}

  take(e: Envelope, now_ms: number): void {
    if (e.pickle) this.names.set(e.pickle.id, e.pickle.name);
    if (e.testCase) this.caseToPickle.set(e.testCase.id, e.testCase.pickleId);
    if (e.testCaseStarted) this.open.set(e.testCaseStarted.id, { testCaseId: e.testCaseStarted.testCaseId, since_ms: now_ms });
    if (e.testCaseFinished) this.open.delete(e.testCaseFinished.testCaseStartedId);
    if (e.testRunFinished) this.finishedAt_ms = now_ms;
    if (e.testRunStarted) this.started = true;
  }

  check(now_ms: number): Verdict | undefined {
    const budget = this.opts.startBudget_ms;
    if (!this.started && budget !== undefined && now_ms - this.spawnedAt_ms > budget) {
      const message = `watchdog: the run did not start within ${budget / 1000} s (no testRunStarted from cucumber): it is stuck before its first scenario — loading the step definitions, a preload, or the coverage wrapper; the run was ended (KUBESPEC_START_BUDGET_S sets the budget)`;
      return { kind: 'no-start', message };
    }
    for (const [testCaseStartedId, o] of this.open) {
      if (now_ms - o.since_ms <= this.opts.scenarioBudget_ms) continue;
      const name = this.names.get(this.caseToPickle.get(o.testCaseId) ?? '') ?? '(unknown scenario)';
      const message = `watchdog: the scenario "${name}" ran past its budget of ${this.opts.scenarioBudget_ms / 1000} s of wall time; the run was ended (kubespec run --scenario-budget S)`;
      return { kind: 'scenario-over-budget', testCaseStartedId, testCaseId: o.testCaseId, name, message };
    }
    if (this.finishedAt_ms !== undefined && now_ms - this.finishedAt_ms > this.opts.exitGrace_ms) {
      const message = `watchdog: every scenario finished but the cucumber process did not exit within ${this.opts.exitGrace_ms / 1000} s: something a session started (a listener, a client, a timer) was never stopped; the run was ended`;
      return { kind: 'no-exit', message };
    }
    return undefined;
  }
}

/**
 * The envelopes that close a scenario the watchdog ended: a failed step carrying the verdict's
 * message and the scenario's end, so the report shows why it failed.
 */
export function closingEnvelopes(v: Extract<Verdict, { kind: 'scenario-over-budget' }>, now_ms: number): Envelope[] {
  const timestamp = { seconds: Math.floor(now_ms / 1000), nanos: (now_ms % 1000) * 1e6 };
  return [
    {
      testStepFinished: {
        testCaseStartedId: v.testCaseStartedId,
        testStepId: 'kubespec-watchdog',
        testStepResult: { status: 'FAILED' as never, message: v.message, duration: { seconds: 0, nanos: 0 } },
        timestamp,
      },
    },
    { testCaseFinished: { testCaseStartedId: v.testCaseStartedId, timestamp, willBeRetried: false } },
  ] as Envelope[];
}

/**
 * The envelopes that close a run the watchdog ended before it started: a run that started and
 * finished unsuccessfully, with the verdict's message, so the report is written and says why.
 */
export function startFailureEnvelopes(v: Extract<Verdict, { kind: 'no-start' }>, now_ms: number): Envelope[] {
  const timestamp = { seconds: Math.floor(now_ms / 1000), nanos: (now_ms % 1000) * 1e6 };
  return [
    { testRunStarted: { timestamp, id: 'kubespec-watchdog' } },
    { testRunFinished: { timestamp, success: false, message: v.message, testRunStartedId: 'kubespec-watchdog' } },
  ] as Envelope[];
}
