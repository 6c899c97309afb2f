/**
 * Job conditions as Kubernetes 1.34 sets them (kubernetes/kubernetes
 * pkg/controller/job/job_controller.go newFailureCondition / newSuccessCondition /
 * delayTerminalCondition; reasons and messages from staging/src/k8s.io/api/batch/v1/types.go
 * and job_controller.go). With JobPodReplacementPolicy on (GA in 1.34) the terminal condition
 * is delayed: the controller first adds an interim one — FailureTarget or SuccessCriteriaMet —
 * and adds Failed or Complete (same reason and message) only once no pod of the Job is still
 * running or terminating and every finished pod is counted.
 */
import { rfc3339 } from '../shared/objects.ts';

export interface JobCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

export const BACKOFF_LIMIT_EXCEEDED = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
export const DEADLINE_EXCEEDED = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
export const COMPLETIONS_REACHED = { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };

/** The terminal condition each interim one leads to. */
export const TERMINAL_OF: Record<string, string> = { FailureTarget: 'Failed', SuccessCriteriaMet: 'Complete' };

export function findTrue(conditions: readonly JobCondition[] | undefined, type: string): JobCondition | undefined {
  return (conditions ?? []).find((c) => c.type === type && c.status === 'True');
}

/** Complete=True or Failed=True (util.IsJobFinished). */
export function isJobFinished(job: any): boolean {
  return !!(findTrue(job?.status?.conditions, 'Complete') ?? findTrue(job?.status?.conditions, 'Failed'));
}

export function newCondition(type: string, why: { reason: string; message: string }, now_ms: number): JobCondition {
  const t = rfc3339(now_ms);
  return { type, status: 'True', reason: why.reason, message: why.message, lastProbeTime: t, lastTransitionTime: t };
}

/** The list with `condition` added unless one of its type is already True. */
export function withCondition(conditions: readonly JobCondition[] | undefined, condition: JobCondition): JobCondition[] {
  const list = [...(conditions ?? [])];
  if (findTrue(list, condition.type)) return list;
  return [...list.filter((c) => c.type !== condition.type), condition];
}
