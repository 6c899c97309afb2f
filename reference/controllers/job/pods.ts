/**
 * The pods a Job makes, and how it reads them back (kubernetes/kubernetes
 * pkg/controller/job/job_controller.go manageJob, indexed_job_utils.go).
 *
 * - Every pod carries the Job's template (whose labels the API server's Job strategy already
 *   gave `batch.kubernetes.io/controller-uid` and `batch.kubernetes.io/job-name`, with their
 *   legacy short forms), a controller ownerReference to the Job, and the tracking finalizer
 *   `batch.kubernetes.io/job-tracking`: the pod cannot vanish before the Job has counted it
 *   (batch/v1 JobTrackingFinalizer).
 * - An Indexed Job's pod also carries its completion index: the annotation and label
 *   `batch.kubernetes.io/job-completion-index`, the env var JOB_COMPLETION_INDEX read from that
 *   annotation (a downward-API fieldRef), and hostname `<job>-<index>` (addCompletionIndexEnvVariables,
 *   addCompletionIndexAnnotation, podGenerateNameWithIndex in indexed_job_utils.go).
 */
import { clone, controllerRef, isBeingDeleted } from '../shared/objects.ts';
import type { KubeObject } from '../types.ts';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
export const JOB_KIND = 'Job';
export const JOB_API_VERSION = 'batch/v1';

export type Outcome = 'succeeded' | 'failed';

export function hasTrackingFinalizer(pod: Readonly<KubeObject>): boolean {
  return ((pod.metadata as any).finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/**
 * How a pod ended, or undefined while it has not: Succeeded, Failed — and, as upstream counts
 * with the default podReplacementPolicy, a pod deleted before it succeeded is a failure
 * (isPodFailed in job_controller.go: an orphaned pod may never reach a terminal phase).
 */
export function outcomeOf(pod: Readonly<KubeObject>): Outcome | undefined {
  const phase = (pod as any).status?.phase;
  if (phase === 'Succeeded') return 'succeeded';
  if (phase === 'Failed' || isBeingDeleted(pod)) return 'failed';
  return undefined;
}

/** Being deleted and not yet in a terminal phase (controller.CountTerminatingPods). */
export function isTerminating(pod: Readonly<KubeObject>): boolean {
  const phase = (pod as any).status?.phase;
  return isBeingDeleted(pod) && phase !== 'Succeeded' && phase !== 'Failed';
}

export function completionIndexOf(pod: Readonly<KubeObject>): number | undefined {
  const raw = (pod.metadata as any).annotations?.[COMPLETION_INDEX_ANNOTATION];
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/** A new pod from the Job's template; `index` for an Indexed Job. */
export function newJobPod(job: Readonly<KubeObject>, index?: number): KubeObject {
  const template = clone((job as any).spec?.template ?? {});
  const metadata: any = { ...(template.metadata ?? {}) };
  delete metadata.name;
  const spec: any = template.spec ?? {};
  metadata.namespace = job.metadata.namespace;
  metadata.generateName = index === undefined ? `${job.metadata.name}-` : `${job.metadata.name}-${index}-`;
  metadata.ownerReferences = [controllerRef(job, JOB_API_VERSION, JOB_KIND)];
  metadata.finalizers = [...(metadata.finalizers ?? []), JOB_TRACKING_FINALIZER];
  if (index !== undefined) {
    metadata.annotations = { ...(metadata.annotations ?? {}), [COMPLETION_INDEX_ANNOTATION]: String(index) };
    metadata.labels = { ...(metadata.labels ?? {}), [COMPLETION_INDEX_ANNOTATION]: String(index) };
    spec.hostname ??= `${job.metadata.name}-${index}`;
    const env = { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } } };
    for (const list of ['initContainers', 'containers']) {
      for (const c of spec[list] ?? []) if (!(c.env ?? []).some((e: any) => e.name === COMPLETION_INDEX_ENV)) c.env = [...(c.env ?? []), env];
    }
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

/** "1,3-5,7" ↔ a set of indexes (status.completedIndexes, the interval format of indexed_job_utils.go). */
export function parseIndexes(text: unknown): Set<number> {
  const out = new Set<number>();
  if (typeof text !== 'string') return out;
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    for (let i = Number(m[1]); i <= Number(m[2] ?? m[1]); i++) out.add(i);
  }
  return out;
}

export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i]! + 1) i++;
    parts.push(start === sorted[i] ? String(start) : `${start}-${sorted[i]}`);
  }
  return parts.join(',');
}
