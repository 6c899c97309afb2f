/**
 * How a Service and one of its Pods become an endpoint, shared by the EndpointSlice and the
 * legacy Endpoints controllers (staging/src/k8s.io/endpointslice/utils.go podToEndpoint,
 * getEndpointPorts, FindPort, getAddressTypesForService; util/controller_utils.go
 * ShouldPodBeInEndpoints). Pure readings of objects.
 */
import { isPodReady } from '../shared/objects.ts';
import type { KubeObject } from '../types.ts';

/** discovery.LabelServiceName and discovery.LabelManagedBy (k8s.io/api/discovery/v1/well_known_labels.go). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
/** v1.IsHeadlessService: set on the slices (and Endpoints) of a Service with clusterIP None. */
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';

export interface EndpointPort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

/** The Service's spec.selector as a map; undefined when it has none (then no controller manages its endpoints). */
export function serviceSelector(svc: Readonly<KubeObject>): Record<string, string> | undefined {
  const sel = (svc as any).spec?.selector;
  return sel && typeof sel === 'object' && Object.keys(sel).length > 0 ? sel : undefined;
}

/** A map selector (labels.SelectorFromSet): every key present with that value. */
export function selectsPod(selector: Record<string, string>, pod: Readonly<KubeObject>): boolean {
  const labels = (pod.metadata as any).labels ?? {};
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

export function podIPs(pod: Readonly<KubeObject>): string[] {
  const status = (pod as any).status ?? {};
  const ips: string[] = (status.podIPs ?? []).map((p: any) => p.ip).filter(Boolean);
  return ips.length > 0 ? ips : status.podIP ? [status.podIP] : [];
}

/**
 * ShouldPodBeInEndpoints: not terminal (Succeeded/Failed), has an IP, and — unless terminating
 * pods are wanted (EndpointSlices want them, with terminating=true; Endpoints do not) — not
 * being deleted.
 */
export function shouldPodBeInEndpoints(pod: Readonly<KubeObject>, includeTerminating: boolean): boolean {
  const phase = (pod as any).status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (podIPs(pod).length === 0) return false;
  return includeTerminating || !(pod.metadata as any).deletionTimestamp;
}

/** FindPort: a numeric targetPort is itself; a named one is the container port of that name and protocol (containers, then sidecar init containers). */
export function findPort(pod: Readonly<KubeObject>, servicePort: any): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target === 'string' && /^\d+$/.test(target)) return Number(target);
  const protocol = servicePort.protocol ?? 'TCP';
  const spec = (pod as any).spec ?? {};
  const sidecars = (spec.initContainers ?? []).filter((c: any) => c.restartPolicy === 'Always');
  for (const c of [...(spec.containers ?? []), ...sidecars]) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** getEndpointPorts: one port per Service port the pod can resolve; a port it cannot resolve is left out. */
export function endpointPorts(svc: Readonly<KubeObject>, pod: Readonly<KubeObject>): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of (svc as any).spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** The key pods sharing a port set are grouped by (endpointutil.NewPortMapKey): order-independent. */
export function portsKey(ports: readonly EndpointPort[]): string {
  return ports.map((p) => `${p.name}/${p.protocol}/${p.port}/${p.appProtocol ?? ''}`).sort().join(',');
}

export type AddressType = 'IPv4' | 'IPv6';

export const isIPv6 = (ip: string) => ip.includes(':');

/** getAddressTypesForService: from spec.ipFamilies; else from the clusterIP's family; a headless Service without families gets both. */
export function addressTypes(svc: Readonly<KubeObject>): AddressType[] {
  const spec = (svc as any).spec ?? {};
  const families: string[] = spec.ipFamilies ?? [];
  const types = new Set<AddressType>();
  for (const f of families) if (f === 'IPv4' || f === 'IPv6') types.add(f);
  if (types.size > 0) return [...types];
  if (spec.clusterIP && spec.clusterIP !== 'None') return [isIPv6(spec.clusterIP) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}

export function isHeadless(svc: Readonly<KubeObject>): boolean {
  const ip = (svc as any).spec?.clusterIP;
  return ip === 'None' || !ip;
}

/**
 * podToEndpoint: the pod's addresses of one family; serving = the pod is Ready; terminating =
 * it has a deletionTimestamp; ready = serving and not terminating (or the Service publishes
 * not-ready addresses); targetRef, nodeName, and the node's topology.kubernetes.io/zone.
 */
export function podToEndpoint(pod: Readonly<KubeObject>, node: Readonly<KubeObject> | undefined, svc: Readonly<KubeObject>, type: AddressType): any {
  const serving = isPodReady(pod);
  const terminating = !!(pod.metadata as any).deletionTimestamp;
  const ready = !!(svc as any).spec?.publishNotReadyAddresses || (serving && !terminating);
  const ep: any = {
    addresses: podIPs(pod).filter((ip) => isIPv6(ip) === (type === 'IPv6')),
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
  const spec = (pod as any).spec ?? {};
  if (spec.nodeName) ep.nodeName = spec.nodeName;
  const zone = (node?.metadata as any)?.labels?.['topology.kubernetes.io/zone'];
  if (zone) ep.zone = zone;
  if (shouldSetHostname(pod, svc)) ep.hostname = spec.hostname;
  return ep;
}

/** ShouldSetHostname: the pod names a hostname and its subdomain is this Service, in the Service's namespace. */
function shouldSetHostname(pod: Readonly<KubeObject>, svc: Readonly<KubeObject>): boolean {
  const spec = (pod as any).spec ?? {};
  return !!spec.hostname && spec.subdomain === svc.metadata.name && pod.metadata.namespace === svc.metadata.namespace;
}
