import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { GrpcCriRuntime, rawUnaryCall } from './grpc-client.ts';
import { parseCriLog } from './logs.ts';
import { _forTests } from './index.ts';

/**
 * A gRPC server that decodes requests with a schema written here from upstream's numbers
 * (k8s.io/cri-api api.proto: RunPodSandboxRequest.config = 1, PodSandboxConfig.metadata = 1,
 * .labels = 6, .linux = 8; LinuxPodSandboxConfig.cgroup_parent = 1; PodSandboxMetadata.uid = 2;
 * RunPodSandboxResponse.pod_sandbox_id = 1), so a wrong number in runtime-v1.proto shows here.
 */
const UPSTREAM = protobuf.parse(`syntax = "proto3";
message PodSandboxMetadata { string name = 1; string uid = 2; string namespace = 3; uint32 attempt = 4; }
message LinuxPodSandboxConfig { string cgroup_parent = 1; }
message PodSandboxConfig { PodSandboxMetadata metadata = 1; string hostname = 2; map<string, string> labels = 6; LinuxPodSandboxConfig linux = 8; }
message RunPodSandboxRequest { PodSandboxConfig config = 1; string runtime_handler = 2; }
message RunPodSandboxResponse { string pod_sandbox_id = 1; }
message UInt64Value { uint64 value = 1; }
message ContainerStatsFilter { string id = 1; string pod_sandbox_id = 2; map<string, string> label_selector = 3; }
message ListContainerStatsRequest { ContainerStatsFilter filter = 1; }
message ContainerMetadata { string name = 1; uint32 attempt = 2; }
message ContainerAttributes { string id = 1; ContainerMetadata metadata = 2; map<string, string> labels = 3; map<string, string> annotations = 4; }
message CpuUsage { int64 timestamp = 1; UInt64Value usage_core_nano_seconds = 2; }
message MemoryUsage { int64 timestamp = 1; UInt64Value working_set_bytes = 2; UInt64Value available_bytes = 3; UInt64Value usage_bytes = 4; UInt64Value rss_bytes = 5; }
message ContainerStats { ContainerAttributes attributes = 1; CpuUsage cpu = 2; MemoryUsage memory = 3; }
message ListContainerStatsResponse { repeated ContainerStats stats = 1; }`).root;

async function serve(handlers: Record<string, (req: Buffer) => Buffer>): Promise<{ endpoint: string; close(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-critest-'));
  const server = new grpc.Server();
  const service: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [name, fn] of Object.entries(handlers)) {
    service[name] = { path: `/runtime.v1.RuntimeService/${name}`, requestStream: false, responseStream: false, requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b, responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b };
    impl[name] = (call: any, cb: any) => cb(null, fn(call.request));
  }
  if (Object.keys(service).length > 0) server.addService(service, impl);
  const endpoint = `unix://${path.join(dir, 'cri.sock')}`;
  await new Promise<void>((resolve, reject) => server.bindAsync(endpoint, grpc.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  return { endpoint, close: () => (server.forceShutdown(), fs.rmSync(dir, { recursive: true, force: true })) };
}

test('RunPodSandbox goes out with upstream\'s field numbers, with the node\'s cgroup parent, and is recorded with its pod', async () => {
  let seen: any;
  const Req = UPSTREAM.lookupType('RunPodSandboxRequest');
  const Res = UPSTREAM.lookupType('RunPodSandboxResponse');
  const server = await serve({ RunPodSandbox: (b) => ((seen = Req.toObject(Req.decode(b))), Buffer.from(Res.encode(Res.create({ podSandboxId: 'sb-1' })).finish())) });
  const rt = new GrpcCriRuntime({ endpoint: server.endpoint, now_ms: () => 42, cgroupParent: '/kubespec-test' });
  try {
    const res = await rt.runPodSandbox({ config: { metadata: { name: 'web', uid: 'u-1', namespace: 'ns', attempt: 0 }, hostname: 'web', labels: { a: 'b' } } });
    assert.equal(res.podSandboxId, 'sb-1');
    assert.deepEqual({ ...seen.config.metadata, attempt: seen.config.metadata.attempt ?? 0 }, { name: 'web', uid: 'u-1', namespace: 'ns', attempt: 0 });
    assert.equal(seen.config.hostname, 'web');
    assert.deepEqual(seen.config.labels, { a: 'b' });
    assert.equal(seen.config.linux.cgroupParent, '/kubespec-test/podu-1');
    assert.deepEqual(rt.calls, [{ method: '/runtime.v1.RuntimeService/RunPodSandbox', at_ms: 42, podUid: 'u-1' }]);
  } finally {
    rt.close();
    server.close();
  }
});

test('ListContainerStats: the filter goes out and the working sets come back with upstream\'s field numbers (cpu skipped)', async () => {
  let seen: any;
  const Req = UPSTREAM.lookupType('ListContainerStatsRequest');
  const Res = UPSTREAM.lookupType('ListContainerStatsResponse');
  const answer = Res.create({ stats: [{ attributes: { id: 'c1', metadata: { name: 'app', attempt: 0 }, labels: { 'io.kubernetes.pod.uid': 'u-1' } }, cpu: { timestamp: 1, usageCoreNanoSeconds: { value: 5 } }, memory: { timestamp: 7, workingSetBytes: { value: 209715200 }, usageBytes: { value: 300000000 } } }] });
  const server = await serve({ ListContainerStats: (b) => ((seen = Req.toObject(Req.decode(b))), Buffer.from(Res.encode(answer).finish())) });
  const rt = new GrpcCriRuntime({ endpoint: server.endpoint, now_ms: () => 1 });
  try {
    const res = await rt.listContainerStats({ filter: { podSandboxId: 'sb-1' } });
    assert.equal(seen.filter.podSandboxId, 'sb-1');
    assert.deepEqual(res.stats, [{ attributes: { id: 'c1', metadata: { name: 'app', attempt: 0 }, labels: { 'io.kubernetes.pod.uid': 'u-1' } }, memory: { timestamp: 7, workingSetBytes: { value: 209715200 } } }]);
  } finally {
    rt.close();
    server.close();
  }
});

test('a method the server does not serve fails with gRPC status UNIMPLEMENTED (12)', async () => {
  const server = await serve({});
  try {
    await assert.rejects(rawUnaryCall(server.endpoint, '/runtime.v1.RuntimeService/Version'), (e: any) => e.code === 12);
  } finally {
    server.close();
  }
});

test('CRI log lines: full and partial records, both streams', () => {
  const lines = parseCriLog('2026-11-30T20:00:00.000000001Z stdout F hello\n2026-11-30T20:00:01Z stderr P par\n2026-11-30T20:00:01Z stderr F tial\nnot a record\n');
  assert.deepEqual(lines.map((l) => [l.stream, l.text]), [['stdout', 'hello'], ['stderr', 'partial']]);
  assert.equal(lines[0]!.at_ms, Date.parse('2026-11-30T20:00:00Z'));
});

test('image names are normalised as Docker references are', () => {
  assert.equal(_forTests.normalise('busybox'), 'docker.io/library/busybox:latest');
  assert.equal(_forTests.normalise('kubespec/http:200'), 'docker.io/kubespec/http:200');
  assert.equal(_forTests.normalise('registry.k8s.io/pause:3.9'), 'registry.k8s.io/pause:3.9');
});

test('containerd serves GetContainerEvents from 1.7', () => {
  assert.equal(_forTests.servesContainerEvents('1.6.20'), false);
  assert.equal(_forTests.servesContainerEvents('1.7.0'), true);
  assert.equal(_forTests.servesContainerEvents('2.0.1'), true);
});
