/**
 * The cloud-controller-manager's controllers, run by its leader (reference/wiring/ha.ts elects
 * it through Lease kube-system/cloud-controller-manager): each pass reads Nodes and Services
 * through the API server, asks the cloud (provider.ts) and writes back through the API server.
 *
 * - cloud-node: a Node with the uninitialized taint gets providerID, zone/region/instance-type
 *   labels and addresses from InstanceMetadata, and loses the taint (node_controller.go).
 * - cloud-node-lifecycle: every --node-monitor-period (5 s), a Node whose Ready condition is not
 *   True and whose machine the cloud no longer has is deleted (node_lifecycle_controller.go).
 * - route: every --route-reconciliation-period (10 s), one cloud route per node podCIDR, routes
 *   of gone nodes removed, and NetworkUnavailable=False on routed nodes (route_controller.go).
 * - service: a LoadBalancer Service first gets the cleanup finalizer, then a cloud load balancer
 *   over the ready nodes and status.loadBalancer.ingress; a changed Service updates it; a
 *   deleted one (or one no longer LoadBalancer) has it removed, then the finalizer
 *   (service/controller.go). Upstream reacts to informer events; here a pass every 5 s.
 *
 * Pure: the API (`request`), the cloud provider and the clock are injected.
 */
import type { Scheduler } from '../wiring/virtual-clock.ts';
import {
  hasCleanupFinalizer, hasUninitializedTaint, initializedNode, LB_CLEANUP_FINALIZER, loadBalancerName, loadBalancerNodes,
  loadBalancerPorts, networkAvailableCondition, readyStatus, routeChanges, wantedRoutes, wantsLoadBalancer,
} from './decisions.ts';
import type { CloudProvider } from './provider.ts';
import { rfc3339 } from '../timestamps.ts';

export type ApiRequest = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface CcmOptions {
  request: ApiRequest;
  cloud: CloudProvider;
  clock: Scheduler;
  /** --cluster-name (upstream default "kubernetes"): routes and load balancers are tagged with it. */
  clusterName?: string;
  log?: (line: string) => void;
}

/** --node-monitor-period's default; also the pace of the node and service passes here. */
export const PASS_MS = 5_000;
/** --route-reconciliation-period's default. */
export const ROUTE_PERIOD_MS = 10_000;

export class CloudControllerManager {
  private stopped = false;
  private cancel: () => void = () => {};
  private lastRoutes_ms = -Infinity;
  private readonly cluster: string;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: CcmOptions) {
    this.cluster = opts.clusterName ?? 'kubernetes';
    this.log = opts.log ?? (() => {});
  }

  start(): void {
    void this.pass();
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    try {
      const nodes = await this.list('/api/v1/nodes', 'Node');
      for (const node of nodes) if (hasUninitializedTaint(node)) await this.guard(`initialise node ${node.metadata.name}`, () => this.initialiseNode(node));
      await this.guard('node lifecycle', () => this.lifecycle(nodes));
      if (this.opts.clock.now_ms() - this.lastRoutes_ms >= ROUTE_PERIOD_MS) {
        this.lastRoutes_ms = this.opts.clock.now_ms();
        await this.guard('routes', () => this.routes(nodes));
      }
      const services = await this.list('/api/v1/services', 'Service');
      for (const service of services) await this.guard(`service ${service.metadata.namespace}/${service.metadata.name}`, () => this.syncService(service, nodes));
    } catch (error) {
      this.log(`pass failed: ${(error as Error).message}`);
    }
    if (!this.stopped) this.cancel = this.opts.clock.after(PASS_MS, () => void this.pass());
  }

  private async guard(what: string, fn: () => Promise<void>): Promise<void> {
    if (this.stopped) return;
    try {
      await fn();
    } catch (error) {
      this.log(`${what}: ${(error as Error).message}`);
    }
  }

  // ---- nodes ------------------------------------------------------------------------------------

  private async initialiseNode(node: any): Promise<void> {
    const meta = await this.opts.cloud.instanceMetadata(node.metadata.name);
    if (!meta) {
      this.log(`node ${node.metadata.name}: the cloud has no such instance; left uninitialized`);
      return;
    }
    const path = `/api/v1/nodes/${encodeURIComponent(node.metadata.name)}`;
    const updated = await this.expect('PUT', path, initializedNode(node, meta), 200);
    const withAddresses = structuredClone(updated);
    withAddresses.status = { ...withAddresses.status, addresses: meta.addresses };
    await this.expect('PUT', `${path}/status`, withAddresses, 200);
  }

  private async lifecycle(nodes: readonly any[]): Promise<void> {
    for (const node of nodes) {
      if (readyStatus(node) === 'True' || readyStatus(node) === undefined) continue;
      if (await this.opts.cloud.instanceExists(node.metadata.name)) continue;
      this.log(`deleting node ${node.metadata.name}: its instance is gone from the cloud`);
      await this.expect('DELETE', `/api/v1/nodes/${encodeURIComponent(node.metadata.name)}`, undefined, 200, 404);
    }
  }

  private async routes(nodes: readonly any[]): Promise<void> {
    const existing = await this.opts.cloud.listRoutes(this.cluster);
    const { create, remove } = routeChanges(existing, wantedRoutes(this.cluster, nodes));
    for (const r of create) await this.opts.cloud.createRoute(this.cluster, r.name, { destinationCIDR: r.destinationCIDR, targetNode: r.targetNode });
    for (const r of remove) await this.opts.cloud.deleteRoute(r.name);
    const routed = new Set((await this.opts.cloud.listRoutes(this.cluster)).map((r) => r.targetNode));
    for (const node of nodes) {
      if (!routed.has(node.metadata.name)) continue;
      const current = (node.status?.conditions ?? []).find((c: any) => c?.type === 'NetworkUnavailable');
      if (current?.status === 'False') continue;
      const next = structuredClone(node);
      const now = rfc3339(this.opts.clock.now_ms());
      next.status = { ...next.status, conditions: [...(next.status?.conditions ?? []).filter((c: any) => c?.type !== 'NetworkUnavailable'), networkAvailableCondition(now)] };
      await this.expect('PUT', `/api/v1/nodes/${encodeURIComponent(node.metadata.name)}/status`, next, 200);
    }
  }

  // ---- services ---------------------------------------------------------------------------------

  private async syncService(service: any, nodes: readonly any[]): Promise<void> {
    const path = `/api/v1/namespaces/${encodeURIComponent(service.metadata.namespace)}/services/${encodeURIComponent(service.metadata.name)}`;
    const name = loadBalancerName(service);
    if (!wantsLoadBalancer(service)) {
      if (!hasCleanupFinalizer(service)) return;
      await this.opts.cloud.ensureLoadBalancerDeleted(name);
      const cleared = structuredClone(service);
      if (cleared.status?.loadBalancer?.ingress) {
        cleared.status.loadBalancer = {};
        const after = await this.expect('PUT', `${path}/status`, cleared, 200, 404);
        if (!after) return;
        Object.assign(cleared, { metadata: after.metadata });
      }
      cleared.metadata.finalizers = cleared.metadata.finalizers.filter((f: string) => f !== LB_CLEANUP_FINALIZER);
      await this.expect('PUT', path, cleared, 200, 404);
      return;
    }
    let current = service;
    if (!hasCleanupFinalizer(current)) {
      // The finalizer goes on before the load balancer exists, so a deletion cannot leak it.
      const next = structuredClone(current);
      next.metadata.finalizers = [...(next.metadata.finalizers ?? []), LB_CLEANUP_FINALIZER];
      current = await this.expect('PUT', path, next, 200);
    }
    const spec = { service: `${service.metadata.namespace}/${service.metadata.name}`, ports: loadBalancerPorts(current), nodes: loadBalancerNodes(nodes) };
    const existing = await this.opts.cloud.getLoadBalancer(name);
    const same = existing && JSON.stringify(existing.ports) === JSON.stringify(spec.ports) && JSON.stringify(existing.nodes) === JSON.stringify(spec.nodes);
    const ip = same ? existing.ip : (await this.opts.cloud.ensureLoadBalancer(this.cluster, name, spec)).ip;
    const ingress = current.status?.loadBalancer?.ingress ?? [];
    if (ingress.length === 1 && ingress[0]?.ip === ip) return;
    const withStatus = structuredClone(current);
    withStatus.status = { ...withStatus.status, loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } };
    await this.expect('PUT', `${path}/status`, withStatus, 200);
  }

  // ---- API --------------------------------------------------------------------------------------

  /** List items carry no kind; a write sends the object whole, so put it back. */
  private async list(path: string, kind: string): Promise<any[]> {
    const res = await this.opts.request('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body?.message ?? ''}`);
    return (res.body?.items ?? []).map((item: any) => ({ apiVersion: 'v1', kind, ...item }));
  }

  /** A write that must answer one of `codes`; the answer's object (undefined on a tolerated 404). */
  private async expect(method: string, path: string, body: unknown, ...codes: number[]): Promise<any> {
    const res = await this.opts.request(method, path, body);
    if (!codes.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body?.message ?? ''}`);
    return res.status === 404 ? undefined : res.body;
  }
}
