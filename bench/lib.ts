/**
 * The benchmark convention. `npm run bench -- <name>` runs bench/<name>.ts, whose default export
 * measures and returns figures; the runner prints them and writes reports/bench/<name>.json with
 * the machine's core count. Where a peer exists (real etcd, a bare node:http server), a bench
 * measures it side by side in the same run and says so in `peer`.
 */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** Which system this figure is for, e.g. 'reference' or 'etcd'. */
  system?: string;
  /** A stated goal and whether it was met. */
  goal?: { text: string; met: boolean };
}

export interface BenchResult {
  name: string;
  figures: Figure[];
  /** The peer measured beside the subject, if any. */
  peer?: string;
  notes?: string[];
}

export interface BenchOptions {
  /** Tiny sizes: a smoke run that proves the bench works, not a measurement. */
  quick: boolean;
}

export type Bench = (opts: BenchOptions) => Promise<BenchResult>;

/** Percentile of a sample (nearest rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
