/**
 * What the kubelet core is given: its API (the API server, reached as `system:node:<name>`),
 * its runtime (CRI), its clock, and the network probes go out on. All injected: the core does
 * no I/O of its own, so the suite runs it on virtual time and `kubespec serve` on real time.
 */
import type { ListWatcher } from '../controllers/informer.ts';
import type { CriRuntime } from '../../contract/cri.ts';
import type { Scheduler } from '../wiring/virtual-clock.ts';
import type { Faults } from '../faults.ts';
import type { EvictionConfig } from './eviction/manager.ts';

/** The API calls a kubelet makes (each answered with the HTTP status; bodies where read). */
export interface KubeletApi {
  getNode(name: string): Promise<{ status: number; body?: any }>;
  createNode(node: any): Promise<{ status: number; body?: any }>;
  /** A merge patch of nodes/status. */
  patchNodeStatus(name: string, status: any): Promise<{ status: number; body?: any }>;
  getLease(name: string): Promise<{ status: number; body?: any }>;
  createLease(lease: any): Promise<{ status: number; body?: any }>;
  updateLease(lease: any): Promise<{ status: number; body?: any }>;
  /** The pods bound to this node: list and watch with fieldSelector spec.nodeName=<node>. */
  pods: ListWatcher;
  /** A merge patch of pods/status carrying metadata.uid as a precondition. */
  patchPodStatus(namespace: string, name: string, uid: string, status: any): Promise<{ status: number; body?: any }>;
  /** DELETE with gracePeriodSeconds 0 and a uid precondition: the kubelet confirms the pod is gone. */
  deletePod(namespace: string, name: string, uid: string): Promise<{ status: number; body?: any }>;
  createEvent(namespace: string, event: any): Promise<{ status: number; body?: any }>;
}

/** How probes reach a container: real HTTP and TCP clients in the host wiring. */
export interface ProbeNetwork {
  /**
   * One HTTP GET, redirects not followed (the core decides); rejects when the connection fails.
   * `abort` is called when the probe's timeout ends first.
   */
  httpGet(url: string, headers: Record<string, string>, onAbort: (abort: () => void) => void): Promise<{ status: number; location?: string }>;
  /** Opens and closes a TCP connection; rejects when it cannot connect. */
  tcpConnect(host: string, port: number, onAbort: (abort: () => void) => void): Promise<void>;
  /**
   * One grpc.health.v1.Health/Check call over a plaintext connection: the ServingStatus the
   * server answered (1 SERVING), or the gRPC error it ended with (code 14 UNAVAILABLE when no
   * connection could be made). Absent: this kubelet's network has no gRPC client.
   */
  grpcHealthCheck?(host: string, port: number, service: string, onAbort: (abort: () => void) => void): Promise<{ status: number } | { error: { code: number; details: string } }>;
}

/**
 * KubeletOptions extends the KubeletConfiguration eviction fields (eviction/manager.ts):
 * `evictionHard`, `evictionSoft` with `evictionSoftGracePeriod`, `evictionMinimumReclaim`,
 * `evictionMaxPodGracePeriod`, `evictionPressureTransitionPeriod`, for memory.available. The
 * eviction loop runs only when a threshold is given: upstream's default is
 * memory.available<100Mi, off here unless asked, so scenarios that do not care never see an eviction.
 */
export interface KubeletOptions extends EvictionConfig {
  nodeName: string;
  api: KubeletApi;
  runtime: CriRuntime;
  clock: Scheduler;
  network: ProbeNetwork;
  /** Uniform in [0, 1): watch timeouts. */
  random: () => number;
  /** Reported in status.nodeInfo.kubeletVersion. */
  version?: string;
  /** Node capacity, as `kubespec serve` registers it. */
  capacity?: Record<string, string>;
  /** A container's output, oldest first (upstream reads the CRI log file at the container's logPath). */
  readLog?: (containerId: string) => { at_ms: number; stream: 'stdout' | 'stderr'; text: string }[];
  /**
   * The root of the pods' log directories (upstream's /var/log/pods, kubelet podLogsRootDirectory):
   * each sandbox's logDirectory is <root>/<namespace>_<name>_<uid>, where a real runtime writes
   * the containers' output.
   */
  podLogsDir?: string;
  /** Lease renew interval (upstream 10 s, a quarter of the lease's 40 s). */
  leaseRenew_ms?: number;
  /** PLEG relist period (upstream 1 s). */
  relist_ms?: number;
  log?: (line: string) => void;
  /** Fault models (reference/faults.ts); default none. */
  faults?: Faults;
  /**
   * The machine's memory working set in bytes — every process on it, in pods or not (cadvisor's
   * root cgroup) — read by the eviction manager against the node's memory capacity.
   */
  machineMemory?: () => number | Promise<number>;
  /**
   * Taints the Node is registered with (KubeletConfiguration registerWithTaints). A kubelet run
   * with --cloud-provider=external adds node.cloudprovider.kubernetes.io/uninitialized
   * (NoSchedule) for the cloud-controller-manager to remove (kubernetes/kubernetes
   * pkg/kubelet/kubelet_node_status.go, initialNode).
   */
  registerWithTaints?: { key: string; value?: string; effect: string }[];
  /**
   * When the status manager sends a pod's status: `fn` runs once the work queued now has had its
   * turn (the wiring's setImmediate), so statuses a sync produces back to back go out as one
   * write. None: each is sent at once.
   */
  defer?: (fn: () => void) => void;
}

export const KUBELET_VERSION = 'v1.31.0-kubespec';
