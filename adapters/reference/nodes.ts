/**
 * The `nodes` facet of a reference session: kubelets with the fake CRI runtime, started in the
 * scenario's cluster on demand (reference/wiring/kubelets.ts). Exec goes through the runtime's
 * ExecSync, as the kubelet's own exec path (pods/exec → CRI Exec) ends up in the runtime.
 *
 * `cri.grpc` / `kubelet.runtime-endpoint`: a node's fake runtime is also served as a CRI v1 gRPC
 * server on a unix socket (reference/cri/host/grpc-server.ts) when a scenario asks for its
 * endpoint; a second fake runtime can be started behind a socket of its own, and a kubelet
 * started against any endpoint talks to it through the same gRPC client the cri target's
 * kubelets use (adapters/cri/grpc-client.ts).
 */
import type { CriCallRecord, NodesFacet } from '../../contract/contract.ts';
import { evictionConfigOf } from '../../contract/contract.ts';
import type { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import type { Scheduler } from '../../reference/wiring/virtual-clock.ts';
import { LABEL_CONTAINER_NAME, LABEL_POD_NAME, LABEL_POD_NAMESPACE } from '../../contract/cri.ts';
import { FakeRuntime } from '../../reference/cri/fake/runtime.ts';
import { serveCri, type CriServer } from '../../reference/cri/host/grpc-server.ts';
import { nodeNetwork, type NodeNetwork } from '../../reference/wiring/kubelet-network.ts';
import { realProbeNetwork } from '../../reference/wiring/probe-network.ts';
import { GrpcCriRuntime } from '../cri/grpc-client.ts';
import { issueClientCert, type CertAndKey } from '../../reference/apiserver/pki/host/index.ts';

export interface ReferenceNodes {
  facet: NodesFacet;
  close(): Promise<void>;
}

export function referenceNodes(cluster: ReferenceCluster, clock: Scheduler, opts: { server?: string; tls?: () => Promise<{ url: string; ca: CertAndKey }> } = {}): ReferenceNodes {
  const host = (node: string) => {
    const h = cluster.kubelets.get(node);
    if (!h) throw new Error(`no kubelet runs node "${node}" in this scenario (say "Given a cluster with node \\"${node}\\"")`);
    return h;
  };
  const servers = new Map<string, CriServer>();
  const clients: GrpcCriRuntime[] = [];
  const networks: NodeNetwork[] = [];
  const client = (endpoint: string) => {
    const c = new GrpcCriRuntime({ endpoint, now_ms: () => clock.now_ms() });
    clients.push(c);
    return c;
  };
  const facet: NodesFacet = {
    async ensureNode(name, config = {}) {
      // Behind an HA load balancer the kubelet reaches the API servers through it, as workers do.
      const capacity = config.memory ? { cpu: '4', memory: config.memory, pods: '110' } : undefined;
      await cluster.addKubelet(name, { ...(opts.server ? { server: opts.server } : {}), ...(capacity ? { capacity } : {}), eviction: evictionConfigOf(config) });
    },
    async retagImage(name, ref) {
      host(name).runtime.retagImage(ref);
    },
    async holdNodeMemory(name, bytes) {
      host(name).outsidePods_bytes = bytes;
    },
    async startKubeletWithClientCertificate(name, { lifetime_ms, rotateCertificates }) {
      if (!opts.tls) throw new Error('this session has no HTTPS listener for client certificates');
      const { url, ca } = await opts.tls();
      const now = clock.now_ms();
      const cert = await issueClientCert(ca, { commonName: `system:node:${name}`, organizations: ['system:nodes'], validity: { notBefore: new Date(now), notAfter: new Date(now + lifetime_ms) } });
      await cluster.addKubelet(name, { server: url, ca: ca.certPem, clientCertificate: { ...cert, rotate: rotateCertificates } });
    },
    async stopNode(name) {
      await host(name).stop();
    },
    async exec(namespace, pod, container, command) {
      for (const h of cluster.kubelets.values()) {
        const { containers } = await h.runtime.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: { [LABEL_POD_NAMESPACE]: namespace, [LABEL_POD_NAME]: pod, [LABEL_CONTAINER_NAME]: container } } });
        const c = containers[0];
        if (!c) continue;
        const res = await h.runtime.execSync({ containerId: c.id, cmd: command, timeout: 0 });
        return { exitCode: res.exitCode, stdout: res.stdout };
      }
      throw new Error(`container "${container}" of pod ${namespace}/${pod} is not running on any node`);
    },
    runtime: (node) => (cluster.externalKubelets.get(node)?.runtime ?? host(node).runtime),
    criCalls: async (node): Promise<CriCallRecord[]> => {
      const external = cluster.externalKubelets.get(node)?.runtime;
      if (external instanceof GrpcCriRuntime) return [...external.calls];
      return host(node).runtime.calls.map((c) => ({ method: c.method, at_ms: c.at_ms, ...(c.podUid ? { podUid: c.podUid } : {}), ...(c.sandboxId ? { podSandboxId: c.sandboxId } : {}) }));
    },
    killContainerProcess: async (node, id) => host(node).runtime.killProcess(id),
    holdSandboxes: async (node) => host(node).runtime.holdSandboxes(),
    releaseSandboxes: async (node) => host(node).runtime.releaseSandboxes(),
    async criEndpoint(node) {
      let server = servers.get(node);
      if (!server) {
        server = await serveCri(host(node).runtime);
        servers.set(node, server);
      }
      return server.endpoint;
    },
    async startSecondRuntime() {
      const network = nodeNetwork();
      networks.push(network);
      const runtime = new FakeRuntime({ clock, node: `second-${servers.size}`, sandboxIp: network.sandboxIp, onListen: network.onListen });
      network.attach(runtime, clock);
      const server = await serveCri(runtime);
      servers.set(`second-${servers.size}`, server);
      return server.endpoint;
    },
    async startKubelet(name, opts) {
      // Probes go out through real clients; msw answers for every fake runtime's sandbox IPs (kubelet-network.ts).
      await cluster.addKubeletOn(name, { runtime: client(opts.criEndpoint), network: realProbeNetwork() });
    },
    runtimeAt: (endpoint) => client(endpoint),
  };
  return {
    facet,
    async close() {
      for (const c of clients) c.close();
      for (const s of servers.values()) await s.close();
      for (const n of networks) await n.close();
    },
  };
}
