import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ItemExponentialBackoff, WorkQueue } from './queue.ts';

function drain<K>(q: WorkQueue<K>): K[] {
  const out: K[] = [];
  for (let key = q.get(); key !== undefined; key = q.get()) {
    out.push(key);
    q.done(key);
  }
  return out;
}

test('a key added several times before it is processed is handed out once', () => {
  const q = new WorkQueue<string>();
  q.add('a');
  q.add('b');
  q.add('a');
  q.add('a');
  assert.equal(q.length, 2);
  assert.deepEqual(drain(q), ['a', 'b']);
  assert.ok(q.idle);
});

test('keys leave in the order they were first added', () => {
  const q = new WorkQueue<string>();
  for (const k of ['c', 'a', 'b', 'a', 'c']) q.add(k);
  assert.deepEqual(drain(q), ['c', 'a', 'b']);
});

test('a key being processed is not handed out again until it is done', () => {
  const q = new WorkQueue<string>();
  q.add('a');
  assert.equal(q.get(), 'a');
  q.add('a');
  assert.equal(q.get(), undefined, 'a second worker must not get "a" while the first has it');
  assert.equal(q.length, 0);
  assert.equal(q.processingCount, 1);
  assert.ok(!q.idle);
});

test('a key added while it is processed is queued again when processing is done', () => {
  const q = new WorkQueue<string>();
  q.add('a');
  const key = q.get()!;
  q.add('a');
  q.add('a');
  q.done(key);
  assert.equal(q.length, 1);
  assert.equal(q.get(), 'a');
  q.done('a');
  assert.ok(q.idle);
});

test('a key not added again while processed is gone once done', () => {
  const q = new WorkQueue<string>();
  q.add('a');
  q.done(q.get()!);
  assert.equal(q.get(), undefined);
  assert.ok(q.idle);
});

test('other keys are handed out while one is processed', () => {
  const q = new WorkQueue<string>();
  q.add('a');
  q.add('b');
  assert.equal(q.get(), 'a');
  q.add('a');
  assert.equal(q.get(), 'b');
  assert.equal(q.get(), undefined);
  q.done('a');
  assert.equal(q.get(), 'a');
});

test('the backoff doubles from 5 ms per failure of a key and is capped at 1000 s', () => {
  const backoff = new ItemExponentialBackoff<string>();
  assert.deepEqual([1, 2, 3, 4].map(() => backoff.when('a')), [5, 10, 20, 40]);
  assert.equal(backoff.when('b'), 5, 'each key counts its own failures');
  for (let i = 0; i < 2000; i++) backoff.when('a');
  assert.equal(backoff.when('a'), 1_000_000);
});

test('forgetting a key starts its next backoff from the base delay', () => {
  const backoff = new ItemExponentialBackoff<string>(100, 1000);
  backoff.when('a');
  backoff.when('a');
  assert.equal(backoff.failuresOf('a'), 2);
  backoff.forget('a');
  assert.equal(backoff.failuresOf('a'), 0);
  assert.equal(backoff.when('a'), 100);
});
