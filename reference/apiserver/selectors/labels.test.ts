import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRequirements, matchesLabels, parseLabelSelector, requirementsOf } from './labels.ts';
import { ApiError } from '../status.ts';

const sel = (s: string, labels: Record<string, string> | undefined) => matchesLabels(parseLabelSelector(s), labels);

test('an empty selector matches every object, even one without labels', () => {
  assert.equal(sel('', undefined), true);
  assert.equal(sel('  ', { a: 'b' }), true);
});

test('equality accepts both = and == and requires the label to be present', () => {
  assert.equal(sel('app=web', { app: 'web' }), true);
  assert.equal(sel('app==web', { app: 'web' }), true);
  assert.equal(sel('app=web', { app: 'db' }), false);
  assert.equal(sel('app=web', {}), false);
});

test('inequality matches objects that lack the label altogether', () => {
  assert.equal(sel('app!=web', {}), true);
  assert.equal(sel('app!=web', { app: 'db' }), true);
  assert.equal(sel('app!=web', { app: 'web' }), false);
});

test('set-based in and notin follow upstream: notin matches a missing label, in does not', () => {
  assert.equal(sel('env in (prod, staging)', { env: 'prod' }), true);
  assert.equal(sel('env in (prod,staging)', { env: 'dev' }), false);
  assert.equal(sel('env in (prod)', {}), false);
  assert.equal(sel('env notin (prod)', {}), true);
  assert.equal(sel('env notin (prod)', { env: 'prod' }), false);
});

test('existence and non-existence take a bare key or a key with a bang', () => {
  assert.equal(sel('tier', { tier: '' }), true);
  assert.equal(sel('tier', {}), false);
  assert.equal(sel('!tier', {}), true);
  assert.equal(sel('!tier', { tier: 'x' }), false);
});

test('commas outside parentheses join requirements with AND', () => {
  assert.equal(sel('app=web,env in (a,b),!debug', { app: 'web', env: 'b' }), true);
  assert.equal(sel('app=web,env in (a,b),!debug', { app: 'web', env: 'b', debug: '1' }), false);
});

test('greater-than and less-than compare integer label values', () => {
  assert.equal(sel('gen>3', { gen: '4' }), true);
  assert.equal(sel('gen<3', { gen: '4' }), false);
  assert.equal(sel('gen>3', { gen: 'x' }), false);
});

test('a malformed selector is a 400 BadRequest, not a crash', () => {
  for (const bad of ['app in prod', 'a=b,,c', 'a b c', 'app=(x)', 'gen>x']) {
    assert.throws(() => parseLabelSelector(bad), (e: unknown) => e instanceof ApiError && e.code === 400, bad);
  }
});

test('a LabelSelector object turns into requirements that format back as a selector string', () => {
  const reqs = requirementsOf({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'DoesNotExist' }] });
  assert.equal(formatRequirements(reqs), 'app=web,env in (a,b),!x');
  assert.equal(matchesLabels(reqs, { app: 'web', env: 'a' }), true);
});
