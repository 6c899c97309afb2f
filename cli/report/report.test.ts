import { test } from 'node:test';
import { schemaProblems } from './schema.ts';
import { CONTRACT_VERSION } from '../../contract/contract.ts';
import assert from 'node:assert/strict';
import type { Envelope } from '@cucumber/messages';
import { OUTCOME_MEDIA_TYPE } from '../../steps/support/outcome.ts';
import { scenarioResults } from './scenarios.ts';
import { buildConformance, ruleOutcome } from './conformance.ts';
import type { Claim } from '../claims/inventory.ts';

/** A minimal message stream: one feature, one Rule R-ONE with the given scenarios. */
function stream(scenarios: Array<{ name: string; steps?: string[]; notes?: object[]; finished?: boolean }>): Envelope[] {
  const children = scenarios.map((s, i) => ({ scenario: { id: `s${i}`, name: s.name } }));
  const out: any[] = [{ gherkinDocument: { uri: 'f.feature', feature: { children: [{ rule: { name: 'R-ONE — a claim', children } }] } } }];
  scenarios.forEach((s, i) => {
    out.push({ pickle: { id: `p${i}`, uri: 'f.feature', name: s.name, astNodeIds: [`s${i}`] } });
    out.push({ testCase: { id: `c${i}`, pickleId: `p${i}` } });
    out.push({ testCaseStarted: { id: `r${i}`, testCaseId: `c${i}` } });
    for (const n of s.notes ?? []) out.push({ attachment: { testCaseStartedId: `r${i}`, mediaType: OUTCOME_MEDIA_TYPE, body: JSON.stringify(n) } });
    for (const status of s.steps ?? ['PASSED']) out.push({ testStepFinished: { testCaseStartedId: `r${i}`, testStepResult: { status, message: status === 'FAILED' ? 'boom' : undefined } } });
    if (s.finished !== false) out.push({ testCaseFinished: { testCaseStartedId: `r${i}`, willBeRetried: false } });
  });
  return out as Envelope[];
}

const claim = (status: Claim['status'] = 'testable'): Claim => ({
  id: 'R-ONE', title: 'a claim', component: 'x', file: 'f.feature', line: 1, status, erratum: false, fields: { Source: 's' }, tags: [], scenarios: [],
});

test('a scenario whose steps all passed is passed, and one with a failed step is failed with its error', () => {
  const results = scenarioResults(stream([{ name: 'ok' }, { name: 'bad', steps: ['PASSED', 'FAILED', 'SKIPPED'] }]));
  assert.deepEqual(results.map((r) => [r.ruleId, r.outcome]), [['R-ONE', 'passed'], ['R-ONE', 'failed']]);
  assert.match(results[1]!.detail ?? '', /boom/);
});

test('a scenario skipped for a missing capability is not-applicable and names the capability', () => {
  const [r] = scenarioResults(stream([{ name: 'na', steps: ['SKIPPED'], notes: [{ kind: 'not-applicable', missing: ['kube.api'] }] }]));
  assert.equal(r!.outcome, 'not-applicable');
  assert.match(r!.detail ?? '', /kube\.api/);
});

test('a scenario skipped with no reason counts as failed: nothing is skipped silently', () => {
  const [r] = scenarioResults(stream([{ name: 'quiet', steps: ['SKIPPED'] }]));
  assert.equal(r!.outcome, 'failed');
});

test('undefined and pending steps fail the scenario', () => {
  const results = scenarioResults(stream([{ name: 'u', steps: ['UNDEFINED'] }, { name: 'p', steps: ['PENDING'] }]));
  assert.deepEqual(results.map((r) => r.outcome), ['failed', 'failed']);
});

test('a known deviation that fails is known-deviation; one that passes is a failure (stale entry)', () => {
  const note = { kind: 'known-deviation', reason: 'no protobuf' };
  const results = scenarioResults(stream([{ name: 'dev-fails', steps: ['FAILED'], notes: [note] }, { name: 'dev-passes', notes: [note] }]));
  assert.equal(results[0]!.outcome, 'known-deviation');
  assert.equal(results[1]!.outcome, 'failed');
  assert.match(results[1]!.detail ?? '', /remove it/);
});

test('a scenario a crash cut short is failed as unfinished, and the half-written stream still reads', () => {
  const [r] = scenarioResults(stream([{ name: 'cut', steps: ['PASSED'], finished: false }]));
  assert.equal(r!.outcome, 'failed');
  assert.match(r!.detail ?? '', /did not finish/);
});

test('a rule fails if any example fails, even when others passed', () => {
  const results = scenarioResults(stream([{ name: 'a' }, { name: 'b', steps: ['FAILED'] }]));
  assert.equal(ruleOutcome(claim(), results), 'failed');
});

test('a rule whose examples are all not-applicable is not-applicable; pending and untestable rules keep their status', () => {
  const results = scenarioResults(stream([{ name: 'a', steps: ['SKIPPED'], notes: [{ kind: 'not-applicable', missing: ['cri'] }] }]));
  assert.equal(ruleOutcome(claim(), results), 'not-applicable');
  assert.equal(ruleOutcome(claim('pending'), []), 'pending');
  assert.equal(ruleOutcome(claim('untestable'), []), 'untestable');
});

test('the conformance report totals rules and scenarios by outcome', () => {
  const report = buildConformance({
    version: '0', target: { name: 't', capabilities: ['kv'], contract_version: '1.0', versions: { etcd: '3.4.23' } }, seed: 1, command: 'c', finishedAt: '2026-11-30T18:00:00.000Z',
    claims: [claim(), { ...claim('pending'), id: 'R-TWO' }],
    results: scenarioResults(stream([{ name: 'a' }, { name: 'b' }])),
  });
  assert.equal(report.totals.rules.passed, 1);
  assert.equal(report.totals.rules.pending, 1);
  assert.equal(report.totals.scenarios.passed, 2);
  assert.deepEqual(schemaProblems(report), [], 'the report validates against schemas/conformance-report.schema.json');
  assert.equal(report.suite.contract_version, CONTRACT_VERSION, 'every report states the contract version');
  assert.ok(report.suite.baseline.kubernetes, 'and the upstream baseline');
  const broken = { ...report, totals: { ...report.totals, rules: { ...report.totals.rules, passed: -1 } } };
  assert.match(schemaProblems(broken).join('\n'), /totals\/rules\/passed must be >= 0/, 'the schema is not a rubber stamp');
  assert.ok(schemaProblems({ ...report, rules: [{ ...report.rules[0], outcome: 'great' }] }).length > 0);
});
