/**
 * Reads a cucumber message stream (NDJSON, possibly cut short by a crash) into one result per
 * scenario: its Rule, its cucumber status, and kubespec's outcome notes.
 */
import fs from 'node:fs';
import type { Envelope, GherkinDocument, Pickle } from '@cucumber/messages';
import { OUTCOME_MEDIA_TYPE, ruleIdOf, type OutcomeNote } from '../../steps/support/outcome.ts';

export type Outcome = 'passed' | 'failed' | 'not-applicable' | 'known-deviation';

export interface ScenarioResult {
  ruleId: string;
  name: string;
  uri: string;
  outcome: Outcome;
  /** Why: the missing capabilities, the deviation reason, the first error, or the replay command. */
  detail?: string;
}

interface Run {
  status: string;
  notes: OutcomeNote[];
  error?: string;
  finished: boolean;
}

// Worst first: a scenario's status is the worst of its steps'.
const SEVERITY = ['FAILED', 'AMBIGUOUS', 'UNDEFINED', 'PENDING', 'UNKNOWN', 'SKIPPED', 'PASSED'];

export function readMessages(file: string): Envelope[] {
  const envelopes: Envelope[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      envelopes.push(JSON.parse(line) as Envelope);
    } catch {
      // A crash can leave a line half written; the watchdog appends its verdict after it.
      continue;
    }
  }
  return envelopes;
}

export function scenarioResults(envelopes: Envelope[]): ScenarioResult[] {
  const docs = new Map<string, GherkinDocument>();
  const pickles = new Map<string, Pickle>();
  const caseToPickle = new Map<string, string>();
  const startedToCase = new Map<string, string>();
  const runs = new Map<string, Run>();
  for (const e of envelopes) {
    if (e.gherkinDocument?.uri) docs.set(e.gherkinDocument.uri, e.gherkinDocument);
    if (e.pickle) pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) caseToPickle.set(e.testCase.id, e.testCase.pickleId);
    if (e.testCaseStarted) {
      startedToCase.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
      runs.set(e.testCaseStarted.testCaseId, { status: 'PASSED', notes: [], finished: false });
    }
    const runOf = (startedId: string) => runs.get(startedToCase.get(startedId) ?? '');
    if (e.testStepFinished) takeStep(runOf(e.testStepFinished.testCaseStartedId), e.testStepFinished.testStepResult);
    if (e.attachment?.mediaType === OUTCOME_MEDIA_TYPE && e.attachment.testCaseStartedId) {
      runOf(e.attachment.testCaseStartedId)?.notes.push(JSON.parse(e.attachment.body) as OutcomeNote);
    }
    if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) {
      const run = runOf(e.testCaseFinished.testCaseStartedId);
      if (run) run.finished = true;
    }
  }
  return [...caseToPickle].map(([caseId, pickleId]) => {
    const pickle = pickles.get(pickleId)!;
    const doc = docs.get(pickle.uri);
    return resultOf(pickle, doc ? ruleIdOf(doc, pickle) : undefined, runs.get(caseId));
  });
}

function takeStep(run: Run | undefined, result: { status: string; message?: string }): void {
  if (!run) return;
  if (SEVERITY.indexOf(result.status) < SEVERITY.indexOf(run.status)) run.status = result.status;
  if (result.message && !run.error) run.error = result.message.split('\n').slice(0, 6).join('\n');
}

function resultOf(pickle: Pickle, ruleId: string | undefined, run: Run | undefined): ScenarioResult {
  const base = { ruleId: ruleId ?? '(no rule)', name: pickle.name, uri: pickle.uri };
  if (!run || !run.finished) return { ...base, outcome: 'failed', detail: 'did not finish: the run stopped before this scenario completed' };
  const na = run.notes.find((n) => n.kind === 'not-applicable');
  if (na?.kind === 'not-applicable') return { ...base, outcome: 'not-applicable', detail: `target lacks ${na.missing.join(', ')}` };
  const deviation = run.notes.find((n) => n.kind === 'known-deviation');
  const replay = run.notes.find((n) => n.kind === 'replay');
  const why = [run.error, replay?.kind === 'replay' ? `replay: ${replay.command}` : undefined].filter(Boolean).join('\n');
  if (deviation?.kind === 'known-deviation') {
    return run.status === 'PASSED'
      ? { ...base, outcome: 'failed', detail: `listed as a known deviation (${deviation.reason}) but passed: remove it from the target's list` }
      : { ...base, outcome: 'known-deviation', detail: `${deviation.reason}\n${why}`.trim() };
  }
  if (run.status === 'PASSED') return { ...base, outcome: 'passed' };
  const detail = run.status === 'SKIPPED' ? 'skipped without a reason' : `${run.status.toLowerCase()}: ${why}`;
  return { ...base, outcome: 'failed', detail };
}
