/**
 * Kubelets for the reference cluster: one per node, each with its own fake CRI runtime and its
 * own slice of loopback (kubelet-network.ts), reaching the API server over the same port every
 * client uses, as `system:node:<name>` in `system:nodes` with a bearer token the cluster adds to
 * its live token table. The suite runs them on virtual time; `kubespec serve --nodes N` on
 * real time.
 */
import type { ApiHandle } from './in-process.ts';
import { randomBytes } from 'node:crypto';
import type { UserInfo } from '../apiserver/pipeline.ts';
import { NODE_USER_PREFIX, NODES_GROUP } from '../apiserver/authz/node.ts';
import { FakeRuntime } from '../cri/fake/runtime.ts';
import type { CriRuntime } from '../../contract/cri.ts';
import type { KubeletOptions, ProbeNetwork } from '../kubelet/types.ts';
import { Kubelet } from '../kubelet/kubelet.ts';
import { seededRandom } from '../apiserver/server.ts';
import { kubeletApi } from './kubelet-api.ts';
import { CertificateManager } from '../kubelet/certificate-manager.ts';
import { newKeyAndCsr } from '../apiserver/pki/host/openssl.ts';
import { nodeNetwork, type NodeNetwork } from './kubelet-network.ts';
import { onHost, type Scheduler } from './virtual-clock.ts';
import type { Faults } from '../faults.ts';
import type { EvictionConfig } from '../kubelet/eviction/manager.ts';

export interface KubeletHost {
  readonly name: string;
  readonly kubelet: Kubelet;
  readonly runtime: FakeRuntime;
  readonly network: NodeNetwork;
  /** Memory held on the machine by processes outside any pod (the machine's working set minus the pods'). */
  outsidePods_bytes: number;
  stop(): Promise<void>;
}

/**
 * A node whose runtime is not the fake one (a real runtime reached over its CRI socket, the
 * `cri` target): the kubelet is the same; only what it is given differs.
 */
export interface NodeMachine<R extends CriRuntime = CriRuntime> {
  runtime: R;
  /** How probes reach pod IPs from the node: real HTTP and TCP clients. */
  network: ProbeNetwork;
  readLog?: (containerId: string) => { at_ms: number; stream: 'stdout' | 'stderr'; text: string }[];
  /** Where the pods' log directories go (the kubelet's /var/log/pods). */
  podLogsDir?: string;
  /** The node's capacity, its kubelet's eviction configuration, and its memory working set (KubeletOptions). */
  capacity?: Record<string, string>;
  eviction?: EvictionConfig;
  machineMemory?: () => number | Promise<number>;
}

export interface ExternalKubeletHost<R extends CriRuntime = CriRuntime> {
  readonly name: string;
  readonly kubelet: Kubelet;
  readonly runtime: R;
  stop(): Promise<void>;
}

/** The kubelet on a machine of the caller's (see NodeMachine); its start fails as the kubelet's does. */
export async function startKubeletOn<R extends CriRuntime>(opts: KubeletHostOptions, machine: NodeMachine<R>): Promise<ExternalKubeletHost<R>> {
  const token = randomBytes(32).toString('base64url');
  opts.tokens?.set(token, { name: `${NODE_USER_PREFIX}${opts.name}`, uid: `${NODE_USER_PREFIX}${opts.name}`, groups: [NODES_GROUP] });
  const api = kubeletApi({ server: opts.server, clock: opts.clock, token, nodeName: opts.name, ...(opts.ca ? { ca: opts.ca } : {}), ...(opts.inProcess ? { inProcess: opts.inProcess } : {}) });
  const kubelet = new Kubelet({
    nodeName: opts.name, api, runtime: machine.runtime, clock: opts.clock, network: machine.network, random: seededRandom(opts.seed),
    ...(machine.readLog ? { readLog: machine.readLog } : {}), ...(machine.podLogsDir ? { podLogsDir: machine.podLogsDir } : {}),
    ...(machine.capacity ? { capacity: machine.capacity } : {}), ...machine.eviction, ...(machine.machineMemory ? { machineMemory: machine.machineMemory } : {}),
    ...(opts.leaseRenew_ms ? { leaseRenew_ms: opts.leaseRenew_ms } : {}), ...(opts.log ? { log: opts.log } : {}),
    defer: setImmediate,
  });
  try {
    await kubelet.start();
  } catch (error) {
    kubelet.stop();
    api.close();
    throw error;
  }
  return {
    name: opts.name, kubelet, runtime: machine.runtime,
    async stop() {
      kubelet.stop();
      api.close();
    },
  };
}

export interface KubeletHostOptions {
  name: string;
  server: string;
  ca?: string | Buffer;
  /** The API server's own entry: a token kubelet's requests go to it in process (in-process.ts). */
  inProcess?: ApiHandle;
  clock: Scheduler;
  seed: number;
  leaseRenew_ms?: number;
  registerWithTaints?: KubeletOptions['registerWithTaints'];
  /** Where the cluster registers the kubelet's token (undefined: the API server has no authentication). */
  tokens?: Map<string, UserInfo>;
  log?: (line: string) => void;
  /** Fault models (reference/faults.ts); default none. */
  faults?: Faults;
  /** The node's capacity (default cpu 4, memory 8Gi, pods 110). */
  capacity?: Record<string, string>;
  /** The kubelet's eviction configuration (KubeletOptions: evictionHard, evictionSoft, ...). */
  eviction?: EvictionConfig;
  /**
   * Authenticate with this client certificate (CN=system:node:<name>, O=system:nodes) instead of
   * a token — `server` must then be an HTTPS listener whose client CA signed it — and, with
   * `rotate` (the kubelet's rotateCertificates), renew it through a CertificateSigningRequest.
   */
  clientCertificate?: { certPem: string; keyPem: string; rotate: boolean };
}

export async function startKubeletHost(opts: KubeletHostOptions): Promise<KubeletHost> {
  const cert = opts.clientCertificate;
  // Drawn from the host, not the seed: a credential must not be guessable.
  const token = cert ? undefined : randomBytes(32).toString('base64url');
  if (token) opts.tokens?.set(token, { name: `${NODE_USER_PREFIX}${opts.name}`, uid: `${NODE_USER_PREFIX}${opts.name}`, groups: [NODES_GROUP] });
  const network = nodeNetwork();
  const runtime = new FakeRuntime({ clock: opts.clock, node: opts.name, sandboxIp: network.sandboxIp, onListen: network.onListen });
  network.attach(runtime, opts.clock);
  const api = kubeletApi({ server: opts.server, clock: opts.clock, ...(token ? { token } : {}), nodeName: opts.name, ...(opts.ca ? { ca: opts.ca } : {}), ...(cert ? { clientCertificate: cert } : {}), ...(opts.inProcess ? { inProcess: opts.inProcess } : {}) });
  const rotation = cert?.rotate
    ? new CertificateManager({
        nodeName: opts.name, clock: opts.clock, random: seededRandom(opts.seed ^ 0x63657274), initial: cert, api,
        newKeyAndCsr: (subject) => onHost(opts.clock, () => newKeyAndCsr(subject)), use: (pair) => api.useClientCertificate(pair), ...(opts.log ? { log: opts.log } : {}),
      })
    : undefined;
  // The machine's memory: what the fake runtime's containers hold plus what runs outside pods.
  const machine = { outsidePods_bytes: 0 };
  const kubelet = new Kubelet({
    nodeName: opts.name, api, runtime, clock: opts.clock, network: network.probes, random: seededRandom(opts.seed), readLog: (id) => runtime.logOf(id),
    machineMemory: () => runtime.memoryInUse() + machine.outsidePods_bytes,
    ...(opts.leaseRenew_ms ? { leaseRenew_ms: opts.leaseRenew_ms } : {}), ...(opts.registerWithTaints ? { registerWithTaints: opts.registerWithTaints } : {}), ...(opts.log ? { log: opts.log } : {}), ...(opts.faults ? { faults: opts.faults } : {}),
    ...(opts.capacity ? { capacity: opts.capacity } : {}), ...opts.eviction,
    defer: setImmediate,
  });
  try {
    await kubelet.start();
  } catch (error) {
    api.close();
    await network.close();
    throw error;
  }
  rotation?.start();
  let stopped = false;
  return {
    name: opts.name,
    kubelet,
    runtime,
    network,
    get outsidePods_bytes() {
      return machine.outsidePods_bytes;
    },
    set outsidePods_bytes(bytes: number) {
      machine.outsidePods_bytes = bytes;
    },
    async stop() {
      // Idempotent: a node a scenario powered off is stopped again when its cluster closes.
      if (stopped) return;
      stopped = true;
      rotation?.stop();
      kubelet.stop();
      api.close();
      await network.close();
    },
  };
}
