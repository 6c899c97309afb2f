/**
 * Setting the scene: kube-proxy on nodes, Services, and their EndpointSlices written through the
 * API. Every write is followed, in the reading steps, by a wait for the proxy to sync.
 */
import { Given, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import {
  createService, deleteSlice, getService, modeOf, proxy, serviceWithEndpoints, writeSlice,
  type EndpointSpec, type Protocol, type ServiceOptions,
} from './support.ts';

async function startProxy(world: KubespecWorld, node: string, mode: string | undefined, scheduler?: string): Promise<void> {
  const kernelModules = world.session.proxy && noted<string[]>(world, `kernel modules of ${node}`);
  await proxy(world).start(node, { ...(mode ? { mode } : {}), ...(scheduler !== undefined ? { ipvsScheduler: scheduler } : {}), ...(kernelModules ? { kernelModules } : {}) });
  world.note('proxy node', node);
}

function noted<T>(world: KubespecWorld, name: string): T | undefined {
  try {
    return world.recall<T>(name);
  } catch {
    return undefined;
  }
}

Given(/^kube-proxy in (iptables|IPVS|nftables) mode on node "([^"]+)"$/, async function (this: KubespecWorld, mode: string, node: string) {
  await startProxy(this, node, modeOf(mode));
});

Given(/^kube-proxy in IPVS mode on node "([^"]+)" with ipvs\.scheduler "([^"]*)"$/, async function (this: KubespecWorld, node: string, scheduler: string) {
  await startProxy(this, node, 'ipvs', scheduler);
});

When(/^kube-proxy starts in (IPVS|userspace) mode on node "([^"]+)"$/, async function (this: KubespecWorld, mode: string, node: string) {
  await startProxy(this, node, mode.toLowerCase());
});

Given('kube-proxy on nodes {names}', async function (this: KubespecWorld, nodes: string[]) {
  for (const node of nodes) await startProxy(this, node, undefined);
  this.note('proxy node', nodes[0]);
});

Given('a node {string} whose kernel has no ip_vs module', function (this: KubespecWorld, node: string) {
  this.note(`kernel modules of ${node}`, ['nf_conntrack', 'nf_nat', 'iptable_nat', 'xt_statistic', 'xt_recent', 'nf_tables']);
});

// ---- Services -------------------------------------------------------------------------------

Given(/^a Service "([^"]+)" with clusterIP "([^"]+)" port (\d+)(?:\/(UDP|TCP|SCTP))? targetPort (\d+)$/, async function (this: KubespecWorld, name: string, clusterIP: string, port: string, protocol: Protocol | undefined, targetPort: string) {
  await createService(this, name, { clusterIP, port: Number(port), targetPort: Number(targetPort), ...(protocol ? { protocol } : {}) });
});

Given('a Service {string} with clusterIP {string} port {int} targetPort {int} and internalTrafficPolicy {string}', async function (this: KubespecWorld, name: string, clusterIP: string, port: number, targetPort: number, policy: string) {
  await createService(this, name, { clusterIP, port, targetPort, internalTrafficPolicy: policy });
});

Given(/^a Service "([^"]+)" with clusterIP "([^"]+)" port (\d+)(?:, sessionAffinity "([^"]+)")? and (\d+) ready endpoints?$/, async function (this: KubespecWorld, name: string, clusterIP: string, port: string, affinity: string | undefined, n: string) {
  await serviceWithEndpoints(this, name, Number(n), { clusterIP, port: Number(port), ...(affinity ? { sessionAffinity: affinity } : {}) });
});

Given('a Service {string} with clusterIP {string}, ports {string} {int} and {string} {int}, and {int} ready endpoints', async function (this: KubespecWorld, name: string, clusterIP: string, n1: string, p1: number, n2: string, p2: number, n: number) {
  await createService(this, name, { clusterIP, ports: [{ name: n1, port: p1, targetPort: 8080 }, { name: n2, port: p2, targetPort: 9090 }] });
  const eps = Array.from({ length: n }, (_, k) => ({ ip: `10.244.200.${k + 1}` }));
  await writeSlice(this, name, [{ name: n1, port: 8080 }, { name: n2, port: 9090 }], eps);
});

Given(/^a Service "([^"]+)" with (\d+) ready endpoints?((?: "[^"]+"(?:,| and)?)*)$/, async function (this: KubespecWorld, name: string, n: string, labels: string) {
  const names = [...labels.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  await serviceWithEndpoints(this, name, Number(n), {}, names);
});

Given(/^a Service "([^"]+)" with sessionAffinity "([^"]+)"(?: timeoutSeconds (\d+))? and (\d+) ready endpoints$/, async function (this: KubespecWorld, name: string, affinity: string, timeout: string | undefined, n: string) {
  await serviceWithEndpoints(this, name, Number(n), { sessionAffinity: affinity, ...(timeout ? { timeoutSeconds: Number(timeout) } : {}) });
});

Given(/^a Service "([^"]+)" of type NodePort(?: with nodePort (\d+))? port (\d+) targetPort (\d+)(?: with externalTrafficPolicy "([^"]+)")?(?: (?:with|and) internalTrafficPolicy "([^"]+)")?$/, async function (this: KubespecWorld, name: string, nodePort: string | undefined, port: string, targetPort: string, external: string | undefined, internal: string | undefined) {
  const o: ServiceOptions = {
    type: 'NodePort', port: Number(port), targetPort: Number(targetPort), ...(nodePort ? { nodePort: Number(nodePort) } : {}),
    ...(external ? { externalTrafficPolicy: external } : {}), ...(internal ? { internalTrafficPolicy: internal } : {}),
  };
  await createService(this, name, o);
});

Given(/^a Service "([^"]+)" of type (ClusterIP|NodePort) with (\d+) ready endpoints?$/, async function (this: KubespecWorld, name: string, type: 'ClusterIP' | 'NodePort', n: string) {
  await serviceWithEndpoints(this, name, Number(n), { type });
});

Given(/^(\d+) Services with (\d+) ready endpoints? each$/, async function (this: KubespecWorld, n: string, per: string) {
  await addServices(this, Number(n), Number(per));
});

When(/^I add (\d+) more Services with (\d+) ready endpoints? each$/, async function (this: KubespecWorld, n: string, per: string) {
  await addServices(this, Number(n), Number(per));
});

async function addServices(world: KubespecWorld, n: number, per: number): Promise<void> {
  const made = noted<string[]>(world, 'bulk services') ?? [];
  for (let i = 0; i < n; i++) {
    const name = `bulk-${made.length + 1}`;
    await serviceWithEndpoints(world, name, per);
    made.push(name);
  }
  world.note('bulk services', made);
}

// ---- EndpointSlices -------------------------------------------------------------------------

/** `"10.244.1.10" and "10.244.1.11" on node "n1"`: a node named after some addresses applies to those before it that have none. */
function parseEndpoints(text: string, extra: Partial<EndpointSpec>): EndpointSpec[] {
  const eps: EndpointSpec[] = [];
  let unplaced: EndpointSpec[] = [];
  for (const m of text.matchAll(/"([\d.]+)"|on node "([^"]+)"/g)) {
    if (m[1]) {
      const ep = { ip: m[1], ...extra };
      eps.push(ep);
      unplaced.push(ep);
    } else {
      for (const ep of unplaced) ep.node = m[2]!;
      unplaced = [];
    }
  }
  return eps;
}

const CONDITIONS: Record<string, Partial<EndpointSpec>> = {
  ready: { ready: true, serving: true, terminating: false },
  'serving terminating': { ready: false, serving: true, terminating: true },
};

Given(/^an EndpointSlice for Service "([^"]+)" with (ready|serving terminating) endpoints (.+) on port (\d+)(?:\/(UDP|TCP|SCTP))?(?: is written)?$/, async function (this: KubespecWorld, service: string, kind: string, list: string, port: string, protocol: Protocol | undefined) {
  await writeSlice(this, service, Number(port), parseEndpoints(list, CONDITIONS[kind]!), protocol);
});

When('the EndpointSlice of Service {string} also lists ready endpoint {string} on port {int}', async function (this: KubespecWorld, service: string, ip: string, port: number) {
  const current = this.recall<{ eps: EndpointSpec[] }>(`endpoints of ${service}`);
  await writeSlice(this, service, port, [...current.eps, { ip, ready: true }]);
});

When('the Service {string} grows to {int} ready endpoints', async function (this: KubespecWorld, service: string, n: number) {
  const current = this.recall<{ port: number; eps: EndpointSpec[] }>(`endpoints of ${service}`);
  const base = current.eps[0]!.ip.split('.').slice(0, 3).join('.');
  const eps = Array.from({ length: n }, (_, k) => current.eps[k] ?? { ip: `${base}.${200 + k}` });
  await writeSlice(this, service, current.port, eps);
});

When('the endpoint {string} of Service {string} becomes unready', async function (this: KubespecWorld, ip: string, service: string) {
  const current = this.recall<{ port: number; eps: EndpointSpec[] }>(`endpoints of ${service}`);
  await writeSlice(this, service, current.port, current.eps.map((e) => (e.ip === ip ? { ...e, ready: false, serving: false } : e)));
});

When('{int} endpoints of Service {string} are written and then deleted', async function (this: KubespecWorld, n: number, service: string) {
  await writeSlice(this, service, 8080, Array.from({ length: n }, (_, k) => ({ ip: `10.244.9.${k + 1}` })));
  await deleteSlice(this, service);
});

export { getService };
