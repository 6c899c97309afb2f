import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { passTime, virtualWaiter } from './waiter.ts';

test('the waiter moves virtual time on only after host work has settled, however long it takes', async () => {
  const clock = new VirtualClock(0);
  let done = false;
  // Real time far longer than the waiter's event-loop turns for 10 virtual seconds.
  void clock.hostWork(new Promise<void>((resolve) => setTimeout(() => ((done = true), resolve()), 200)));
  await virtualWaiter(clock).until('the host work', () => done, 10_000);
  assert.equal(clock.now_ms(), 0, 'no virtual time passed while the host worked');
});

test('passing time stops while host work runs: what it sets off happens at the virtual time it started', async () => {
  const clock = new VirtualClock(0);
  let doneAt = -1;
  clock.after(1_000, () => void clock.hostWork(new Promise<void>((resolve) => setTimeout(resolve, 200))).then(() => (doneAt = clock.now_ms())));
  await passTime(clock, 5_000);
  assert.equal(doneAt, 1_000);
  assert.equal(clock.now_ms(), 5_000);
});
