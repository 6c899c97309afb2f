import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, versionMismatch, versionRanges } from '../steps/support/versions.ts';

test('a 1.31 cluster is judged by 1.31 behaviour: the >=1.32 scenario does not apply, the <1.32 one does', () => {
  assert.match(versionMismatch(['@k8s:>=1.32'], { kubernetes: 'v1.31.9' })!, /runs kubernetes v1.31.9; this scenario checks kubernetes >=1.32/);
  assert.equal(versionMismatch(['@k8s:<1.32'], { kubernetes: 'v1.31.9' }), undefined);
  assert.equal(versionMismatch(['@k8s:>=1.32'], { kubernetes: '1.32.0' }), undefined);
});

test('a target that reports no version is judged at the suite baseline', () => {
  assert.equal(versionMismatch(['@k8s:>=1.32', '@etcd:>=3.5'], {}), undefined);
  assert.match(versionMismatch(['@k8s:<1.32'], {})!, /judged at the suite baseline kubernetes 1.34/);
});

test('versions compare as far as the range names; a malformed tag is refused', () => {
  assert.equal(compareVersions('3.4.23', '3.5'), -1);
  assert.equal(compareVersions('1.32.4', '1.32'), 0);
  assert.equal(compareVersions('v1.33.0-rc.1', '1.32'), 1);
  assert.throws(() => versionRanges(['@k8s:1.32']), /malformed version tag/);
  assert.deepEqual(versionRanges(['@slow', '@etcd:<3.5']).map((r) => r.component), ['etcd']);
});
