/**
 * Failover: how long from a leader's crash until a standby acts (OnStartedLeading), next to
 * client-go's theoretical bounds for the default timings (leaseDuration 15 s, renewDeadline 10 s,
 * retryPeriod 2 s, jitter factor 1.2):
 * - from the leader's last renewal, a standby takes over no sooner than leaseDuration (15 s: it
 *   must see the record unchanged that long) and no later than leaseDuration + 2 × the longest
 *   jittered retry (2 s × 2.2 = 4.4 s: one to observe the last renewal, one to retry after
 *   expiry) = 23.8 s, plus request latency;
 * - the crash falls 0–2 s after the last renewal, so crash → acting is 13 s to 23.8 s.
 *
 * Measured two ways: on the pure core over seeded runs on virtual time (three instances, the
 * leader crashed at a random moment), and — unless --quick — in real time on reference
 * controller-manager processes over loopback HTTP (reference/wiring/ha.ts), the leader killed.
 */
import { percentile, type Bench, type Figure } from './lib.ts';
import { DEFAULT_TIMINGS, JITTER_FACTOR, LeaderElector } from '../reference/leaderelection/elector.ts';
import { LeaseStore, SimLoop } from '../reference/leaderelection/simulation.ts';
import { Prng } from '../reference/sim/prng.ts';
import type { LeaseLock } from '../reference/leaderelection/record.ts';
import { ReferenceCluster } from '../reference/wiring/cluster.ts';
import { RealTimeScheduler } from '../reference/wiring/realtime.ts';
import { HaControlPlane, KUBE_CONTROLLER_MANAGER } from '../reference/wiring/ha.ts';
import { seededRandom } from '../reference/apiserver/server.ts';

const T = DEFAULT_TIMINGS;
const MAX_RETRY_MS = T.retryPeriod_ms * (1 + JITTER_FACTOR);
const FROM_RENEWAL_BOUNDS_MS: [number, number] = [T.leaseDuration_ms, T.leaseDuration_ms + 2 * MAX_RETRY_MS];
const FROM_CRASH_BOUNDS_MS: [number, number] = [T.leaseDuration_ms - T.retryPeriod_ms, T.leaseDuration_ms + 2 * MAX_RETRY_MS];

/** One virtual-time failover: three instances, the leader crashed at a random moment after a minute. */
async function virtualFailover(seed: number): Promise<{ fromCrash_ms: number; fromRenewal_ms: number }> {
  const loop = new SimLoop();
  const store = new LeaseStore();
  const rng = new Prng(seed);
  const crashed = new Set<string>();
  const started = new Map<string, number>();
  const lock = (name: string): LeaseLock => {
    const call = <T>(op: () => T) => new Promise<T>((resolve, reject) => {
      const latency = rng.intBetween(1, 20);
      loop.at(loop.now_ms + latency, () => (crashed.has(name) ? reject(new Error('dead')) : resolve(op())));
    });
    return { get: () => call(() => store.get()), create: (r) => call(() => store.create(r, loop.now_ms)), update: (r, rv) => call(() => store.update(r, rv, loop.now_ms)) };
  };
  const electors = ['a', 'b', 'c'].map((name) => new LeaderElector({
    identity: name,
    lock: lock(name),
    clock: { now_ms: () => loop.now_ms, after: (ms, fn) => loop.at(loop.now_ms + ms, () => crashed.has(name) || fn()) },
    random: () => rng.next(),
    callbacks: { onStartedLeading: () => started.set(name, loop.now_ms), onStoppedLeading: () => {} },
  }));
  for (const e of electors) e.start();
  await loop.run(60_000 + rng.intBetween(0, 2_000));
  const leader = store.lease!.record.holderIdentity;
  const crash_ms = loop.now_ms;
  crashed.add(leader);
  electors.find((e) => e.identity === leader)!.crash();
  const lastRenewal_ms = store.writes.at(-1)!.at_ms;
  while (![...started].some(([n, t]) => n !== leader && t > crash_ms)) await loop.run(loop.now_ms + 100);
  const acting_ms = Math.min(...[...started].filter(([n, t]) => n !== leader && t > crash_ms).map(([, t]) => t));
  return { fromCrash_ms: acting_ms - crash_ms, fromRenewal_ms: acting_ms - lastRenewal_ms };
}

/** One real-time failover on reference controller-manager processes. */
async function realFailover(seed: number): Promise<number> {
  const clock = new RealTimeScheduler();
  const cluster = await ReferenceCluster.start({ seed, clock, secure: { anonymous: true } });
  const plane = new HaControlPlane({ cluster, clock, random: seededRandom(seed) });
  try {
    await plane.start(KUBE_CONTROLLER_MANAGER, ['m1', 'm2', 'm3']);
    const leaderNow = () => plane.list(KUBE_CONTROLLER_MANAGER).find((p) => p.leading);
    const deadline = Date.now() + 30_000;
    while (!leaderNow() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const leader = leaderNow();
    if (!leader) throw new Error('no leader within 30 s');
    const crash_ms = Date.now();
    leader.kill();
    const others = plane.list(KUBE_CONTROLLER_MANAGER).filter((p) => p !== leader);
    while (!others.some((p) => p.leading)) {
      if (Date.now() - crash_ms > 60_000) throw new Error('no standby took over within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    return Date.now() - crash_ms;
  } finally {
    await plane.close();
    clock.cancelAll();
    await cluster.stop();
  }
}

const within = (ms: number, [lo, hi]: [number, number], slack_ms = 0) => ms >= lo && ms <= hi + slack_ms;

const run: Bench = async ({ quick }) => {
  const runs = quick ? 50 : 1_000;
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await virtualFailover(0xfa11 + i));
  const fromCrash = samples.map((s) => s.fromCrash_ms);
  const fromRenewal = samples.map((s) => s.fromRenewal_ms);
  const figures: Figure[] = [];
  const s = (ms: number) => Math.round(ms) / 1000;
  for (const [label, xs, bounds] of [['crash → standby acting', fromCrash, FROM_CRASH_BOUNDS_MS], ['last renewal → standby acting', fromRenewal, FROM_RENEWAL_BOUNDS_MS]] as const) {
    const inBounds = xs.every((x) => within(x, bounds, 100));
    for (const p of [0, 50, 99, 100]) {
      figures.push({
        name: `${label}, ${p === 0 ? 'min' : p === 100 ? 'max' : `p${p}`} (virtual, ${runs} runs)`,
        value: s(p === 0 ? Math.min(...xs) : percentile(xs, p)),
        unit: 's',
        system: 'reference',
        ...(p === 100 ? { goal: { text: `every run within client-go's bounds ${s(bounds[0])}–${s(bounds[1])} s (+0.1 s latency)`, met: inBounds } } : {}),
      });
    }
  }
  const notes = [`client-go bounds: last renewal → takeover ${s(FROM_RENEWAL_BOUNDS_MS[0])}–${s(FROM_RENEWAL_BOUNDS_MS[1])} s; crash → takeover ${s(FROM_CRASH_BOUNDS_MS[0])}–${s(FROM_CRASH_BOUNDS_MS[1])} s (leaseDuration 15 s, retryPeriod 2 s, jitter 1.2)`];
  if (!quick) {
    const real: number[] = [];
    for (let i = 0; i < 2; i++) real.push(await realFailover(0xbeef + i));
    real.forEach((ms, i) => figures.push({
      name: `crash → standby acting, real time, run ${i + 1} (controller-manager processes over loopback HTTP)`,
      value: s(ms),
      unit: 's',
      system: 'reference',
      goal: { text: `within client-go's bounds ${s(FROM_CRASH_BOUNDS_MS[0])}–${s(FROM_CRASH_BOUNDS_MS[1])} s (+0.5 s)`, met: within(ms, FROM_CRASH_BOUNDS_MS, 500) },
    }));
  } else notes.push('--quick: virtual-time runs only (the real-time failover takes 15–24 s a run)');
  return { name: 'ha', figures, notes };
};

export default run;
