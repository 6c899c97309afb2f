/**
 * The per-request trace of pipeline stages (kube.audit): which stages a request passed and
 * where it stopped. Kept in a bounded ring so a long run cannot grow it without limit.
 */
import type { RequestTrace, StageName, StageRecord } from './pipeline.ts';

export const TRACE_RING_SIZE = 2000;

export class TraceRecorder {
  readonly stages: StageRecord[] = [];
  user?: string;

  pass(stage: StageName, detail: string): void {
    this.stages.push({ stage, outcome: 'passed', detail });
  }

  reject(stage: StageName, detail: string): void {
    this.stages.push({ stage, outcome: 'rejected', detail });
  }

  /** Appends the finished trace to the ring, dropping the oldest past the bound. */
  finish(ring: RequestTrace[], id: number, method: string, path: string, code: number): RequestTrace {
    const t: RequestTrace = { id, method, path, code, stages: this.stages };
    if (this.user !== undefined) t.user = this.user;
    ring.push(t);
    if (ring.length > TRACE_RING_SIZE) ring.splice(0, ring.length - TRACE_RING_SIZE);
    return t;
  }
}
