/**
 * A deterministic fake CRI runtime on injected time: what containerd + runc do, as far as the
 * kubelet can see through CRI. Each sandbox is a "pause" holder of the pod's network and IPC
 * namespaces with an IP of its own; each container runs a Program (program.ts) step by step on
 * the scheduler — sleeps are timers, never wall-clock waits.
 *
 * Its network face (HTTP answers, TCP listeners) is read by the host wiring: `httpAnswer` for
 * the msw handlers that serve the containers' HTTP endpoints, `onListen` to open real TCP
 * listeners on the sandbox's IP. Every call is recorded (`calls`) with its full gRPC method name,
 * for the claims about the call chain.
 *
 * PID namespaces: a container's PID namespace is its own unless the sandbox config asks for POD
 * (the kubelet does for `shareProcessNamespace: true`); network and IPC are the sandbox's
 * (api.proto NamespaceOption; kubelet kuberuntime_sandbox.go / security_context_others.go).
 */
import type {
  ContainerEvent, ContainerEventType,
  Container, ContainerConfig, ContainerFilter, ContainerState, ContainerStats, ContainerStatus, CriRuntime, ExecSyncResponse, Image, ImageSpec,
  PodSandbox, PodSandboxConfig, PodSandboxFilter, PodSandboxState, PodSandboxStatus, VersionResponse,
} from '../../../contract/cri.ts';
import { CriError, GRPC_DEADLINE_EXCEEDED, GRPC_NOT_FOUND, GRPC_UNKNOWN, LABEL_POD_UID } from '../../../contract/cri.ts';
import type { Scheduler } from '../../wiring/virtual-clock.ts';
import { imageMissing, programOf, scriptSteps, type Program, type Step } from './program.ts';
import { ImageStore } from './images.ts';

export interface FakeRuntimeOptions {
  clock: Scheduler;
  /** Names the runtime's objects and namespaces apart from other nodes'. */
  node: string;
  /** The IP of the n-th sandbox (n from 1); the host decides the range. */
  sandboxIp: (n: number) => string;
  /** Told when a container starts or stops listening on a TCP port of its sandbox IP. */
  onListen?: (ip: string, port: number, listening: boolean) => void;
}

export interface CriCall {
  /** e.g. "/runtime.v1.RuntimeService/RunPodSandbox" */
  method: string;
  at_ms: number;
  /** The pod uid / sandbox / container the call concerns, when it names one (RunPodSandbox: the sandbox it made). */
  podUid?: string;
  sandboxId?: string;
  containerId?: string;
}

interface SandboxRec {
  id: string;
  config: PodSandboxConfig;
  state: PodSandboxState;
  createdAt: number;
  ip: string;
  /** One per sandbox: the network namespace path containers of it report. */
  netns: string;
  ipc: string;
}

interface ContainerRec {
  id: string;
  sandboxId: string;
  config: ContainerConfig;
  imageRef: string;
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  pidns: string;
  program: Program;
  files: Set<string>;
  log: { at_ms: number; stream: 'stdout' | 'stderr'; text: string }[];
  listening: Map<number, { status?: number; delay_s?: number; grpc?: string }>;
  /** Memory the process holds (its cgroup's working set): what `alloc` took, 0 once it ends. */
  memory_bytes: number;
  cancel?: () => void;
  killTimer?: () => void;
}

const RUNTIME_NAME = 'kubespec-fake';
const PRELOADED = ['registry.k8s.io/pause:3.9'];
const ns = (ms: number) => ms * 1_000_000;

export class FakeRuntime implements CriRuntime {
  readonly calls: CriCall[] = [];
  private readonly sandboxes = new Map<string, SandboxRec>();
  private readonly containers = new Map<string, ContainerRec>();
  /**
   * Ids by the pod-uid label and by sandbox: the kubelet lists one pod's sandboxes and containers
   * on every sync, and a scan of the whole node made each start cost as much as the node's pods.
   */
  private readonly sandboxesByPod = new IdIndex();
  private readonly containersByPod = new IdIndex();
  private readonly containersBySandbox = new IdIndex();
  private readonly images = new ImageStore((key) => this.newId(`image:${key}`));
  private nextId = 1;
  private sandboxCount = 0;
  /** Hold RunPodSandbox until released (a scenario looks at the pod while its sandbox is being made). */
  private hold?: { waiting: (() => void)[] };
  /** GetContainerEvents subscribers: each gets every lifecycle event from its subscription on. */
  private readonly subscribers = new Set<(event: ContainerEvent) => void>();

  constructor(private readonly opts: FakeRuntimeOptions) {
    for (const image of PRELOADED) this.images.pull(normalise(image));
  }

  // ---- RuntimeService ----------------------------------------------------------------------

  async version(_req: { version: string }): Promise<VersionResponse> {
    this.record('RuntimeService/Version');
    return { version: '0.1.0', runtimeName: RUNTIME_NAME, runtimeVersion: '0.1.0', runtimeApiVersion: 'v1' };
  }

  async runPodSandbox(req: { config: PodSandboxConfig }): Promise<{ podSandboxId: string }> {
    const call = this.record('RuntimeService/RunPodSandbox', { podUid: req.config.metadata.uid });
    if (this.hold) await new Promise<void>((release) => this.hold!.waiting.push(release));
    const id = this.newId('sandbox');
    call.sandboxId = id;
    const n = ++this.sandboxCount;
    const rec: SandboxRec = { id, config: req.config, state: 'SANDBOX_READY', createdAt: ns(this.opts.clock.now_ms()), ip: this.opts.sandboxIp(n), netns: `/var/run/netns/cni-${id}`, ipc: `ipc:${id}` };
    this.sandboxes.set(id, rec);
    this.sandboxesByPod.add(req.config.labels?.[LABEL_POD_UID], id);
    return { podSandboxId: id };
  }

  async stopPodSandbox(req: { podSandboxId: string }): Promise<Record<string, never>> {
    this.record('RuntimeService/StopPodSandbox', { sandboxId: req.podSandboxId });
    const sandbox = this.sandboxes.get(req.podSandboxId);
    if (!sandbox) return {};
    for (const c of this.containersOf(sandbox.id)) if (c.state === 'CONTAINER_RUNNING') this.terminate(c, 137, 'Error');
    sandbox.state = 'SANDBOX_NOTREADY';
    return {};
  }

  async removePodSandbox(req: { podSandboxId: string }): Promise<Record<string, never>> {
    this.record('RuntimeService/RemovePodSandbox', { sandboxId: req.podSandboxId });
    const sandbox = this.sandboxes.get(req.podSandboxId);
    if (!sandbox) return {};
    for (const c of this.containersOf(sandbox.id)) this.dropContainer(c);
    this.sandboxes.delete(sandbox.id);
    this.sandboxesByPod.delete(sandbox.config.labels?.[LABEL_POD_UID], sandbox.id);
    return {};
  }

  async podSandboxStatus(req: { podSandboxId: string }): Promise<{ status: PodSandboxStatus }> {
    this.record('RuntimeService/PodSandboxStatus', { sandboxId: req.podSandboxId });
    const s = this.mustSandbox(req.podSandboxId);
    const options = s.config.linux?.securityContext?.namespaceOptions ?? {};
    return {
      status: {
        id: s.id, metadata: { ...s.config.metadata }, state: s.state, createdAt: s.createdAt,
        ...(s.state === 'SANDBOX_READY' ? { network: { ip: s.ip } } : {}),
        linux: { namespaces: { options: { network: options.network ?? 'POD', pid: options.pid ?? 'CONTAINER', ipc: options.ipc ?? 'POD' } } },
        labels: { ...(s.config.labels ?? {}) }, annotations: { ...(s.config.annotations ?? {}) },
      },
    };
  }

  async listPodSandbox(req: { filter?: PodSandboxFilter }): Promise<{ items: PodSandbox[] }> {
    this.record('RuntimeService/ListPodSandbox');
    const f = req.filter ?? {};
    const items = candidates(this.sandboxes, this.sandboxesByPod, f.labelSelector)
      .filter((s) => (!f.id || s.id === f.id) && (!f.state || s.state === f.state.state) && labelsMatch(s.config.labels, f.labelSelector))
      .map((s) => ({ id: s.id, metadata: { ...s.config.metadata }, state: s.state, createdAt: s.createdAt, labels: { ...(s.config.labels ?? {}) }, annotations: { ...(s.config.annotations ?? {}) } }));
    return { items };
  }

  async createContainer(req: { podSandboxId: string; config: ContainerConfig; sandboxConfig: PodSandboxConfig }): Promise<{ containerId: string }> {
    this.record('RuntimeService/CreateContainer', { sandboxId: req.podSandboxId });
    const sandbox = this.mustSandbox(req.podSandboxId);
    if (sandbox.state !== 'SANDBOX_READY') throw new CriError(GRPC_UNKNOWN, `sandbox ${sandbox.id} is not ready`);
    const image = this.findImage(req.config.image.image);
    if (!image) throw new CriError(GRPC_NOT_FOUND, `failed to create containerd container: image "${req.config.image.image}": not found`);
    const id = this.newId('container');
    const argv = [...(req.config.command ?? []), ...(req.config.args ?? [])];
    const shared = sandbox.config.linux?.securityContext?.namespaceOptions?.pid === 'POD';
    const rec: ContainerRec = {
      // containerd's ContainerStatus.imageRef: the image's repo digest when it has one (images.ts).
      id, sandboxId: sandbox.id, config: req.config, imageRef: image.repoDigests[0] ?? image.id, state: 'CONTAINER_CREATED', createdAt: ns(this.opts.clock.now_ms()),
      startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', pidns: shared ? `pid:${sandbox.id}` : `pid:${id}`,
      program: programOf(req.config.image.image, argv), files: new Set(), log: [], listening: new Map(), memory_bytes: 0,
    };
    this.containers.set(id, rec);
    this.containersByPod.add(req.config.labels?.[LABEL_POD_UID], id);
    this.containersBySandbox.add(req.podSandboxId, id);
    this.emit(id, 'CONTAINER_CREATED_EVENT');
    return { containerId: id };
  }

  async startContainer(req: { containerId: string }): Promise<Record<string, never>> {
    this.record('RuntimeService/StartContainer', { containerId: req.containerId });
    const c = this.mustContainer(req.containerId);
    if (c.state !== 'CONTAINER_CREATED') throw new CriError(GRPC_UNKNOWN, `container ${c.id} is in state ${c.state}, not CONTAINER_CREATED`);
    c.state = 'CONTAINER_RUNNING';
    c.startedAt = ns(this.opts.clock.now_ms());
    this.emit(c.id, 'CONTAINER_STARTED_EVENT');
    this.run(c, 0);
    return {};
  }

  async stopContainer(req: { containerId: string; timeout: number }): Promise<Record<string, never>> {
    this.record('RuntimeService/StopContainer', { containerId: req.containerId });
    const c = this.mustContainer(req.containerId);
    if (c.state !== 'CONTAINER_RUNNING') return {};
    if (c.program.handlesTerm) {
      this.terminate(c, 143, 'Error');
      return {};
    }
    if (req.timeout <= 0) {
      this.terminate(c, 137, 'Error');
      return {};
    }
    // SIGTERM is ignored; SIGKILL when the timeout ends (runc kill 9), exit 128+9.
    await new Promise<void>((done) => {
      const cancel = this.opts.clock.after(Math.max(0, req.timeout) * 1000, () => {
        if (c.state === 'CONTAINER_RUNNING') this.terminate(c, 137, 'Error');
        done();
      });
      c.killTimer = () => {
        cancel();
        done();
      };
    });
    return {};
  }

  async removeContainer(req: { containerId: string }): Promise<Record<string, never>> {
    this.record('RuntimeService/RemoveContainer', { containerId: req.containerId });
    const c = this.containers.get(req.containerId);
    if (c) this.dropContainer(c);
    return {};
  }

  async listContainers(req: { filter?: ContainerFilter }): Promise<{ containers: Container[] }> {
    this.record('RuntimeService/ListContainers');
    const f = req.filter ?? {};
    const containers = candidates(this.containers, this.containersByPod, f.labelSelector)
      .filter((c) => (!f.id || c.id === f.id) && (!f.podSandboxId || c.sandboxId === f.podSandboxId) && (!f.state || c.state === f.state.state) && labelsMatch(c.config.labels, f.labelSelector))
      .map((c) => ({ id: c.id, podSandboxId: c.sandboxId, metadata: { ...c.config.metadata }, image: { ...c.config.image }, imageRef: c.imageRef, state: c.state, createdAt: c.createdAt, labels: { ...(c.config.labels ?? {}) }, annotations: { ...(c.config.annotations ?? {}) } }));
    return { containers };
  }

  async containerStatus(req: { containerId: string; verbose?: boolean }): Promise<{ status: ContainerStatus; info?: Record<string, string> }> {
    this.record('RuntimeService/ContainerStatus', { containerId: req.containerId });
    const c = this.mustContainer(req.containerId);
    return {
      ...(req.verbose ? { info: { info: JSON.stringify({ sandboxID: c.sandboxId, config: c.config }) } } : {}),
      status: {
        id: c.id, metadata: { ...c.config.metadata }, state: c.state, createdAt: c.createdAt, startedAt: c.startedAt, finishedAt: c.finishedAt,
        exitCode: c.exitCode, image: { ...c.config.image }, imageRef: c.imageRef, reason: c.reason, message: '',
        labels: { ...(c.config.labels ?? {}) }, annotations: { ...(c.config.annotations ?? {}) }, logPath: c.config.logPath ?? '',
      },
    };
  }

  async listContainerStats(req: { filter?: { id?: string; podSandboxId?: string; labelSelector?: Record<string, string> } }): Promise<{ stats: ContainerStats[] }> {
    this.record('RuntimeService/ListContainerStats');
    const f = req.filter ?? {};
    const stats = candidates(this.containers, this.containersByPod, f.labelSelector)
      .filter((c) => (!f.id || c.id === f.id) && (!f.podSandboxId || c.sandboxId === f.podSandboxId) && labelsMatch(c.config.labels, f.labelSelector))
      .map((c) => ({ attributes: { id: c.id, metadata: { ...c.config.metadata }, labels: { ...(c.config.labels ?? {}) } }, memory: { timestamp: ns(this.opts.clock.now_ms()), workingSetBytes: { value: c.memory_bytes } } }));
    return { stats };
  }

  /** The memory every container on the node holds now (the pods' share of the machine's working set). */
  memoryInUse(): number {
    let sum = 0;
    for (const c of this.containers.values()) sum += c.memory_bytes;
    return sum;
  }

  async execSync(req: { containerId: string; cmd: string[]; timeout: number }): Promise<ExecSyncResponse> {
    this.record('RuntimeService/ExecSync', { containerId: req.containerId });
    const c = this.mustContainer(req.containerId);
    if (c.state !== 'CONTAINER_RUNNING') throw new CriError(GRPC_UNKNOWN, `container ${c.id} is not running`);
    const steps = req.cmd[0] === 'sh' && req.cmd[1] === '-c' ? scriptSteps(req.cmd.slice(2).join(' ')) : [commandStep(req.cmd)];
    return this.exec(c, steps, req.timeout);
  }

  // ---- ImageService ------------------------------------------------------------------------

  async pullImage(req: { image: ImageSpec }): Promise<{ imageRef: string }> {
    this.record('ImageService/PullImage');
    const name = req.image.image;
    if (imageMissing(name)) throw new CriError(GRPC_NOT_FOUND, `failed to pull and unpack image "${name}": failed to resolve reference "${name}": not found`);
    const image = this.findImage(name) ?? this.images.pull(normalise(name));
    if (!image) throw new CriError(GRPC_NOT_FOUND, `failed to pull and unpack image "${name}": failed to resolve reference "${normalise(name)}": not found`);
    return { imageRef: image.id };
  }

  async listImages(_req: { filter?: { image?: ImageSpec } }): Promise<{ images: Image[] }> {
    this.record('ImageService/ListImages');
    return { images: this.images.list() };
  }

  async imageStatus(req: { image: ImageSpec }): Promise<{ image?: Image }> {
    this.record('ImageService/ImageStatus');
    const image = this.findImage(req.image.image);
    return image ? { image } : {};
  }

  async removeImage(req: { image: ImageSpec }): Promise<Record<string, never>> {
    this.record('ImageService/RemoveImage');
    this.images.remove(this.findImage(req.image.image)?.id ?? normalise(req.image.image));
    return {};
  }

  // ---- the host's and the control plane's view ---------------------------------------------

  /** The answer of the container listening on ip:port to an HTTP GET, or undefined (connection refused). */
  httpAnswer(ip: string, port: number, path: string): { status: number; location?: string; delay_s?: number } | undefined {
    for (const c of this.containers.values()) {
      if (c.state !== 'CONTAINER_RUNNING' || this.sandboxes.get(c.sandboxId)?.ip !== ip) continue;
      const served = c.listening.get(port);
      if (!served) continue;
      if (served.status === undefined) return { status: path === '/' || c.files.has(path) ? 200 : 404, ...(served.delay_s ? { delay_s: served.delay_s } : {}) };
      const status = served.status;
      // Redirect codes carry a Location on another host; other 3xx (304, 399) carry none.
      return [301, 302, 303, 307, 308].includes(status) ? { status, location: 'http://redirect.kubespec.invalid/' } : { status };
    }
    return undefined;
  }

  /** The status the gRPC health server listening on ip:port answers (SERVING, …), or undefined when none does. */
  grpcHealth(ip: string, port: number): string | undefined {
    for (const c of this.containers.values()) {
      if (c.state !== 'CONTAINER_RUNNING' || this.sandboxes.get(c.sandboxId)?.ip !== ip) continue;
      const served = c.listening.get(port)?.grpc;
      if (served) return served;
    }
    return undefined;
  }

  /** Sandbox IP → whether a running container of it listens on the port. */
  listens(ip: string, port: number): boolean {
    return [...this.containers.values()].some((c) => c.state === 'CONTAINER_RUNNING' && c.listening.has(port) && this.sandboxes.get(c.sandboxId)?.ip === ip);
  }

  sandboxIps(): string[] {
    return [...this.sandboxes.values()].map((s) => s.ip);
  }

  /** The container's output, oldest first (what `kubectl logs` shows). */
  logOf(containerId: string): { at_ms: number; stream: 'stdout' | 'stderr'; text: string }[] {
    return [...(this.containers.get(containerId)?.log ?? [])];
  }

  /** A process of the container dies of a signal (as `kill -9` from the node would do). */
  killProcess(containerId: string): void {
    const c = this.mustContainer(containerId);
    if (c.state === 'CONTAINER_RUNNING') this.terminate(c, 137, 'Error');
  }

  /** Network and PID namespaces a container is in (what /proc/<pid>/ns shows). */
  namespacesOf(containerId: string): { net: string; ipc: string; pid: string } {
    const c = this.mustContainer(containerId);
    const s = this.mustSandbox(c.sandboxId);
    return { net: s.netns, ipc: s.ipc, pid: c.pidns };
  }

  holdSandboxes(): void {
    this.hold ??= { waiting: [] };
  }

  releaseSandboxes(): void {
    const waiting = this.hold?.waiting ?? [];
    this.hold = undefined;
    for (const release of waiting) release();
  }

  // ---- internals ---------------------------------------------------------------------------

  private record(method: string, about: Omit<CriCall, 'method' | 'at_ms'> = {}): CriCall {
    const call: CriCall = { method: `/runtime.v1.${method}`, at_ms: this.opts.clock.now_ms(), ...about };
    if (call.sandboxId && !call.podUid) call.podUid = this.sandboxes.get(call.sandboxId)?.config.metadata.uid;
    if (call.containerId && !call.podUid) {
      const c = this.containers.get(call.containerId);
      call.podUid = c && this.sandboxes.get(c.sandboxId)?.config.metadata.uid;
    }
    this.calls.push(call);
    if (this.calls.length > 20_000) this.calls.splice(0, 10_000);
    return call;
  }

  private newId(kind: string): string {
    const n = this.nextId++;
    // 64 hex digits, like containerd's ids; deterministic per node.
    const seed = `${this.opts.node}/${kind}/${n}`;
    let h = 0x811c9dc5;
    let out = '';
    for (let round = 0; out.length < 64; round++) {
      for (const ch of `${seed}#${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      out += h.toString(16).padStart(8, '0');
    }
    return out.slice(0, 64);
  }

  private findImage(name: string): Image | undefined {
    return this.images.find(name.startsWith('sha256:') ? name : normalise(name));
  }

  /**
   * The tag names a rebuilt image from now on, in the registry and on this node (images.ts
   * retag); what was pulled by digest before keeps its content.
   */
  retagImage(ref: string): Image {
    return this.images.retag(normalise(ref));
  }

  private containersOf(sandboxId: string): ContainerRec[] {
    return [...this.containersBySandbox.get(sandboxId)].map((id) => this.containers.get(id)!);
  }

  private mustSandbox(id: string): SandboxRec {
    const s = this.sandboxes.get(id);
    if (!s) throw new CriError(GRPC_NOT_FOUND, `an error occurred when try to find sandbox: not found`);
    return s;
  }

  private mustContainer(id: string): ContainerRec {
    const c = this.containers.get(id);
    if (!c) throw new CriError(GRPC_NOT_FOUND, `an error occurred when try to find container "${id}": not found`);
    return c;
  }

  private dropContainer(c: ContainerRec): void {
    if (c.state === 'CONTAINER_RUNNING') this.terminate(c, 137, 'Error');
    this.containers.delete(c.id);
    this.containersByPod.delete(c.config.labels?.[LABEL_POD_UID], c.id);
    this.containersBySandbox.delete(c.sandboxId, c.id);
    this.emit(c.id, 'CONTAINER_DELETED_EVENT');
  }

  /**
   * CRI's GetContainerEvents (api.proto ContainerEventResponse): created, started, stopped (the
   * process exited, however) and deleted, in the order they happen (containerd 1.7+ sends the
   * same four from its task and container events).
   */
  getContainerEvents(onEvent: (event: ContainerEvent) => void, _onError: (error: CriError) => void): { cancel(): void } {
    this.record('RuntimeService/GetContainerEvents');
    this.subscribers.add(onEvent);
    return { cancel: () => this.subscribers.delete(onEvent) };
  }

  private emit(containerId: string, containerEventType: ContainerEventType): void {
    const event = { containerId, containerEventType, createdAt: ns(this.opts.clock.now_ms()) };
    for (const s of this.subscribers) s(event);
  }

  /** Runs the program from step `i` until it sleeps, serves, or ends. */
  private run(c: ContainerRec, i: number): void {
    for (; i < c.program.steps.length; i++) {
      if (c.state !== 'CONTAINER_RUNNING') return;
      const step = c.program.steps[i]!;
      if (step.op === 'sleep' && step.seconds > 0) {
        const next = i + 1;
        c.cancel = this.opts.clock.after(step.seconds * 1000, () => this.run(c, next));
        return;
      }
      if (step.op === 'serve') {
        c.listening.set(step.port, step.grpc ? { grpc: step.grpc } : (step.http ?? {}));
        this.opts.onListen?.(this.mustSandbox(c.sandboxId).ip, step.port, true);
        return;
      }
      if (step.op === 'forever') return;
      if (step.op === 'oom') return this.terminate(c, 137, 'OOMKilled');
      if (step.op === 'alloc') {
        // The cgroup's memory.max is the CRI's memoryLimitInBytes; 0 or absent means no limit.
        const limit = c.config.linux?.resources?.memoryLimitInBytes ?? 0;
        if (limit > 0 && step.bytes > limit) return this.terminate(c, 137, 'OOMKilled');
        c.memory_bytes = step.bytes;
        continue;
      }
      const code = this.apply(c, step);
      if (code !== undefined) return this.terminate(c, code, code === 0 ? 'Completed' : 'Error');
    }
    this.terminate(c, 0, 'Completed');
  }

  /** One non-blocking statement; an exit code ends the program. */
  private apply(c: ContainerRec, step: Step, out?: string[]): number | undefined {
    switch (step.op) {
      case 'exit':
        return step.code;
      case 'echo':
        if (out) out.push(step.text);
        else c.log.push({ at_ms: this.opts.clock.now_ms(), stream: 'stdout', text: step.text });
        return undefined;
      case 'touch':
        c.files.add(step.path);
        return undefined;
      case 'rm':
        c.files.delete(step.path);
        return undefined;
      case 'cat':
        return c.files.has(step.path) ? undefined : 1;
      case 'readlink': {
        const kind = /^\/proc\/(?:self|1)\/ns\/(net|ipc|pid)$/.exec(step.path)?.[1] as 'net' | 'ipc' | 'pid' | undefined;
        if (!kind) return 1;
        const text = `${kind}:[${namespaceInode(this.namespacesOf(c.id)[kind])}]`;
        if (out) out.push(text);
        else c.log.push({ at_ms: this.opts.clock.now_ms(), stream: 'stdout', text });
        return undefined;
      }
      case 'unknown':
        c.log.push({ at_ms: this.opts.clock.now_ms(), stream: 'stderr', text: `sh: ${step.text.split(' ')[0]}: not found` });
        return 127;
      default:
        return undefined;
    }
  }

  private exec(c: ContainerRec, steps: Step[], timeout_s: number): Promise<ExecSyncResponse> {
    const out: string[] = [];
    return new Promise((resolve, reject) => {
      let timer: (() => void) | undefined;
      if (timeout_s > 0) timer = this.opts.clock.after(timeout_s * 1000, () => reject(new CriError(GRPC_DEADLINE_EXCEEDED, `command ${JSON.stringify(steps)} timed out`)));
      const finish = (code: number) => {
        timer?.();
        resolve({ stdout: out.map((l) => `${l}\n`).join(''), stderr: '', exitCode: code });
      };
      const step = (i: number): void => {
        for (; i < steps.length; i++) {
          const s = steps[i]!;
          if (s.op === 'sleep' && s.seconds > 0) {
            this.opts.clock.after(s.seconds * 1000, () => step(i + 1));
            return;
          }
          if (s.op === 'forever' || s.op === 'serve') return;
          const code = this.apply(c, s, out);
          if (code !== undefined) return finish(code);
        }
        finish(0);
      };
      step(0);
    });
  }

  private terminate(c: ContainerRec, exitCode: number, reason: string): void {
    if (c.state !== 'CONTAINER_RUNNING') return;
    c.cancel?.();
    c.state = 'CONTAINER_EXITED';
    c.memory_bytes = 0;
    c.exitCode = exitCode;
    c.reason = reason;
    c.finishedAt = ns(this.opts.clock.now_ms());
    this.emit(c.id, 'CONTAINER_STOPPED_EVENT');
    const ip = this.sandboxes.get(c.sandboxId)?.ip;
    for (const port of c.listening.keys()) if (ip) this.opts.onListen?.(ip, port, false);
    c.listening.clear();
    const kill = c.killTimer;
    c.killTimer = undefined;
    kill?.();
  }
}

/** A stable inode-like number for a namespace name, in the range Linux uses (4026531840 upwards). */
function namespaceInode(name: string): number {
  let h = 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return 4026531840 + (h % 1_000_000);
}

function commandStep(cmd: string[]): Step {
  return scriptSteps(cmd.map((w) => (/\s/.test(w) ? `'${w}'` : w)).join(' '))[0] ?? { op: 'exit', code: 0 };
}

/** docker.io/library/busybox:latest and busybox name one image. */
export function normalise(image: string): string {
  let name = image;
  if (!/:[^/]+$/.test(name) && !name.includes('@')) name = `${name}:latest`;
  const first = name.split('/')[0]!;
  if (!name.includes('/') || !(first.includes('.') || first.includes(':') || first === 'localhost')) {
    name = name.includes('/') ? `docker.io/${name}` : `docker.io/library/${name}`;
  }
  return name;
}

function labelsMatch(labels: Record<string, string> | undefined, selector: Record<string, string> | undefined): boolean {
  for (const k in selector) if (labels?.[k] !== selector[k]) return false;
  return true;
}

/** Sets of ids filed under a key (a pod uid, a sandbox id). */
class IdIndex {
  private readonly ids = new Map<string, Set<string>>();

  add(key: string | undefined, id: string): void {
    if (key === undefined) return;
    let set = this.ids.get(key);
    if (!set) this.ids.set(key, (set = new Set()));
    set.add(id);
  }

  delete(key: string | undefined, id: string): void {
    const set = key === undefined ? undefined : this.ids.get(key);
    set?.delete(id);
    if (set?.size === 0) this.ids.delete(key!);
  }

  get(key: string): ReadonlySet<string> {
    return this.ids.get(key) ?? new Set();
  }
}

/** What a list must look at: the pod's own records when the selector names a pod uid, else all. */
function candidates<T>(all: Map<string, T>, byPod: IdIndex, selector: Record<string, string> | undefined): T[] {
  const uid = selector?.[LABEL_POD_UID];
  if (uid === undefined) return [...all.values()];
  return [...byPod.get(uid)].map((id) => all.get(id)!);
}
