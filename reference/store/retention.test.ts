import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalBackend } from './local.ts';
import { RetentionCompactor, tickRetention } from './retention.ts';

function fakeClock(start_ms = 0) {
  let now_ms = start_ms;
  return { now_ms: () => now_ms, advance: (ms: number) => (now_ms += ms) };
}

test('the sampling and compaction intervals follow etcd: a tenth of the retention, and at most an hour between compactions', () => {
  const short = new RetentionCompactor({ retention_ms: 10_000, clock: fakeClock() });
  assert.equal(short.compactInterval_ms, 10_000);
  assert.equal(short.sampleInterval_ms, 1_000);
  const long = new RetentionCompactor({ retention_ms: 72 * 3600_000, clock: fakeClock() });
  assert.equal(long.compactInterval_ms, 3600_000);
  assert.equal(long.sampleInterval_ms, 360_000);
});

test('nothing is compacted before one retention period has passed', () => {
  const clock = fakeClock();
  const compactor = new RetentionCompactor({ retention_ms: 10_000, clock });
  for (let t = 0; t < 9; t++) {
    assert.equal(compactor.tick(2 + t), undefined);
    clock.advance(1_000);
  }
});

test('after a retention period it compacts to the revision seen one retention ago, then once per interval', () => {
  const clock = fakeClock();
  const compactor = new RetentionCompactor({ retention_ms: 10_000, clock });
  const decisions: [number, number][] = [];
  // One write per second: revision = 2 + seconds elapsed.
  for (let second = 0; second <= 30; second++) {
    const revision = compactor.tick(2 + second);
    if (revision !== undefined) decisions.push([second, revision]);
    clock.advance(1_000);
  }
  assert.deepEqual(decisions, [[10, 2], [20, 12], [30, 22]]);
});

test('an idle store is not compacted again at the same revision', () => {
  const clock = fakeClock();
  const compactor = new RetentionCompactor({ retention_ms: 1_000, clock });
  const decisions: number[] = [];
  for (let step = 0; step < 50; step++) {
    const revision = compactor.tick(7);
    if (revision !== undefined) decisions.push(revision);
    clock.advance(100);
  }
  assert.deepEqual(decisions, [7]);
});

test('a retention of zero or less is refused, since etcd treats 0 as compaction off', () => {
  assert.throws(() => new RetentionCompactor({ retention_ms: 0, clock: fakeClock() }), /retention_ms must be > 0/);
});

test('ticking against a backend compacts it and keeps the last retention of history readable', async () => {
  const clock = fakeClock();
  const backend = new LocalBackend();
  const compactor = new RetentionCompactor({ retention_ms: 5_000, clock });
  const compactedTo: number[] = [];
  for (let second = 0; second <= 12; second++) {
    await backend.put('k', `v${second}`);
    const revision = await tickRetention(compactor, backend);
    if (revision !== undefined) compactedTo.push(revision);
    clock.advance(1_000);
  }
  assert.deepEqual(compactedTo, [2, 7]);
  assert.equal(backend.compactRevision(), 7);
  assert.equal((await backend.get('k', 7))?.value, 'v5');
  await assert.rejects(backend.get('k', 6), { name: 'CompactedError' });
});
