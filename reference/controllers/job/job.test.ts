import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCache } from '../testing.ts';
import type { KubeObject } from '../types.ts';
import { newJobState, reconcile } from './index.ts';
import { JOB_TRACKING_FINALIZER, formatIndexes, parseIndexes } from './pods.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function job(spec: any, status: any = {}): KubeObject {
  return {
    apiVersion: 'batch/v1', kind: 'Job',
    metadata: { name: 'j', namespace: 'ns', uid: 'job-uid', generation: 1 },
    spec: { parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', ...spec, template: { metadata: { labels: { 'batch.kubernetes.io/controller-uid': 'job-uid' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } },
    status,
  };
}

const owner = { apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'job-uid', controller: true, blockOwnerDeletion: true };

function pod(name: string, phase: string, opts: { finalizer?: boolean; index?: number } = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, ownerReferences: [owner], ...(opts.finalizer === false ? {} : { finalizers: [JOB_TRACKING_FINALIZER] }),
      ...(opts.index !== undefined ? { annotations: { 'batch.kubernetes.io/job-completion-index': String(opts.index) } } : {}) },
    spec: { nodeName: 'n1' },
    status: { phase },
  };
}

const creates = (actions: any[]) => actions.filter((a) => a.verb === 'create');
const statusOf = (actions: any[]) => actions.find((a) => a.verb === 'update')?.object.status;

test('a Job with the defaults (completions 1, parallelism 1) creates one pod, owned by it and holding the tracking finalizer', () => {
  const { actions } = reconcile('ns/j', memoryCache({ jobs: [job({ completions: 1 })], pods: [] }), T0, newJobState());
  const [c] = creates(actions) as any[];
  assert.equal(creates(actions).length, 1);
  assert.deepEqual(c.object.metadata.ownerReferences, [owner]);
  assert.deepEqual(c.object.metadata.finalizers, [JOB_TRACKING_FINALIZER]);
  assert.equal(c.object.metadata.labels['batch.kubernetes.io/controller-uid'], 'job-uid');
  assert.equal(statusOf(actions).startTime, '2026-01-01T00:00:00Z');
});

test('completions 5 and parallelism 2: two pods at a time, and only as many as completions still need', () => {
  assert.equal(creates(reconcile('ns/j', memoryCache({ jobs: [job({ completions: 5, parallelism: 2 })], pods: [] }), T0, newJobState()).actions).length, 2);
  const nearlyDone = job({ completions: 5, parallelism: 2 }, { succeeded: 4 });
  assert.equal(creates(reconcile('ns/j', memoryCache({ jobs: [nearlyDone], pods: [] }), T0, newJobState()).actions).length, 1);
});

test('while its creates are unobserved it creates nothing more', () => {
  const state = newJobState();
  const cache = memoryCache({ jobs: [job({ completions: 3, parallelism: 3 })], pods: [] });
  assert.equal(creates(reconcile('ns/j', cache, T0, state).actions).length, 3);
  assert.equal(creates(reconcile('ns/j', cache, T0 + 1, state).actions).length, 0);
});

test('a finished pod is first recorded as uncounted, its finalizer removed after that status write, then counted', () => {
  const state = newJobState();
  const cache = memoryCache({ jobs: [job({ completions: 1 })], pods: [pod('a', 'Succeeded')] });
  const first = reconcile('ns/j', cache, T0, state).actions as any[];
  assert.deepEqual(first.map((a) => a.verb), ['update', 'patch'], 'status first, then the finalizer');
  assert.deepEqual(statusOf(first).uncountedTerminatedPods, { succeeded: ['uid-a'] });
  assert.equal(statusOf(first).succeeded, 0);
  assert.ok(statusOf(first).conditions.some((c: any) => c.type === 'SuccessCriteriaMet'));
  assert.ok(!statusOf(first).conditions.some((c: any) => c.type === 'Complete'), 'Complete waits until the pod is counted');
  cache.put('jobs', first[0].object);
  cache.put('pods', pod('a', 'Succeeded', { finalizer: false }));
  const second = statusOf(reconcile('ns/j', cache, T0 + 1000, state).actions);
  assert.equal(second.succeeded, 1);
  assert.deepEqual(second.uncountedTerminatedPods, {});
  const complete = second.conditions.find((c: any) => c.type === 'Complete');
  assert.deepEqual([complete.status, complete.reason], ['True', 'CompletionsReached']);
  assert.equal(second.completionTime, '2026-01-01T00:00:01Z');
});

test('work queue: once one pod has succeeded no new pod is made, and the Job completes when the others finish', () => {
  const state = newJobState();
  const spec = { parallelism: 3 };
  const running = reconcile('ns/j', memoryCache({ jobs: [job(spec)], pods: [pod('a', 'Succeeded'), pod('b', 'Running')] }), T0, state).actions;
  assert.equal(creates(running).length, 0, 'a replacement for the finished pod was made after a success');
  assert.ok(!(statusOf(running).conditions ?? []).length, 'complete while a pod still runs');
  const done = statusOf(reconcile('ns/j', memoryCache({ jobs: [job(spec, { succeeded: 1 })], pods: [pod('b', 'Succeeded', { finalizer: false })] }), T0, newJobState()).actions);
  assert.ok(done.conditions.some((c: any) => c.type === 'Complete' && c.status === 'True'));
});

test('backoffLimit 2: three failures fail the Job with BackoffLimitExceeded, FailureTarget first, Failed once all is counted', () => {
  const failing = job({ completions: 1, backoffLimit: 2 }, { failed: 2 });
  const first = statusOf(reconcile('ns/j', memoryCache({ jobs: [failing], pods: [pod('c', 'Failed')] }), T0, newJobState()).actions);
  assert.deepEqual(first.conditions.map((c: any) => [c.type, c.reason]), [['FailureTarget', 'BackoffLimitExceeded']]);
  const counted = job({ completions: 1, backoffLimit: 2 }, { failed: 3, conditions: first.conditions });
  const second = statusOf(reconcile('ns/j', memoryCache({ jobs: [counted], pods: [pod('c', 'Failed', { finalizer: false })] }), T0, newJobState()).actions);
  assert.deepEqual(second.conditions.map((c: any) => [c.type, c.reason, c.message]), [
    ['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
  ]);
  assert.equal(second.completionTime, undefined);
});

test('two failures under backoffLimit 2 are retried, after the pod failure back-off (10 s after the first failure)', () => {
  const state = newJobState();
  const cache = memoryCache({ jobs: [job({ completions: 1, backoffLimit: 2 }, { failed: 1 })], pods: [pod('b', 'Failed')] });
  const now = reconcile('ns/j', cache, T0, state);
  assert.equal(creates(now.actions).length, 0);
  assert.equal(now.requeueAfter_ms, 10_000);
  assert.equal(creates(reconcile('ns/j', cache, T0 + 10_000, state).actions).length, 1);
});

test('activeDeadlineSeconds: the Job is looked at again at the deadline, then fails with DeadlineExceeded and its pods are deleted', () => {
  const start = '2026-01-01T00:00:00Z';
  const j = job({ completions: 1, activeDeadlineSeconds: 30 }, { startTime: start });
  const cache = memoryCache({ jobs: [j], pods: [pod('a', 'Running')] });
  assert.equal(reconcile('ns/j', cache, T0 + 10_000, newJobState()).requeueAfter_ms, 20_000);
  const late = reconcile('ns/j', cache, T0 + 30_000, newJobState()).actions as any[];
  assert.deepEqual(late.filter((a) => a.verb === 'delete').map((a) => a.name), ['a']);
  assert.deepEqual(statusOf(late).conditions.map((c: any) => c.reason), ['DeadlineExceeded']);
});

test('Indexed: one pod per index, each with its index in annotation, label, hostname and JOB_COMPLETION_INDEX', () => {
  const j = job({ completions: 3, parallelism: 3, completionMode: 'Indexed' });
  const made = creates(reconcile('ns/j', memoryCache({ jobs: [j], pods: [pod('done', 'Succeeded', { index: 1 })] }), T0, newJobState()).actions) as any[];
  assert.deepEqual(made.map((c) => c.object.metadata.annotations['batch.kubernetes.io/job-completion-index']), ['0', '2']);
  assert.equal(made[0].object.spec.hostname, 'j-0');
  assert.equal(made[1].object.metadata.generateName, 'j-2-');
  assert.deepEqual(made[0].object.spec.containers[0].env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
});

test('completedIndexes round-trips in the interval format', () => {
  assert.equal(formatIndexes([0, 1, 2, 4, 6, 7]), '0-2,4,6-7');
  assert.deepEqual([...parseIndexes('0-2,4')], [0, 1, 2, 4]);
});

test('a finished Job releases any pod still holding the finalizer and does nothing else', () => {
  const done = job({ completions: 1 }, { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] });
  const { actions } = reconcile('ns/j', memoryCache({ jobs: [done], pods: [pod('a', 'Succeeded')] }), T0, newJobState()) as any;
  assert.deepEqual(actions.map((a: any) => [a.verb, a.name]), [['patch', 'a']]);
});
