import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareForUpdate, rfc3339 } from './prepare.ts';
import { RESOURCES } from '../resources/registry.ts';

test('timestamps are RFC 3339 in UTC at second precision, as metav1.Time marshals them', () => {
  for (const ms of [0, 951782400000, 1704067199999, 1709210096789, 4102444800000, 1234567890123]) {
    assert.equal(rfc3339(ms), new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
  }
});

test('a status write keeps everything but status from the old object, copied, keys in their order', () => {
  const def = RESOURCES.find((d) => d.resource === 'pods' && d.group === '')!;
  const old = Object.freeze({ apiVersion: 'v1', kind: 'Pod', metadata: Object.freeze({ name: 'p', labels: Object.freeze({ app: 'a' }) }), status: Object.freeze({ phase: 'Pending' }), spec: Object.freeze({ nodeName: 'n1' }) });
  const next = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'changed' } }, spec: { nodeName: 'other' }, status: { phase: 'Running' } };
  const out: any = prepareForUpdate(def, next, old, 'status');
  assert.deepEqual(Object.keys(out), ['apiVersion', 'kind', 'metadata', 'status', 'spec']);
  assert.deepEqual(JSON.parse(JSON.stringify(out)), { ...old, status: { phase: 'Running' } });
  assert.notEqual(out.metadata, old.metadata);
  out.metadata.labels.app = 'mine'; // a private copy: admission may write to it
  assert.equal(old.metadata.labels.app, 'a');
  const without = prepareForUpdate(def, next, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, 'status');
  assert.deepEqual(Object.keys(without), ['apiVersion', 'kind', 'metadata', 'status']);
});
