import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkKvHistory, explainKvResult, type KvInput, type KvOperation, type KvOutput } from './kv-model.ts';

/** op(client, [call, return], input, output); return undefined = never answered. */
function op(client: number, call_ms: number, return_ms: number | undefined, input: KvInput, output?: KvOutput): KvOperation {
  return return_ms === undefined ? { client, call_ms, input } : { client, call_ms, return_ms, input, output };
}
const put = (key: string, value: string): KvInput => ({ op: 'put', key, value });
const get = (key: string): KvInput => ({ op: 'get', key });
const cas = (key: string, expect: string | null, value: string): KvInput => ({ op: 'cas', key, expect, value });

function outcome(history: KvOperation[]): string {
  return checkKvHistory(history).outcome;
}

test('an empty history is linearizable', () => {
  assert.equal(outcome([]), 'ok');
});

test('a sequential history that reads its own writes is linearizable', () => {
  assert.equal(outcome([op(1, 0, 1, put('x', '1'), true), op(1, 2, 3, get('x'), '1'), op(1, 4, 5, get('y'), null)]), 'ok');
});

test('a read of a key never written returns null, and reading a value nobody wrote is not linearizable', () => {
  assert.equal(outcome([op(1, 0, 1, get('x'), null)]), 'ok');
  assert.equal(outcome([op(1, 0, 1, get('x'), 'ghost')]), 'illegal');
});

test('a read overlapping a write may see either the old or the new value', () => {
  for (const seen of [null, '1']) {
    assert.equal(outcome([op(1, 0, 10, put('x', '1'), true), op(2, 5, 15, get('x'), seen)]), 'ok', `saw ${seen}`);
  }
});

test('a read that starts after a write returned must not see the older value (a stale read)', () => {
  const history = [op(1, 0, 10, put('x', '1'), true), op(2, 20, 30, get('x'), null)];
  const result = checkKvHistory(history);
  assert.equal(result.outcome, 'illegal');
  assert.match(explainKvResult(result), /get\(x\) -> null/);
});

test('two readers may not see two concurrent writes in opposite orders', () => {
  const history = [
    op(1, 0, 100, put('x', '1'), true),
    op(2, 0, 100, put('x', '2'), true),
    op(3, 10, 20, get('x'), '1'),
    op(3, 30, 40, get('x'), '2'),
    op(4, 10, 20, get('x'), '2'),
    op(4, 30, 40, get('x'), '1'),
  ];
  assert.equal(outcome(history), 'illegal');
});

test('the same reads in a consistent order are linearizable', () => {
  const history = [
    op(1, 0, 100, put('x', '1'), true),
    op(2, 0, 100, put('x', '2'), true),
    op(3, 10, 20, get('x'), '1'),
    op(3, 30, 40, get('x'), '2'),
    op(4, 10, 20, get('x'), '1'),
    op(4, 30, 40, get('x'), '2'),
  ];
  assert.equal(outcome(history), 'ok');
});

test('two compare-and-swaps from the same expected value cannot both succeed', () => {
  const both = [op(1, 0, 10, cas('x', null, 'a'), true), op(2, 0, 10, cas('x', null, 'b'), true)];
  assert.equal(outcome(both), 'illegal');
  const oneWins = [op(1, 0, 10, cas('x', null, 'a'), true), op(2, 0, 10, cas('x', null, 'b'), false), op(3, 20, 30, get('x'), 'a')];
  assert.equal(outcome(oneWins), 'ok');
});

test('a failed compare-and-swap must have seen a different value', () => {
  assert.equal(outcome([op(1, 0, 10, cas('x', null, 'a'), false)]), 'illegal');
  assert.equal(outcome([op(1, 0, 10, put('x', 'z'), true), op(1, 20, 30, cas('x', null, 'a'), false)]), 'ok');
});

test('a write that never returned may have taken effect, late, or not at all', () => {
  const seen = [op(1, 0, undefined, put('x', '1')), op(2, 50, 60, get('x'), '1'), op(2, 70, 80, get('x'), '1')];
  const notSeen = [op(1, 0, undefined, put('x', '1')), op(2, 50, 60, get('x'), null)];
  const lateOnly = [op(1, 0, undefined, put('x', '1')), op(2, 50, 60, get('x'), null), op(2, 70, 80, get('x'), '1')];
  assert.deepEqual([outcome(seen), outcome(notSeen), outcome(lateOnly)], ['ok', 'ok', 'ok']);
});

test('a write that never returned cannot be seen before it was invoked, nor unseen once seen', () => {
  const early = [op(2, 0, 10, get('x'), '1'), op(1, 20, undefined, put('x', '1'))];
  assert.equal(outcome(early), 'illegal');
  const flicker = [op(1, 0, undefined, put('x', '1')), op(2, 50, 60, get('x'), '1'), op(2, 70, 80, get('x'), null)];
  assert.equal(outcome(flicker), 'illegal');
});

test('a compare-and-swap with an unknown outcome explains a later read either way', () => {
  const setup = op(1, 0, 10, put('x', 'a'), true);
  const pendingCas = op(2, 20, undefined, cas('x', 'a', 'b'));
  assert.equal(outcome([setup, pendingCas, op(3, 30, 40, get('x'), 'b')]), 'ok');
  assert.equal(outcome([setup, pendingCas, op(3, 30, 40, get('x'), 'a')]), 'ok');
});

test('keys are checked independently and a violation names the offending key', () => {
  const history = [
    op(1, 0, 10, put('a', '1'), true),
    op(1, 20, 30, get('a'), '1'),
    op(2, 0, 10, put('b', '1'), true),
    op(2, 20, 30, get('b'), null),
  ];
  const result = checkKvHistory(history);
  assert.equal(result.outcome, 'illegal');
  assert.ok(result.outcome === 'illegal' && result.partition.every((o) => o.input.key === 'b'));
  assert.equal(checkKvHistory(history.slice(0, 2)).outcome, 'ok');
});

test('a long concurrent history is decided quickly thanks to memoization', () => {
  const history: KvOperation[] = [];
  for (let i = 0; i < 200; i++) {
    const t = i * 5;
    history.push(op(i % 4, t, t + 12, put('x', String(i)), true));
    history.push(op(4 + (i % 4), t + 3, t + 15, get('x'), String(i)));
  }
  assert.equal(checkKvHistory(history, { maxSteps: 100_000 }).outcome, 'ok');
});

test('the search is bounded and says so instead of running forever', () => {
  const history: KvOperation[] = [];
  for (let i = 0; i < 40; i++) history.push(op(i, 0, 1000, put('x', String(i)), true));
  history.push(op(99, 2000, 2001, get('x'), 'nobody-wrote-this'));
  const result = checkKvHistory(history, { maxSteps: 1000 });
  assert.equal(result.outcome, 'unknown');
});
