import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caseOutcome, ruleOutcomeOf } from '../steps/support/formatter.ts';

test('the console formatter judges a scenario as the report does', () => {
  assert.equal(caseOutcome('PASSED', []), 'passed');
  assert.equal(caseOutcome('FAILED', []), 'failed');
  assert.equal(caseOutcome('UNDEFINED', []), 'failed');
  assert.equal(caseOutcome('SKIPPED', [{ kind: 'not-applicable', missing: ['cri'] }]), 'not-applicable');
  assert.equal(caseOutcome('FAILED', [{ kind: 'known-deviation', reason: 'r' }]), 'known-deviation');
  assert.equal(caseOutcome('PASSED', [{ kind: 'known-deviation', reason: 'r' }]), 'failed', 'a deviation that passes is a stale entry');
});

test('a Rule fails if any scenario fails; a deviation outranks a pass; n/a only when nothing ran', () => {
  assert.equal(ruleOutcomeOf(['passed', 'failed']), 'failed');
  assert.equal(ruleOutcomeOf(['passed', 'known-deviation']), 'known-deviation');
  assert.equal(ruleOutcomeOf(['passed', 'not-applicable']), 'passed');
  assert.equal(ruleOutcomeOf(['not-applicable']), 'not-applicable');
});
