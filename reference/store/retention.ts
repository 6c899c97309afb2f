/**
 * Automatic compaction by retention time: etcd's `--auto-compaction-mode=periodic
 * --auto-compaction-retention=<duration>` (etcd-io/etcd server/etcdserver/api/v3compactor/
 * periodic.go). etcd samples the store's revision every tenth of the compaction period,
 * waits one retention period before the first compaction, then compacts every period —
 * capped at one hour: "if given compaction period x is >1-hour, compact every hour" — to the
 * revision it sampled one retention ago, so roughly `retention` of history stays readable.
 * An ErrCompacted answer counts as success there, and here too.
 *
 * This one is a pure decision maker: it reads time only through the injected clock and never
 * compacts by itself; `tick` says which revision to compact to, and the caller applies (or
 * replicates) the compaction — in a Raft cluster only the leader should tick.
 */
import { CompactedError } from '../../contract/contract.ts';
import type { Backend } from './backend.ts';

export interface Clock {
  now_ms(): number;
}

export interface RetentionCompactorOptions {
  /** History to keep readable, like etcd's periodic retention. Must be > 0 (etcd's 0 means "off": don't build one). */
  retention_ms: number;
  clock: Clock;
}

const HOUR_MS = 60 * 60 * 1000;
/** etcd's retryDivisor: revisions are sampled every tenth of the compaction interval. */
const SAMPLES_PER_INTERVAL = 10;

interface RevisionSample {
  at_ms: number;
  revision: number;
}

export class RetentionCompactor {
  readonly retention_ms: number;
  /** How often compaction happens once going: the retention, at most an hour. */
  readonly compactInterval_ms: number;
  /** How often a revision sample is worth taking: a tenth of the compact interval. */
  readonly sampleInterval_ms: number;
  private readonly clock: Clock;
  private samples: RevisionSample[] = [];
  private lastSuccess_ms: number;
  /** The first compaction waits a whole retention period; later ones one compact interval. */
  private wait_ms: number;
  private lastCompacted = 0;

  constructor(opts: RetentionCompactorOptions) {
    if (!(opts.retention_ms > 0)) throw new Error(`retention_ms must be > 0, got ${opts.retention_ms}`);
    this.retention_ms = opts.retention_ms;
    this.clock = opts.clock;
    this.compactInterval_ms = Math.min(opts.retention_ms, HOUR_MS);
    this.sampleInterval_ms = this.compactInterval_ms / SAMPLES_PER_INTERVAL;
    this.lastSuccess_ms = opts.clock.now_ms();
    this.wait_ms = opts.retention_ms;
  }

  /**
   * Records the store's current revision and returns the revision to compact to now, or
   * undefined when no compaction is due. Call it at least every `sampleInterval_ms`.
   */
  tick(currentRevision: number): number | undefined {
    const now_ms = this.clock.now_ms();
    this.sample(now_ms, currentRevision);
    if (now_ms - this.lastSuccess_ms < this.wait_ms) return undefined;
    const target = this.sampleFromRetentionAgo(now_ms);
    if (target === undefined) return undefined;
    this.lastSuccess_ms = now_ms;
    this.wait_ms = this.compactInterval_ms;
    if (target.revision <= this.lastCompacted) return undefined;
    this.lastCompacted = target.revision;
    return target.revision;
  }

  private sample(now_ms: number, revision: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last === undefined || now_ms - last.at_ms >= this.sampleInterval_ms) this.samples.push({ at_ms: now_ms, revision });
  }

  /** The newest sample at least one retention old; older samples are no longer needed. */
  private sampleFromRetentionAgo(now_ms: number): RevisionSample | undefined {
    let index = -1;
    for (let i = 0; i < this.samples.length && this.samples[i]!.at_ms <= now_ms - this.retention_ms; i++) index = i;
    if (index < 0) return undefined;
    this.samples = this.samples.slice(index);
    return this.samples[0];
  }
}

/**
 * One tick against a backend: compacts when due. A CompactedError (someone compacted further
 * already) counts as done, as in etcd. Returns the revision compacted to, if any.
 */
export async function tickRetention(compactor: RetentionCompactor, backend: Backend): Promise<number | undefined> {
  const revision = compactor.tick(backend.currentRevision());
  if (revision === undefined || revision <= backend.compactRevision()) return undefined;
  try {
    await backend.compact(revision);
    return revision;
  } catch (error) {
    if (error instanceof CompactedError) return undefined;
    throw error;
  }
}
