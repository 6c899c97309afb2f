import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ImageStore } from './images.ts';

const store = () => {
  let n = 0;
  return new ImageStore(() => (n++).toString(16).padStart(64, '0'));
};
const digestOf = (repoDigest: string) => repoDigest.split('@')[1]!;

test('a pull by tag records the image under the tag and under repo@digest', () => {
  const s = store();
  const image = s.pull('docker.io/kubespec/app:latest')!;
  assert.deepEqual(image.repoTags, ['docker.io/kubespec/app:latest']);
  assert.match(image.repoDigests[0]!, /^docker\.io\/kubespec\/app@sha256:[0-9a-f]{64}$/);
});

test('after the tag moves, the old digest still names the old content and the tag the new', () => {
  const s = store();
  const d1 = digestOf(s.pull('docker.io/kubespec/app:latest')!.repoDigests[0]!);
  const moved = s.retag('docker.io/kubespec/app:latest');
  const d2 = digestOf(moved.repoDigests[0]!);
  assert.notEqual(d1, d2);
  assert.equal(s.find(`docker.io/kubespec/app@${d1}`)!.repoDigests[0], `docker.io/kubespec/app@${d1}`);
  assert.deepEqual(s.find(`docker.io/kubespec/app@${d1}`)!.repoTags, []);
  assert.equal(s.find('docker.io/kubespec/app:latest')!.id, moved.id);
});

test('a digest the registry never had cannot be pulled; one it had can, after the local copy is removed', () => {
  const s = store();
  assert.equal(s.pull(`docker.io/kubespec/app@sha256:${'f'.repeat(64)}`), undefined);
  const ref = s.pull('docker.io/kubespec/app:latest')!.repoDigests[0]!;
  s.remove(ref);
  assert.equal(s.find(ref), undefined);
  assert.equal(s.pull(ref)!.repoDigests[0], ref);
});
