import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, formatQuantity, parseQuantity, ZERO } from './quantity.ts';

const fmt = (...xs: string[]) => formatQuantity(xs.map((x) => parseQuantity(x)!).reduce(add, ZERO));

test('quantities add exactly and print in canonical form, in the format of the first term', () => {
  assert.equal(fmt('500m', '500m'), '1');
  assert.equal(fmt('250m', '1'), '1250m');
  assert.equal(fmt('0.5', '100m'), '600m');
  assert.equal(fmt('128Mi', '128Mi'), '256Mi');
  assert.equal(fmt('1Gi', '512Mi'), '1536Mi');
  assert.equal(fmt('1G', '500M'), '1500M');
  assert.equal(fmt('1e3'), '1k');
  assert.equal(fmt('2'), '2');
  assert.equal(formatQuantity(ZERO), '0');
});

test('what is not a quantity does not parse', () => {
  for (const bad of ['', 'abc', '1Xi', '1.2.3', 'm']) assert.equal(parseQuantity(bad), undefined, bad);
});
