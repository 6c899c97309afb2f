import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCache } from '../testing.ts';
import type { KubeObject } from '../types.ts';
import { reconcile, ttlAfterFinishedController } from './index.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function job(ttl: number | undefined, finished: boolean): KubeObject {
  return {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'ns', uid: 'job-uid' },
    spec: ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
    status: finished ? { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] } : {},
  };
}

test('a finished Job with a TTL is looked at again when it expires, then deleted in the foreground with its uid as precondition', () => {
  const cache = memoryCache({ jobs: [job(100, true)] });
  assert.deepEqual(reconcile('ns/j', cache, T0 + 90_000), { actions: [], requeueAfter_ms: 10_000 });
  assert.deepEqual(reconcile('ns/j', cache, T0 + 100_000).actions, [
    { verb: 'delete', resource: { group: 'batch', version: 'v1', resource: 'jobs' }, namespace: 'ns', name: 'j', uid: 'job-uid', propagationPolicy: 'Foreground' },
  ]);
});

test('a Job without the field, or not finished, is never touched', () => {
  const def = ttlAfterFinishedController();
  const cache = memoryCache({ jobs: [job(undefined, true), job(5, false)] });
  assert.deepEqual(def.keysFor({ type: 'ADDED', resource: 'jobs', object: job(undefined, true) }, cache), []);
  assert.deepEqual(def.keysFor({ type: 'ADDED', resource: 'jobs', object: job(5, false) }, cache), []);
  assert.deepEqual(reconcile('ns/j', memoryCache({ jobs: [job(undefined, true)] }), T0 + 1e9).actions, []);
});
