import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RealTimeScheduler } from './realtime.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('now_ms is the wall clock', () => {
  const before = Date.now();
  const now = new RealTimeScheduler().now_ms();
  assert.ok(now >= before && now <= Date.now());
});

test('a callback runs once its real delay has passed, and a cancelled one never runs', async () => {
  const clock = new RealTimeScheduler();
  const ran: string[] = [];
  clock.after(20, () => ran.push('kept'));
  const cancel = clock.after(20, () => ran.push('cancelled'));
  cancel();
  assert.equal(clock.pendingTimers(), 1);
  await sleep(60);
  assert.deepEqual(ran, ['kept']);
  assert.equal(clock.pendingTimers(), 0);
});

test('every repeats until stopped, and cancelAll drops whatever is pending', async () => {
  const clock = new RealTimeScheduler();
  let ticks = 0;
  const stop = clock.every(10, () => ticks++);
  await sleep(75);
  stop();
  const seen = ticks;
  assert.ok(seen >= 3, `ticked ${seen} times`);
  await sleep(40);
  assert.equal(ticks, seen);
  clock.after(10, () => assert.fail('cancelled by cancelAll'));
  clock.cancelAll();
  assert.equal(clock.pendingTimers(), 0);
  await sleep(30);
});
