/**
 * The Container Runtime Interface, v1, as TypeScript: the two gRPC services the kubelet calls
 * (k8s.io/cri-api pkg/apis/runtime/v1/api.proto, vendored in kubernetes/kubernetes under
 * staging/src/k8s.io/cri-api/pkg/apis/runtime/v1/api.proto). Message and field names follow the
 * proto's JSON mapping (lowerCamelCase of the snake_case fields); enums are their proto names.
 * Only the calls and fields the kubelet here uses are written out; each request/response keeps
 * upstream's shape so a gRPC client (a later `cri` target) can hand them to protobuf as they are.
 *
 * Timestamps: CRI carries int64 nanoseconds since the epoch (created_at, started_at,
 * finished_at); JavaScript numbers hold them exactly up to 2^53, i.e. to the millisecond here.
 */

export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

/** Linux namespaces of a sandbox or container (api.proto NamespaceOption). */
export interface NamespaceOption {
  network?: NamespaceMode;
  /** "The CRI default is POD, but the v1.PodSpec default is CONTAINER" (api.proto). */
  pid?: NamespaceMode;
  ipc?: NamespaceMode;
  targetId?: string;
}

export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

export interface PortMapping {
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  containerPort: number;
  hostPort?: number;
  hostIp?: string;
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  hostname?: string;
  logDirectory?: string;
  portMappings?: PortMapping[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** cgroupParent: the pod's cgroup (cgroupfs syntax), under the node's cgroup root. */
  linux?: { cgroupParent?: string; securityContext?: { namespaceOptions?: NamespaceOption } };
}

export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

export interface PodSandboxNetworkStatus {
  ip: string;
}

export interface PodSandboxStatus {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  /** Nanoseconds since the epoch. */
  createdAt: number;
  network?: PodSandboxNetworkStatus;
  linux?: { namespaces?: { options?: NamespaceOption } };
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** ListPodSandbox's element (api.proto PodSandbox). */
export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface PodSandboxFilter {
  id?: string;
  state?: { state: PodSandboxState };
  labelSelector?: Record<string, string>;
}

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface ImageSpec {
  image: string;
  annotations?: Record<string, string>;
}

export interface KeyValue {
  key: string;
  value: string;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: ImageSpec;
  /** The entrypoint (PodSpec container.command). */
  command?: string[];
  /** Arguments to the entrypoint (PodSpec container.args). */
  args?: string[];
  workingDir?: string;
  envs?: KeyValue[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Relative to the sandbox's logDirectory. */
  logPath?: string;
  linux?: {
    resources?: { memoryLimitInBytes?: number };
    securityContext?: { namespaceOptions?: NamespaceOption };
  };
}

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface ContainerStatus {
  id: string;
  metadata: ContainerMetadata;
  state: ContainerState;
  /** Nanoseconds since the epoch; 0 when not reached. */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  image: ImageSpec;
  /** The image id (a digest) the container runs. */
  imageRef: string;
  /** Brief CamelCase reason of the state (e.g. "OOMKilled", "Completed", "Error"). */
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath: string;
}

/** ListContainers' element (api.proto Container). */
export interface Container {
  id: string;
  podSandboxId: string;
  metadata: ContainerMetadata;
  image: ImageSpec;
  imageRef: string;
  state: ContainerState;
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface ContainerFilter {
  id?: string;
  state?: { state: ContainerState };
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}

export interface ExecSyncResponse {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export type ContainerEventType = 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';

/** One message of the GetContainerEvents stream (api.proto ContainerEventResponse), statuses left out. */
export interface ContainerEvent {
  containerId: string;
  containerEventType: ContainerEventType;
  /** Nanoseconds since the epoch. */
  createdAt: number;
}

/**
 * One container's resource usage (api.proto ContainerStats, cpu and writable layer left out):
 * `memory.workingSetBytes` is what the kubelet's memory eviction ranks pods by.
 */
export interface ContainerStats {
  attributes: { id: string; metadata: ContainerMetadata; labels: Record<string, string> };
  memory?: { timestamp: number; workingSetBytes: { value: number } };
}

export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

/** runtime.v1.RuntimeService: sandboxes and containers. */
export interface RuntimeService {
  version(req: { version: string }): Promise<VersionResponse>;
  runPodSandbox(req: { config: PodSandboxConfig; runtimeHandler?: string }): Promise<{ podSandboxId: string }>;
  /** Idempotent; forcibly terminates the sandbox's running containers. */
  stopPodSandbox(req: { podSandboxId: string }): Promise<Record<string, never>>;
  /** Idempotent; removes the sandbox's containers too. */
  removePodSandbox(req: { podSandboxId: string }): Promise<Record<string, never>>;
  podSandboxStatus(req: { podSandboxId: string; verbose?: boolean }): Promise<{ status: PodSandboxStatus }>;
  listPodSandbox(req: { filter?: PodSandboxFilter }): Promise<{ items: PodSandbox[] }>;
  createContainer(req: { podSandboxId: string; config: ContainerConfig; sandboxConfig: PodSandboxConfig }): Promise<{ containerId: string }>;
  startContainer(req: { containerId: string }): Promise<Record<string, never>>;
  /** `timeout` in seconds: SIGTERM, then SIGKILL when it ends. Idempotent. */
  stopContainer(req: { containerId: string; timeout: number }): Promise<Record<string, never>>;
  removeContainer(req: { containerId: string }): Promise<Record<string, never>>;
  listContainers(req: { filter?: ContainerFilter }): Promise<{ containers: Container[] }>;
  /** With `verbose`, `info` holds runtime-specific detail (containerd: info["info"] is JSON with the container's config and pid). */
  containerStatus(req: { containerId: string; verbose?: boolean }): Promise<{ status: ContainerStatus; info?: Record<string, string> }>;
  /** `timeout` in seconds (0: none). */
  execSync(req: { containerId: string; cmd: string[]; timeout: number }): Promise<ExecSyncResponse>;
  /**
   * The server-streamed GetContainerEvents (CRI v1; containerd serves it from 1.7): each event
   * to `onEvent` until cancelled; a runtime without it calls `onError` with UNIMPLEMENTED.
   * Optional: a runtime that does not offer it leaves it out.
   */
  /**
   * ListContainerStats (CRI v1): usage of the containers the filter selects. Optional: a runtime
   * client that does not offer it leaves it out (the kubelet then has no pod stats to rank by).
   */
  listContainerStats?(req: { filter?: { id?: string; podSandboxId?: string; labelSelector?: Record<string, string> } }): Promise<{ stats: ContainerStats[] }>;
  getContainerEvents?(onEvent: (event: ContainerEvent) => void, onError: (error: CriError) => void): { cancel(): void };
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
}

/** runtime.v1.ImageService. */
export interface ImageService {
  pullImage(req: { image: ImageSpec }): Promise<{ imageRef: string }>;
  listImages(req: { filter?: { image?: ImageSpec } }): Promise<{ images: Image[] }>;
  /** An absent image is `{}` — no image and no error (api.proto: "Image set to nil"). */
  imageStatus(req: { image: ImageSpec }): Promise<{ image?: Image }>;
  removeImage(req: { image: ImageSpec }): Promise<Record<string, never>>;
}

export type CriRuntime = RuntimeService & ImageService;

/** A CRI call failed with a gRPC status (codes from grpc/status: 5 NOT_FOUND, 12 UNIMPLEMENTED, ...). */
export class CriError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'CriError';
  }
}

export const GRPC_NOT_FOUND = 5;
export const GRPC_DEADLINE_EXCEEDED = 4;
export const GRPC_UNKNOWN = 2;
export const GRPC_UNIMPLEMENTED = 12;

/**
 * The labels the kubelet puts on what it creates, and reads back to recognise its own
 * (kubernetes/kubernetes pkg/kubelet/types/labels.go, pkg/kubelet/kuberuntime/labels.go).
 */
export const LABEL_POD_NAME = 'io.kubernetes.pod.name';
export const LABEL_POD_NAMESPACE = 'io.kubernetes.pod.namespace';
export const LABEL_POD_UID = 'io.kubernetes.pod.uid';
export const LABEL_CONTAINER_NAME = 'io.kubernetes.container.name';
/** Annotations kuberuntime/labels.go sets on containers, read back when the kubelet restarts. */
export const ANNOTATION_RESTART_COUNT = 'io.kubernetes.container.restartCount';
export const ANNOTATION_TERMINATION_GRACE = 'io.kubernetes.pod.terminationGracePeriod';
