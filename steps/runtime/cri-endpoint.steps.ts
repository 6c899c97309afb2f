/**
 * Steps about CRI as a wire protocol and about which runtime the kubelet talks to
 * (features/runtime/cri.feature CRI-GRPC, CRI-PLUGGABLE, CRI-DOCKER-NOT-DIRECT;
 * containerd.feature CTRD-CRI-PLUGIN, CTRD-CONTENT-ADDRESSABLE, CTRD-EVENTS).
 *
 * The gRPC calls here are made by the steps themselves, with their own two-message schema, on
 * the socket the target names: what answers must be a gRPC server speaking runtime.v1, whatever
 * client the target's own kubelet uses.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { grpcLib } from '../../reference/grpc-lib.ts';
import protobuf from 'protobufjs';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { defaultNode, eventually, passSeconds, seconds } from '../kubelet/support.ts';

// runtime.v1 VersionRequest / VersionResponse, field numbers from k8s.io/cri-api pkg/apis/runtime/v1/api.proto.
const VERSION = protobuf.parse(`syntax = "proto3";
message VersionRequest { string version = 1; }
message VersionResponse { string version = 1; string runtime_name = 2; string runtime_version = 3; string runtime_api_version = 4; }`).root;

function endpointOf(world: KubespecWorld): Promise<string> {
  const nodes = world.nodes();
  assert.ok(nodes.criEndpoint, 'this target declares cri.grpc but names no CRI endpoint');
  return nodes.criEndpoint(defaultNode(world)!);
}

/** One unary call on the socket, bytes in and out; rejects with the gRPC status. */
function unary(endpoint: string, method: string, body: Uint8Array): Promise<Buffer> {
  const lib = grpcLib();
  const client = new lib.Client(endpoint, lib.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(`/${method}`, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), { deadline: new Date(Date.now() + 10_000) }, (error, res) => {
      client.close();
      if (error) reject(error);
      else resolve(res!);
    });
  });
}

When('I call {string} with version {string}', async function (this: KubespecWorld, method: string, version: string) {
  const req = VERSION.lookupType('VersionRequest');
  const raw = await unary(await endpointOf(this), method, req.encode(req.create({ version })).finish());
  this.note('version answer', VERSION.lookupType('VersionResponse').toObject(VERSION.lookupType('VersionResponse').decode(raw), { defaults: true }));
});

Then('the answer has runtimeApiVersion {string} and a non-empty runtimeName', async function (this: KubespecWorld, apiVersion: string) {
  const answer = this.recall<any>('version answer');
  assert.equal(answer.runtimeApiVersion, apiVersion, JSON.stringify(answer));
  assert.ok(answer.runtimeName, JSON.stringify(answer));
});

When('I call {string}', async function (this: KubespecWorld, method: string) {
  this.note('call outcome', await unary(await endpointOf(this), method, new Uint8Array()).then(() => ({ code: 0 }), (e: grpc.ServiceError) => ({ code: e.code, details: e.details })));
});

Then('the call fails with gRPC status code {int} \\(UNIMPLEMENTED)', async function (this: KubespecWorld, code: number) {
  const outcome = this.recall<{ code: number; details?: string }>('call outcome');
  assert.equal(outcome.code, code, JSON.stringify(outcome));
});

// ---- containerd as containerd sees it -------------------------------------------------------

Given('a containerd CRI runtime endpoint with image {string} present', async function (this: KubespecWorld, image: string) {
  await this.nodes().ensureNode('cri-node');
  this.note('kubelet node', 'cri-node');
  const rt = this.nodes().runtime!('cri-node');
  if (!(await rt.imageStatus({ image: { image } })).image) await rt.pullImage({ image: { image } });
});

Then('the runtime\'s Version answer has runtimeName {string}', async function (this: KubespecWorld, name: string) {
  assert.equal((await this.nodes().runtime!(defaultNode(this)!).version({ version: 'v1' })).runtimeName, name);
});

Then('containerd namespace {string} lists a container whose id is the sandbox id of {string}', async function (this: KubespecWorld, namespace: string, sandbox: string) {
  const { id } = this.recall<{ id: string }>(`sandbox ${sandbox}`);
  const ids = await this.nodes().containerdContainers!(defaultNode(this)!, namespace);
  assert.ok(ids.includes(id), `ctr --namespace ${namespace} containers list: ${ids.join(', ') || '(none)'}; sandbox ${id}`);
});

When('the same image is also tagged {string} in the runtime', async function (this: KubespecWorld, alias: string) {
  await this.nodes().tagImage!(defaultNode(this)!, 'busybox', alias);
  this.note('alias', alias);
});

Then('ImageStatus of {string} and of {string} return the same id', async function (this: KubespecWorld, a: string, b: string) {
  const rt = this.nodes().runtime!(defaultNode(this)!);
  const [x, y] = [(await rt.imageStatus({ image: { image: a } })).image, (await rt.imageStatus({ image: { image: b } })).image];
  assert.ok(x && y, `ImageStatus: ${JSON.stringify({ [a]: x, [b]: y })}`);
  assert.equal(x.id, y.id);
  this.note('image id', x.id);
});

Then('that id matches {string}', async function (this: KubespecWorld, pattern: string) {
  assert.match(this.recall<string>('image id'), new RegExp(pattern));
});

Then('ListImages returns that id once, with both tags in repoTags', async function (this: KubespecWorld) {
  const id = this.recall<string>('image id');
  const { images } = await this.nodes().runtime!(defaultNode(this)!).listImages({});
  const same = images.filter((i) => i.id === id);
  assert.equal(same.length, 1, JSON.stringify(same));
  const alias = this.recall<string>('alias');
  const tags = same[0]!.repoTags;
  assert.ok(tags.some((t) => t.endsWith('/busybox:latest') || t === 'busybox:latest') && tags.some((t) => t.endsWith(alias)), tags.join(', '));
});

// ---- the event stream -----------------------------------------------------------------------

Given('I subscribe to GetContainerEvents', async function (this: KubespecWorld) {
  const rt = this.nodes().runtime!(defaultNode(this)!);
  assert.ok(rt.getContainerEvents, 'this runtime offers no GetContainerEvents although the target declares cri.events');
  const events: { containerId: string; type: string }[] = [];
  const errors: Error[] = [];
  const sub = rt.getContainerEvents((e) => events.push({ containerId: e.containerId, type: e.containerEventType }), (e) => errors.push(e));
  this.onCleanup(async () => sub.cancel());
  this.note('container events', { events, errors });
});

When('I create, start, stop and remove container {string} in a new sandbox {string}', async function (this: KubespecWorld, name: string, sandbox: string) {
  const rt = this.nodes().runtime!(defaultNode(this)!);
  const config = { metadata: { name: sandbox, namespace: 'default', uid: `kubespec-${sandbox}-${this.session.seed}`, attempt: 0 } };
  const { podSandboxId } = await rt.runPodSandbox({ config });
  const { containerId } = await rt.createContainer({ podSandboxId, sandboxConfig: config, config: { metadata: { name, attempt: 0 }, image: { image: 'busybox' }, command: ['sleep', '3600'] } });
  await rt.startContainer({ containerId });
  await rt.stopContainer({ containerId, timeout: 0 });
  await rt.removeContainer({ containerId });
  this.note(`container ${name}`, containerId);
});

Then('the events for container {string} are in order {string}', async function (this: KubespecWorld, name: string, expected: string) {
  const id = this.recall<string>(`container ${name}`);
  const { events, errors } = this.recall<{ events: { containerId: string; type: string }[]; errors: Error[] }>('container events');
  const want = expected.split(',').map((x) => x.trim());
  const got = () => events.filter((e) => e.containerId === id).map((e) => e.type);
  await eventually(this, `${want.length} events for ${name}`, async () => got().length >= want.length || errors.length > 0, seconds(5)).catch(() => undefined);
  assert.deepEqual(errors.map((e) => e.message), []);
  assert.deepEqual(got(), want);
});

// ---- which runtime the kubelet talks to -------------------------------------------------------

Given('a cluster with node {string} whose kubelet uses the CRI endpoint of a second, recording runtime', async function (this: KubespecWorld, node: string) {
  const nodes = this.nodes();
  const endpoint = await nodes.startSecondRuntime!();
  await nodes.startKubelet!(node, { criEndpoint: endpoint });
  this.note('kubelet node', node);
  this.note('second runtime', endpoint);
});

Then('the second runtime received RunPodSandbox for pod {string}', async function (this: KubespecWorld, pod: string) {
  const endpoint = this.recall<string>('second runtime');
  const uid = this.recall<string>(`uid of pod ${pod}`);
  // What the kubelet sent, as recorded on its way to the second runtime...
  const calls = await this.nodes().criCalls!(defaultNode(this)!);
  assert.ok(calls.some((c) => c.method === '/runtime.v1.RuntimeService/RunPodSandbox' && c.podUid === uid), calls.map((c) => c.method).join(', '));
  // ...and what that runtime holds, asked over its own socket.
  const { items } = await this.nodes().runtimeAt!(endpoint).listPodSandbox({ filter: { labelSelector: { 'io.kubernetes.pod.uid': uid } } });
  assert.equal(items.length, 1, `sandboxes of ${pod} in the second runtime: ${JSON.stringify(items)}`);
});

Given('a node {string} whose kubelet\'s runtime endpoint answers gRPC but implements no {string}', async function (this: KubespecWorld, node: string, service: string) {
  // A gRPC server with no CRI service on it: what the kubelet finds at a Docker Engine socket
  // without cri-dockerd, or at a runtime that speaks only CRI v1alpha2.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-not-cri-'));
  const lib = grpcLib();
  const server = new lib.Server();
  const socket = path.join(dir, 'runtime.sock');
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${socket}`, lib.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  this.onCleanup(async () => {
    server.forceShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  this.note('not-cri endpoint', { node, endpoint: `unix://${socket}`, service });
});

When('the kubelet of node {string} starts', async function (this: KubespecWorld, node: string) {
  const { endpoint } = this.recall<{ endpoint: string }>('not-cri endpoint');
  this.note(`kubelet ${node} outcome`, await this.nodes().startKubelet!(node, { criEndpoint: endpoint }).then(() => 'running', (e: Error) => e));
});

Then('the kubelet of node {string} exits with an error mentioning {string}', async function (this: KubespecWorld, node: string, text: string) {
  const outcome = this.recall<Error | string>(`kubelet ${node} outcome`);
  assert.ok(outcome instanceof Error, `the kubelet of ${node} started against a runtime without ${text}`);
  assert.ok(outcome.message.includes(text), outcome.message);
});

Then('node {string} never reports condition {string} with status {string}', async function (this: KubespecWorld, node: string, type: string, status: string) {
  await passSeconds(this, 3);
  const res = await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${node}` });
  const cond = res.json?.status?.conditions?.find((c: any) => c.type === type);
  assert.ok(res.status === 404 || cond?.status !== status, `node ${node}: ${JSON.stringify(cond)}`);
});
