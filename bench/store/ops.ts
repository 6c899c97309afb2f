/**
 * Put/get throughput and latency of any KvFacet, taken the same way on every target.
 *
 * The workload is adapters/etcd/measure.ts's `measureKv` (put n fresh keys, then get each, with
 * `concurrency` callers in flight); it is re-timed here because measureKv rounds latencies to
 * 0.1 ms, which turns the in-process reference's sub-0.1 ms gets into "0 ms". A second clock can
 * be passed (a session's virtual clock) to report what each call cost in simulated time too.
 */
import type { KvFacet } from '../../contract/contract.ts';
import { percentile } from '../lib.ts';

export interface OpStats {
  ops_per_s: number;
  p50_ms: number;
  p99_ms: number;
  /** Per-call latency on the second clock, when one was given (virtual ms on the reference). */
  virtual?: { p50_ms: number; p99_ms: number };
}

export interface KvOpsMeasurement {
  n: number;
  concurrency: number;
  put: OpStats;
  get: OpStats;
}

/** Reads a clock in ms: performance.now for wall time, a session's virtual clock for sim time. */
export type ClockReader = () => number;

/** Put n keys under a fresh run prefix, then get each, `concurrency` callers at a time. */
export async function measureKvOps(
  kv: KvFacet,
  n: number,
  concurrency: number,
  virtualNow?: ClockReader,
): Promise<KvOpsMeasurement> {
  const run = `bench-ops-${uniqueSuffix()}/`;
  const puts = await timedOps(n, concurrency, (i) => kv.put(`${run}${i}`, `value-${i}`), virtualNow);
  const gets = await timedOps(n, concurrency, (i) => kv.get(`${run}${i}`), virtualNow);
  return { n, concurrency, put: statsOf(n, puts), get: statsOf(n, gets) };
}

export interface TimedOps {
  total_ms: number;
  latencies_ms: number[];
  virtual_latencies_ms?: number[];
}

/** Run op(0..n-1) with at most `concurrency` in flight; each worker takes the next index. */
export async function timedOps(
  n: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
  virtualNow?: ClockReader,
): Promise<TimedOps> {
  const latencies_ms: number[] = [];
  const virtual_latencies_ms: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      const v0 = virtualNow?.();
      const t0 = performance.now();
      await op(i);
      latencies_ms.push(performance.now() - t0);
      if (virtualNow && v0 !== undefined) virtual_latencies_ms.push(virtualNow() - v0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, n)) }, worker));
  const total_ms = performance.now() - t0;
  return virtualNow ? { total_ms, latencies_ms, virtual_latencies_ms } : { total_ms, latencies_ms };
}

function statsOf(n: number, timed: TimedOps): OpStats {
  const stats: OpStats = {
    ops_per_s: n / (timed.total_ms / 1000),
    p50_ms: percentile(timed.latencies_ms, 50),
    p99_ms: percentile(timed.latencies_ms, 99),
  };
  const v = timed.virtual_latencies_ms;
  return v ? { ...stats, virtual: { p50_ms: percentile(v, 50), p99_ms: percentile(v, 99) } } : stats;
}

let counter = 0;
/** Keys of one run never collide with an earlier run's on a shared etcd. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}-${(counter++).toString(36)}`;
}
