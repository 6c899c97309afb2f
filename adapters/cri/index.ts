/**
 * The `cri` target: the reference control plane (API server, scheduler, controllers) on real
 * time, and kubelets — the reference's own kubelet, unchanged — whose runtime is a real
 * containerd reached over its CRI gRPC socket (grpc-client.ts). Containers are real processes
 * (busybox-static images built here, host/images.ts) in real namespaces with real pod IPs on a
 * bridge, so probes hit real HTTP servers and TCP listeners, exec probes run through
 * containerd's ExecSync, and a liveness kill is a real SIGTERM/SIGKILL by runc.
 *
 * One containerd per node name per cucumber worker (host/containerd.ts), started on first use
 * and kept for the worker's life: a kubelet removes the sandboxes of pods it does not know, so
 * two nodes must never share a runtime. Between scenarios every sandbox is removed through CRI
 * and any vocabulary image a scenario removed is imported again.
 *
 * Why a target of its own rather than `--runtime containerd` on the reference: the reference
 * runs on virtual time and containers do not (a `sleep 5` takes five real seconds), so this
 * target has no `clock.virtual`; its capabilities, versions and report are its own.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Capability } from '../../contract/capabilities.ts';
import type { CriCallRecord, NodeConfig, NodesFacet, Session, Target } from '../../contract/contract.ts';
import { CONTRACT_VERSION, evictionConfigOf } from '../../contract/contract.ts';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { RealTimeScheduler } from '../../reference/wiring/realtime.ts';
import { realProbeNetwork } from '../../reference/wiring/probe-network.ts';
import { LABEL_CONTAINER_NAME, LABEL_POD_NAME, LABEL_POD_NAMESPACE } from '../../contract/cri.ts';
import { adminTokenCsv, openKubeSession } from '../reference/kube-session.ts';
import { createPollingWaiter } from '../polling-waiter.ts';
import { GrpcCriRuntime } from './grpc-client.ts';
import { cgroupParentOf, containerdUnavailable, containerdVersion, ContainerdHost, ctr } from './host/containerd.ts';
import { criLogLines } from './logs.ts';
import { isNodeBinaryImage } from './host/images.ts';

export { containerdUnavailable };

const BASE_CAPABILITIES: Capability[] = [
  'kube.api', 'kube.watch',
  'cluster.scheduler',
  'kubelet', 'kubelet.probes',
  'cri', 'cri.grpc', 'cri.containerd', 'kubelet.runtime-endpoint',
  // kubespec/grpc-health images: the machine's node binary serving grpc.health.v1 (host/images.ts).
  'kubelet.probes.grpc',
  // A rebuilt image imported under a tag (host/images.ts retaggedArchive).
  'cri.images.retag',
  // Node-pressure eviction on real memory (PRACTICE-PRIORITY-EVICTION-ORDER): pods rank by the
  // working sets containerd reports (ListContainerStats, from the containers' cgroup v1 stats);
  // memory.available is the node's declared capacity minus the working set of the cgroup every pod
  // of the node lives under (host/containerd.ts memoryWorkingSet: the node is that subtree, as a
  // kind node is its container's cgroup, not this shared machine whose free memory moves with
  // every other process); `kubespec/alloc:SIZE` really holds SIZE (host/images.ts), and the memory
  // "outside the pods" is a real process in a sibling cgroup (holdMemory). The capacity is not
  // enforced as a cgroup limit: the kernel's OOM killer would act before the 10 s eviction period.
  // Not `kubelet.eviction.soft`: the kubelet is given the soft thresholds (evictionConfigOf), but
  // those scenarios wait out grace periods of minutes, which this target's real clock would spend.
  'kubelet.eviction',
];

/** containerd serves CRI's GetContainerEvents from 1.7 (containerd/containerd pkg/cri/server/events.go). */
function servesContainerEvents(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major! > 1 || (major === 1 && minor! >= 7);
}

export function createCriTarget(): Target {
  const version = containerdVersion();
  const hosts = new Map<string, Promise<ContainerdHost>>();
  const log = (line: string) => {
    if (process.env.KUBESPEC_CRI_DEBUG) console.error(line);
  };
  const hostFor = (key: string): Promise<ContainerdHost> => {
    let h = hosts.get(key);
    if (!h) {
      h = ContainerdHost.start({ log });
      hosts.set(key, h);
    }
    return h;
  };
  return {
    name: 'cri',
    contractVersion: CONTRACT_VERSION,
    capabilities: new Set<Capability>(servesContainerEvents(version) ? [...BASE_CAPABILITIES, 'cri.events'] : BASE_CAPABILITIES),
    knownDeviations: new Map(),
    async versions() {
      return { containerd: version, runc: runcVersion() };
    },
    async start() {},
    openSession: (ctx) => openSession(ctx.seed, ctx.tags, hostFor),
    async stop() {
      const all = await Promise.allSettled(hosts.values());
      hosts.clear();
      for (const h of all) if (h.status === 'fulfilled') await h.value.stop();
    },
  };
}

function runcVersion(): string {
  try {
    return /runc version (\S+)/.exec(execFileSync('runc', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A node of the scenario: its containerd, the CRI client its kubelet uses, the kubelet. */
interface Node {
  host: ContainerdHost;
  runtime: GrpcCriRuntime;
}

async function openSession(seed: number, tags: readonly string[], hostFor: (key: string) => Promise<ContainerdHost>): Promise<Session> {
  const clock = new RealTimeScheduler();
  const adminToken = `kubespec-admin-${seed.toString(16)}-${process.pid}`;
  const cluster = await ReferenceCluster.start({ seed, clock, secure: { tokenCsv: adminTokenCsv(adminToken), anonymous: true }, scheduler: tags.includes('@requires:cluster.scheduler') });
  const nodes = new Map<string, Node>();
  const clients: GrpcCriRuntime[] = [];
  let spare = 0;
  const client = (host: ContainerdHost) => {
    // The node-binary images (~100 MB) are built and imported on the host the first time a kubelet looks one up.
    const beforeImageLookup = (image: string) => {
      if (isNodeBinaryImage(image)) host.importGrpcHealthImages();
    };
    const c = new GrpcCriRuntime({ endpoint: host.endpoint, now_ms: () => clock.now_ms(), cgroupParent: cgroupParentOf(host.state), beforeImageLookup });
    clients.push(c);
    return c;
  };
  /** The kubelet of `name`, on the node's own containerd or on the one at `endpoint`. */
  const startNode = async (name: string, endpoint?: string, config: NodeConfig = {}): Promise<void> => {
    if (nodes.has(name) || cluster.externalKubelets.has(name)) return;
    const host = endpoint ? [...usedHosts.values()].find((h) => h.endpoint === endpoint) : await hostFor(`node-${nodes.size}`);
    const runtime = host ? client(host) : new GrpcCriRuntime({ endpoint: endpoint!, now_ms: () => clock.now_ms() });
    if (!host) clients.push(runtime);
    if (host) usedHosts.add(host);
    const podLogsDir = host ? path.join(host.dir, 'pods') : undefined;
    const memory = host && config.memory ? { capacity: { cpu: '4', memory: config.memory, pods: '110' }, machineMemory: () => host.memoryWorkingSet() } : {};
    await cluster.addKubeletOn(name, { runtime, network: realProbeNetwork(), readLog: (id) => criLogLines(runtime.logPathOf(id)), ...(podLogsDir ? { podLogsDir } : {}), ...memory, eviction: evictionConfigOf(config) });
    if (host) nodes.set(name, { host, runtime });
  };
  const usedHosts = new Set<ContainerdHost>();
  let kubeClose: (() => Promise<void>) | undefined;
  const close = async () => {
    await kubeClose?.().catch(() => undefined);
    await cluster.stop().catch(() => undefined);
    for (const c of clients) c.close();
    // The next scenario finds an empty runtime with every vocabulary image in it.
    for (const h of usedHosts) {
      await h.removeAllSandboxes().catch(() => undefined);
      h.reimportImages();
    }
  };
  try {
    const { kube, close: closeKube } = await openKubeSession(cluster, `ks-${seed.toString(16)}`, adminToken, { kubectl: false });
    kubeClose = closeKube;
    const node = (name: string): Node => {
      const n = nodes.get(name);
      if (!n) throw new Error(`no kubelet runs node "${name}" on containerd in this scenario`);
      return n;
    };
    const facet: NodesFacet = {
      ensureNode: (name, config) => startNode(name, undefined, config),
      holdNodeMemory: async (name, bytes) => node(name).host.holdMemory(bytes),
      async exec(namespace, pod, container, command) {
        for (const n of nodes.values()) {
          const { containers } = await n.runtime.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: { [LABEL_POD_NAMESPACE]: namespace, [LABEL_POD_NAME]: pod, [LABEL_CONTAINER_NAME]: container } } });
          if (!containers[0]) continue;
          const res = await n.runtime.execSync({ containerId: containers[0].id, cmd: command, timeout: 30 });
          return { exitCode: res.exitCode, stdout: res.stdout };
        }
        throw new Error(`container "${container}" of pod ${namespace}/${pod} is not running on any node`);
      },
      runtime: (name) => node(name).runtime,
      criCalls: async (name): Promise<CriCallRecord[]> => [...node(name).runtime.calls],
      async killContainerProcess(name, containerId) {
        // kill -9 of the container's init process, found as an operator would (crictl inspect → info.pid).
        const { info } = await node(name).runtime.containerStatus({ containerId, verbose: true });
        const pid = JSON.parse(info?.info ?? '{}').pid;
        if (!pid) throw new Error(`containerd reports no pid for container ${containerId}`);
        process.kill(pid, 'SIGKILL');
      },
      holdSandboxes: async (name) => node(name).runtime.holdSandboxes(),
      releaseSandboxes: async (name) => node(name).runtime.releaseSandboxes(),
      criEndpoint: async (name) => node(name).host.endpoint,
      async startSecondRuntime() {
        const host = await hostFor(`spare-${spare++}`);
        usedHosts.add(host);
        return host.endpoint;
      },
      startKubelet: (name, opts) => startNode(name, opts.criEndpoint),
      runtimeAt(endpoint) {
        const host = [...usedHosts].find((h) => h.endpoint === endpoint);
        const c = host ? client(host) : new GrpcCriRuntime({ endpoint, now_ms: () => clock.now_ms() });
        if (!host) clients.push(c);
        return c;
      },
      async containerdContainers(name, namespace) {
        return ctr(node(name).host, ['--namespace', namespace, 'containers', 'list', '--quiet']).split('\n').filter(Boolean);
      },
      async retagImage(name, ref) {
        const n = node(name);
        const digest = n.host.retagImage(normalise(ref));
        // The CRI plugin learns of the import from containerd's events: wait until ImageStatus shows it.
        const deadline_ms = Date.now() + 10_000;
        while (!(await n.runtime.imageStatus({ image: { image: ref } })).image?.repoDigests.some((d: string) => d.endsWith(digest))) {
          if (Date.now() > deadline_ms) throw new Error(`after importing ${normalise(ref)} as ${digest}, CRI ImageStatus does not show that digest`);
          await new Promise((done) => setTimeout(done, 100));
        }
      },
      async tagImage(name, source, target) {
        ctr(node(name).host, ['--namespace', 'k8s.io', 'images', 'tag', '--force', normalise(source), normalise(target)]);
      },
    };
    return {
      seed,
      waiter: createPollingWaiter(),
      kube,
      nodes: facet,
      describe: () => ({ url: cluster.url, containerd: [...usedHosts].map((h) => h.dir) }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Docker's reference normalisation, as containerd's CRI plugin applies it: busybox → docker.io/library/busybox:latest. */
function normalise(ref: string): string {
  let name = ref;
  if (!/^[^/]+[.:][^/]*\//.test(name) && !name.startsWith('localhost/')) name = name.includes('/') ? `docker.io/${name}` : `docker.io/library/${name}`;
  if (!/:[^/]+$/.test(name) && !name.includes('@')) name += ':latest';
  return name;
}

export const _forTests = { normalise, servesContainerEvents };
