/**
 * A CRI v1 client over gRPC: the TypeScript CriRuntime interface (contract/cri.ts) spoken
 * to a real runtime's socket as the kubelet speaks it — runtime.v1.RuntimeService and
 * runtime.v1.ImageService with the messages of reference/cri/runtime-v1.proto (upstream's field numbers).
 * Every call is recorded as a proxy in front of the runtime would see it (method, the pod it
 * concerns, when), for the claims about which calls the kubelet makes.
 */
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { grpcLib, protoLoaderLib } from '../../reference/grpc-lib.ts';
import { CriError, LABEL_POD_UID, type CriRuntime, type ContainerEvent, type PodSandboxConfig } from '../../contract/cri.ts';
import type { CriCallRecord } from '../../contract/contract.ts';

import { LOAD_OPTIONS, PROTO_PATH } from '../../reference/cri/proto.ts';

let definition: grpc.GrpcObject | undefined;
function services(): { runtime: grpc.ServiceClientConstructor; image: grpc.ServiceClientConstructor } {
  definition ??= grpcLib().loadPackageDefinition(protoLoaderLib().loadSync(PROTO_PATH, LOAD_OPTIONS));
  const v1 = (definition.runtime as grpc.GrpcObject).v1 as grpc.GrpcObject;
  return { runtime: v1.RuntimeService as grpc.ServiceClientConstructor, image: v1.ImageService as grpc.ServiceClientConstructor };
}

/** Unset message fields come back as null with `defaults`; the interface has them absent. */
function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)])) as T;
  }
  return value;
}

export interface GrpcCriOptions {
  /** e.g. unix:///tmp/…/containerd.sock */
  endpoint: string;
  /** Milliseconds since the epoch, for the call record (the wiring's clock). */
  now_ms: () => number;
  /**
   * The node's cgroup root (the kubelet's --cgroup-root): put into every sandbox config that
   * names none, so the pods' cgroups live under one parent the host can remove afterwards.
   */
  cgroupParent?: string;
  /**
   * Called with the image reference before every ImageStatus: where the host provides images on
   * demand (a local import instead of a registry), the kubelet's lookup finds them present.
   */
  beforeImageLookup?: (image: string) => void;
}

export class GrpcCriRuntime implements CriRuntime {
  readonly calls: CriCallRecord[] = [];
  private readonly runtimeClient: grpc.Client & Record<string, any>;
  private readonly imageClient: grpc.Client & Record<string, any>;
  /** Which pod a sandbox or container belongs to, learnt from the calls and answers that name both. */
  private readonly podOf = new Map<string, string>();
  /** Where each container created through this client writes its output (logDirectory/logPath). */
  private readonly logPaths = new Map<string, string>();
  /** RunPodSandbox calls wait on this while held (holdSandboxes), as a proxy in front of the socket could hold them. */
  private held?: { promise: Promise<void>; release: () => void };

  constructor(private readonly opts: GrpcCriOptions) {
    const { runtime, image } = services();
    const insecure = grpcLib().credentials.createInsecure();
    this.runtimeClient = new runtime(opts.endpoint, insecure) as any;
    this.imageClient = new image(opts.endpoint, insecure) as any;
  }

  close(): void {
    this.runtimeClient.close();
    this.imageClient.close();
  }

  private call<T>(service: 'RuntimeService' | 'ImageService', method: string, req: object, opts: { podUid?: string; deadline_s?: number } = {}): Promise<T> {
    const client = service === 'RuntimeService' ? this.runtimeClient : this.imageClient;
    const rpc = method[0]!.toLowerCase() + method.slice(1);
    this.calls.push({ method: `/runtime.v1.${service}/${method}`, at_ms: this.opts.now_ms(), ...(opts.podUid ? { podUid: opts.podUid } : {}) });
    const deadline = new Date(Date.now() + (opts.deadline_s ?? 60) * 1000);
    return new Promise<T>((resolve, reject) => {
      client[rpc](req, { deadline }, (error: grpc.ServiceError | null, res: T) => {
        if (error) reject(new CriError(error.code, `${method}: ${error.details || error.message}`));
        else resolve(withoutNulls(res));
      });
    });
  }

  private learn(id: string, uid: string | undefined): void {
    if (uid) this.podOf.set(id, uid);
  }

  version(req: { version: string }) {
    return this.call<any>('RuntimeService', 'Version', req);
  }

  /** The sandbox config with the node's cgroup parent, unless it names one. */
  private withCgroup(config: PodSandboxConfig): PodSandboxConfig {
    if (!this.opts.cgroupParent || config.linux?.cgroupParent) return config;
    return { ...config, linux: { ...(config.linux ?? {}), cgroupParent: `${this.opts.cgroupParent}/pod${config.metadata.uid}` } };
  }

  holdSandboxes(): void {
    if (this.held) return;
    let release = () => {};
    const promise = new Promise<void>((r) => (release = r));
    this.held = { promise, release };
  }

  releaseSandboxes(): void {
    this.held?.release();
    this.held = undefined;
  }

  logPathOf(containerId: string): string | undefined {
    return this.logPaths.get(containerId);
  }

  async runPodSandbox(req: Parameters<CriRuntime['runPodSandbox']>[0]) {
    const uid = req.config.metadata.uid;
    if (this.held) await this.held.promise;
    const res = await this.call<{ podSandboxId: string }>('RuntimeService', 'RunPodSandbox', { ...req, config: this.withCgroup(req.config) }, { podUid: uid, deadline_s: 120 });
    this.learn(res.podSandboxId, uid);
    return res;
  }

  stopPodSandbox(req: { podSandboxId: string }) {
    return this.call<Record<string, never>>('RuntimeService', 'StopPodSandbox', req, { podUid: this.podOf.get(req.podSandboxId), deadline_s: 120 });
  }

  removePodSandbox(req: { podSandboxId: string }) {
    return this.call<Record<string, never>>('RuntimeService', 'RemovePodSandbox', req, { podUid: this.podOf.get(req.podSandboxId), deadline_s: 120 });
  }

  async podSandboxStatus(req: { podSandboxId: string; verbose?: boolean }) {
    const res = await this.call<any>('RuntimeService', 'PodSandboxStatus', req, { podUid: this.podOf.get(req.podSandboxId) });
    this.learn(req.podSandboxId, res.status?.metadata?.uid);
    return res;
  }

  async listPodSandbox(req: Parameters<CriRuntime['listPodSandbox']>[0]) {
    const res = await this.call<any>('RuntimeService', 'ListPodSandbox', req);
    for (const s of res.items) this.learn(s.id, s.metadata?.uid);
    return res;
  }

  async createContainer(req: Parameters<CriRuntime['createContainer']>[0]) {
    const uid = req.sandboxConfig.metadata.uid;
    const res = await this.call<{ containerId: string }>('RuntimeService', 'CreateContainer', { ...req, sandboxConfig: this.withCgroup(req.sandboxConfig) }, { podUid: uid });
    this.learn(res.containerId, uid);
    if (req.sandboxConfig.logDirectory && req.config.logPath) this.logPaths.set(res.containerId, path.join(req.sandboxConfig.logDirectory, req.config.logPath));
    return res;
  }

  startContainer(req: { containerId: string }) {
    return this.call<Record<string, never>>('RuntimeService', 'StartContainer', req, { podUid: this.podOf.get(req.containerId) });
  }

  stopContainer(req: { containerId: string; timeout: number }) {
    return this.call<Record<string, never>>('RuntimeService', 'StopContainer', req, { podUid: this.podOf.get(req.containerId), deadline_s: req.timeout + 60 });
  }

  removeContainer(req: { containerId: string }) {
    return this.call<Record<string, never>>('RuntimeService', 'RemoveContainer', req, { podUid: this.podOf.get(req.containerId) });
  }

  async listContainers(req: Parameters<CriRuntime['listContainers']>[0]) {
    const res = await this.call<any>('RuntimeService', 'ListContainers', req);
    for (const c of res.containers) this.learn(c.id, c.labels?.[LABEL_POD_UID] ?? this.podOf.get(c.podSandboxId));
    return res;
  }

  containerStatus(req: { containerId: string; verbose?: boolean }) {
    return this.call<any>('RuntimeService', 'ContainerStatus', req, { podUid: this.podOf.get(req.containerId) });
  }

  /** ListContainerStats: the kubelet's eviction manager ranks pods by these working sets (contract/cri.ts ContainerStats). */
  async listContainerStats(req: Parameters<NonNullable<CriRuntime['listContainerStats']>>[0]) {
    const res = await this.call<any>('RuntimeService', 'ListContainerStats', req);
    return { stats: (res.stats ?? []).map((s: any) => ({ attributes: { id: s.attributes?.id ?? '', metadata: s.attributes?.metadata ?? { name: '', attempt: 0 }, labels: s.attributes?.labels ?? {} }, ...(s.memory?.workingSetBytes ? { memory: { timestamp: s.memory.timestamp, workingSetBytes: { value: s.memory.workingSetBytes.value } } } : {}) })) };
  }

  async execSync(req: { containerId: string; cmd: string[]; timeout: number }) {
    const res = await this.call<any>('RuntimeService', 'ExecSync', req, { podUid: this.podOf.get(req.containerId), deadline_s: (req.timeout || 60) + 30 });
    return { stdout: Buffer.from(res.stdout ?? []).toString('utf8'), stderr: Buffer.from(res.stderr ?? []).toString('utf8'), exitCode: res.exitCode };
  }

  /** The GetContainerEvents stream; `onError` gets UNIMPLEMENTED from a runtime that does not serve it (containerd 1.6). */
  getContainerEvents(onEvent: (e: ContainerEvent) => void, onError: (e: CriError) => void): { cancel(): void } {
    this.calls.push({ method: '/runtime.v1.RuntimeService/GetContainerEvents', at_ms: this.opts.now_ms() });
    const stream = this.runtimeClient.getContainerEvents({}) as grpc.ClientReadableStream<any>;
    stream.on('data', (e: any) => onEvent(withoutNulls({ containerId: e.containerId, containerEventType: e.containerEventType, createdAt: e.createdAt })));
    stream.on('error', (e: grpc.ServiceError) => {
      if (e.code !== grpcLib().status.CANCELLED) onError(new CriError(e.code, `GetContainerEvents: ${e.details || e.message}`));
    });
    return { cancel: () => stream.cancel() };
  }

  pullImage(req: { image: { image: string } }) {
    return this.call<{ imageRef: string }>('ImageService', 'PullImage', req, { deadline_s: 300 });
  }

  listImages(req: Parameters<CriRuntime['listImages']>[0]) {
    return this.call<any>('ImageService', 'ListImages', req);
  }

  imageStatus(req: { image: { image: string } }) {
    this.opts.beforeImageLookup?.(req.image.image);
    return this.call<any>('ImageService', 'ImageStatus', req);
  }

  removeImage(req: { image: { image: string } }) {
    return this.call<Record<string, never>>('ImageService', 'RemoveImage', req);
  }
}

/**
 * One unary call of any method path with an empty request, the way a client probes a gRPC
 * server (for the claims that the runtime speaks CRI over gRPC and answers an unknown method
 * UNIMPLEMENTED). Resolves with the raw response bytes, rejects with the gRPC status code.
 */
export function rawUnaryCall(endpoint: string, method: string, body: Buffer = Buffer.alloc(0)): Promise<Buffer> {
  const lib = grpcLib();
  const client = new lib.Client(endpoint, lib.credentials.createInsecure());
  return new Promise<Buffer>((resolve, reject) => {
    client.makeUnaryRequest(method, (b: Buffer) => b, (b: Buffer) => b, body, { deadline: new Date(Date.now() + 10_000) }, (error, res) => {
      client.close();
      if (error) reject(new CriError(error.code, error.details || error.message));
      else resolve(res!);
    });
  });
}
