import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../wiring/virtual-clock.ts';
import { FakeRuntime } from './runtime.ts';
import { CriError } from '../../../contract/cri.ts';

function setup() {
  const clock = new VirtualClock();
  const runtime = new FakeRuntime({ clock, node: 'n1', sandboxIp: (n) => `127.9.0.${n}` });
  return { clock, runtime };
}
const sandboxConfig = { metadata: { name: 'p', uid: 'u1', namespace: 'default', attempt: 0 } };
const settle = () => new Promise((r) => setImmediate(r));

test('a container goes CREATED → RUNNING → EXITED with its exit code after its sleep', async () => {
  const { clock, runtime } = setup();
  const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig });
  await runtime.pullImage({ image: { image: 'busybox' } });
  const { containerId } = await runtime.createContainer({ podSandboxId, sandboxConfig, config: { metadata: { name: 'c', attempt: 0 }, image: { image: 'busybox' }, command: ['sh', '-c', 'sleep 1; exit 4'] } });
  assert.equal((await runtime.containerStatus({ containerId })).status.state, 'CONTAINER_CREATED');
  await runtime.startContainer({ containerId });
  assert.equal((await runtime.containerStatus({ containerId })).status.state, 'CONTAINER_RUNNING');
  clock.advance(1000);
  const { status } = await runtime.containerStatus({ containerId });
  assert.deepEqual([status.state, status.exitCode, status.reason], ['CONTAINER_EXITED', 4, 'Error']);
});

test('a container that ignores SIGTERM is SIGKILLed (137) when the stop timeout ends', async () => {
  const { clock, runtime } = setup();
  const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig });
  await runtime.pullImage({ image: { image: 'busybox' } });
  const { containerId } = await runtime.createContainer({ podSandboxId, sandboxConfig, config: { metadata: { name: 'c', attempt: 0 }, image: { image: 'busybox' }, command: ['sleep', '3600'] } });
  await runtime.startContainer({ containerId });
  let stopped = false;
  void runtime.stopContainer({ containerId, timeout: 2 }).then(() => (stopped = true));
  clock.advance(1999);
  await settle();
  assert.equal(stopped, false);
  clock.advance(1);
  await settle();
  assert.equal(stopped, true);
  assert.equal((await runtime.containerStatus({ containerId })).status.exitCode, 137);
});

test('an image on a .invalid registry cannot be pulled; ImageStatus of an absent image is empty, not an error', async () => {
  const { runtime } = setup();
  await assert.rejects(runtime.pullImage({ image: { image: 'kubespec.invalid/missing:v0' } }), (e: unknown) => e instanceof CriError && e.code === 5);
  assert.deepEqual(await runtime.imageStatus({ image: { image: 'nothing:here' } }), {});
});

test('containers of a sandbox share its network namespace but each has its own PID namespace by default', async () => {
  const { runtime } = setup();
  const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig });
  await runtime.pullImage({ image: { image: 'busybox' } });
  const mk = async (name: string) => (await runtime.createContainer({ podSandboxId, sandboxConfig, config: { metadata: { name, attempt: 0 }, image: { image: 'busybox' } } })).containerId;
  const [a, b] = [await mk('a'), await mk('b')];
  assert.equal(runtime.namespacesOf(a).net, runtime.namespacesOf(b).net);
  assert.notEqual(runtime.namespacesOf(a).pid, runtime.namespacesOf(b).pid);
});

test('exec runs the mini shell against the container files; exit codes are returned', async () => {
  const { runtime } = setup();
  const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig });
  await runtime.pullImage({ image: { image: 'busybox' } });
  const { containerId } = await runtime.createContainer({ podSandboxId, sandboxConfig, config: { metadata: { name: 'c', attempt: 0 }, image: { image: 'busybox' }, command: ['sh', '-c', 'touch /tmp/healthy; sleep 3600'] } });
  await runtime.startContainer({ containerId });
  assert.equal((await runtime.execSync({ containerId, cmd: ['cat', '/tmp/healthy'], timeout: 1 })).exitCode, 0);
  assert.equal((await runtime.execSync({ containerId, cmd: ['sh', '-c', 'rm -f /tmp/healthy'], timeout: 1 })).exitCode, 0);
  assert.equal((await runtime.execSync({ containerId, cmd: ['cat', '/tmp/healthy'], timeout: 1 })).exitCode, 1);
  assert.equal((await runtime.execSync({ containerId, cmd: ['sh', '-c', 'exit 3'], timeout: 1 })).exitCode, 3);
});

test('kubespec/alloc:256Mi is OOM-killed under a 64Mi memory limit, and keeps running with no limit', async () => {
  const { clock, runtime } = setup();
  const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig });
  const image = { image: 'kubespec/alloc:256Mi' };
  await runtime.pullImage({ image });
  const limited = await runtime.createContainer({ podSandboxId, sandboxConfig, config: { metadata: { name: 'limited', attempt: 0 }, image, linux: { resources: { memoryLimitInBytes: 64 * 2 ** 20 } } } });
  const free = await runtime.createContainer({ podSandboxId, sandboxConfig, config: { metadata: { name: 'free', attempt: 0 }, image } });
  await runtime.startContainer({ containerId: limited.containerId });
  await runtime.startContainer({ containerId: free.containerId });
  clock.advance(1000);
  const a = (await runtime.containerStatus({ containerId: limited.containerId })).status;
  const b = (await runtime.containerStatus({ containerId: free.containerId })).status;
  assert.deepEqual([a.state, a.exitCode, a.reason], ['CONTAINER_EXITED', 137, 'OOMKilled']);
  assert.equal(b.state, 'CONTAINER_RUNNING');
});
