import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RaftBackend, RequestTimeoutError } from './raft-backend.ts';
import { driveRaftInRealTime } from './raft-realtime.ts';
import { VirtualClock } from './virtual-clock.ts';

/** Lets the driver's runs (promises) finish between clock steps. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function step(clock: VirtualClock, total_ms: number, by_ms = 20): Promise<void> {
  for (let t = 0; t < total_ms; t += by_ms) {
    clock.advance(by_ms);
    await settle();
  }
}

test('an idle cluster elects a leader and keeps time with the wall clock', async () => {
  const clock = new VirtualClock();
  const raft = new RaftBackend({ seed: 11, members: 3 });
  const driver = driveRaftInRealTime(raft, clock);
  await step(clock, 3_000);
  assert.ok(raft.sim.leader() !== undefined, 'a leader after 3 s with no client at all');
  assert.ok(Math.abs(raft.now_ms() - 3_000) <= 100, `the cluster's time follows the wall clock: ${raft.now_ms()} ms`);
  driver.stop();
});

test('a killed leader is replaced without any request driving the cluster', async () => {
  const clock = new VirtualClock();
  const raft = new RaftBackend({ seed: 5, members: 3 });
  const driver = driveRaftInRealTime(raft, clock);
  await step(clock, 3_000);
  const first = raft.sim.leader();
  assert.ok(first);
  raft.sim.kill(first);
  await step(clock, 4_000);
  const next = raft.sim.leader();
  assert.ok(next !== undefined && next !== first, `a new leader among the two left, got ${next}`);
  driver.stop();
});

test('a cluster driven ahead by a client is not held back nor driven further', async () => {
  const clock = new VirtualClock();
  const raft = new RaftBackend({ seed: 3, members: 3 });
  const driver = driveRaftInRealTime(raft, clock);
  await raft.advance(10_000);
  await step(clock, 1_000);
  assert.equal(raft.now_ms(), 10_000);
  driver.stop();
  await step(clock, 20_000, 1_000);
  assert.equal(raft.now_ms(), 10_000, 'stopped: nothing moves it');
});

test('not driven by its callers, a write waits for the driver: committed within a few ticks of real time', async () => {
  const clock = new VirtualClock();
  const raft = new RaftBackend({ seed: 7, members: 3, drivenByCallers: false });
  const driver = driveRaftInRealTime(raft, clock);
  await step(clock, 3_000);
  let done = false;
  const put = raft.put('/k', 'v').then((r) => ((done = true), r));
  await settle();
  assert.equal(done, false, 'the write did not move the cluster itself');
  await step(clock, 200);
  assert.equal(done, true, 'committed within 200 ms of driven time');
  assert.equal((await put).kv.value, 'v');
  assert.ok(raft.now_ms() <= 3_300, `the write did not run the cluster ahead of the wall clock: ${raft.now_ms()}`);
  driver.stop();
});

test('not driven by its callers, a write without a quorum fails after the whole request timeout of real time', async () => {
  const clock = new VirtualClock();
  const raft = new RaftBackend({ seed: 7, members: 3, drivenByCallers: false });
  const driver = driveRaftInRealTime(raft, clock);
  await step(clock, 3_000);
  for (const id of raft.sim.ids.slice(0, 2)) raft.sim.kill(id);
  const outcome: { error?: unknown } = {};
  const put = raft.put('/k', 'v').catch((e: unknown) => (outcome.error = e));
  const failure = (): unknown => outcome.error;
  await step(clock, 6_000, 100);
  assert.equal(failure(), undefined, 'still waiting after 6 s (the timeout is 5 s + two election timeouts)');
  await step(clock, 2_000, 100);
  await put;
  assert.ok(failure() instanceof RequestTimeoutError, `timed out: ${String(failure())}`);
  driver.stop();
});
