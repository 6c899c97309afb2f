/**
 * Image references by tag and by digest (features/practices/ PITFALL-PIN-DIGEST): digests are
 * read from the node's runtime (CRI ImageStatus repoDigests) and named in the scenario (D1, D2).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { createPod, defaultNode, eventually, podPath, seconds, statusOf, tryGetPod } from './support.ts';

/** The manifest digests of an image the node's runtime holds (`sha256:…`, from its repoDigests). */
async function digestsOf(world: KubespecWorld, image: string): Promise<string[]> {
  const got = (await world.nodes().runtime!(defaultNode(world)!).imageStatus({ image: { image } })).image;
  assert.ok(got, `the runtime has no image "${image}"`);
  return got.repoDigests.map((r) => /@(sha256:[0-9a-f]{64})$/.exec(r)?.[1]).filter((d): d is string => !!d);
}

async function runningPod(world: KubespecWorld, pod: string, image: string): Promise<void> {
  const spec = { containers: [{ name: 'app', image }] };
  world.note(`spec of pod ${pod}`, spec);
  await createPod(world, pod, spec);
  await eventually(world, `pod "${pod}" Running`, async () => (await tryGetPod(world, pod))?.status?.phase === 'Running', seconds(60));
}

async function imageIdEndsWith(world: KubespecWorld, pod: string, container: string, digestName: string): Promise<void> {
  const digest = world.recall<string>(`digest ${digestName}`);
  let seen = '';
  await eventually(world, `container "${container}" of pod "${pod}" running with imageID ending in ${digestName} (${digest})`, async () => {
    const p = await tryGetPod(world, pod);
    const s = statusOf(p, container);
    seen = `${p?.status?.phase} imageID=${s?.imageID}`;
    return p?.status?.phase === 'Running' && String(s?.imageID ?? '').endsWith(digest);
  }, seconds(60)).catch((error: Error) => assert.fail(`${error.message}; last seen ${seen}`));
}

Given(/^a cluster with node "([^"]*)" whose runtime has image "([^"]*)" with digest (\w+)$/, async function (this: KubespecWorld, node: string, image: string, name: string) {
  await this.nodes().ensureNode(node);
  this.note('kubelet node', node);
  const rt = this.nodes().runtime!(node);
  if (!(await rt.imageStatus({ image: { image } })).image) await rt.pullImage({ image: { image } });
  const [digest] = await digestsOf(this, image);
  assert.ok(digest, `image "${image}" has no repo digest on node "${node}"`);
  this.note(`digest ${name}`, digest);
});

Given(/^a running pod "([^"]*)" whose container "app" uses image "([^"]*)" followed by digest (\w+)$/, async function (this: KubespecWorld, pod: string, prefix: string, name: string) {
  await runningPod(this, pod, `${prefix}${this.recall<string>(`digest ${name}`)}`);
});

When(/^tag "([^"]*)" is moved to a different image with digest (\w+)$/, async function (this: KubespecWorld, image: string, name: string) {
  const before = await digestsOf(this, image);
  await this.nodes().retagImage!(defaultNode(this)!, image);
  const moved = (await digestsOf(this, image)).filter((d) => !before.includes(d));
  assert.equal(moved.length, 1, `after the retag "${image}" has repo digests ${JSON.stringify(await digestsOf(this, image))}, before ${JSON.stringify(before)}`);
  this.note(`digest ${name}`, moved[0]);
});

When('pod {string} is deleted and created again with the same spec', async function (this: KubespecWorld, pod: string) {
  const res = await this.kube().request({ method: 'DELETE', path: podPath(this, pod) });
  assert.ok(res.status === 200 || res.status === 202, res.text);
  await eventually(this, `pod "${pod}" gone`, async () => !(await tryGetPod(this, pod)), seconds(60));
  await createPod(this, pod, this.recall(`spec of pod ${pod}`));
});

Then(/^container "([^"]*)" of pod "([^"]*)" reports an imageID ending in (\w+)$/, async function (this: KubespecWorld, container: string, pod: string, name: string) {
  await imageIdEndsWith(this, pod, container, name);
});

Then(/^a running pod "([^"]*)" whose container "app" uses image "([^"]*)" reports an imageID ending in (\w+)$/, async function (this: KubespecWorld, pod: string, image: string, name: string) {
  await runningPod(this, pod, image);
  await imageIdEndsWith(this, pod, 'app', name);
});
