import assert from 'node:assert/strict';
import test from 'node:test';
import { FakeRuntime } from '../../reference/cri/fake/runtime.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { serveCri } from '../../reference/cri/host/grpc-server.ts';
import { GrpcCriRuntime } from './grpc-client.ts';

test('the fake runtime served over gRPC answers a CRI client: version, a sandbox, a container, exec, and NOT_FOUND', async () => {
  const clock = new VirtualClock();
  const runtime = new FakeRuntime({ clock, node: 'n1', sandboxIp: (n) => `127.9.9.${n}` });
  const server = await serveCri(runtime);
  const client = new GrpcCriRuntime({ endpoint: server.endpoint, now_ms: () => clock.now_ms() });
  try {
    assert.equal((await client.version({ version: 'v1' })).runtimeApiVersion, 'v1');
    const config = { metadata: { name: 'p', uid: 'u', namespace: 'ns', attempt: 0 } };
    const { podSandboxId } = await client.runPodSandbox({ config });
    assert.equal((await client.podSandboxStatus({ podSandboxId })).status.state, 'SANDBOX_READY');
    await client.pullImage({ image: { image: 'busybox' } });
    const { containerId } = await client.createContainer({ podSandboxId, sandboxConfig: config, config: { metadata: { name: 'c', attempt: 0 }, image: { image: 'busybox' }, command: ['sleep', '3600'] } });
    await client.startContainer({ containerId });
    const out = await client.execSync({ containerId, cmd: ['sh', '-c', 'echo hi'], timeout: 1 });
    assert.deepEqual([out.stdout.trim(), out.exitCode], ['hi', 0]);
    await assert.rejects(client.containerStatus({ containerId: 'nope' }), (e: any) => e.code === 5);
    // The runtime saw the calls as the server handed them on, with their pod.
    assert.ok(runtime.calls.some((c) => c.method === '/runtime.v1.RuntimeService/StartContainer' && c.podUid === 'u'));
  } finally {
    client.close();
    await server.close();
  }
});
