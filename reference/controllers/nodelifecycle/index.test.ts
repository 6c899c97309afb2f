import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markPodsNotReady } from './index.ts';

const pod = (name: string, ready?: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: 'n1' },
  status: { phase: 'Running', conditions: ready ? [{ type: 'Ready', status: ready, lastTransitionTime: '2026-01-01T00:00:00Z' }] : [] },
});

test('pods whose Ready condition is not False get Ready=False with a new transition time, their phase untouched', () => {
  const actions = markPodsNotReady([pod('a', 'True'), pod('b', 'False'), pod('c')], Date.UTC(2026, 0, 1, 0, 2));
  assert.equal(actions.length, 1);
  const [action] = actions as any[];
  assert.equal(action.verb, 'update');
  assert.equal(action.subresource, 'status');
  assert.equal(action.object.metadata.name, 'a');
  assert.equal(action.object.status.phase, 'Running');
  assert.deepEqual(action.object.status.conditions, [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:02:00Z' }]);
});
