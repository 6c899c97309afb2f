/**
 * kube-proxy's desired state: what every mode programs, computed from Services and
 * EndpointSlices (discovery.k8s.io/v1) alone. Upstream builds the same from its ServiceChangeTracker
 * and EndpointsChangeTracker (kubernetes/kubernetes pkg/proxy/servicechangetracker.go,
 * endpointschangetracker.go); the modes (iptables/, ipvs/, nftables/) turn it into rules.
 *
 * Pure: objects in, a sorted, comparable state out.
 */
import { NO_FAULTS, type Faults } from '../faults.ts';

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface Endpoint {
  ip: string;
  port: number;
  /** EndpointConditions: ready, serving, terminating (nil ready counts as ready, as upstream). */
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName?: string;
}

/** One port of one Service: the unit every mode programs (upstream's ServicePort). */
export interface ServicePort {
  /** ServicePortName.String(): "namespace/name" plus ":portName" when the port is named. */
  id: string;
  namespace: string;
  name: string;
  portName: string;
  protocol: Protocol;
  type: string;
  clusterIP: string;
  port: number;
  nodePort?: number;
  /** Set iff sessionAffinity is ClientIP: sessionAffinityConfig.clientIP.timeoutSeconds. */
  affinityTimeoutSeconds?: number;
  /** externalTrafficPolicy: Local (only for NodePort / LoadBalancer). */
  externalLocal: boolean;
  /** internalTrafficPolicy: Local. */
  internalLocal: boolean;
  /** Every endpoint the slices list for this port, sorted by address. */
  endpoints: Endpoint[];
}

export interface ProxyState {
  nodeName: string;
  /** The node's own addresses: NodePorts are opened on these. */
  nodeIPs: string[];
  services: ServicePort[];
}

/** The default session affinity timeout: 3 hours (core/v1 DefaultClientIPServiceAffinitySeconds). */
export const DEFAULT_AFFINITY_TIMEOUT_S = 10_800;

/** The label linking a slice to its Service (discovery.k8s.io/v1 LabelServiceName). */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** ServicePortName.String() (pkg/proxy/types.go): "ns/name" or "ns/name:port". */
export function servicePortId(namespace: string, name: string, portName: string): string {
  return `${namespace}/${name}${portName ? `:${portName}` : ''}`;
}

/** Services kube-proxy ignores: headless, ExternalName, or with no usable ClusterIP. */
function proxied(svc: any): boolean {
  const ip = svc?.spec?.clusterIP;
  return svc?.spec?.type !== 'ExternalName' && typeof ip === 'string' && ip !== '' && ip !== 'None';
}

function endpointsOf(slices: any[], portName: string, protocol: Protocol, faults: Faults): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const slice of slices) {
    if (slice?.addressType && slice.addressType !== 'IPv4') continue;
    const port = (slice?.ports ?? []).find((p: any) => (p?.name ?? '') === portName && (p?.protocol ?? 'TCP') === protocol);
    if (typeof port?.port !== 'number') continue;
    for (const ep of slice.endpoints ?? []) {
      const c = ep?.conditions ?? {};
      // Fault proxy-includes-not-ready: the ready condition is not read.
      const ready = c.ready !== false || faults.has('proxy-includes-not-ready');
      for (const ip of ep?.addresses ?? []) {
        const e: Endpoint = { ip, port: port.port, ready, serving: c.serving ?? ready, terminating: c.terminating === true };
        if (ep.nodeName) e.nodeName = ep.nodeName;
        seen.set(`${ip}:${port.port}`, e);
      }
    }
  }
  if (seen.size < 2) return [...seen.values()];
  // Sorted by address then port; each key computed once (a full sync sorts every Service's list).
  const keyed = [...seen.values()].map((e) => ({ e, key: addrKey(e.ip) }));
  keyed.sort((a, b) => a.key - b.key || a.e.port - b.e.port);
  return keyed.map((k) => k.e);
}

/** An IPv4 address as a number that orders as the address does (octet by octet). */
function addrKey(ip: string): number {
  let key = 0;
  let octets = 0;
  let octet = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46 /* . */) {
      key = key * 256 + octet;
      octets++;
      octet = 0;
    } else octet = octet * 10 + (c - 48);
  }
  return key * 256 + octet;
}

function servicePorts(svc: any, slices: any[], faults: Faults): ServicePort[] {
  const spec = svc.spec;
  const namespace = svc.metadata.namespace ?? 'default';
  const name = svc.metadata.name;
  const affinity = spec.sessionAffinity === 'ClientIP'
    ? { affinityTimeoutSeconds: spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_AFFINITY_TIMEOUT_S }
    : {};
  const external = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
  return (spec.ports ?? []).map((p: any): ServicePort => {
    const portName = p.name ?? '';
    const protocol: Protocol = p.protocol ?? 'TCP';
    return {
      id: servicePortId(namespace, name, portName),
      namespace, name, portName, protocol,
      type: spec.type ?? 'ClusterIP',
      clusterIP: spec.clusterIP,
      port: p.port,
      ...(external && typeof p.nodePort === 'number' ? { nodePort: p.nodePort } : {}),
      ...affinity,
      externalLocal: external && spec.externalTrafficPolicy === 'Local',
      internalLocal: spec.internalTrafficPolicy === 'Local',
      endpoints: endpointsOf(slices, portName, protocol, faults),
    };
  });
}

/** The desired state of one node's proxy, from every Service and EndpointSlice it has seen. */
export function buildState(services: readonly any[], slices: readonly any[], nodeName: string, nodeIPs: string[] = [], faults: Faults = NO_FAULTS): ProxyState {
  const slicesBySvc = new Map<string, any[]>();
  for (const s of slices) {
    const owner = s?.metadata?.labels?.[SERVICE_NAME_LABEL];
    if (!owner) continue;
    const key = `${s.metadata.namespace}/${owner}`;
    slicesBySvc.set(key, [...(slicesBySvc.get(key) ?? []), s]);
  }
  const ports = services.filter(proxied).flatMap((svc) => servicePorts(svc, slicesBySvc.get(`${svc.metadata.namespace}/${svc.metadata.name}`) ?? [], faults));
  ports.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.protocol < b.protocol ? -1 : 1));
  return { nodeName, nodeIPs, services: ports };
}

/**
 * The endpoints traffic may go to (pkg/proxy/topology.go CategorizeEndpoints): ready ones; when
 * none is ready, the serving-and-terminating ones, so connections drain instead of failing
 * (KEP-1669, ProxyTerminatingEndpoints, GA in v1.28). With `local`, only this node's.
 */
export function usableEndpoints(sp: ServicePort, nodeName: string, local: boolean): readonly Endpoint[] {
  // The common case, every endpoint ready: the list itself (read-only), not a copy per call.
  if (!local && sp.endpoints.every((e) => e.ready)) return sp.endpoints;
  const candidates = local ? sp.endpoints.filter((e) => e.nodeName === nodeName) : sp.endpoints;
  const ready = candidates.filter((e) => e.ready);
  if (ready.length > 0) return ready;
  return candidates.filter((e) => e.serving && e.terminating);
}

/** The endpoints for traffic to the ClusterIP (internalTrafficPolicy). */
export function internalEndpoints(sp: ServicePort, nodeName: string): readonly Endpoint[] {
  return usableEndpoints(sp, nodeName, sp.internalLocal);
}

/** The endpoints for traffic to a NodePort or load balancer (externalTrafficPolicy). */
export function externalEndpoints(sp: ServicePort, nodeName: string): readonly Endpoint[] {
  return usableEndpoints(sp, nodeName, sp.externalLocal);
}

/** Whether any endpoint at all could serve (else traffic is REJECTed, not DROPped). */
export function hasAnyEndpoint(sp: ServicePort, nodeName: string): boolean {
  return sp.endpoints.some((e) => e.ready || (e.serving && e.terminating));
}

export const endpointString = (e: { ip: string; port: number }): string => `${e.ip}:${e.port}`;
