import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duration, evaluate, evictionGracePeriod_s, newThresholdState, parseThresholds } from './thresholds.ts';

const Mi = 2 ** 20;
const GI = 1024 * Mi;

test('a soft threshold needs its grace period; the flags parse as the kubelet parses them', () => {
  assert.throws(() => parseThresholds({ evictionSoft: { 'memory.available': '300Mi' } }), /grace period must be specified for the soft eviction threshold memory.available/);
  const [hard, soft] = parseThresholds({ evictionHard: { 'memory.available': '100Mi' }, evictionSoft: { 'memory.available': '300Mi' }, evictionSoftGracePeriod: { 'memory.available': '1m30s' }, evictionMinimumReclaim: { 'memory.available': '200Mi' } });
  assert.deepEqual(hard, { signal: 'memory.available', value: '100Mi', hard: true, gracePeriod_ms: 0, minReclaim: '200Mi' });
  assert.deepEqual(soft, { signal: 'memory.available', value: '300Mi', hard: false, gracePeriod_ms: 90_000, minReclaim: '200Mi' });
  assert.throws(() => parseThresholds({ evictionHard: { 'memory.available': 'lots' } }), /invalid eviction threshold/);
  assert.equal(duration('500ms'), 500);
  assert.throws(() => duration('90'), /invalid duration/);
});

test('a soft threshold acts only once it has held for its whole grace period; the condition follows it at once', () => {
  const thresholds = parseThresholds({ evictionSoft: { 'memory.available': '300Mi' }, evictionSoftGracePeriod: { 'memory.available': '30s' } });
  const state = newThresholdState();
  let pass = evaluate(thresholds, 200 * Mi, GI, 0, state);
  assert.deepEqual([pass.met.length, pass.acting.length], [1, 0], 'met (MemoryPressure), not yet acting');
  pass = evaluate(thresholds, 200 * Mi, GI, 29_999, state);
  assert.equal(pass.acting.length, 0);
  pass = evaluate(thresholds, 200 * Mi, GI, 30_000, state);
  assert.equal(pass.acting.length, 1, 'held for 30 s: acts');
});

test('a break in the soft threshold restarts its grace period', () => {
  const thresholds = parseThresholds({ evictionSoft: { 'memory.available': '300Mi' }, evictionSoftGracePeriod: { 'memory.available': '30s' } });
  const state = newThresholdState();
  evaluate(thresholds, 200 * Mi, GI, 0, state);
  assert.equal(evaluate(thresholds, 400 * Mi, GI, 10_000, state).met.length, 0);
  evaluate(thresholds, 200 * Mi, GI, 20_000, state);
  assert.equal(evaluate(thresholds, 200 * Mi, GI, 40_000, state).acting.length, 0, 'only 20 s since it was met again');
  assert.equal(evaluate(thresholds, 200 * Mi, GI, 50_000, state).acting.length, 1);
});

test('a hard threshold acts at once and ranks before a soft one', () => {
  const thresholds = parseThresholds({ evictionHard: { 'memory.available': '100Mi' }, evictionSoft: { 'memory.available': '300Mi' }, evictionSoftGracePeriod: { 'memory.available': '0s' } });
  const pass = evaluate(thresholds, 50 * Mi, GI, 0, newThresholdState());
  assert.deepEqual(pass.acting.map((t) => t.hard), [true, false]);
});

test('minimum reclaim: a threshold that acted stays met until available exceeds it by the minimum reclaim', () => {
  const thresholds = parseThresholds({ evictionHard: { 'memory.available': '100Mi' }, evictionMinimumReclaim: { 'memory.available': '200Mi' } });
  const state = newThresholdState();
  assert.equal(evaluate(thresholds, 50 * Mi, GI, 0, state).acting.length, 1);
  assert.equal(evaluate(thresholds, 250 * Mi, GI, 10_000, state).acting.length, 1, '250Mi < 100Mi + 200Mi: keep reclaiming');
  assert.equal(evaluate(thresholds, 301 * Mi, GI, 20_000, state).acting.length, 0, 'reclaimed past 300Mi: done');
  assert.equal(evaluate(thresholds, 250 * Mi, GI, 30_000, state).met.length, 0, 'not acting before: 250Mi is above the plain threshold');
});

test('percentages are of the node memory capacity', () => {
  const thresholds = parseThresholds({ evictionHard: { 'memory.available': '10%' } });
  assert.equal(evaluate(thresholds, 100 * Mi, GI, 0, newThresholdState()).met.length, 1, '100Mi < 102.4Mi');
  assert.equal(evaluate(thresholds, 103 * Mi, GI, 0, newThresholdState()).met.length, 0);
});

test('the evicted pod gets 1 s under a hard threshold, --eviction-max-pod-grace-period under a soft one', () => {
  const [hard, soft] = parseThresholds({ evictionHard: { 'memory.available': '100Mi' }, evictionSoft: { 'memory.available': '300Mi' }, evictionSoftGracePeriod: { 'memory.available': '30s' } });
  assert.equal(evictionGracePeriod_s(hard!, 45), 1);
  assert.equal(evictionGracePeriod_s(soft!, 45), 45);
  assert.equal(evictionGracePeriod_s(soft!, 45, 120), 45, 'capped by the max');
  assert.equal(evictionGracePeriod_s(soft!, 45, 5), 5, 'the pod asks for less: min(max, the pod\'s)');
  assert.equal(evictionGracePeriod_s(hard!, 45, 120), 1);
});
