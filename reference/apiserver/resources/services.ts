/**
 * Service address allocation, as the service REST storage does it (pkg/registry/core/service/
 * storage/alloc.go): a ClusterIP from the service CIDR unless headless or ExternalName, a node
 * port from 30000–32767 for NodePort and LoadBalancer services, and on update the allocated
 * values carried over when the new object leaves them empty (patchAllocatedValues).
 */
import { errors, invalid, type FieldError } from '../status.ts';

/** kube-apiserver's default --service-cluster-ip-range. 10.96.0.1 goes to the `kubernetes` service. */
export const SERVICE_CIDR = { base: [10, 96, 0, 0] as const, size: 1 << 20 };
export const NODE_PORT_RANGE = { min: 30000, max: 32767 };

function ipOf(offset: number): string {
  const [a, b] = SERVICE_CIDR.base;
  const n = (a << 24) + (b << 16) + offset;
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function allocateClusterIP(used: Set<string>): string {
  for (let offset = 1; offset < SERVICE_CIDR.size - 1; offset++) {
    const ip = ipOf(offset);
    if (!used.has(ip)) return ip;
  }
  throw errors.internal('failed to allocate a serviceIP: range is full');
}

export function allocateNodePort(used: Set<number>): number {
  for (let p = NODE_PORT_RANGE.min; p <= NODE_PORT_RANGE.max; p++) if (!used.has(p)) return p;
  throw errors.internal('failed to allocate a nodePort: range is full');
}

export interface UsedAddresses {
  ips: Set<string>;
  nodePorts: Set<number>;
}

export function usedAddresses(services: any[]): UsedAddresses {
  const ips = new Set<string>();
  const nodePorts = new Set<number>();
  for (const s of services) {
    for (const ip of s?.spec?.clusterIPs ?? [s?.spec?.clusterIP]) if (typeof ip === 'string') ips.add(ip);
    for (const p of s?.spec?.ports ?? []) if (typeof p?.nodePort === 'number') nodePorts.add(p.nodePort);
  }
  return { ips, nodePorts };
}

const needsNodePort = (type: unknown): boolean => type === 'NodePort' || type === 'LoadBalancer';

export const SERVICE_CIDR_TEXT = `${SERVICE_CIDR.base.join('.')}/${32 - Math.log2(SERVICE_CIDR.size)}`;

function inServiceCIDR(ip: string): boolean {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const n = ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
  const [a, b] = SERVICE_CIDR.base;
  const base = ((a << 24) >>> 0) + (b << 16);
  // The network and broadcast addresses are never handed out (ipallocator: rangeSize - 2).
  return n > base && n < base + SERVICE_CIDR.size - 1;
}

/**
 * A requested ClusterIP or node port must be inside its range and free. The messages are the
 * allocators' (pkg/registry/core/service/ipallocator and portallocator, ErrNotInRange /
 * ErrAllocated), wrapped as the service REST storage does ("failed to allocate IP %s: %v",
 * pkg/registry/core/service/storage/alloc.go), on fields spec.clusterIPs and spec.ports[i].nodePort.
 */
function requestedErrors(spec: any, used: UsedAddresses): FieldError[] {
  const errs: FieldError[] = [];
  const ip = spec.clusterIP;
  if (typeof ip === 'string' && ip !== '' && ip !== 'None') {
    const why = !inServiceCIDR(ip) ? `provided IP is not in the valid range. The range of valid IPs is ${SERVICE_CIDR_TEXT}`
      : used.ips.has(ip) ? 'provided IP is already allocated' : undefined;
    if (why) errs.push({ type: 'Invalid', field: 'spec.clusterIPs', value: [ip], detail: `failed to allocate IP ${ip}: ${why}` });
  }
  if (!needsNodePort(spec.type)) return errs;
  (Array.isArray(spec.ports) ? spec.ports : []).forEach((p: any, i: number) => {
    const port = p?.nodePort;
    if (typeof port !== 'number' || port === 0) return;
    const why = port < NODE_PORT_RANGE.min || port > NODE_PORT_RANGE.max
      ? `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.min}-${NODE_PORT_RANGE.max}`
      : used.nodePorts.has(port) ? 'provided port is already allocated' : undefined;
    if (why) errs.push({ type: 'Invalid', field: `spec.ports[${i}].nodePort`, value: port, detail: why });
  });
  return errs;
}

/** Fills in clusterIP(s) and node ports on a new service, in place; a bad request is 422 Invalid. */
export function allocateServiceAddresses(svc: any, used: UsedAddresses): void {
  const spec = svc.spec;
  if (!spec || typeof spec !== 'object' || spec.type === 'ExternalName') return;
  const errs = requestedErrors(spec, used);
  if (errs.length > 0) throw invalid('', 'Service', svc.metadata?.name ?? '', errs);
  if (spec.clusterIP === 'None') {
    spec.clusterIPs = ['None'];
  } else {
    if (!spec.clusterIP) spec.clusterIP = allocateClusterIP(used.ips);
    used.ips.add(spec.clusterIP);
    spec.clusterIPs = [spec.clusterIP];
  }
  spec.ipFamilies ??= ['IPv4'];
  spec.ipFamilyPolicy ??= 'SingleStack';
  if (!needsNodePort(spec.type)) return;
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    if (p && typeof p === 'object' && !p.nodePort) {
      p.nodePort = allocateNodePort(used.nodePorts);
      used.nodePorts.add(p.nodePort);
    }
  }
}

/** patchAllocatedValues: an update that leaves clusterIP or a node port empty keeps the allocated one. */
export function keepAllocatedValues(next: any, old: any): void {
  const spec = next?.spec;
  const prev = old?.spec;
  if (!spec || !prev || typeof spec !== 'object') return;
  if (!spec.clusterIP && prev.clusterIP) spec.clusterIP = prev.clusterIP;
  if (!spec.clusterIPs && prev.clusterIPs) spec.clusterIPs = prev.clusterIPs;
  if (!spec.ipFamilies && prev.ipFamilies) spec.ipFamilies = prev.ipFamilies;
  if (!spec.ipFamilyPolicy && prev.ipFamilyPolicy) spec.ipFamilyPolicy = prev.ipFamilyPolicy;
  if (!needsNodePort(spec.type) || !needsNodePort(prev.type)) return;
  const oldPorts = new Map<string, number>();
  for (const p of prev.ports ?? []) if (p?.nodePort) oldPorts.set(`${p.port}/${p.protocol ?? 'TCP'}`, p.nodePort);
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    const kept = oldPorts.get(`${p?.port}/${p?.protocol ?? 'TCP'}`);
    if (p && typeof p === 'object' && !p.nodePort && kept) p.nodePort = kept;
  }
}
