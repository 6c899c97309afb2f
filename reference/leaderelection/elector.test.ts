import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Prng } from '../sim/prng.ts';
import { LeaderElector } from './elector.ts';
import type { LeaseLock } from './record.ts';
import { LeaseStore, SimLoop } from './simulation.ts';

/** Instances over one Lease on one loop, with zero latency; `cut` makes an instance's requests fail. */
function harness(names: string[], seed = 1) {
  const loop = new SimLoop();
  const store = new LeaseStore();
  const random = new Prng(seed);
  const cut = new Set<string>();
  const frozen = new Set<string>();
  const events: string[] = [];
  const lock = (name: string): LeaseLock => {
    const call = <T>(op: () => T) => new Promise<T>((resolve, reject) => loop.at(loop.now_ms, () => (cut.has(name) ? reject(new Error('connection refused')) : resolve(op()))));
    return {
      get: () => call(() => store.get()),
      create: (r) => call(() => store.create(r, loop.now_ms)),
      update: (r, rv) => call(() => store.update(r, rv, loop.now_ms)),
    };
  };
  const electors = new Map(names.map((name) => [name, new LeaderElector({
    identity: name,
    lock: lock(name),
    clock: { now_ms: () => loop.now_ms, after: (ms, fn) => loop.at(loop.now_ms + ms, () => frozen.has(name) || fn()) },
    random: () => random.next(),
    callbacks: { onStartedLeading: () => events.push(`${loop.now_ms} ${name} started`), onStoppedLeading: () => events.push(`${loop.now_ms} ${name} stopped`) },
  })]));
  return { loop, store, cut, frozen, events, electors, holder: () => store.lease?.record.holderIdentity, lastRenewal_ms: () => store.writes.at(-1)!.at_ms };
}

test('three candidates starting together: exactly one leads, the others keep trying', async () => {
  const h = harness(['s1', 's2', 's3']);
  for (const e of h.electors.values()) e.start();
  await h.loop.run(5_000);
  const leaders = [...h.electors.values()].filter((e) => e.acting());
  assert.equal(leaders.length, 1);
  assert.equal(h.holder(), leaders[0]!.identity);
  assert.equal(h.store.lease!.record.leaseDurationSeconds, 15);
});

test('the leader renews every retry period without a new transition', async () => {
  const h = harness(['s1', 's2']);
  h.electors.get('s1')!.start();
  await h.loop.run(100);
  h.electors.get('s2')!.start();
  const before = h.store.writes.length;
  await h.loop.run(60_100);
  assert.equal(h.holder(), 's1');
  assert.ok(h.store.writes.length - before >= 29, `${h.store.writes.length - before} renewals in 60 s`);
  assert.equal(h.store.lease!.record.leaderTransitions, 0);
});

test('a frozen leader is replaced 15 s to about 24 s after its last renewal, by observation, not renewTime', async () => {
  for (let seed = 1; seed <= 40; seed++) {
    const h = harness(['s1', 's2', 's3'], seed);
    h.electors.get('s1')!.start();
    await h.loop.run(100);
    h.electors.get('s2')!.start();
    h.electors.get('s3')!.start();
    await h.loop.run(10_000);
    h.frozen.add('s1');
    const last_ms = h.lastRenewal_ms();
    while (h.holder() === 's1') await h.loop.run(h.loop.now_ms + 10);
    const takeover_ms = h.store.writes.at(-1)!.at_ms - last_ms;
    assert.ok(takeover_ms >= 15_000 && takeover_ms <= 2 * 4_400 + 15_000, `seed ${seed}: takeover ${takeover_ms} ms after the last renewal`);
    assert.equal(h.store.lease!.record.leaderTransitions, 1);
  }
});

test('a leader cut off from the API server stops leading RetryPeriod + RenewDeadline (12 s) after its last renewal', async () => {
  const h = harness(['s1']);
  h.electors.get('s1')!.start();
  await h.loop.run(5_000);
  h.cut.add('s1');
  const last_ms = h.lastRenewal_ms();
  await h.loop.run(last_ms + 11_999);
  assert.ok(h.electors.get('s1')!.acting(), 'stopped before 12 s');
  await h.loop.run(last_ms + 12_000);
  assert.ok(!h.electors.get('s1')!.acting(), 'still leading at 12 s');
  assert.match(h.events.at(-1)!, /s1 stopped/);
});

test('timings are validated as NewLeaderElector does', () => {
  const make = (t: { leaseDuration_ms: number; renewDeadline_ms: number; retryPeriod_ms: number }) => () => new LeaderElector({
    identity: 'x', lock: {} as LeaseLock, clock: { now_ms: () => 0, after: () => () => {} }, random: () => 0, timings: t, callbacks: { onStartedLeading() {}, onStoppedLeading() {} },
  });
  assert.throws(make({ leaseDuration_ms: 10_000, renewDeadline_ms: 10_000, retryPeriod_ms: 2_000 }), /leaseDuration must be greater than renewDeadline/);
  assert.throws(make({ leaseDuration_ms: 15_000, renewDeadline_ms: 2_000, retryPeriod_ms: 2_000 }), /retryPeriod\*JitterFactor/);
});

test('a leader renews with one update and no read (client-go\'s fast path); a Lease written by another sends it back to read first', async () => {
  const loop = new SimLoop();
  const store = new LeaseStore();
  const calls: string[] = [];
  const call = <T>(name: string, op: () => T) => new Promise<T>((resolve) => loop.at(loop.now_ms, () => (calls.push(name), resolve(op()))));
  const lock: LeaseLock = {
    get: () => call('get', () => store.get()),
    create: (r) => call('create', () => store.create(r, loop.now_ms)),
    update: (r, rv) => call('update', () => store.update(r, rv, loop.now_ms)),
  };
  const elector = new LeaderElector({
    identity: 's1', lock, clock: { now_ms: () => loop.now_ms, after: (ms, fn) => loop.at(loop.now_ms + ms, fn) }, random: () => 0,
    callbacks: { onStartedLeading() {}, onStoppedLeading() {} },
  });
  elector.start();
  await loop.run(100);
  calls.length = 0;
  await loop.run(20_100);
  assert.deepEqual([...new Set(calls)], ['update'], `renewals: ${calls.join(' ')}`);
  assert.ok(calls.length >= 10, `${calls.length} renewals in 20 s`);
  // Someone else writes the Lease (same holder, so the leader keeps it): the next optimistic
  // update is refused on its stale resourceVersion, and the leader reads before writing again.
  store.update({ ...store.lease!.record }, String(store.lease!.resourceVersion), loop.now_ms);
  calls.length = 0;
  await loop.run(loop.now_ms + 2_000);
  assert.deepEqual(calls, ['update', 'get', 'update']);
  assert.ok(elector.acting());
});
