import assert from 'node:assert/strict';
import fs from 'node:fs';
import test from 'node:test';
import { FAULTS, parseFaults } from '../reference/faults.ts';
import { flakesOf } from './repeat.ts';
import { selftestMarkdown, type FaultVerdict } from './selftest.ts';

test('every fault model is documented in the gallery and names feature files that exist', () => {
  const gallery = fs.readFileSync('docs/faults.md', 'utf8');
  for (const [name, f] of Object.entries(FAULTS)) {
    assert.match(gallery, new RegExp(`### \`${name}\``), `docs/faults.md lacks ${name}`);
    assert.ok(f.features.some((file) => fs.existsSync(file)), `${name}: none of its feature files exists`);
  }
});

test('parseFaults takes a comma list and refuses a name not in the registry', () => {
  assert.deepEqual([...parseFaults('watch-never-410, rbac-allows-all')], ['watch-never-410', 'rbac-allows-all']);
  assert.equal(parseFaults(undefined).size, 0);
  assert.throws(() => parseFaults('no-such-fault'), /unknown fault "no-such-fault"/);
});

test('the Rule × fault table marks each catch and an uncaught fault', () => {
  const verdicts: FaultVerdict[] = [
    { fault: 'watch-never-410', component: 'apiserver/watch', caughtBy: ['WATCH-410'], scenarios: [], seconds: 1 },
    { fault: 'continue-ignored', component: 'apiserver/lists', caughtBy: [], scenarios: [], seconds: 1 },
  ];
  const md = selftestMarkdown(verdicts, 7);
  assert.match(md, /\| continue-ignored \| apiserver\/lists \| \*\*not caught\*\* \|/);
  assert.match(md, /\| WATCH-410 \| ✔ \|  \|/);
});

test('a scenario is a flake when its outcome changed with the seed, with a seed for each outcome', () => {
  const outcomes = new Map([
    ['a.feature: steady', new Map([['passed' as const, 1]])],
    ['a.feature: flaky', new Map([['passed' as const, 1], ['failed' as const, 99]])],
  ]);
  assert.deepEqual(flakesOf(outcomes), [{ scenario: 'a.feature: flaky', seeds: { passed: 1, failed: 99 } }]);
});
