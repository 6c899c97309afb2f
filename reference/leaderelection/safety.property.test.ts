/**
 * Never two leaders acting at once, over seeded fault schedules (simulation.ts): crashes and
 * restarts, process pauses, partitions between an instance and the API server, message loss,
 * latency up to 0.8 s, and a clock offset of up to ±60 s per instance.
 *
 * The invariant: the acting intervals of different instances never intersect. It holds because
 * (with the API server's optimistic concurrency on the Lease):
 * - a leader acts only until (start of its last successful renewal) + RetryPeriod + RenewDeadline
 *   = +12 s, and that start precedes the renewal's commit c;
 * - a rival's takeover commits only after it has seen the same record unchanged for
 *   LeaseDuration = 15 s by its own clock, and it cannot have seen that record before c; an
 *   update racing a renewal fails on resourceVersion;
 * so the leader's last acting instant (≤ c + 12 s) precedes the rival's first (≥ c + 15 s). Only
 * clock *rates* matter (client-go: "tolerant to arbitrary clock skew, but not ... skew rate"):
 * the 3 s margin absorbs rate differences up to LeaseDuration/(RetryPeriod+RenewDeadline) = 1.25.
 * Offsets are drawn large on purpose; rates are equal here (one virtual clock).
 *
 * Liveness, after the faults stop and a quiet minute passes: exactly one instance acts.
 *
 * KUBESPEC_LE_SEEDS=n runs n schedules (default 500); KUBESPEC_LE_SEED=s replays one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawSchedule, ElectionSimulation, findOverlap } from './simulation.ts';

const SCHEDULES = Number(process.env.KUBESPEC_LE_SEEDS ?? 500);
const ONE = process.env.KUBESPEC_LE_SEED;

test(`no two instances act as leader at once, over ${ONE ? 1 : SCHEDULES} seeded fault schedules`, async () => {
  const seeds = ONE ? [Number(ONE)] : Array.from({ length: SCHEDULES }, (_, i) => 0x1ea5e + i * 7919);
  let handovers = 0;
  for (const seed of seeds) {
    const result = await new ElectionSimulation(drawSchedule(seed)).run();
    const replay = `KUBESPEC_LE_SEED=${seed} node --import tsx --test reference/leaderelection/safety.property.test.ts`;
    const overlap = findOverlap(result.intervals);
    assert.equal(overlap, undefined, `two leaders acting at once: ${JSON.stringify(overlap)}\nschedule: ${JSON.stringify(result.schedule)}\nreplay: ${replay}`);
    assert.equal(result.actingAtEnd.length, 1, `after a quiet minute ${result.actingAtEnd.length} instances act (want 1)\nschedule: ${JSON.stringify(result.schedule)}\nreplay: ${replay}`);
    handovers += result.handovers_ms.length;
  }
  // The schedules must actually move leadership around, or the invariant is checked on nothing.
  if (!ONE) assert.ok(handovers >= seeds.length, `only ${handovers} handovers over ${seeds.length} schedules`);
});
