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

test('hostWorkSettled waits for every pending piece of host work, failed ones and ones started meanwhile included', async () => {
  const clock = new VirtualClock(0);
  const events: string[] = [];
  let finishSecond!: () => void;
  const first = clock.hostWork(new Promise<void>((_, reject) => setTimeout(() => {
    events.push('first failed');
    // More host work starts as the first settles (a retry, say): still waited for.
    void clock.hostWork(new Promise<void>((done) => (finishSecond = () => { events.push('second done'); done(); })));
    setTimeout(() => finishSecond(), 5);
    reject(new Error('openssl failed'));
  }, 5)));
  await assert.rejects(first, /openssl failed/);
  await clock.hostWorkSettled();
  events.push('settled');
  assert.deepEqual(events, ['first failed', 'second done', 'settled']);
  await clock.hostWorkSettled();
});
