/**
 * The reference cluster: the pure cores wired together over one clock — the store, the API
 * server in front of it (served on loopback, so real clients talk to it as to any cluster), and
 * the controller manager, a client of that API server like any other: it lists, watches and
 * writes over the same loopback port kubectl uses, never touching the store. The reference
 * target builds one per scenario; `kubespec serve` builds one for people.
 *
 * With `secure`, the controller manager authenticates as system:kube-controller-manager with a
 * bearer token this file adds to the token file (kube-controller-manager's kubeconfig usually
 * holds a client certificate with that CN; a token reaches the same user through the same
 * authentication stage, and needs no CA key here). Without `secure` it sends no credentials: the
 * bare API server treats every caller as an admin.
 */
import { randomBytes } from 'node:crypto';
import type { Backend } from '../store/backend.ts';
import { loggedBackend, StoreClientLog } from '../store/client-log.ts';
import { LocalBackend } from '../store/local.ts';
import { MvccStore } from '../store/mvcc.ts';
import type { Faults } from '../faults.ts';
import { registryPrefix } from '../store/registry.ts';
import { createApiServer, seededRandom, type ApiServer } from '../apiserver/server.ts';
import { KUBE_CONTROLLER_MANAGER_USER, KUBE_PROXY_USER, KUBE_SCHEDULER_USER } from '../apiserver/bootstrap-policy.ts';
import { listen, type Listening, type TlsOptions } from '../apiserver/host/listen.ts';
import { selectControllers } from '../controllers/registry.ts';
import type { ControllerDef } from '../controllers/types.ts';
import { ApiClient } from './api-client.ts';
import { ControllerManager } from './controllers.ts';
import { ControllerManagerProcess } from './controller-manager-process.ts';
import { ProxyHost } from './proxy.ts';
import type { KubeProxy } from '../proxy/proxy.ts';
import { ClusterDns, COREDNS_AGENT, COREDNS_GROUPS, COREDNS_USER, coreDnsRbacObjects } from './dns.ts';
import { SchedulerHost } from './scheduler.ts';
import { onHost, type Scheduler } from './virtual-clock.ts';
import { referenceSecurity, type Security, type SecurityOptions } from './security.ts';
import type { UserInfo } from '../apiserver/pipeline.ts';
import { signCsr } from '../apiserver/pki/host/openssl.ts';
import { startKubeletHost, startKubeletOn, type ExternalKubeletHost, type KubeletHost, type KubeletHostOptions, type NodeMachine } from './kubelets.ts';
import { loadHttpInterceptor } from './kubelet-network.ts';
import type { CriRuntime } from '../../contract/cri.ts';

export interface ReferenceClusterOptions {
  /**
   * Load msw (the fake containers' HTTP answers) when a container first serves HTTP instead of at
   * start. On virtual time it is loaded up front, so no probe waits on real time (kubelet-network.ts).
   */
  lazyHttpInterceptor?: boolean;
  /**
   * The cluster's own components — the controller manager and its leader election, the
   * scheduler, kube-proxy, token kubelets — reach the API server in process, through its whole
   * pipeline but without loopback HTTP (in-process.ts). The suite's reference target asks for it;
   * `kubespec serve` keeps real HTTP everywhere.
   */
  inProcessComponents?: boolean;
  seed: number;
  /** Virtual time for the suite, real time for `kubespec serve`. */
  clock: Scheduler;
  backend?: Backend;
  /**
   * The backend already holds a cluster that came up and settled (a restored snapshot of one,
   * adapters/reference/warm-store.ts): the API server starts over it as it restarts over an
   * existing etcd, writing no bootstrap objects, and the controllers find nothing to do.
   */
  bootstrapped?: boolean;
  port?: number;
  host?: string;
  /** Serve HTTPS; the controller manager trusts `tls.ca`, which must also have signed `tls.cert`. */
  tls?: TlsOptions;
  /**
   * Run the full pipeline: authentication, RBAC, admission (see security.ts). Without it every
   * request is an allowed admin and only defaulting happens — the bare REST layer.
   */
  secure?: Pick<SecurityOptions, 'tokenCsv' | 'anonymous' | 'signingKey' | 'oidc'>;
  /**
   * kube-controller-manager's --controllers list: default `['*']` (every controller);
   * `['*', '-serviceaccount']` runs all but that one; `[]` runs none.
   */
  controllers?: readonly string[];
  /**
   * The controller manager's --cluster-signing-cert-file/--cluster-signing-key-file: the CA the
   * CSR signer signs kubelet client certificates with (the one the API server trusts for client
   * certificates). None: no csrsigning.
   */
  clusterSigningCa?: () => Promise<{ certPem: string; keyPem: string }>;
  /** Nodes to start a kubelet (with the fake runtime) for; more can be added with addKubelet. */
  kubelets?: readonly string[];
  /** Where the controller manager reports failed reconciles. */
  log?: (line: string) => void;
  /** kube-proxy's --iptables-min-sync-period (default 1 s, upstream's); see proxy.ts. */
  proxyMinSyncPeriod_ms?: number;
  /** Called after every sync of a node's kube-proxy: the kernel target loads the rules into a real kernel. */
  proxyOnSync?: (node: string, proxy: KubeProxy) => void;
  /** Run the scheduler (reference/wiring/scheduler.ts); default true. */
  scheduler?: boolean;
  /** The API server's --max-mutating-requests-inflight (default 200). */
  maxMutatingInFlight?: number;
  /** Fault models to inject (reference/faults.ts, `kubespec selftest`); default none. */
  faults?: Faults;
  /**
   * kube-controller-manager's --leader-elect (upstream's default true): the controller manager
   * holds the Lease kube-system/kube-controller-manager while its controllers run
   * (controller-manager-process.ts). False: the controllers start at once, holding no Lease.
   */
  leaderElect?: boolean;
}

/** The running controller manager: its controllers, and how to stop the process. */
interface ControllerManagerRun {
  readonly controllers: ControllerManager;
  stop(): Promise<void>;
}

/** The controller manager's User-Agent, shaped like upstream's (component/version (os/arch) ...). */
const CONTROLLER_MANAGER_AGENT = 'kube-controller-manager/v1.31.0 (linux/amd64) kubespec-reference';
export const SCHEDULER_AGENT = 'kube-scheduler/v1.31.0 (linux/amd64) kubespec-reference';

export class ReferenceCluster {
  private constructor(
    readonly backend: Backend,
    readonly api: ApiServer,
    readonly http: Listening,
    private manager: ControllerManagerRun,
    private readonly shutdown: () => void,
    /** Starts a fresh controller manager process (new caches) with the cluster's options, or another --controllers list. */
    private readonly startManager: (controllers?: readonly string[]) => Promise<ControllerManagerRun>,
    /** kube-proxy, one per node that a scenario (or serve) starts; see proxy.ts. */
    readonly proxies: ProxyHost,
    readonly security?: Security,
    private readonly kubeletContext?: { hosts: Map<string, KubeletHost>; external: Map<string, ExternalKubeletHost>; clock: Scheduler; seed: number; server: string; ca?: string | Buffer; tokens?: Map<string, UserInfo>; log?: (line: string) => void; faults?: Faults },
  ) {}

  /** The scheduler, when the cluster runs one. */
  scheduler?: SchedulerHost;

  get controllers(): ControllerManager {
    return this.manager.controllers;
  }

  /** Stops the controller manager, as stopping kube-controller-manager would (it releases its Lease). */
  async stopControllers(): Promise<void> {
    await this.manager.stop();
  }

  /**
   * Starts a new controller manager process: it lists and watches everything afresh. `controllers`:
   * its --controllers list (default: the cluster's).
   */
  async startControllers(controllers?: readonly string[]): Promise<void> {
    await this.manager.stop();
    this.manager = await this.startManager(controllers);
  }

  /** The node agents started so far, by node name (kubelets.ts). */
  get kubelets(): Map<string, KubeletHost> {
    return this.kubeletContext!.hosts;
  }

  /** Starts a kubelet (and its fake runtime) for a node, which it registers. */
  async addKubelet(name: string, opts: Pick<KubeletHostOptions, 'leaseRenew_ms' | 'clientCertificate' | 'ca' | 'registerWithTaints' | 'capacity' | 'eviction'> & { /** Where it reaches the API server, e.g. an HA load balancer (default: this cluster's). */ server?: string } = {}): Promise<KubeletHost> {
    const existing = this.kubelets.get(name);
    if (existing) return existing;
    const ctx = this.kubeletContext!;
    const { hosts: _, external: __, ...hostOpts } = ctx;
    const host = await startKubeletHost({ name, ...hostOpts, ...opts, seed: ctx.seed ^ this.kubelets.size });
    this.kubelets.set(name, host);
    return host;
  }

  /** Kubelets on machines of the caller's (a real CRI runtime: adapters/cri/), by node name. */
  get externalKubelets(): Map<string, ExternalKubeletHost> {
    return this.kubeletContext!.external;
  }

  /** Starts a kubelet for a node whose runtime and network the caller provides; it fails as the kubelet's start does. */
  async addKubeletOn<R extends CriRuntime>(name: string, machine: NodeMachine<R>, opts: { leaseRenew_ms?: number } = {}): Promise<ExternalKubeletHost<R>> {
    const ctx = this.kubeletContext!;
    const { hosts: _, external, ...hostOpts } = ctx;
    const host = await startKubeletOn({ name, ...hostOpts, ...opts, seed: ctx.seed ^ (this.kubelets.size + external.size) }, machine);
    external.set(name, host);
    return host;
  }

  static async start(opts: ReferenceClusterOptions): Promise<ReferenceCluster> {
    if (!opts.lazyHttpInterceptor) await loadHttpInterceptor();
    // Fault serviceaccount-controller-idle: the controller manager runs without that controller.
    const controllerFlag = opts.faults?.has('serviceaccount-controller-idle') ? ['-serviceaccount', ...(opts.controllers ?? ['*'])] : opts.controllers;
    const controllers = selectControllers(controllerFlag, opts.faults);
    const backend = opts.backend ?? new LocalBackend(new MvccStore(opts.faults));
    // Every store handle is a logged one, named after who holds it (kube.storage.clients).
    const storeClients = new StoreClientLog();
    const apiServerStore = loggedBackend(backend, 'kube-apiserver', storeClients);
    const random = seededRandom(opts.seed);
    // Drawn from the host, not from `random`: a credential must not be guessable from the seed,
    // and taking it from `random` would shift every uid the API server draws after it.
    const managerToken = opts.secure ? randomBytes(32).toString('base64url') : undefined;
    const proxyToken = opts.secure ? randomBytes(32).toString('base64url') : undefined;
    const schedulerToken = opts.secure ? randomBytes(32).toString('base64url') : undefined;
    const dnsToken = opts.secure ? randomBytes(32).toString('base64url') : undefined;
    const liveTokens = opts.secure ? new Map<string, UserInfo>() : undefined;
    const tokenCsv = opts.secure && withToken(withToken(withControllerManagerToken(opts.secure.tokenCsv, managerToken!), proxyToken!, KUBE_PROXY_USER), schedulerToken!, KUBE_SCHEDULER_USER)
      // CoreDNS's ServiceAccount token (kube-system/coredns), with the groups a ServiceAccount has.
      + `${dnsToken},${COREDNS_USER},${COREDNS_USER},"${COREDNS_GROUPS.join(',')}"\n`;
    const secure = opts.secure && { ...opts.secure, tokenCsv: tokenCsv as string, liveTokens };
    const security = secure ? referenceSecurity({ backend: apiServerStore, clock: opts.clock, random, ...secure, ...(opts.faults ? { faults: opts.faults } : {}) }) : undefined;
    // The API server reaches kubelets (pods/log) the way upstream dials a node's :10250: by node name.
    const hosts = new Map<string, KubeletHost>();
    const external = new Map<string, ExternalKubeletHost>();
    const api = createApiServer({
      nodes: {
        containerLogs: async (node, ns, pod, container, o) => (await (hosts.get(node) ?? external.get(node))?.kubelet.containerLogs(ns, pod, container, o)) ?? { status: 400, text: `no kubelet answers for node ${node}` },
      },
      backend: apiServerStore,
      clock: opts.clock,
      timers: { after: (ms, fn) => opts.clock.after(ms, fn) },
      random,
      ...security?.options,
      ...(opts.maxMutatingInFlight !== undefined ? { maxMutatingInFlight: opts.maxMutatingInFlight } : {}),
      ...(opts.faults ? { faults: opts.faults } : {}),
      ...(opts.bootstrapped ? { bootstrap: false } : {}),
    });
    await api.ready;
    const http = await listen(api.handler, { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1', tls: opts.tls });
    const inProcess = opts.inProcessComponents ? { inProcess: api.handle } : {};
    const client = new ApiClient({
      ...inProcess,
      server: loopbackUrl(http, opts),
      userAgent: CONTROLLER_MANAGER_AGENT,
      ...(managerToken ? { token: managerToken } : {}),
      ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}),
    });
    const schedulerClient = new ApiClient({
      ...inProcess,
      server: loopbackUrl(http, opts),
      userAgent: SCHEDULER_AGENT,
      ...(schedulerToken ? { token: schedulerToken } : {}),
      ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}),
    });
    // The wiring's own instrument (when have the controllers caught up?), not a component's reads.
    const tap = storeChangeTap(loggedBackend(backend, HARNESS_STORE_CLIENT, storeClients), controllers);
    let manager: ControllerManagerRun;
    let scheduler: SchedulerHost | undefined;
    const managerRandom = seededRandom(opts.seed ^ 0x6b636d);
    // Fresh controller objects each time: their bookkeeping (expectations) is per process.
    const startControllers = (flag: readonly string[] | undefined) => ControllerManager.start({ client, clock: opts.clock, random: managerRandom, controllers: selectControllers(flag, opts.faults), changedAt: tap.changedAt, ...(opts.log ? { log: opts.log } : {}), ...(opts.clusterSigningCa ? { signCsr: signWith(opts.clusterSigningCa, opts.clock) } : {}) });
    const startManager = async (override?: readonly string[]): Promise<ControllerManagerRun> => {
      const flag = override && opts.faults?.has('serviceaccount-controller-idle') ? ['-serviceaccount', ...override] : (override ?? controllerFlag);
      if (opts.leaderElect === false) {
        const controllers = await startControllers(flag);
        return { controllers, stop: async () => controllers.stop() };
      }
      const process = await ControllerManagerProcess.start({
        ...inProcess, server: loopbackUrl(http, opts), clock: opts.clock, random: managerRandom, startControllers: () => startControllers(flag),
        ...(managerToken ? { token: managerToken } : {}), ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}), ...(opts.log ? { log: opts.log } : {}),
      });
      return { get controllers() { return process.controllers; }, stop: () => process.stop() };
    };
    try {
      manager = await startManager();
      // The first clients find what the controllers make of the bootstrap objects (`default` in
      // each system namespace) already there, as on a cluster that has been up for a moment.
      await manager.controllers.settled();
      if (opts.scheduler !== false) scheduler = await SchedulerHost.start({ client: schedulerClient, clock: opts.clock, random: seededRandom(opts.seed ^ 0x736368), ...(opts.log ? { log: opts.log } : {}), ...(opts.faults ? { faults: opts.faults } : {}) });
    } catch (error) {
      tap.stop();
      client.close();
      schedulerClient.close();
      await http.close();
      throw error;
    }
    const proxyClient = new ApiClient({
      ...inProcess,
      server: loopbackUrl(http, opts),
      userAgent: KUBE_PROXY_AGENT,
      ...(proxyToken ? { token: proxyToken } : {}),
      ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}),
    });
    const proxyTap = storeChangeTap(loggedBackend(backend, HARNESS_STORE_CLIENT, storeClients), [{ watches: PROXY_WATCHES }]);
    const proxies = new ProxyHost(proxyClient, opts.clock, opts.seed, proxyTap.changedAt, opts.proxyMinSyncPeriod_ms, opts.faults, opts.proxyOnSync);
    const shutdown = () => {
      scheduler?.stop();
      tap.stop();
      proxyTap.stop();
      proxies.stop();
      client.close();
      proxyClient.close();
      schedulerClient.close();
    };
    const kubeletContext = { ...inProcess, hosts, external, clock: opts.clock, seed: opts.seed ^ 0x6b6c74, server: loopbackUrl(http, opts), ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}), ...(liveTokens ? { tokens: liveTokens } : {}), ...(opts.log ? { log: opts.log } : {}), ...(opts.faults ? { faults: opts.faults } : {}) };
    const cluster = new ReferenceCluster(backend, api, http, manager, shutdown, startManager, proxies, security, kubeletContext);
    for (const name of opts.kubelets ?? []) await cluster.addKubelet(name);
    cluster.controllerManagerCredentials = { ...(managerToken ? { token: managerToken } : {}), ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}) };
    cluster.scheduler = scheduler;
    cluster.storeClients = storeClients;
    cluster.schedulerCredentials = { ...(schedulerToken ? { token: schedulerToken } : {}), ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}) };
    cluster.dnsContext = { clock: opts.clock, seed: opts.seed, ...(opts.faults ? { faults: opts.faults } : {}), client: () => new ApiClient({ server: loopbackUrl(http, opts), userAgent: COREDNS_AGENT, ...(dnsToken ? { token: dnsToken } : {}), ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}) }) };
    return cluster;
  }

  /** Every request made to the store, by the name of the handle it came through (kube.storage.clients). */
  storeClients = new StoreClientLog();

  /** How a further controller-manager process (HA: reference/wiring/ha.ts) authenticates: the same user and trust. */
  controllerManagerCredentials: { token?: string; ca?: string | Buffer } = {};
  /** How a further scheduler process (HA) authenticates: system:kube-scheduler. */
  schedulerCredentials: { token?: string; ca?: string | Buffer } = {};

  get url(): string {
    return this.http.url;
  }

  private dnsContext?: { clock: Scheduler; seed: number; client: () => ApiClient; faults?: Faults };
  /** The cluster DNS, once started (dns.ts). */
  dns?: ClusterDns;
  private dnsClient?: ApiClient;

  /**
   * Starts the cluster DNS (CoreDNS's kubernetes plugin, dns.ts) on UDP host:port (default
   * 127.0.0.1, any free port), first installing its RBAC as kubeadm's addon phase does (as an
   * admin: system:masters). Started once; a second call returns the running one.
   */
  async startDns(opts: { host?: string; port?: number } = {}): Promise<ClusterDns> {
    if (this.dns) return this.dns;
    for (const object of coreDnsRbacObjects()) {
      const collection = object.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings';
      const { status } = await this.api.handle({
        method: 'POST', url: `/apis/rbac.authorization.k8s.io/v1/${collection}`,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(object)),
        clientCert: { subjectCN: 'kubeadm', subjectO: ['system:masters'] },
      });
      if (status !== 201 && status !== 409) throw new Error(`could not create ${object.kind} ${object.metadata.name} for the cluster DNS: ${status}`);
    }
    const ctx = this.dnsContext!;
    this.dnsClient = ctx.client();
    this.dns = await ClusterDns.start({ client: this.dnsClient, clock: ctx.clock, seed: ctx.seed, ...(ctx.faults ? { faults: ctx.faults } : {}), ...opts });
    return this.dns;
  }

  async stop(): Promise<void> {
    await this.dns?.stop();
    this.dnsClient?.close();
    for (const host of this.kubelets.values()) await host.stop();
    for (const host of this.externalKubelets.values()) await host.stop();
    await this.manager.stop();
    this.shutdown();
    await this.http.close();
  }
}

/** The name the wiring's own store watches (settle detection) are logged under: the harness, not a component. */
export const HARNESS_STORE_CLIENT = 'kubespec-wiring (settle detection)';

/** What kube-proxy watches, for its store change tap. */
const PROXY_WATCHES = [{ group: '', version: 'v1', resource: 'services' }, { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' }];

/** kube-proxy's User-Agent, as upstream's component name prints it. */
const KUBE_PROXY_AGENT = 'kube-proxy/v1.31.0 (linux/amd64) kubespec-reference';

/** The token file with one more line: the controller manager's token, for its user (no groups, as its certificate has no O). */
function withControllerManagerToken(tokenCsv: string | undefined, token: string): string {
  const lines = tokenCsv && !tokenCsv.endsWith('\n') ? `${tokenCsv}\n` : (tokenCsv ?? '');
  return `${lines}${token},${KUBE_CONTROLLER_MANAGER_USER},${KUBE_CONTROLLER_MANAGER_USER}\n`;
}

/** The token file with one more line for `user` (no groups, as its client certificate would have no O). */
function withToken(tokenCsv: string, token: string, user: string): string {
  return `${tokenCsv}${token},${user},${user}\n`;
}

/** Where a component on this host reaches the API server: the listening port on loopback. */
function loopbackUrl(http: Listening, opts: ReferenceClusterOptions): string {
  const host = opts.host ?? '127.0.0.1';
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return http.url;
  return `${opts.tls ? 'https' : 'http'}://127.0.0.1:${http.port}`;
}

/**
 * For ControllerManager.settled(): the last store revision at which each watched resource's
 * objects changed, from store watches on their registry prefixes. It only counts; the objects
 * themselves reach the controllers through the API server's watch.
 */
function storeChangeTap(backend: Backend, controllers: readonly Pick<ControllerDef, 'watches'>[]): { changedAt(resource: string): number; stop(): void } {
  const latest = new Map<string, number>();
  const cancels: (() => void)[] = [];
  let stopped = false;
  const resources = new Set(controllers.flatMap((c) => c.watches.map((ref) => ref.resource)));
  const watch = (resource: string): void => {
    cancels.push(backend.watch(registryPrefix(resource), backend.currentRevision() + 1, {
      onEvents(events) {
        for (const e of events) latest.set(resource, Math.max(latest.get(resource) ?? 0, e.kv.modRevision));
      },
      // A watch from the head is only cancelled by a compaction racing it; start again from the head.
      onCancel: () => void (stopped || watch(resource)),
    }));
  };
  for (const resource of resources) watch(resource);
  return {
    changedAt: (resource) => latest.get(resource) ?? 0,
    stop: () => {
      stopped = true;
      for (const cancel of cancels.splice(0)) cancel();
    },
  };
}

/** The CSR signer's signing with the cluster CA (openssl: the key never leaves the host). */
function signWith(ca: () => Promise<{ certPem: string; keyPem: string }>, clock: Scheduler) {
  return (requestPem: string, validity: { notBefore: Date; notAfter: Date }) => onHost(clock, async () => signCsr(await ca(), requestPem, validity));
}
