import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch } from './json-patch.ts';
import { applyMergePatch } from './merge-patch.ts';
import { applyStrategicMergePatch } from './strategic-merge.ts';
import { serverSideApply } from './apply.ts';
import { PatchError } from './errors.ts';
import * as workloads from '../resources/schemas/workloads.ts';
import * as core from '../resources/schemas/core.ts';

const deploy = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 1,
    template: {
      spec: {
        containers: [
          { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] },
          { name: 'b', image: 'b:1' },
        ],
      },
    },
  },
});

test('a JSON patch applies add, replace, remove, move, copy and test in order', () => {
  const out: any = applyJsonPatch({ a: 1, list: [1, 2] }, [
    { op: 'add', path: '/b', value: 2 },
    { op: 'replace', path: '/a', value: 3 },
    { op: 'add', path: '/list/-', value: 9 },
    { op: 'remove', path: '/list/0' },
    { op: 'copy', from: '/a', path: '/c' },
    { op: 'move', from: '/b', path: '/d' },
    { op: 'test', path: '/d', value: 2 },
  ]);
  assert.deepEqual(out, { a: 3, list: [2, 9], c: 3, d: 2 });
});

test('a failed JSON patch test or a missing path is an unfit patch, a non-array patch is malformed', () => {
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]), (e: unknown) => e instanceof PatchError && e.kind === 'unfit');
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/x/y', value: 2 }]), PatchError);
  assert.throws(() => applyJsonPatch({ a: 1 }, { op: 'add' }), (e: unknown) => e instanceof PatchError && e.kind === 'malformed');
});

test('a merge patch deletes with null and replaces lists wholesale', () => {
  assert.deepEqual(applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] }), { a: { c: 2, d: 3 }, l: [3] });
});

test('a strategic merge patch merges containers by name instead of replacing the list', () => {
  const out: any = applyStrategicMergePatch(deploy(), { spec: { template: { spec: { containers: [{ name: 'b', image: 'b:2' }] } } } }, workloads.deployment);
  assert.deepEqual(out.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`), ['a=a:1', 'b=b:2']);
  assert.deepEqual(out.spec.template.spec.containers[0].env, [{ name: 'X', value: '1' }]);
});

test('a $patch: delete element removes the container with that name', () => {
  const out: any = applyStrategicMergePatch(deploy(), { spec: { template: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } } } }, workloads.deployment);
  assert.deepEqual(out.spec.template.spec.containers.map((c: any) => c.name), ['b']);
});

test('$setElementOrder reorders a merged list and $retainKeys clears unlisted keys', () => {
  const patch = {
    spec: {
      strategy: { $retainKeys: ['type'], type: 'Recreate' },
      template: { spec: { $setElementOrder: undefined, containers: [{ name: 'c', image: 'c:1' }], '$setElementOrder/containers': [{ name: 'c' }, { name: 'b' }, { name: 'a' }] } },
    },
  };
  const base: any = deploy();
  base.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } };
  const out: any = applyStrategicMergePatch(base, patch, workloads.deployment);
  assert.deepEqual(out.spec.strategy, { type: 'Recreate' });
  assert.deepEqual(out.spec.template.spec.containers.map((c: any) => c.name), ['c', 'b', 'a']);
});

test('a $patch: replace map replaces instead of merging, and null still deletes a key', () => {
  const out: any = applyStrategicMergePatch(deploy(), { metadata: { labels: { $patch: 'replace', tier: 'x' } }, spec: { replicas: null } }, workloads.deployment);
  assert.deepEqual(out.metadata.labels, { tier: 'x' });
  assert.equal('replicas' in out.spec, false);
});

test('primitive lists with a merge strategy union, and $deleteFromPrimitiveList removes values', () => {
  const base = { metadata: { name: 'n', finalizers: ['a', 'b'] } };
  const out: any = applyStrategicMergePatch(base, { metadata: { finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'] } }, core.node);
  assert.deepEqual(out.metadata.finalizers, ['b', 'c']);
});

test('service ports merge on port, so re-applying one port keeps the others', () => {
  const svc = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
  const out: any = applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, core.service);
  assert.deepEqual(out.spec.ports, [{ port: 80, targetPort: 9090 }, { port: 443 }]);
});

test('server-side apply creates, merges, records managedFields and drops fields the manager stopped applying', () => {
  const applied: any = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { a: '1', b: '2' } }, spec: { replicas: 2 } };
  const first: any = serverSideApply({ live: undefined, applied, manager: 'me', schema: workloads.deployment, apiVersion: 'apps/v1', time: 't' });
  assert.equal(first.metadata.managedFields[0].manager, 'me');
  assert.deepEqual(first.metadata.managedFields[0].fieldsV1['f:metadata']['f:labels'], { 'f:a': {}, 'f:b': {} });
  first.metadata.labels.other = 'kept';
  const second: any = serverSideApply({ live: first, applied: { ...applied, metadata: { name: 'web', labels: { a: '1' } } }, manager: 'me', schema: workloads.deployment, apiVersion: 'apps/v1', time: 't' });
  assert.deepEqual(second.metadata.labels, { a: '1', other: 'kept' });
  assert.equal(second.spec.replicas, 2);
  assert.equal(second.metadata.managedFields.length, 1);
});

test('a JSON patch with an unknown op does not fit the object (422 upstream), it is not malformed', () => {
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'merge', path: '/a', value: 2 }]), (e: unknown) => e instanceof PatchError && e.kind === 'unfit' && e.message === 'Unexpected kind: merge');
});
