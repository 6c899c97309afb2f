/**
 * The per-request trace of pipeline stages (kube.audit): which stages a request passed and
 * where it stopped. Kept in a bounded ring so a long run cannot grow it without limit.
 */
import type { RequestTrace, StageName, StageRecord } from './pipeline.ts';

export const TRACE_RING_SIZE = 2000;
/**
 * How far past the bound the ring may run before it is trimmed back: trimming an array from the
 * front moves every element, so doing it once per request made every request pay for 2000
 * moves; trimming in batches makes that cost a few moves per request.
 */
export const TRACE_RING_SLACK = TRACE_RING_SIZE / 4;

export class TraceRecorder {
  readonly stages: StageRecord[] = [];
  user?: string;
  /** The created object's name, for a create answered 201 (audit's objectRef.name). */
  objectName?: string;
  /** Audit annotations, created on the first one (most requests have none). */
  private annotations?: Record<string, string>;

  pass(stage: StageName, detail: string): void {
    this.stages.push({ stage, outcome: 'passed', detail });
  }

  reject(stage: StageName, detail: string): void {
    this.stages.push({ stage, outcome: 'rejected', detail });
  }

  annotate(key: string, value: string): void {
    (this.annotations ??= {})[key] = value;
  }

  /** Appends the finished trace to the ring, dropping the oldest once it is past the bound and its slack. */
  finish(ring: RequestTrace[], id: number, method: string, path: string, code: number, query?: string): RequestTrace {
    const t: RequestTrace = { id, method, path, code, stages: this.stages };
    if (query) t.query = query;
    if (this.user !== undefined) t.user = this.user;
    if (this.objectName !== undefined) t.objectName = this.objectName;
    if (this.annotations) t.annotations = this.annotations;
    ring.push(t);
    if (ring.length > TRACE_RING_SIZE + TRACE_RING_SLACK) ring.splice(0, ring.length - TRACE_RING_SIZE);
    return t;
  }
}
