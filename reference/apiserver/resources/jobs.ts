/**
 * The Job strategy's generated selector (kubernetes/kubernetes pkg/registry/batch/job/strategy.go
 * generateSelector, and ValidateGeneratedSelector in pkg/apis/batch/validation/validation.go):
 * unless spec.manualSelector is true, a new Job's pod template is labelled with the Job's uid and
 * name — `batch.kubernetes.io/controller-uid`, `batch.kubernetes.io/job-name` and the legacy
 * `controller-uid`, `job-name` — and its selector is `batch.kubernetes.io/controller-uid=<uid>`,
 * so a Job's selector matches its own pods and no one else's. A selector the client set without
 * manualSelector must match those labels: "`selector` not auto-generated" otherwise.
 */
import type { FieldError } from '../status.ts';

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
const LEGACY_JOB_NAME_LABEL = 'job-name';

export function generateJobSelector(job: any): void {
  const spec = job.spec;
  if (!spec || typeof spec !== 'object' || spec.manualSelector === true) return;
  const uid = String(job.metadata.uid);
  const name = String(job.metadata.name);
  spec.template = spec.template && typeof spec.template === 'object' ? spec.template : {};
  spec.template.metadata = spec.template.metadata && typeof spec.template.metadata === 'object' ? spec.template.metadata : {};
  spec.template.metadata.labels = {
    ...(spec.template.metadata.labels ?? {}),
    [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name, [LEGACY_CONTROLLER_UID_LABEL]: uid, [LEGACY_JOB_NAME_LABEL]: name,
  };
  spec.selector ??= { matchLabels: { [CONTROLLER_UID_LABEL]: uid } };
}

/** A client-set selector on a Job without manualSelector must select the generated labels. */
export function validateGeneratedSelector(job: any): FieldError[] {
  const spec = job.spec;
  if (!spec || spec.manualSelector === true || !spec.selector || !job.metadata?.uid) return [];
  const expected: Record<string, string> = { [CONTROLLER_UID_LABEL]: String(job.metadata.uid), [LEGACY_CONTROLLER_UID_LABEL]: String(job.metadata.uid), [JOB_NAME_LABEL]: String(job.metadata.name), [LEGACY_JOB_NAME_LABEL]: String(job.metadata.name) };
  const ml = spec.selector.matchLabels ?? {};
  const ok = Object.entries(ml).every(([k, v]) => expected[k] === v) && (spec.selector.matchExpressions ?? []).length === 0;
  return ok ? [] : [{ type: 'Invalid', field: 'spec.selector', value: spec.selector, detail: '`selector` not auto-generated' }];
}
