/**
 * Throughput of any KvFacet, and (run as a script) the etcd adapter's own figures: cluster start
 * time, leader failover time, and put/get ops/s sequentially and 16-way concurrent.
 *
 *   node --import tsx adapters/etcd/measure.ts [n=500]
 *
 * measureKv is target-neutral so the same numbers can be taken from the reference for a
 * side-by-side bench.
 */
import { pathToFileURL } from 'node:url';
import type { KvFacet } from '../../contract/contract.ts';

export interface KvMeasurement {
  n: number;
  concurrency: number;
  put_ops_per_s: number;
  get_ops_per_s: number;
  put_p50_ms: number;
  put_p99_ms: number;
  get_p50_ms: number;
  get_p99_ms: number;
}

/** Put n keys (`measure/<i>`), then get each, with `concurrency` callers in flight at once. */
export async function measureKv(facet: KvFacet, n: number, concurrency: number): Promise<KvMeasurement> {
  const run = `measure-${Date.now().toString(36)}/`;
  const puts = await timed(n, concurrency, (i) => facet.put(`${run}${i}`, `value-${i}`));
  const gets = await timed(n, concurrency, (i) => facet.get(`${run}${i}`));
  return {
    n,
    concurrency,
    put_ops_per_s: round(n / (puts.total_ms / 1000)),
    get_ops_per_s: round(n / (gets.total_ms / 1000)),
    put_p50_ms: round(percentile(puts.latencies_ms, 0.5)),
    put_p99_ms: round(percentile(puts.latencies_ms, 0.99)),
    get_p50_ms: round(percentile(gets.latencies_ms, 0.5)),
    get_p99_ms: round(percentile(gets.latencies_ms, 0.99)),
  };
}

/** Run op(0..n-1) with at most `concurrency` in flight; each worker takes the next index. */
async function timed(n: number, concurrency: number, op: (i: number) => Promise<unknown>) {
  const latencies_ms: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const t0 = performance.now();
      await op(i);
      latencies_ms.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, n)) }, worker));
  return { total_ms: performance.now() - t0, latencies_ms };
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The etcd adapter's figures on this machine. */
async function main(n: number): Promise<void> {
  const { EtcdCluster } = await import('./cluster.ts');
  const { EtcdKv } = await import('./kv.ts');
  let t0 = performance.now();
  const cluster = await EtcdCluster.start({ members: 3 });
  const start_ms = performance.now() - t0;
  const kv = new EtcdKv({ cluster, prefix: '/kubespec/measure/' });
  try {
    const sequential = await measureKv(kv, n, 1);
    const concurrent = await measureKv(kv, n, 16);
    const leader = await cluster.waitForLeader(5_000);
    t0 = performance.now();
    await cluster.kill(leader);
    const newLeader = await cluster.waitForLeader(15_000, leader);
    const failover_ms = performance.now() - t0;
    await kv.put('after-failover', 'x');
    const firstPut_ms = performance.now() - t0;
    console.log(JSON.stringify({
      cluster_start_ms: Math.round(start_ms),
      failover: { killed: leader, newLeader, new_leader_ms: Math.round(failover_ms), first_put_ms: Math.round(firstPut_ms) },
      sequential,
      concurrent,
    }, null, 2));
  } finally {
    await kv.close();
    await cluster.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(Number(process.argv[2] ?? 500));
}
