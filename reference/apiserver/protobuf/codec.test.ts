import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeObject, decodeWatchFrames, encodeObject, encodeWatchFrame, hasProtobuf } from './codec.ts';

const rb = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: {
    name: 'rb', namespace: 'default', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2024-01-01T00:00:05Z', labels: { a: 'b' },
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'rbac.authorization.k8s.io/v1', time: '2024-01-01T00:00:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:roleRef': {} } }],
  },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
};

test('a RoleBinding goes through the k8s\\0 envelope and back unchanged', () => {
  const bytes = encodeObject(rb)!;
  assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0]);
  assert.deepEqual(decodeObject(bytes), rb);
});

test('field numbers are upstream\'s: a RoleBinding\'s roleRef is field 3, its name field 3 inside', () => {
  const bytes = encodeObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', roleRef: { name: 'x' } })!;
  // Unknown: typeMeta (1), raw (2) = RoleBinding { roleRef (3) = RoleRef { name (3) = "x" } }
  const raw = [0x1a, 0x03, 0x1a, 0x01, 0x78];
  const hex = Buffer.from(bytes).toString('hex');
  assert.ok(hex.endsWith(Buffer.from([0x12, raw.length, ...raw]).toString('hex')), hex);
});

test('Secret data (bytes) round-trips as base64, and the zero values upstream writes are left out', () => {
  const s = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: Buffer.from('v').toString('base64') }, type: 'Opaque' };
  assert.deepEqual(decodeObject(encodeObject(s)!), s);
});

test('kinds without a protobuf form here are reported as such', () => {
  assert.equal(hasProtobuf('apiregistration.k8s.io/v1', 'APIService'), false);
  assert.equal(encodeObject({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService' }), undefined);
  assert.equal(hasProtobuf('stable.example.com/v1', 'CronTab'), false);
  assert.equal(hasProtobuf('v1', 'Endpoints'), true);
  assert.equal(hasProtobuf('v1', 'Pod'), true);
  assert.equal(hasProtobuf('rbac.authorization.k8s.io/v1', 'ClusterRoleBindingList'), true);
});

test('a watch frame is a 4-byte big-endian length, then a WatchEvent whose object is enveloped', () => {
  const frame = encodeWatchFrame('ADDED', rb)!;
  assert.equal(new DataView(frame.buffer).getUint32(0, false), frame.length - 4);
  assert.deepEqual(decodeWatchFrames(Buffer.concat([frame, frame])), [{ type: 'ADDED', object: rb }, { type: 'ADDED', object: rb }]);
});

test('a body without the magic or of an unknown kind is refused', () => {
  assert.throws(() => decodeObject(Buffer.from('{"kind":"x"}')), /expected prefix/);
  assert.throws(() => decodeObject(Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0]), Buffer.from([0x0a, 0x06, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x00])])), /no kind "" is registered for version "v1"/);
});
