/**
 * kubespec's console formatter, in place of cucumber's dots: it counts kubespec outcomes
 * (passed / failed / not-applicable / known-deviation) per Rule as scenarios finish. A known
 * deviation is one line with its reason — not a failure with an assertion dump — and a failure
 * is one line naming its Rule and scenario (the run's closing summary prints the detail and the
 * replay command). On a terminal the counts are one line rewritten in place with Rules done /
 * total and the elapsed time; elsewhere (CI, a pipe) output stays plain, with a count line every
 * PLAIN_EVERY scenarios so long runs against real targets show they are alive.
 */
import { Formatter, type IFormatterOptions } from '@cucumber/cucumber';
import type { Envelope, GherkinDocument, Pickle } from '@cucumber/messages';
import { OUTCOME_MEDIA_TYPE, ruleIdOf, type OutcomeNote } from './outcome.ts';

type Outcome = 'passed' | 'failed' | 'not-applicable' | 'known-deviation';

const PLAIN_EVERY = 25;
const TTY_REFRESH_MS = 200;

interface CaseState {
  ruleId: string;
  name: string;
  worst: string;
  notes: OutcomeNote[];
  message?: string;
}

/** A case's kubespec outcome, as the report will judge it (cli/report/scenarios.ts). */
export function caseOutcome(status: string, notes: readonly OutcomeNote[]): Outcome {
  if (notes.some((n) => n.kind === 'not-applicable')) return 'not-applicable';
  const deviating = notes.some((n) => n.kind === 'known-deviation');
  if (deviating) return status === 'PASSED' ? 'failed' : 'known-deviation';
  return status === 'PASSED' ? 'passed' : 'failed';
}

/** A Rule's outcome from its scenarios': any failure fails it, else a deviation, else a pass. */
export function ruleOutcomeOf(outcomes: readonly Outcome[]): Outcome {
  for (const o of ['failed', 'known-deviation', 'passed'] as const) if (outcomes.includes(o)) return o;
  return 'not-applicable';
}

const SEVERITY = ['FAILED', 'AMBIGUOUS', 'UNDEFINED', 'PENDING', 'UNKNOWN', 'SKIPPED', 'PASSED'];

export default class KubespecFormatter extends Formatter {
  static override readonly documentation = 'kubespec outcomes per Rule: one line per failure or known deviation, a progress line on a TTY';
  private readonly docs = new Map<string, GherkinDocument>();
  private readonly pickles = new Map<string, Pickle>();
  private readonly caseToPickle = new Map<string, string>();
  private readonly started = new Map<string, CaseState>();
  /** Rule id → outcomes of its finished scenarios; and how many scenarios it has in this run. */
  private readonly byRule = new Map<string, Outcome[]>();
  private readonly planned = new Map<string, number>();
  private scenariosDone = 0;
  private readonly t0 = Date.now();
  private readonly tty: boolean;
  private lastDraw = 0;

  constructor(options: IFormatterOptions) {
    super(options);
    this.tty = Boolean((this.stream as { isTTY?: boolean }).isTTY) && !process.env.CI;
    options.eventBroadcaster.on('envelope', (e: Envelope) => this.take(e));
  }

  private take(e: Envelope): void {
    if (e.gherkinDocument?.uri) this.docs.set(e.gherkinDocument.uri, e.gherkinDocument);
    if (e.pickle) this.pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) this.plan(e.testCase.id, e.testCase.pickleId);
    if (e.testCaseStarted) this.start(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
    if (e.testStepFinished) this.step(e.testStepFinished.testCaseStartedId, e.testStepFinished.testStepResult);
    if (e.attachment?.mediaType === OUTCOME_MEDIA_TYPE && e.attachment.testCaseStartedId) {
      this.started.get(e.attachment.testCaseStartedId)?.notes.push(JSON.parse(e.attachment.body) as OutcomeNote);
    }
    if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) this.finish(e.testCaseFinished.testCaseStartedId);
    if (e.testRunFinished) this.close();
  }

  private ruleOf(pickleId: string): { ruleId: string; name: string } {
    const pickle = this.pickles.get(pickleId);
    const doc = pickle ? this.docs.get(pickle.uri) : undefined;
    return { ruleId: (doc && pickle && ruleIdOf(doc, pickle)) || '(no rule)', name: pickle?.name ?? '?' };
  }

  private plan(caseId: string, pickleId: string): void {
    this.caseToPickle.set(caseId, pickleId);
    const { ruleId } = this.ruleOf(pickleId);
    this.planned.set(ruleId, (this.planned.get(ruleId) ?? 0) + 1);
  }

  private start(startedId: string, caseId: string): void {
    this.started.set(startedId, { ...this.ruleOf(this.caseToPickle.get(caseId) ?? ''), worst: 'PASSED', notes: [] });
  }

  private step(startedId: string, result: { status: string; message?: string }): void {
    const state = this.started.get(startedId);
    if (!state) return;
    if (SEVERITY.indexOf(result.status) < SEVERITY.indexOf(state.worst)) state.worst = result.status;
    if (result.message && !state.message) state.message = result.message.split('\n').find((l) => l.trim()) ?? '';
  }

  private finish(startedId: string): void {
    const state = this.started.get(startedId);
    if (!state) return;
    const outcome = caseOutcome(state.worst, state.notes);
    this.byRule.set(state.ruleId, [...(this.byRule.get(state.ruleId) ?? []), outcome]);
    this.scenariosDone++;
    const deviation = state.notes.find((n) => n.kind === 'known-deviation');
    if (outcome === 'known-deviation' && deviation?.kind === 'known-deviation') this.line(`known deviation ${state.ruleId} — ${state.name}: ${deviation.reason}`);
    if (outcome === 'failed') this.line(`FAILED ${state.ruleId} — ${state.name}${state.message ? `: ${state.message.trim().slice(0, 160)}` : ''}`);
    this.progress();
  }

  /** Rules whose every planned scenario has finished, by outcome. */
  private counts(): { done: number; total: number; by: Record<Outcome, number> } {
    const by: Record<Outcome, number> = { passed: 0, failed: 0, 'not-applicable': 0, 'known-deviation': 0 };
    let done = 0;
    for (const [rule, outcomes] of this.byRule) {
      if (outcomes.length < (this.planned.get(rule) ?? 0)) continue;
      done++;
      by[ruleOutcomeOf(outcomes)]++;
    }
    return { done, total: this.planned.size, by };
  }

  private summary(): string {
    const { done, total, by } = this.counts();
    const elapsed_s = ((Date.now() - this.t0) / 1000).toFixed(1);
    return `rules ${done}/${total}: ${by.passed} passed, ${by.failed} failed, ${by['not-applicable']} not-applicable, ${by['known-deviation']} known-deviation · ${this.scenariosDone} scenarios · ${elapsed_s} s`;
  }

  private line(text: string): void {
    this.log(this.tty ? `\r\x1b[K${text}\n` : `${text}\n`);
    this.lastDraw = 0;
  }

  private progress(): void {
    if (this.tty) {
      if (Date.now() - this.lastDraw < TTY_REFRESH_MS) return;
      this.lastDraw = Date.now();
      this.log(`\r\x1b[K${this.summary()}`);
    } else if (this.scenariosDone % PLAIN_EVERY === 0) {
      this.log(`${this.summary()}\n`);
    }
  }

  private close(): void {
    this.log(this.tty ? `\r\x1b[K${this.summary()}\n` : `${this.summary()}\n`);
  }
}
