import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isNodeBinaryImage } from './images.ts';

test('the node-binary images are recognised however the pod spec names them, and nothing else is', () => {
  assert.ok(isNodeBinaryImage('kubespec/alloc:256Mi'));
  assert.ok(isNodeBinaryImage('docker.io/kubespec/alloc:64Mi'));
  assert.ok(isNodeBinaryImage('kubespec/grpc-health:SERVING'));
  assert.ok(!isNodeBinaryImage('kubespec/alloc:1Gi'), 'a size that was not built');
  assert.ok(!isNodeBinaryImage('busybox:1.36'));
  assert.ok(!isNodeBinaryImage('example.com/kubespec/alloc:64Mi'), 'another registry');
});
