/**
 * Steps that speak CRI to a node's runtime directly (features/runtime/, and the kubelet claims
 * about what the runtime holds): RuntimeService and ImageService calls with upstream's names and
 * states, and the record of calls the runtime received.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { CriRuntime } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { argv, defaultNode, eventually, getPod, seconds } from '../kubelet/support.ts';

// The labels the kubelet sets on its sandboxes and containers (kubernetes pkg/kubelet/types/labels.go).
const POD_NAME = 'io.kubernetes.pod.name';
const POD_NAMESPACE = 'io.kubernetes.pod.namespace';
const CONTAINER_NAME = 'io.kubernetes.container.name';

/** Docker's reference normalisation (distribution/reference ParseNormalizedNamed): busybox → docker.io/library/busybox:latest. */
function normaliseImage(ref: string): string {
  let name = ref;
  if (!/^[^/]+[.:][^/]*\//.test(name) && !name.startsWith('localhost/')) name = name.includes('/') ? `docker.io/${name}` : `docker.io/library/${name}`;
  if (!/:[^/]+$/.test(name) && !name.includes('@')) name += ':latest';
  return name;
}

function nodeName(world: KubespecWorld, node?: string): string {
  const n = node ?? defaultNode(world);
  assert.ok(n, 'the scenario named no node');
  return n;
}

function runtime(world: KubespecWorld, node?: string): CriRuntime {
  const nodes = world.nodes();
  assert.ok(nodes.runtime, 'this target declares cri but offers no runtime()');
  return nodes.runtime(nodeName(world, node));
}

/** Sandboxes of a pod (by the kubelet's labels) in a node's runtime. */
export async function sandboxesOf(world: KubespecWorld, node: string, pod: string, state?: 'SANDBOX_READY') {
  const { items } = await runtime(world, node).listPodSandbox({ filter: { labelSelector: { [POD_NAMESPACE]: world.kube().namespace, [POD_NAME]: pod }, ...(state ? { state: { state } } : {}) } });
  return items;
}

/** A pod's containers named `name` in a node's runtime, newest first. */
export async function containersOf(world: KubespecWorld, node: string, pod: string, name: string) {
  const rt = runtime(world, node);
  const { containers } = await rt.listContainers({ filter: { labelSelector: { [POD_NAMESPACE]: world.kube().namespace, [POD_NAME]: pod, [CONTAINER_NAME]: name } } });
  return containers.sort((a, b) => b.metadata.attempt - a.metadata.attempt);
}

// ---- what the kubelet made ---------------------------------------------------------------------

Then('within {int} seconds the runtime of node {string} has a ready sandbox for pod {string}', async function (this: KubespecWorld, s: number, node: string, pod: string) {
  await eventually(this, `a ready sandbox for ${pod} on ${node}`, async () => (await sandboxesOf(this, node, pod, 'SANDBOX_READY')).length > 0, seconds(s));
});

Then('the runtime of node {string} has no sandbox for pod {string}', async function (this: KubespecWorld, node: string, pod: string) {
  assert.deepEqual(await sandboxesOf(this, node, pod), []);
});

Then('no node\'s runtime has a sandbox for pod {string}', async function (this: KubespecWorld, pod: string) {
  for (const node of [defaultNode(this)!, ...((await this.kube().request({ method: 'GET', path: '/api/v1/nodes' })).json?.items ?? []).map((n: any) => n.metadata.name)]) {
    assert.deepEqual(await sandboxesOf(this, node, pod), [], `node ${node} runs a sandbox for ${pod}`);
  }
});

Then('within {int} seconds the runtime of node {string} has a running container {string} for pod {string}', async function (this: KubespecWorld, s: number, node: string, name: string, pod: string) {
  await eventually(this, `container ${name} of ${pod} running on ${node}`, async () => {
    const [c] = await containersOf(this, node, pod, name);
    if (c?.state !== 'CONTAINER_RUNNING') return false;
    this.note('runtime container', { node, id: c.id });
    return true;
  }, seconds(s));
});

Then('that runtime container has image {string}, command {string} and env {string}', async function (this: KubespecWorld, image: string, command: string, env: string) {
  const { node, id } = this.recall<{ node: string; id: string }>('runtime container');
  // ContainerStatus has no command or env; its verbose info carries the config the container
  // was created with, as containerd's CRI plugin reports it (info["info"].config).
  const res = await runtime(this, node).containerStatus({ containerId: id, verbose: true });
  const config = JSON.parse(res.info?.info ?? '{}').config ?? {};
  // A runtime may report the image by its normalised name (containerd: the first repo tag,
  // docker.io/library/busybox:latest for "busybox"); both name the same image.
  assert.equal(normaliseImage(res.status.image.image), normaliseImage(image));
  assert.deepEqual([...(config.command ?? []), ...(config.args ?? [])], argv(command));
  const [k, v] = env.split('=');
  assert.ok((config.envs ?? []).some((e: any) => e.key === k && e.value === v), JSON.stringify(config.envs));
});

Then('that runtime container has label {string} = {string} and {string} = {string}', async function (this: KubespecWorld, k1: string, v1: string, k2: string, v2: string) {
  const { node, id } = this.recall<{ node: string; id: string }>('runtime container');
  const { status } = await runtime(this, node).containerStatus({ containerId: id });
  assert.equal(status.labels[k1], v1);
  assert.equal(status.labels[k2], v2);
});

When('the process of container {string} of pod {string} is killed in the runtime', async function (this: KubespecWorld, name: string, pod: string) {
  const node = (await getPod(this, pod)).spec.nodeName;
  const [c] = await containersOf(this, node, pod, name);
  assert.ok(c, `no container ${name} of ${pod} on ${node}`);
  await this.nodes().killContainerProcess!(node, c.id);
});

Then('the delays in seconds between the first {int} restarts of container {string} are about {string}', async function (this: KubespecWorld, n: number, name: string, expected: string) {
  const pod = (await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${this.kube().namespace}/pods` })).json.items.find((p: any) => p.spec.containers.some((c: any) => c.name === name));
  const calls = (await this.nodes().criCalls!(pod.spec.nodeName)).filter((c) => c.podUid === pod.metadata.uid && c.method.endsWith('/StartContainer'));
  const starts = calls.map((c) => c.at_ms).slice(1, n + 1);
  const gaps = starts.slice(1).map((at, i) => (at - starts[i]!) / 1000);
  const want = expected.split(',').map((x) => Number(x.trim()));
  assert.equal(gaps.length, want.length, `restart gaps seen: ${gaps.join(', ')}`);
  // "About": the kubelet notices an exit on its next relist (1 s) and the restart then waits the back-off.
  gaps.forEach((g, i) => assert.ok(Math.abs(g - want[i]!) <= 2 + want[i]! * 0.05, `gap ${i + 1} is ${g} s, expected about ${want[i]} s (all: ${gaps.join(', ')})`));
});

// ---- containers made behind Kubernetes' back ---------------------------------------------------

When('I create a pod sandbox {string} with one container {string} running {string} directly in the runtime of node {string}, without Kubernetes labels', async function (this: KubespecWorld, sandbox: string, name: string, command: string, node: string) {
  const rt = runtime(this, node);
  const config = { metadata: { name: sandbox, namespace: 'outside', uid: `${sandbox}-uid`, attempt: 0 } };
  const { podSandboxId } = await rt.runPodSandbox({ config });
  await ensureImage(rt, 'busybox');
  const { containerId } = await rt.createContainer({ podSandboxId, sandboxConfig: config, config: { metadata: { name, attempt: 0 }, image: { image: 'busybox' }, command: argv(command) } });
  await rt.startContainer({ containerId });
  this.note(`outside sandbox ${sandbox}`, { node, podSandboxId });
});

Then('the runtime of node {string} still has a running container {string} in sandbox {string}', async function (this: KubespecWorld, node: string, name: string, sandbox: string) {
  const { podSandboxId } = this.recall<{ podSandboxId: string }>(`outside sandbox ${sandbox}`);
  const { containers } = await runtime(this, node).listContainers({ filter: { podSandboxId } });
  assert.ok(containers.some((c) => c.metadata.name === name && c.state === 'CONTAINER_RUNNING'), JSON.stringify(containers));
});

Then('the API has no pod named {string} in any namespace', async function (this: KubespecWorld, name: string) {
  const pods = (await this.kube().request({ method: 'GET', path: '/api/v1/pods' })).json.items;
  assert.ok(!pods.some((p: any) => p.metadata.name === name));
});

// ---- calls recorded ------------------------------------------------------------------------------

Given('a cluster with node {string} whose CRI calls are recorded', async function (this: KubespecWorld, node: string) {
  await this.nodes().ensureNode(node);
  this.note('kubelet node', node);
  assert.ok(this.nodes().criCalls, 'this target records no CRI calls');
});

Given('a cluster with node {string} whose runtime holds RunPodSandbox for pods until released', async function (this: KubespecWorld, node: string) {
  await this.nodes().ensureNode(node);
  this.note('kubelet node', node);
  await this.nodes().holdSandboxes!(node);
  this.onCleanup(() => this.nodes().releaseSandboxes!(node));
});

When('the runtime of node {string} releases RunPodSandbox', async function (this: KubespecWorld, node: string) {
  await this.nodes().releaseSandboxes!(node);
});

Then('the CRI calls of node {string} for pod {string} include {string}', async function (this: KubespecWorld, node: string, pod: string, expected: string) {
  const uid = this.recall<string>(`uid of pod ${pod}`);
  const missing = async (): Promise<string | undefined> => {
    const methods = (await this.nodes().criCalls!(node)).filter((c) => c.podUid === uid).map((c) => c.method.split('/').pop());
    let from = 0;
    for (const want of expected.split(',').map((x) => x.trim())) {
      const at = methods.indexOf(want, from);
      if (at < 0) return `no ${want} after position ${from} in ${methods.join(', ')}`;
      from = at + 1;
    }
    return undefined;
  };
  // The kubelet stops the pod after the API has let it go: give it a moment.
  await eventually(this, `the CRI calls ${expected}`, async () => (await missing()) === undefined, seconds(10)).catch(async () => assert.fail(await missing()));
});

Then('every recorded call of node {string} is a method of {string} or {string}', async function (this: KubespecWorld, node: string, a: string, b: string) {
  const calls = await this.nodes().criCalls!(node);
  assert.ok(calls.length > 0);
  for (const c of calls) assert.ok(c.method.startsWith(`/${a}/`) || c.method.startsWith(`/${b}/`), c.method);
});

// ---- direct CRI ------------------------------------------------------------------------------

Given('a CRI runtime endpoint', async function (this: KubespecWorld) {
  await this.nodes().ensureNode('cri-node');
  this.note('kubelet node', 'cri-node');
});

/** Pull unless present, as the kubelet's IfNotPresent does (a node without a registry has its images preloaded). */
async function ensureImage(rt: CriRuntime, image: string): Promise<void> {
  if (!(await rt.imageStatus({ image: { image } })).image) await rt.pullImage({ image: { image } });
}

Given('a CRI runtime endpoint with image {string} present', async function (this: KubespecWorld, image: string) {
  await this.nodes().ensureNode('cri-node');
  this.note('kubelet node', 'cri-node');
  await ensureImage(runtime(this), image);
});

const sandboxConfig = (world: KubespecWorld, name: string, namespace = 'default', extra: any = {}) => ({ metadata: { name, namespace, uid: `kubespec-${name}-${world.session.seed}`, attempt: 0 }, ...extra });

async function runSandbox(world: KubespecWorld, name: string, namespace = 'default', extra: any = {}): Promise<string> {
  const config = sandboxConfig(world, name, namespace, extra);
  const { podSandboxId } = await runtime(world).runPodSandbox({ config });
  world.note(`sandbox ${name}`, { id: podSandboxId, config });
  return podSandboxId;
}

const sandbox = (world: KubespecWorld, name: string) => world.recall<{ id: string; config: any }>(`sandbox ${name}`);
const containerId = (world: KubespecWorld, name: string) => world.recall<string>(`container ${name}`);

When('I call RunPodSandbox for sandbox {string} in namespace {string}', async function (this: KubespecWorld, name: string, namespace: string) {
  await runSandbox(this, name, namespace);
});

Given('a sandbox {string}', async function (this: KubespecWorld, name: string) {
  await runSandbox(this, name);
});

When('I call RunPodSandbox for sandbox {string} with shareProcessNamespace', async function (this: KubespecWorld, name: string) {
  // What the kubelet asks for a pod with shareProcessNamespace: true (kuberuntime_sandbox.go).
  await runSandbox(this, name, 'default', { linux: { securityContext: { namespaceOptions: { network: 'POD', ipc: 'POD', pid: 'POD' } } } });
});

async function createContainer(world: KubespecWorld, name: string, sandboxName: string, image: string, command?: string, extra: any = {}): Promise<string> {
  const sb = sandbox(world, sandboxName);
  const pid = sb.config.linux?.securityContext?.namespaceOptions?.pid ?? 'CONTAINER';
  const config = { metadata: { name, attempt: 0 }, image: { image }, ...(command ? { command: argv(command) } : {}), linux: { securityContext: { namespaceOptions: { pid } } }, ...extra };
  const { containerId: id } = await runtime(world).createContainer({ podSandboxId: sb.id, config, sandboxConfig: sb.config });
  world.note(`container ${name}`, id);
  return id;
}

When('I call CreateContainer {string} in sandbox {string} with image {string} and command {string}', async function (this: KubespecWorld, name: string, sb: string, image: string, command: string) {
  await createContainer(this, name, sb, image, command);
});

When('I call CreateContainer {string} in sandbox {string} with image {string}, label {string} and annotation {string}', async function (this: KubespecWorld, name: string, sb: string, image: string, label: string, annotation: string) {
  const kv = (s: string) => Object.fromEntries([s.split('=') as [string, string]]);
  await createContainer(this, name, sb, image, 'sleep 3600', { labels: kv(label), annotations: kv(annotation) });
});

When('I call StartContainer {string}', async function (this: KubespecWorld, name: string) {
  await runtime(this).startContainer({ containerId: containerId(this, name) });
});

When('I start container {string} in sandbox {string} running {string}', async function (this: KubespecWorld, name: string, sb: string, command: string) {
  const id = await createContainer(this, name, sb, 'busybox', command);
  await runtime(this).startContainer({ containerId: id });
});

Given('a running container {string} in sandbox {string} running {string}', async function (this: KubespecWorld, name: string, sb: string, command: string) {
  await runSandbox(this, sb);
  const id = await createContainer(this, name, sb, 'busybox', command);
  await runtime(this).startContainer({ containerId: id });
});

When('I call StopContainer {string} with timeout {int}', async function (this: KubespecWorld, name: string, timeout: number) {
  // StopContainer returns when the container has stopped; on virtual time the stop is waited for, not awaited.
  const done = runtime(this).stopContainer({ containerId: containerId(this, name), timeout });
  this.note(`stopping ${name}`, done);
  if (timeout === 0) await done;
});

When('I call RemoveContainer {string}', async function (this: KubespecWorld, name: string) {
  await runtime(this).removeContainer({ containerId: containerId(this, name) });
});

When('I stop and remove container {string}', async function (this: KubespecWorld, name: string) {
  await runtime(this).stopContainer({ containerId: containerId(this, name), timeout: 0 });
  await runtime(this).removeContainer({ containerId: containerId(this, name) });
});

When('I call StopPodSandbox {string}', async function (this: KubespecWorld, name: string) {
  await runtime(this).stopPodSandbox({ podSandboxId: sandbox(this, name).id });
});

Then('ContainerStatus of {string} has state {string}', async function (this: KubespecWorld, name: string, state: string) {
  assert.equal((await runtime(this).containerStatus({ containerId: containerId(this, name) })).status.state, state);
});

Then('ContainerStatus of {string} has state {string} and a startedAt', async function (this: KubespecWorld, name: string, state: string) {
  const { status } = await runtime(this).containerStatus({ containerId: containerId(this, name) });
  assert.equal(status.state, state);
  assert.ok(status.startedAt > 0);
});

Then('ContainerStatus of {string} has state {string} and no startedAt', async function (this: KubespecWorld, name: string, state: string) {
  const { status } = await runtime(this).containerStatus({ containerId: containerId(this, name) });
  assert.equal(status.state, state);
  assert.equal(Number(status.startedAt), 0);
});

Then('within {int} seconds ContainerStatus of {string} has state {string} with exitCode {int}', async function (this: KubespecWorld, s: number, name: string, state: string, code: number) {
  await eventually(this, `${name} ${state} ${code}`, async () => {
    const { status } = await runtime(this).containerStatus({ containerId: containerId(this, name) });
    return status.state === state && status.exitCode === code;
  }, seconds(s));
});

Then('within {int} seconds ContainerStatus of {string} has state {string} with exitCode {int} and a finishedAt after startedAt', async function (this: KubespecWorld, s: number, name: string, state: string, code: number) {
  await eventually(this, `${name} ${state} ${code}`, async () => {
    const { status } = await runtime(this).containerStatus({ containerId: containerId(this, name) });
    return status.state === state && status.exitCode === code && status.finishedAt > status.startedAt;
  }, seconds(s));
});

Then('ContainerStatus of {string} has metadata name {string}, attempt {int}, label {string} and annotation {string}', async function (this: KubespecWorld, name: string, meta: string, attempt: number, label: string, annotation: string) {
  const { status } = await runtime(this).containerStatus({ containerId: containerId(this, name) });
  const [lk, lv] = label.split('=');
  const [ak, av] = annotation.split('=');
  assert.deepEqual([status.metadata.name, status.metadata.attempt, status.labels[lk!], status.annotations[ak!]], [meta, attempt, lv, av]);
});

Then('ContainerStatus of {string} fails with gRPC status code {int} \\(NOT_FOUND)', async function (this: KubespecWorld, name: string, code: number) {
  await assert.rejects(runtime(this).containerStatus({ containerId: containerId(this, name) }), (e: any) => e.code === code);
});

Then('ListContainers with sandbox filter {string} returns exactly {string}', async function (this: KubespecWorld, sb: string, name: string) {
  const { containers } = await runtime(this).listContainers({ filter: { podSandboxId: sandbox(this, sb).id } });
  assert.deepEqual(containers.map((c) => c.metadata.name), [name]);
});

Then('ListContainers returns no container named {string}', async function (this: KubespecWorld, name: string) {
  const { containers } = await runtime(this).listContainers({});
  assert.ok(!containers.some((c) => c.id === containerId(this, name)));
});

Then('PodSandboxStatus of {string} has state {string}', async function (this: KubespecWorld, name: string, state: string) {
  assert.equal((await runtime(this).podSandboxStatus({ podSandboxId: sandbox(this, name).id })).status.state, state);
});

When('I remember the IP in PodSandboxStatus of {string}', async function (this: KubespecWorld, name: string) {
  const ip = (await runtime(this).podSandboxStatus({ podSandboxId: sandbox(this, name).id })).status.network?.ip;
  assert.ok(ip, 'the sandbox has no IP');
  this.note(`ip of ${name}`, ip);
});

Then('PodSandboxStatus of {string} has the remembered IP and state {string}', async function (this: KubespecWorld, name: string, state: string) {
  const { status } = await runtime(this).podSandboxStatus({ podSandboxId: sandbox(this, name).id });
  assert.deepEqual([status.network?.ip, status.state], [this.recall<string>(`ip of ${name}`), state]);
});

Then('{string} prints the same in containers {string} and {string}', async function (this: KubespecWorld, command: string, a: string, b: string) {
  const run = async (name: string) => (await runtime(this).execSync({ containerId: containerId(this, name), cmd: argv(command), timeout: 5 })).stdout;
  const [x, y] = [await run(a), await run(b)];
  assert.ok(x.trim() !== '', `"${command}" printed nothing`);
  assert.equal(x, y);
});

Then('{string} prints different things in containers {string} and {string}', async function (this: KubespecWorld, command: string, a: string, b: string) {
  const run = async (name: string) => (await runtime(this).execSync({ containerId: containerId(this, name), cmd: argv(command), timeout: 5 })).stdout;
  const [x, y] = [await run(a), await run(b)];
  assert.ok(x.trim() !== '' && y.trim() !== '', `"${command}" printed nothing`);
  assert.notEqual(x, y);
});

// ---- images -------------------------------------------------------------------------------------

Then('ListImages contains an image tagged {string}', async function (this: KubespecWorld, tag: string) {
  const { images } = await runtime(this).listImages({});
  assert.ok(images.some((i) => i.repoTags.some((t) => t === tag || t.endsWith(`/${tag}:latest`) || t === `${tag}:latest`)), JSON.stringify(images));
});

Then('ListImages contains no image tagged {string}', async function (this: KubespecWorld, tag: string) {
  const { images } = await runtime(this).listImages({});
  assert.ok(!images.some((i) => i.repoTags.some((t) => t === tag || t.endsWith(`/${tag}:latest`) || t === `${tag}:latest`)));
});

Then('ImageStatus of {string} returns an image whose id starts with {string}', async function (this: KubespecWorld, image: string, prefix: string) {
  const { image: got } = await runtime(this).imageStatus({ image: { image } });
  assert.ok(got?.id.startsWith(prefix), JSON.stringify(got));
});

When('I call RemoveImage {string}', async function (this: KubespecWorld, image: string) {
  await runtime(this).removeImage({ image: { image } });
});

Then('ImageStatus of {string} returns no image and no error', async function (this: KubespecWorld, image: string) {
  assert.equal((await runtime(this).imageStatus({ image: { image } })).image, undefined);
});

Then('the runtime of node {string} has a running container {string} for pod {string}', async function (this: KubespecWorld, node: string, name: string, pod: string) {
  const [c] = await containersOf(this, node, pod, name);
  assert.equal(c?.state, 'CONTAINER_RUNNING');
  this.note(`runtime container ${pod}/${name}`, c!.id);
});
