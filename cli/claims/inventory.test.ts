import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readInventory } from './inventory.ts';

function inventoryOf(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-'));
  fs.mkdirSync(path.join(dir, 'x'));
  fs.writeFileSync(path.join(dir, 'x', 'a.feature'), text);
  return readInventory(dir);
}

const good = `@component:x
Feature: F
  Rule: GOOD-ONE — a claim
    Source: 000 § A
    Claim: something
      continued.

    @requires:kv
    Scenario: s
      Given a step
`;

test('a well-formed rule yields a testable claim with its fields and no problems', () => {
  const inv = inventoryOf(good);
  assert.deepEqual(inv.problems, []);
  assert.equal(inv.claims[0]?.id, 'GOOD-ONE');
  assert.equal(inv.claims[0]?.fields.Claim, 'something continued.');
  assert.deepEqual(inv.claims[0]?.scenarios[0]?.requires, ['kv']);
});

const cases: Array<[string, string, RegExp]> = [
  ['a rule with no id is reported', good.replace('GOOD-ONE', 'good'), /has no id/],
  ['a rule with no Source is reported', good.replace('Source: 000 § A', ''), /no "Source:"/],
  ['duplicate ids are reported', good + good.split('\n').slice(2).join('\n'), /duplicate id GOOD-ONE/],
  ['a scenario outside a rule is reported', good.replace('  Rule:', '  Scenario: loose\n    Given x\n\n  Rule:'), /not under a Rule/],
  ['a testable rule with no scenario is reported', good.split('@requires')[0]!, /has no scenario/],
  ['an unknown capability is reported', good.replace('@requires:kv', '@requires:warp.drive'), /unknown capability/],
  ['an erratum without Upstream is reported', good.replace('  Rule:', '  @erratum\n  Rule:'), /without an "Upstream:"/],
  ['an untestable rule without a reason is reported', good.replace('  Rule:', '  @untestable\n  Rule:'), /without an "Untestable:"/],
];

for (const [name, text, expected] of cases) {
  test(name, () => {
    const inv = inventoryOf(text);
    assert.ok(inv.problems.some((p) => expected.test(p.message)), JSON.stringify(inv.problems));
  });
}

test('a pending rule with no scenario is fine', () => {
  const inv = inventoryOf(good.split('@requires')[0]!.replace('  Rule:', '  @pending\n  Rule:'));
  assert.deepEqual(inv.problems, []);
  assert.equal(inv.claims[0]?.status, 'pending');
});
