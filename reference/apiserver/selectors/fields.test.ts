import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesFields, parseFieldSelector } from './fields.ts';
import { ApiError } from '../status.ts';

const pod = { metadata: { name: 'a', namespace: 'ns' }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } };

test('metadata.name and metadata.namespace select any kind', () => {
  assert.equal(matchesFields(parseFieldSelector('metadata.name=a', 'configmaps'), pod), true);
  assert.equal(matchesFields(parseFieldSelector('metadata.namespace==other', 'configmaps'), pod), false);
});

test('pods select on spec.nodeName and status.phase, and an unset field compares as empty', () => {
  assert.equal(matchesFields(parseFieldSelector('spec.nodeName=n1,status.phase=Running', 'pods'), pod), true);
  assert.equal(matchesFields(parseFieldSelector('spec.nodeName=', 'pods'), { metadata: {}, spec: {} }), true);
  assert.equal(matchesFields(parseFieldSelector('status.phase!=Running', 'pods'), pod), false);
});

test('a field the kind does not support is 400, worded as upstream words it for that kind', () => {
  assert.throws(
    () => parseFieldSelector('spec.nodeName=x', 'configmaps'),
    (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
  );
  assert.throws(
    () => parseFieldSelector('spec.containers=x', 'pods'),
    (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === 'field label not supported: spec.containers',
  );
});
