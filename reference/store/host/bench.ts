/**
 * Micro-benchmarks for the store. Wall time is read here (host code), never in the core.
 * Run: node --import tsx reference/store/host/bench.ts [n]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MvccStore } from '../mvcc.ts';
import { DurableBackend } from './durable.ts';

/** Puts n distinct keys into a fresh in-memory MvccStore, then gets each once; operations per second of each phase. */
export function measurePutGet(n: number): { put_ops_s: number; get_ops_s: number } {
  const store = new MvccStore();
  const keys = Array.from({ length: n }, (_, i) => `/registry/pods/ns-${i % 17}/pod-${i}`);
  const putStart_ms = performance.now();
  for (const key of keys) store.apply({ op: 'put', key, value: '{"kind":"Pod"}' });
  const putEnd_ms = performance.now();
  for (const key of keys) {
    if (store.get(key) === undefined) throw new Error(`bench lost ${key}`);
  }
  const getEnd_ms = performance.now();
  return { put_ops_s: opsPerSecond(n, putEnd_ms - putStart_ms), get_ops_s: opsPerSecond(n, getEnd_ms - putEnd_ms) };
}

/**
 * Durable puts into a temp dir, `concurrency` in flight at once (each fsynced before it is
 * acknowledged; concurrent ones share an fsync). Measures the disk as much as the code.
 */
export async function measureDurablePut(n: number, concurrency = 1): Promise<{ put_ops_s: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'kubespec-bench-'));
  try {
    const { backend } = await DurableBackend.open(dir);
    let next = 0;
    const start_ms = performance.now();
    const writer = async (): Promise<void> => {
      while (next < n) await backend.put(`/bench/${next++}`, 'v');
    };
    await Promise.all(Array.from({ length: concurrency }, writer));
    const elapsed_ms = performance.now() - start_ms;
    await backend.close();
    return { put_ops_s: opsPerSecond(n, elapsed_ms) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function opsPerSecond(n: number, elapsed_ms: number): number {
  return Math.round(n / (Math.max(elapsed_ms, 0.001) / 1000));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? '100000');
  console.log('in-memory', n, measurePutGet(n));
  console.log('durable, 1 in flight', 2000, await measureDurablePut(2000, 1));
  console.log('durable, 32 in flight', 5000, await measureDurablePut(5000, 32));
}
