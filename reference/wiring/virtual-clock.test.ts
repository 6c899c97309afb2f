import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from './virtual-clock.ts';

test('callbacks run in due order when time is advanced past them', () => {
  const clock = new VirtualClock(0);
  const seen: string[] = [];
  clock.after(300, () => seen.push('b'));
  clock.after(100, () => seen.push('a'));
  clock.advance(200);
  assert.deepEqual(seen, ['a']);
  clock.advance(200);
  assert.deepEqual(seen, ['a', 'b']);
  assert.equal(clock.now_ms(), 400);
});

test('a callback sees the virtual time it was due at', () => {
  const clock = new VirtualClock(1000);
  let seenAt = -1;
  clock.after(250, () => (seenAt = clock.now_ms()));
  clock.advance(5 * 60_000);
  assert.equal(seenAt, 1250);
});

test('a cancelled callback never runs', () => {
  const clock = new VirtualClock(0);
  let ran = false;
  const cancel = clock.after(10, () => (ran = true));
  cancel();
  clock.advance(100);
  assert.equal(ran, false);
});

test('moving time backwards is refused', () => {
  assert.throws(() => new VirtualClock(0).advance(-1), /cannot move virtual time/);
});
