/**
 * The Job controller (kubernetes/kubernetes pkg/controller/job/job_controller.go): runs a Job's
 * pods until enough of them succeed, or fails the Job.
 *
 * - Modes: completions unset and parallelism P — a work queue: P pods, and once one has
 *   succeeded no new ones, the Job complete when the rest have finished; completions N
 *   (NonIndexed) — at most P at once until N have succeeded; completionMode Indexed — one pod
 *   per index 0..N-1, each carrying its index (pods.ts), complete when every index succeeded.
 *   The API server's defaults make a Job with neither field a single pod (N = P = 1).
 * - Failures: every failed pod counts (tracking.ts); more than spec.backoffLimit failures, or
 *   (restartPolicy OnFailure) as many container restarts, fail the Job with BackoffLimitExceeded;
 *   running longer than spec.activeDeadlineSeconds since status.startTime fails it with
 *   DeadlineExceeded. A failing Job's active pods are deleted. After a failure, new pods wait
 *   10 s doubling to 10 min per consecutive failure (DefaultJobPodFailureBackOff,
 *   MaxJobPodFailureBackOff; getRemainingTimeForFailuresCount in backoff_utils.go).
 * - Conditions (conditions.ts): FailureTarget / SuccessCriteriaMet first, Failed / Complete once
 *   nothing is running, terminating or uncounted; completionTime with Complete.
 * - Status: startTime, active, ready, terminating, succeeded, failed, completedIndexes
 *   (Indexed), uncountedTerminatedPods — written only when changed.
 * - Expectations: nothing is created or deleted while earlier creates/deletes are unobserved
 *   (expectations.ts), as upstream's ControllerExpectations.
 * - Orphans: a pod holding the tracking finalizer whose Job is gone or finished has the
 *   finalizer removed (syncOrphanPod), so deleting a Job never leaves its pods stuck.
 *
 * Not modelled: podFailurePolicy, successPolicy, backoffLimitPerIndex, podReplacementPolicy
 * Failed (the default TerminatingOrFailed is what happens), managedBy, adoption of orphans by
 * selector (a generated selector names the Job's uid, so only its own pods match), and the
 * Suspended condition (a suspended Job keeps no active pods).
 */
import { NO_FAULTS, type Faults } from '../../faults.ts';
import { Expectations } from '../expectations.ts';
import { clone, controllerOf, isBeingDeleted, isPodActive, isPodReady, keyOf, parseTime, restartCount, rfc3339, splitKey } from '../shared/objects.ts';
import { podsToDelete } from '../replicaset/ranking.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';
import { BACKOFF_LIMIT_EXCEEDED, COMPLETIONS_REACHED, DEADLINE_EXCEEDED, TERMINAL_OF, findTrue, isJobFinished, newCondition, withCondition, type JobCondition } from './conditions.ts';
import { JOB_KIND, JOB_TRACKING_FINALIZER, completionIndexOf, formatIndexes, hasTrackingFinalizer, isTerminating, newJobPod, parseIndexes } from './pods.ts';
import { tally, type Tally } from './tracking.ts';

export const JOB_CONTROLLER = 'job-controller';
/** MaxPodCreateDeletePerSync in job_controller.go. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
export const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;
/** Keys of orphan pods to release (syncOrphanPod); job keys are "<namespace>/<name>". */
const ORPHAN_PREFIX = 'orphan-pod:';

interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailure_ms: number;
  seen: Set<string>;
}

export interface JobState {
  expectations: Expectations;
  backoff: Map<string, BackoffRecord>;
}

export function newJobState(): JobState {
  return { expectations: new Expectations(), backoff: new Map() };
}

/** `faults`: fault models to inject (reference/faults.ts); default none. */
export function jobController(faults: Faults = NO_FAULTS): ControllerDef {
  const state = newJobState();
  return {
    name: JOB_CONTROLLER,
    aliases: ['job'],
    capability: 'controllers.job',
    watches: [RESOURCES.jobs, RESOURCES.pods],
    // --concurrent-job-syncs defaults to 5.
    workers: 5,
    keysFor: (event, cache) => keysFor(event, cache, state),
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), state, faults),
    onActionFailed(action) {
      if (action.verb === 'create' && action.key) state.expectations.creationObserved(action.key);
      if (action.verb === 'delete' && action.key) state.expectations.deletionObserved(action.key);
    },
  };
}

function jobKeyOfPod(pod: Readonly<KubeObject>): string | undefined {
  const ref = controllerOf(pod);
  return ref?.kind === JOB_KIND ? `${pod.metadata.namespace}/${ref.name}` : undefined;
}

export function keysFor(event: CacheEvent, cache: Cache, state: JobState): string[] {
  if (event.resource === 'jobs') {
    if (event.type !== 'DELETED') return [keyOf(event.object)];
    state.expectations.delete(keyOf(event.object));
    state.backoff.delete(keyOf(event.object));
    return cache.byIndex('pods', 'owner', String(event.object.metadata.uid)).filter(hasTrackingFinalizer).map((p) => ORPHAN_PREFIX + keyOf(p));
  }
  const pod = event.object;
  const owner = jobKeyOfPod(pod);
  if (!owner) return hasTrackingFinalizer(pod) && event.type !== 'DELETED' ? [ORPHAN_PREFIX + keyOf(pod)] : [];
  if (event.type === 'ADDED') state.expectations.creationObserved(owner);
  const deletedNow = event.type === 'DELETED' ? !isBeingDeleted(pod) : isBeingDeleted(pod) && !(event.oldObject && isBeingDeleted(event.oldObject));
  if (deletedNow) state.expectations.deletionObserved(owner);
  const { namespace, name } = splitKey(owner);
  const job = cache.get('jobs', namespace, name);
  const mine = job && job.metadata.uid === controllerOf(pod)?.uid;
  const keys = [owner];
  if ((!mine || isJobFinished(job)) && hasTrackingFinalizer(pod) && event.type !== 'DELETED') keys.push(ORPHAN_PREFIX + keyOf(pod));
  return keys;
}

function releasePatch(pod: Readonly<KubeObject>): Action {
  // Upstream's removeTrackingFinalizerPatch: a strategic merge patch removing only this finalizer.
  return { verb: 'patch', type: 'strategic', resource: RESOURCES.pods, namespace: pod.metadata.namespace ?? '', name: pod.metadata.name,
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER], uid: pod.metadata.uid } } };
}

export function reconcile(key: string, cache: Cache, now_ms: number, state: JobState, faults: Faults = NO_FAULTS): SyncResult {
  if (key.startsWith(ORPHAN_PREFIX)) return syncOrphanPod(key.slice(ORPHAN_PREFIX.length), cache);
  const { namespace, name } = splitKey(key);
  const job = cache.get('jobs', namespace, name);
  if (!job) {
    state.expectations.delete(key);
    state.backoff.delete(key);
    return { actions: [] };
  }
  const pods = cache.byIndex('pods', 'owner', String(job.metadata.uid)).filter((p) => controllerOf(p)?.uid === job.metadata.uid);
  if (isJobFinished(job)) {
    state.backoff.delete(key);
    return { actions: pods.filter(hasTrackingFinalizer).map(releasePatch) };
  }
  return syncJob(key, job, pods, now_ms, state, faults);
}

function syncOrphanPod(podKey: string, cache: Cache): SyncResult {
  const { namespace, name } = splitKey(podKey);
  const pod = cache.get('pods', namespace, name);
  if (!pod || !hasTrackingFinalizer(pod)) return { actions: [] };
  const ref = controllerOf(pod);
  if (ref?.kind === JOB_KIND) {
    const job = cache.get('jobs', namespace, ref.name);
    // Still its Job's, and the Job still running: the Job counts it and releases it.
    if (job && job.metadata.uid === ref.uid && !isJobFinished(job)) return { actions: [] };
  }
  return { actions: [releasePatch(pod)] };
}

/** What one sync of a running Job sees. */
interface JobView {
  key: string;
  job: Readonly<KubeObject>;
  spec: any;
  active: Readonly<KubeObject>[];
  tally: Tally;
  /** Succeeded so far: for Indexed, the number of distinct indexes that succeeded. */
  succeeded: number;
  succeededIndexes?: Set<number>;
  startTime: string;
  now_ms: number;
}

function syncJob(key: string, job: Readonly<KubeObject>, pods: readonly Readonly<KubeObject>[], now_ms: number, state: JobState, faults: Faults): SyncResult {
  const spec = (job as any).spec ?? {};
  const status = clone((job as any).status ?? {});
  const satisfied = state.expectations.satisfied(key, now_ms);
  const t = tally(status, pods);
  recordFailures(state, key, t, pods, now_ms);
  const indexed = spec.completionMode === 'Indexed';
  const succeededIndexes = indexed ? succeededIndexesOf(status, pods, spec.completions ?? 0) : undefined;
  const view: JobView = {
    key, job, spec, now_ms, tally: t, succeededIndexes,
    active: pods.filter(isPodActive),
    succeeded: succeededIndexes ? succeededIndexes.size : t.total.succeeded,
    startTime: status.startTime ?? (spec.suspend ? undefined : rfc3339(now_ms)),
  };
  const actions: Action[] = [];
  let requeueAfter_ms: number | undefined;
  let target: JobCondition | undefined = interimCondition(status.conditions) ?? failureCondition(view, faults);
  if (!target && spec.activeDeadlineSeconds !== undefined && view.startTime && !spec.suspend) {
    requeueAfter_ms = parseTime(view.startTime)! + spec.activeDeadlineSeconds * 1000 - now_ms;
  }
  let active = view.active.length;
  let deleting = 0;
  if (target) {
    actions.push(...deletePods(key, view.active, now_ms, state));
    deleting = active;
    active = 0;
  } else if (satisfied && !isBeingDeleted(job)) {
    const managed = manage(view, state);
    actions.push(...managed.actions);
    active = managed.active;
    requeueAfter_ms = minDefined(requeueAfter_ms, managed.requeueAfter_ms);
  }
  if (!target && complete(view, active)) target = newCondition('SuccessCriteriaMet', COMPLETIONS_REACHED, now_ms);
  const next = nextStatus(view, status, active, target, pods, deleting);
  if (JSON.stringify(next) !== JSON.stringify((job as any).status ?? {})) {
    // The status carrying uncountedTerminatedPods first: only then may finalizers go (tracking.ts).
    actions.unshift({ verb: 'update', subresource: 'status', resource: RESOURCES.jobs, namespace: job.metadata.namespace ?? '', object: { ...clone(job), status: next } as KubeObject });
  }
  actions.push(...t.release.map(releasePatch));
  return requeueAfter_ms !== undefined && requeueAfter_ms > 0 && !next.conditions?.some((c: JobCondition) => c.type in { Complete: 1, Failed: 1 }) ? { actions, requeueAfter_ms } : { actions };
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function interimCondition(conditions: JobCondition[] | undefined): JobCondition | undefined {
  return findTrue(conditions, 'FailureTarget') ?? findTrue(conditions, 'SuccessCriteriaMet');
}

/** BackoffLimitExceeded, then DeadlineExceeded, as syncJob checks them. */
function failureCondition(view: JobView, faults: Faults): JobCondition | undefined {
  const limit = view.spec.backoffLimit ?? 6;
  // Fault job-backoff-off-by-one: the Job fails at backoffLimit failures instead of backoffLimit + 1.
  const exceeded = faults.has('job-backoff-off-by-one') ? view.tally.total.failed >= limit : view.tally.total.failed > limit;
  if (exceeded || pastBackoffLimitOnFailure(view, limit)) return newCondition('FailureTarget', BACKOFF_LIMIT_EXCEEDED, view.now_ms);
  const deadline = view.spec.activeDeadlineSeconds;
  if (deadline !== undefined && view.startTime && !view.spec.suspend && view.now_ms - parseTime(view.startTime)! >= deadline * 1000) {
    return newCondition('FailureTarget', DEADLINE_EXCEEDED, view.now_ms);
  }
  return undefined;
}

/** restartPolicy OnFailure: the kubelet restarts failed containers in place; their restarts count against the limit. */
function pastBackoffLimitOnFailure(view: JobView, limit: number): boolean {
  if (view.spec.template?.spec?.restartPolicy !== 'OnFailure') return false;
  const restarts = view.active.reduce((n, p) => n + restartCount(p) + initRestarts(p), 0);
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function initRestarts(pod: Readonly<KubeObject>): number {
  return ((pod as any).status?.initContainerStatuses ?? []).reduce((n: number, c: any) => n + (c.restartCount ?? 0), 0);
}

function complete(view: JobView, active: number): boolean {
  if (active > 0) return false;
  const completions = view.spec.completions;
  return completions === undefined || completions === null ? view.succeeded > 0 : view.succeeded >= completions;
}

function succeededIndexesOf(status: any, pods: readonly Readonly<KubeObject>[], completions: number): Set<number> {
  const out = parseIndexes(status.completedIndexes);
  for (const p of pods) {
    const i = completionIndexOf(p);
    if (i !== undefined && i < completions && (p as any).status?.phase === 'Succeeded') out.add(i);
  }
  return out;
}

function recordFailures(state: JobState, key: string, t: Tally, pods: readonly Readonly<KubeObject>[], now_ms: number): void {
  const record = state.backoff.get(key) ?? { failuresAfterLastSuccess: 0, lastFailure_ms: 0, seen: new Set<string>() };
  const fresh = (uids: string[]) => uids.filter((u) => !record.seen.has(u));
  const failed = fresh(t.fresh.failed);
  const succeeded = fresh(t.fresh.succeeded);
  if (succeeded.length > 0) record.failuresAfterLastSuccess = 0;
  if (failed.length > 0) {
    record.failuresAfterLastSuccess += failed.length;
    const finished = failed.map((uid) => finishedAt(pods.find((p) => p.metadata.uid === uid)) ?? now_ms);
    record.lastFailure_ms = Math.max(record.lastFailure_ms, ...finished);
  }
  for (const u of [...failed, ...succeeded]) record.seen.add(u);
  state.backoff.set(key, record);
}

/** The latest container finishedAt (getFinishedTime in job_controller.go). */
function finishedAt(pod: Readonly<KubeObject> | undefined): number | undefined {
  const times = ((pod as any)?.status?.containerStatuses ?? []).map((c: any) => parseTime(c.state?.terminated?.finishedAt)).filter((t: unknown) => t !== undefined);
  return times.length > 0 ? Math.max(...times) : undefined;
}

function backoffRemaining_ms(state: JobState, key: string, now_ms: number): number {
  const r = state.backoff.get(key);
  if (!r || r.failuresAfterLastSuccess === 0) return 0;
  const delay = Math.min(DEFAULT_POD_FAILURE_BACKOFF_MS * 2 ** (r.failuresAfterLastSuccess - 1), MAX_POD_FAILURE_BACKOFF_MS);
  return Math.max(0, r.lastFailure_ms + delay - now_ms);
}

/** manageJob: create or delete pods towards the active count the mode wants. */
function manage(view: JobView, state: JobState): { actions: Action[]; active: number; requeueAfter_ms?: number } {
  const { spec, key } = view;
  const parallelism = spec.suspend ? 0 : (spec.parallelism ?? 1);
  const completions = spec.completions;
  let active = [...view.active];
  const actions: Action[] = [];
  // Indexed: pods of an index already done, out of range or duplicated go first (firstPendingIndexes' twin).
  if (view.succeededIndexes) {
    const surplus = surplusIndexedPods(active, view.succeededIndexes, completions ?? 0);
    actions.push(...deletePods(key, surplus, view.now_ms, state));
    active = active.filter((p) => !surplus.includes(p));
  }
  const wantActive = completions === undefined || completions === null
    ? (view.succeeded > 0 ? active.length : parallelism)
    : Math.max(0, Math.min(completions - view.succeeded, parallelism));
  if (active.length > wantActive) {
    const victims = podsToDelete(active, Math.min(active.length - wantActive, MAX_POD_CREATE_DELETE_PER_SYNC));
    return { actions: [...actions, ...deletePods(key, victims, view.now_ms, state)], active: active.length - victims.length };
  }
  const diff = Math.min(wantActive - active.length, MAX_POD_CREATE_DELETE_PER_SYNC);
  if (diff <= 0 || actions.length > 0) return { actions, active: active.length };
  const wait_ms = backoffRemaining_ms(state, key, view.now_ms);
  if (wait_ms > 0) return { actions, active: active.length, requeueAfter_ms: wait_ms };
  const indexes = view.succeededIndexes ? pendingIndexes(active, view.succeededIndexes, completions ?? 0, diff) : Array.from({ length: diff }, () => undefined);
  state.expectations.expect(key, indexes.length, 0, view.now_ms);
  for (const i of indexes) actions.push({ verb: 'create', resource: RESOURCES.pods, namespace: view.job.metadata.namespace ?? '', object: newJobPod(view.job, i), key });
  return { actions, active: active.length + indexes.length };
}

function surplusIndexedPods(active: Readonly<KubeObject>[], done: Set<number>, completions: number): Readonly<KubeObject>[] {
  const seen = new Set<number>();
  return active.filter((p) => {
    const i = completionIndexOf(p);
    if (i === undefined || i >= completions || done.has(i) || seen.has(i)) return true;
    seen.add(i);
    return false;
  });
}

/** The lowest `count` indexes neither succeeded nor running. */
function pendingIndexes(active: Readonly<KubeObject>[], done: Set<number>, completions: number, count: number): number[] {
  const running = new Set(active.map(completionIndexOf));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!done.has(i) && !running.has(i)) out.push(i);
  return out;
}

function deletePods(key: string, pods: readonly Readonly<KubeObject>[], now_ms: number, state: JobState): Action[] {
  if (pods.length === 0) return [];
  state.expectations.expect(key, 0, pods.length, now_ms);
  return pods.map((p) => ({ verb: 'delete' as const, resource: RESOURCES.pods, namespace: p.metadata.namespace ?? '', name: p.metadata.name, uid: String(p.metadata.uid), key }));
}

/** `deleting`: active pods this sync deletes, terminating from now on (upstream adds them to terminating). */
function nextStatus(view: JobView, old: any, active: number, target: JobCondition | undefined, pods: readonly Readonly<KubeObject>[], deleting: number): any {
  const { tally: t } = view;
  const status: any = { ...old };
  if (view.startTime) status.startTime = view.startTime;
  status.active = active;
  status.ready = view.active.filter(isPodReady).length;
  status.terminating = pods.filter(isTerminating).length + deleting;
  status.succeeded = view.succeededIndexes ? view.succeededIndexes.size : t.counted.succeeded;
  status.failed = t.counted.failed;
  if (view.succeededIndexes) status.completedIndexes = formatIndexes(view.succeededIndexes);
  status.uncountedTerminatedPods = {
    ...(t.uncounted.succeeded.length > 0 ? { succeeded: t.uncounted.succeeded } : {}),
    ...(t.uncounted.failed.length > 0 ? { failed: t.uncounted.failed } : {}),
  };
  if (!target) return status;
  status.conditions = withCondition(status.conditions, target);
  // The terminal condition waits until nothing runs, terminates or is left to count.
  const settled = active === 0 && status.terminating === 0 && t.release.length === 0 && t.uncounted.succeeded.length + t.uncounted.failed.length === 0;
  if (settled) {
    const terminal = { ...target, type: TERMINAL_OF[target.type]!, lastProbeTime: rfc3339(view.now_ms), lastTransitionTime: rfc3339(view.now_ms) };
    status.conditions = withCondition(status.conditions, terminal);
    if (terminal.type === 'Complete') status.completionTime = rfc3339(view.now_ms);
  }
  return status;
}
