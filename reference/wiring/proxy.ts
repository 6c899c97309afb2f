/**
 * kube-proxy in the reference cluster: one pure KubeProxy (reference/proxy/proxy.ts) per node,
 * fed by informers on Services and EndpointSlices that list and watch the API server as
 * system:kube-proxy (bound to system:node-proxier, reference/apiserver/bootstrap-policy.ts),
 * over the same loopback port kubectl uses. It never reads the store.
 *
 * - The informers are shared by the node proxies of one cluster (each node's kube-proxy holds
 *   the same two caches upstream; sharing them saves requests, not behaviour): they start when
 *   the first node's proxy starts, so a scenario without a proxy costs nothing.
 * - Syncs follow upstream's BoundedFrequencyRunner (pkg/util/async): a change syncs at once
 *   unless the last sync was less than minSyncPeriod ago (1 s, --iptables-min-sync-period's
 *   default; 0 — which upstream accepts — syncs on every change), and a periodic full sync runs
 *   every syncPeriod (30 s).
 * - Node addresses are handed out in start order from 172.18.0.0/24, like a kind network.
 */
import { Informer } from '../controllers/informer.ts';
import type { ResourceRef } from '../controllers/types.ts';
import { KubeProxy, startError, type ProxyConfig, type ProxyMode } from '../proxy/proxy.ts';
import { seededRandom } from '../apiserver/server.ts';
import type { ApiClient } from './api-client.ts';
import type { Scheduler } from './virtual-clock.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';

const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services' };
const ENDPOINT_SLICES: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
export const MIN_SYNC_PERIOD_MS = 1_000;
export const SYNC_PERIOD_MS = 30_000;

export interface NodeProxyOptions {
  /** Default iptables, upstream's default on Linux. Anything but the three modes is refused at start. */
  mode?: string;
  ipvsScheduler?: string;
  kernelModules?: readonly string[];
}

interface NodeProxy {
  proxy?: KubeProxy;
  error?: string;
  lastSync_ms: number;
  pending?: () => void;
  /** Informer progress counter at the last sync: tells whether the proxy has caught up. */
  syncedAt: number;
}

export class ProxyHost {
  private informers?: { services: Informer; slices: Informer };
  private readonly nodes = new Map<string, NodeProxy>();
  private readonly addresses = new Map<string, string>();
  private progress = 0;
  private periodic?: () => void;
  private stopped = false;

  constructor(
    private readonly client: Pick<ApiClient, 'listWatcher'>,
    private readonly clock: Scheduler,
    private readonly seed: number,
    /** The last store revision at which objects of a resource changed (as ControllerManager.settled uses it). */
    private readonly changedAt: (resource: string) => number = () => 0,
    private readonly minSyncPeriod_ms = MIN_SYNC_PERIOD_MS,
    /** Fault models (reference/faults.ts) for every node's kube-proxy; default none. */
    private readonly faults: Faults = NO_FAULTS,
    /** Called after every sync of a node's kube-proxy (a host that loads the rules into a real kernel). */
    private readonly onSync?: (node: string, proxy: KubeProxy) => void,
  ) {}

  /** Starts kube-proxy on `node` in a mode (replacing one that ran there). A refused start is kept as its error. */
  async start(node: string, opts: NodeProxyOptions): Promise<void> {
    await this.ensureInformers();
    this.nodes.get(node)?.pending?.();
    const config: ProxyConfig = {
      mode: (opts.mode ?? 'iptables') as ProxyMode, nodeName: node, nodeIPs: [this.address(node)],
      ...(opts.ipvsScheduler !== undefined ? { ipvsScheduler: opts.ipvsScheduler } : {}),
      ...(opts.kernelModules ? { kernelModules: opts.kernelModules } : {}),
      random: seededRandom(this.seed ^ hashName(node)),
      ...(this.faults.size > 0 ? { faults: this.faults } : {}),
    };
    const error = startError(config);
    const entry: NodeProxy = { lastSync_ms: -Infinity, syncedAt: -1, ...(error ? { error } : { proxy: new KubeProxy(config) }) };
    this.nodes.set(node, entry);
    this.syncNode(entry);
  }

  proxy(node: string): KubeProxy | undefined {
    return this.nodes.get(node)?.proxy;
  }

  status(node: string): { running: boolean; error?: string } {
    const n = this.nodes.get(node);
    return n ? { running: n.proxy !== undefined, ...(n.error ? { error: n.error } : {}) } : { running: false };
  }

  address(node: string): string {
    if (!this.addresses.has(node)) this.addresses.set(node, `172.18.0.${this.addresses.size + 2}`);
    return this.addresses.get(node)!;
  }

  /** Whether every node's rules reflect everything its informers have seen. */
  caughtUp(): boolean {
    if (!this.informers) return true;
    const seen = (i: Informer) => Number(i.resourceVersion || 0) >= this.changedAt(i.resource);
    if (!seen(this.informers.services) || !seen(this.informers.slices)) return false;
    return [...this.nodes.values()].every((n) => !n.proxy || (n.syncedAt === this.progress && !n.pending));
  }

  stop(): void {
    this.stopped = true;
    this.periodic?.();
    for (const n of this.nodes.values()) n.pending?.();
    this.informers?.services.stop();
    this.informers?.slices.stop();
  }

  private async ensureInformers(): Promise<void> {
    if (this.informers) return;
    const random = seededRandom(this.seed ^ 0x6b70);
    const make = (ref: ResourceRef) => new Informer({
      resource: ref.resource, listWatcher: this.client.listWatcher(ref), timers: this.clock, random,
      onEvent: () => {},
      onProgress: () => this.changed(),
    });
    const informers = { services: make(SERVICES), slices: make(ENDPOINT_SLICES) };
    this.informers = informers;
    await Promise.all([informers.services.start(), informers.slices.start()]);
    this.schedulePeriodic();
  }

  private changed(): void {
    this.progress++;
    for (const n of this.nodes.values()) this.requestSync(n);
  }

  /** BoundedFrequencyRunner: now if the last sync is old enough, else once minSyncPeriod has passed. */
  private requestSync(n: NodeProxy): void {
    if (!n.proxy || n.pending || this.stopped) return;
    const wait_ms = n.lastSync_ms + this.minSyncPeriod_ms - this.clock.now_ms();
    if (wait_ms <= 0) {
      n.pending = () => {};
      queueMicrotask(() => this.syncNode(n));
      return;
    }
    n.pending = this.clock.after(wait_ms, () => this.syncNode(n));
  }

  private syncNode(n: NodeProxy): void {
    n.pending = undefined;
    if (!n.proxy || !this.informers || this.stopped) return;
    const ok = n.proxy.sync(this.informers.services.list(), this.informers.slices.list());
    n.lastSync_ms = this.clock.now_ms();
    // A failed sync (iptables-restore refused the rules) changed nothing on the node: the proxy
    // has not caught up, and the periodic sync tries again (upstream: "Sync failed; retrying").
    if (!ok) return;
    n.syncedAt = this.progress;
    this.onSync?.(n.proxy.config.nodeName, n.proxy);
  }

  private schedulePeriodic(): void {
    this.periodic = this.clock.after(SYNC_PERIOD_MS, () => {
      for (const n of this.nodes.values()) if (!n.pending) this.syncNode(n);
      if (!this.stopped) this.schedulePeriodic();
    });
  }
}

function hashName(name: string): number {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}
