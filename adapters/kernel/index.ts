/**
 * The `kernel` target: the reference control plane (API server, controllers, kube-proxy's
 * informers and proxier, on real time) with every node's kube-proxy rules loaded into a REAL
 * kernel — `iptables-restore` in iptables mode, `nft -f` transactions in nftables mode (the full
 * table at start, then each partial sync's own transaction, as upstream's proxier writes them) —
 * inside network namespaces (host/network.ts). Connections are real TCP/HTTP from real clients
 * (an outside host, a pod, a process on the node) to real HTTP servers at every endpoint address
 * the API's EndpointSlices list, and the backend that answered is what the server itself reports.
 *
 * What the steps read back is read from the kernel, as an operator on the node would:
 * `iptables-save`, `nft list table ip kube-proxy`, `ip addr`, `sysctl`. Only the programming is
 * the reference's; the forwarding, conntrack, the `statistic`/`recent`/`numgen` matches and the
 * rejects are the kernel's.
 *
 * Not offered: `proxy.ipvs` (this kind of kernel has no ip_vs; IPVS mode is refused with
 * kube-proxy's own error, as on a real node), `clock.virtual` (the kernel's `recent` and
 * conntrack timers run on real time), `kubelet` (the reference's fake runtime runs no process
 * that could answer a real packet; see README).
 */
import type { Capability } from '../../contract/capabilities.ts';
import type { KubeFacet, ProxyConnectResult, ProxyFacet, Session, Target } from '../../contract/contract.ts';
import { CONTRACT_VERSION } from '../../contract/contract.ts';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { RealTimeScheduler } from '../../reference/wiring/realtime.ts';
import type { KubeProxy } from '../../reference/proxy/proxy.ts';
import { DEFAULT_CLUSTER_CIDR } from '../../reference/proxy/iptables/proxier.ts';
import { adminTokenCsv, openKubeSession } from '../reference/kube-session.ts';
import { createPollingWaiter } from '../polling-waiter.ts';
import { parseFaults } from '../../reference/faults.ts';
import { KernelNetwork, OUTSIDE_ADDRESS, processAddress, kernelHasIpvs, kernelUnavailable, sweepStale, type Answer } from './host/network.ts';
import { execFileSync } from 'node:child_process';

export { kernelUnavailable };

const CAPABILITIES: Capability[] = [
  'kube.api', 'kube.watch',
  'proxy.rules', 'proxy.iptables', 'proxy.nftables',
  // Real packets: connect() and http() go through the kernel to real servers.
  'proxy.dataplane', 'proxy.traffic',
];

/** How long a connect may take before it counts as dropped (a veth answers in microseconds). */
const CONNECT_TIMEOUT_MS = 500;

/** Without the kernel's tools or rights only the API is offered, so every proxy scenario is not-applicable. */
const API_ONLY: Capability[] = ['kube.api', 'kube.watch'];

export function createKernelTarget(): Target {
  const why = kernelUnavailable();
  if (why) console.error(`kubespec: the kernel target cannot load rules into this kernel (${why}): its proxy scenarios are reported not-applicable`);
  return {
    name: 'kernel',
    contractVersion: CONTRACT_VERSION,
    capabilities: new Set(why ? API_ONLY : CAPABILITIES),
    knownDeviations: new Map(),
    async versions() {
      return { kernel: tool('uname', ['-r']), iptables: tool('iptables', ['--version']), nft: tool('nft', ['--version']) };
    },
    async start() {
      if (!why) sweepStale();
    },
    openSession: (ctx) => openSession(ctx.seed, !why),
    async stop() {},
  };
}

function tool(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Loads each node's rules into its namespace after every sync. A node whose kube-proxy is new
 * (first start, or restarted in another mode) gets a clean netfilter first: kube-proxy cleans up
 * other modes' rules when it starts.
 */
class RuleLoader {
  private readonly loaded = new Map<string, KubeProxy>();
  readonly errors = new Map<string, string>();

  constructor(private readonly net: KernelNetwork, private readonly address: (node: string) => string) {}

  load(node: string, proxy: KubeProxy): void {
    try {
      this.net.node(node, this.address(node));
      const first = this.loaded.get(node) !== proxy;
      if (first) {
        this.net.exec(node, 'nft', ['flush', 'ruleset']);
        this.loaded.set(node, proxy);
      }
      if (proxy.config.mode === 'nftables') {
        const lines = first ? proxy.nftFullTransaction() : proxy.lastTransaction;
        if (lines.length > 0) this.net.exec(node, 'nft', ['-f', '-'], `${lines.join('\n')}\n`);
      } else {
        const text = proxy.iptablesRestoreInput();
        if (text) this.net.exec(node, 'iptables-restore', [], text);
      }
      this.errors.delete(node);
    } catch (error) {
      this.errors.set(node, (error as Error).message);
    }
  }
}

async function openSession(seed: number, withKernel: boolean): Promise<Session> {
  const net = new KernelNetwork();
  let cluster: ReferenceCluster | undefined;
  let kubeClose: (() => Promise<void>) | undefined;
  const close = async () => {
    await kubeClose?.().catch(() => undefined);
    await cluster?.stop().catch(() => undefined);
    net.close();
  };
  try {
    if (withKernel) net.up();
    const clock = new RealTimeScheduler();
    const faults = parseFaults(process.env.KUBESPEC_FAULTS);
    const adminToken = `kubespec-admin-${seed.toString(16)}-${process.pid}`;
    let loader: RuleLoader | undefined;
    cluster = await ReferenceCluster.start({
      seed, clock, secure: { tokenCsv: adminTokenCsv(adminToken), anonymous: true }, scheduler: false,
      // `kubespec run --target kernel --fault iptables-…`: kube-proxy's fault models, loaded into the kernel like any rules.
      ...(faults.size > 0 ? { faults } : {}),
      // Every change synced at once (--iptables-min-sync-period=0, an upstream setting).
      proxyMinSyncPeriod_ms: 0,
      proxyOnSync: (node, proxy) => loader?.load(node, proxy),
    });
    const c = cluster;
    loader = new RuleLoader(net, (node) => c.proxies.address(node));
    const { kube, close: closeKube } = await openKubeSession(cluster, `ks-${seed.toString(16)}`, adminToken, { kubectl: false });
    kubeClose = closeKube;
    return {
      seed,
      waiter: createPollingWaiter(),
      kube,
      ...(withKernel ? { proxy: kernelProxyFacet(cluster, net, loader, kube) } : {}),
      describe: () => ({ url: c.url, namespaces: net.prefix }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function kernelProxyFacet(cluster: ReferenceCluster, net: KernelNetwork, loader: RuleLoader, kube: KubeFacet): ProxyFacet {
  const host = cluster.proxies;
  const started: string[] = [];
  const hasNode = (node: string) => {
    try {
      net.nodeNamespace(node);
      return true;
    } catch {
      return false;
    }
  };
  /** What the node prints for a command, '' where it prints an error (no such table). */
  const onNode = (node: string, cmd: string, args: string[]) => {
    if (!hasNode(node)) return '';
    try {
      return net.exec(node, cmd, args);
    } catch {
      return '';
    }
  };
  /**
   * A server at every endpoint address the API lists, on the node the slice names (else the first
   * proxy node). Listed again only when the store has moved on: 3000 connections need one list.
   */
  let provisionedAt = -1;
  const provisionBackends = async () => {
    const revision = cluster.backend.currentRevision();
    if (revision === provisionedAt) return;
    const res = await kube.request({ method: 'GET', path: '/apis/discovery.k8s.io/v1/endpointslices' });
    for (const slice of res.json?.items ?? []) {
      const ports = (slice.ports ?? []).map((p: any) => p.port).filter((p: unknown): p is number => typeof p === 'number');
      for (const ep of slice.endpoints ?? []) {
        const node = ep.nodeName ?? started[0] ?? 'kernel-node';
        net.node(node, host.address(node));
        for (const ip of ep.addresses ?? []) await net.backend(node, ip, ports);
      }
    }
    provisionedAt = revision;
  };
  const toResult = (a: Answer, dst: string, port: number, src: string | undefined): ProxyConnectResult => {
    // Answered at the very address it was sent to: no rule redirected it.
    if (a.backend === `${dst}:${port}`) return { outcome: 'no-match', masqueraded: a.peer !== src };
    if (a.backend) return { outcome: 'forwarded', backend: a.backend, masqueraded: a.peer !== src };
    if (a.error === 'TIMEOUT') return { outcome: 'dropped' };
    if (['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(a.error ?? '')) return { outcome: 'rejected' };
    throw new Error(`connection to ${dst}:${port} failed in an unexpected way: ${a.error}`);
  };
  const inPodNetwork = (ip: string) => ip.startsWith(`${DEFAULT_CLUSTER_CIDR.split('.').slice(0, 2).join('.')}.`);
  return {
    async start(node, opts) {
      net.node(node, host.address(node));
      if (!started.includes(node)) started.push(node);
      if (opts.mode === 'ipvs') {
        // kube-proxy checks the kernel for ip_vs (and exits without it); this target loads iptables and nftables rules only.
        if (kernelHasIpvs()) throw new Error('the kernel target does not program IPVS (it declares no proxy.ipvs)');
        const { kernelModules, ...rest } = opts;
        return host.start(node, { ...rest, kernelModules: (kernelModules ?? []).filter((m) => !m.startsWith('ip_vs')) });
      }
      return host.start(node, opts);
    },
    status: async (node) => host.status(node),
    async synced(node) {
      const error = loader.errors.get(node);
      if (error) throw new Error(`loading kube-proxy's rules into the kernel of node "${node}" failed: ${error}`);
      return host.caughtUp();
    },
    nodeAddress: async (node) => host.address(node),
    iptablesSave: async (node, table) => onNode(node, 'iptables-save', ['-t', table]),
    ipvsadmSave: async () => '',
    ipset: async () => [],
    interfaceAddresses: async (node, iface) => [...onNode(node, 'ip', ['-4', '-o', 'addr', 'show', 'dev', iface]).matchAll(/inet (\d+\.\d+\.\d+\.\d+)/g)].map((m) => m[1]!),
    async sysctl(node, name) {
      const text = onNode(node, 'sysctl', ['-n', name]).trim();
      return text === '' ? undefined : Number(text);
    },
    nftList: async (node) => onNode(node, 'nft', ['list', 'table', 'ip', 'kube-proxy']),
    async connect(node, conn) {
      if ((conn.protocol ?? 'TCP') !== 'TCP') throw new Error('the kernel target sends TCP connections only');
      await provisionBackends();
      // A process on the node binds the node's second address; a pod's source is its own pod; anyone else is outside.
      const src = conn.fromNode ? processAddress(host.address(node)) : conn.src;
      const agent = conn.fromNode ? net.nodeProcess(node) : inPodNetwork(conn.src) ? net.podClient(node, conn.src) : net.outsideClient(node);
      const [answer] = await net.send(agent, { dst: conn.dst, port: conn.port, src, requests: 1, keepAlive: false, timeout_ms: CONNECT_TIMEOUT_MS });
      return toResult(answer!, conn.dst, conn.port, src);
    },
    async http(node, req) {
      await provisionBackends();
      const answers = await net.send(net.outsideClient(node), { ...req, timeout_ms: CONNECT_TIMEOUT_MS });
      // The outside agent's source is its bridge address when none is asked for.
      return answers.map((a) => toResult(a, req.dst, req.port, OUTSIDE_ADDRESS));
    },
  };
}
