/**
 * The TTL-after-finished controller (kubernetes/kubernetes
 * pkg/controller/ttlafterfinished/ttlafterfinished_controller.go): a Job with
 * spec.ttlSecondsAfterFinished is deleted that many seconds after it finished — after the
 * lastTransitionTime of its Complete or Failed condition (getFinishTimeFromConditions in
 * pkg/controller/ttlafterfinished/ttlafterfinished_controller.go). The delete is cascading in
 * the foreground with the Job's uid as precondition, so the garbage collector removes its pods
 * and a Job recreated under the same name is left alone. A Job not yet due is looked at again
 * when it is (the queue's AddAfter); one without the field is never touched.
 */
import { isBeingDeleted, keyOf, parseTime, splitKey } from '../shared/objects.ts';
import { RESOURCES, type Cache, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';

export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';

export function ttlAfterFinishedController(): ControllerDef {
  return {
    name: TTL_AFTER_FINISHED_CONTROLLER,
    aliases: ['ttl-after-finished'],
    capability: 'controllers.ttlafterfinished',
    watches: [RESOURCES.jobs],
    // --concurrent-ttl-after-finished-syncs defaults to 5.
    workers: 5,
    // Only Jobs that carry a TTL and are not being deleted are worth a look (needsCleanup).
    keysFor: (event) => (event.type !== 'DELETED' && needsCleanup(event.object) ? [keyOf(event.object)] : []),
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms()),
  };
}

function needsCleanup(job: Readonly<KubeObject>): boolean {
  return typeof (job as any).spec?.ttlSecondsAfterFinished === 'number' && !isBeingDeleted(job) && finishedAt_ms(job) !== undefined;
}

/** When the Job's Complete or Failed condition became True. */
export function finishedAt_ms(job: Readonly<KubeObject>): number | undefined {
  const c = ((job as any).status?.conditions ?? []).find((x: any) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  return c ? parseTime(c.lastTransitionTime) : undefined;
}

export function reconcile(key: string, cache: Cache, now_ms: number): SyncResult {
  const { namespace, name } = splitKey(key);
  const job = cache.get('jobs', namespace, name);
  if (!job || !needsCleanup(job)) return { actions: [] };
  const expireAt_ms = finishedAt_ms(job)! + (job as any).spec.ttlSecondsAfterFinished * 1000;
  if (now_ms < expireAt_ms) return { actions: [], requeueAfter_ms: expireAt_ms - now_ms };
  return { actions: [{ verb: 'delete', resource: RESOURCES.jobs, namespace, name, uid: String(job.metadata.uid), propagationPolicy: 'Foreground' }] };
}
