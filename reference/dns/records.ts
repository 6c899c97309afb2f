/**
 * The cluster DNS's answers: CoreDNS's `kubernetes` plugin (coredns/coredns plugin/kubernetes,
 * README.md and kubernetes.go) over a view of Services, EndpointSlices and Namespaces, following
 * the Kubernetes DNS-Based Service Discovery specification (kubernetes/dns docs/specification.md).
 * One question in, one answer out; no I/O, no clock — the wiring (reference/wiring/dns.ts) feeds
 * the view from its informers and puts the answer on the wire.
 *
 * - `<svc>.<ns>.svc.<zone>` A/AAAA: the Service's ClusterIPs of that family (spec 2.3.1); for a
 *   headless Service (clusterIP None) the addresses of its *ready* endpoints (spec 2.4.1), and
 *   NXDOMAIN when it has none (spec: "the answer should be NXDOMAIN"; CoreDNS findServices keeps
 *   errNoItems until it finds an address). An ExternalName Service is a CNAME (spec 2.5).
 * - `_<port>._<proto>.<svc>.<ns>.svc.<zone>` SRV: one record per matching named port, target the
 *   Service's name (ClusterIP) or each ready endpoint's `<hostname>.<svc>...` (headless; the port
 *   is the endpoint's, as CoreDNS takes it from the EndpointSlice's ports), with the targets' A
 *   records in the additional section (spec 2.3.2 / 2.4.2). The bare Service name answers SRV
 *   for every port.
 * - `<hostname>.<svc>.<ns>.svc.<zone>`: a ready endpoint by its hostname, or by its dashed IP
 *   when it has none (the plugin README, `endpoint_pod_names`).
 * - `<a>-<b>-<c>-<d>.<ns>.pod.<zone>` A: that address, in a namespace that exists (the
 *   `pods insecure` mode of kubeadm's default Corefile).
 * - A name that exists with no record of the asked type is NODATA: NOERROR with the zone's SOA in
 *   the authority section (plugin.BackendError in coredns plugin/backend_lookup.go); a name that
 *   does not exist is NXDOMAIN with the SOA. The SOA's minimum is the TTL, so a negative answer is
 *   cached no longer than a positive one. Names outside the zone are REFUSED (a CoreDNS without a
 *   server block for them; kubeadm's adds `forward`, which this server does not have).
 * - TTL 5 s: the plugin's default (README: "The default is 5 seconds").
 * - Comparisons are case-insensitive (spec 2.1).
 */
import { isIP } from 'node:net';
import type { KubeObject } from '../controllers/types.ts';
import type { Faults } from '../faults.ts';

export type RecordType = 'A' | 'AAAA' | 'SRV' | 'CNAME' | 'SOA' | 'TXT';

/** A resource record in dns-packet's shape, so the wiring encodes it as it is. */
export type DnsRecord =
  | { name: string; type: 'A' | 'AAAA' | 'CNAME'; class: 'IN'; ttl: number; data: string }
  | { name: string; type: 'SRV'; class: 'IN'; ttl: number; data: { priority: number; weight: number; port: number; target: string } }
  | { name: string; type: 'TXT'; class: 'IN'; ttl: number; data: string[] }
  | { name: string; type: 'SOA'; class: 'IN'; ttl: number; data: { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number } };

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'REFUSED';

export interface DnsAnswer {
  rcode: Rcode;
  answers: DnsRecord[];
  authorities: DnsRecord[];
  additionals: DnsRecord[];
}

/** What the DNS server has seen of the cluster, as its informers hold it. */
export interface ClusterView {
  services: readonly KubeObject[];
  endpointSlices: readonly KubeObject[];
  namespaces: ReadonlySet<string>;
}

export interface DnsConfig {
  /** The cluster domain (kubelet's --cluster-domain), default cluster.local. */
  zone: string;
  ttl_s: number;
  /** The SOA serial: CoreDNS uses the time of the last change it saw; the wiring passes a counter. */
  serial: number;
  /** Fault models (reference/faults.ts, `kubespec selftest`); default none. */
  faults?: Faults;
}

export const DEFAULT_ZONE = 'cluster.local';
/** coredns plugin/kubernetes README: "The default is 5 seconds." */
export const DEFAULT_TTL_S = 5;
/** The schema version CoreDNS reports at dns-version.<zone> TXT (spec 2.2; coredns plugin/kubernetes/xfr.go, DNSSchemaVersion). */
export const DNS_SCHEMA_VERSION = '1.1.0';
/** The label kube-controller-manager's EndpointSlice controller (and anyone writing slices) ties a slice to its Service with. */
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export function answerQuestion(view: ClusterView, question: { name: string; type: string }, config: DnsConfig): DnsAnswer {
  const zone = config.zone.toLowerCase();
  const name = question.name.toLowerCase().replace(/\.$/, '');
  if (name !== zone && !name.endsWith(`.${zone}`)) return { rcode: 'REFUSED', answers: [], authorities: [], additionals: [] };
  const labels = name === zone ? [] : name.slice(0, -(zone.length + 1)).split('.');
  const found = lookup(view, labels, config);
  const ask = question.type.toUpperCase();
  if (found === undefined) return negative('NXDOMAIN', config);
  const answers = found.records.filter((r) => r.type === ask || (r.type === 'CNAME' && ask !== 'SRV'));
  // Fault dns-nxdomain-for-missing-type: an existing name without the asked type is NXDOMAIN.
  if (answers.length === 0) return negative(config.faults?.has('dns-nxdomain-for-missing-type') ? 'NXDOMAIN' : 'NOERROR', config);
  const additionals = ask === 'SRV' ? found.additionals : [];
  return { rcode: 'NOERROR', answers: dedupe(answers), authorities: [], additionals: dedupe(additionals) };
}

interface Found {
  /** Every record the name has, of every type; the caller keeps those of the asked type. */
  records: DnsRecord[];
  additionals: DnsRecord[];
}

/** The records of a name, relative to the zone (labels left to right); undefined: no such name. */
function lookup(view: ClusterView, labels: string[], config: DnsConfig): Found | undefined {
  const n = labels.length;
  const fqdn = (...parts: string[]) => `${[...parts, config.zone].join('.')}`;
  if (n === 0) return { records: [soa(config)], additionals: [] };
  if (n === 1 && labels[0] === 'dns-version') return { records: [{ name: fqdn('dns-version'), type: 'TXT', class: 'IN', ttl: config.ttl_s, data: [DNS_SCHEMA_VERSION] }], additionals: [] };
  if (labels[n - 1] === 'pod') return n === 3 ? podRecord(view, labels[0]!, labels[1]!, config) : n < 3 && (n === 1 || view.namespaces.has(labels[0]!)) ? empty() : undefined;
  if (labels[n - 1] !== 'svc') return undefined;
  if (n === 1) return empty();
  if (n === 2) return view.namespaces.has(labels[0]!) ? empty() : undefined;
  if (n === 3) return serviceRecords(view, labels[1]!, labels[0]!, undefined, config);
  if (n === 4) return endpointRecords(view, labels[2]!, labels[1]!, labels[0]!, config);
  if (n === 5 && labels[0]!.startsWith('_') && labels[1]!.startsWith('_')) {
    return serviceRecords(view, labels[3]!, labels[2]!, { name: labels[0]!.slice(1), protocol: labels[1]!.slice(1) }, config);
  }
  return undefined;
}

const empty = (): Found => ({ records: [], additionals: [] });

interface PortFilter {
  name: string;
  protocol: string;
}

/** A Service's records: by its ClusterIPs, its ready endpoints (headless) or its external name; only ports matching `port` (SRV names). */
function serviceRecords(view: ClusterView, namespace: string, name: string, port: PortFilter | undefined, config: DnsConfig): Found | undefined {
  const svc = findService(view, namespace, name);
  if (!svc) return undefined;
  const spec = (svc as any).spec ?? {};
  const svcName = `${svc.metadata.name}.${svc.metadata.namespace}.svc.${config.zone}`.toLowerCase();
  const ttl = config.ttl_s;
  if (spec.type === 'ExternalName') {
    if (port) return undefined;
    return { records: [{ name: svcName, type: 'CNAME', class: 'IN', ttl, data: String(spec.externalName ?? '').replace(/\.$/, '') }], additionals: [] };
  }
  const qname = port ? `_${port.name}._${port.protocol}.${svcName}` : svcName;
  // Fault dns-headless-as-clusterip: the headless branch is never taken.
  if (spec.clusterIP === 'None' && !config.faults?.has('dns-headless-as-clusterip')) return headlessRecords(view, svc, qname, svcName, port, config);
  const ports = ((spec.ports ?? []) as any[]).filter((p) => portMatches(port, p.name, p.protocol));
  // Fault dns-srv-target-port: the SRV record carries the port the Pods listen on.
  const srvPort = (p: any) => Number(config.faults?.has('dns-srv-target-port') && typeof p.targetPort === 'number' ? p.targetPort : p.port);
  // CoreDNS answers a ClusterIP Service only through its ports: no matching port, no such name.
  if (ports.length === 0) return undefined;
  const ips = clusterIPs(spec);
  const addresses = ips.map((ip) => addressRecord(qname, ip, ttl));
  const srv = ports.map((p) => srvRecord(qname, srvPort(p), svcName, ports.length, ttl));
  return { records: [...addresses, ...srv], additionals: ips.map((ip) => addressRecord(svcName, ip, ttl)) };
}

/** A headless Service: one address per ready endpoint; SRV per ready endpoint × matching endpoint port. NXDOMAIN when none is ready. */
function headlessRecords(view: ClusterView, svc: KubeObject, qname: string, svcName: string, port: PortFilter | undefined, config: DnsConfig): Found | undefined {
  const ttl = config.ttl_s;
  const records: DnsRecord[] = [];
  const additionals: DnsRecord[] = [];
  for (const slice of slicesOf(view, svc)) {
    const ports = slicePorts(slice).filter((p) => portMatches(port, p.name, p.protocol));
    for (const ep of readyEndpoints(slice, config.faults?.has('dns-includes-not-ready'))) {
      const target = `${endpointHostname(ep.hostname, ep.address)}.${svcName}`;
      for (const p of ports) {
        if (p.port >= 0) records.push(srvRecord(qname, p.port, target, 0, ttl));
        records.push(addressRecord(qname, ep.address, ttl));
        additionals.push(addressRecord(target, ep.address, ttl));
      }
    }
  }
  if (records.length === 0) return undefined;
  const srvCount = records.filter((r) => r.type === 'SRV').length;
  for (const r of records) if (r.type === 'SRV') r.data.weight = srvWeight(srvCount);
  return { records, additionals };
}

/** `<hostname>.<svc>.<ns>.svc.<zone>`: the ready endpoints of the Service with that hostname (or dashed IP). */
function endpointRecords(view: ClusterView, namespace: string, service: string, hostname: string, config: DnsConfig): Found | undefined {
  const svc = findService(view, namespace, service);
  if (!svc) return undefined;
  const name = `${hostname}.${svc.metadata.name}.${svc.metadata.namespace}.svc.${config.zone}`.toLowerCase();
  const records = slicesOf(view, svc)
    .flatMap((slice) => readyEndpoints(slice))
    .filter((ep) => endpointHostname(ep.hostname, ep.address) === hostname)
    .map((ep) => addressRecord(name, ep.address, config.ttl_s));
  return records.length > 0 ? { records, additionals: [] } : undefined;
}

function podRecord(view: ClusterView, dashed: string, namespace: string, config: DnsConfig): Found | undefined {
  const ip = dashed.replace(/-/g, '.');
  if (isIP(ip) !== 4 || !view.namespaces.has(namespace)) return undefined;
  return { records: [addressRecord(`${dashed}.${namespace}.pod.${config.zone}`, ip, config.ttl_s)], additionals: [] };
}

function findService(view: ClusterView, namespace: string, name: string): KubeObject | undefined {
  return view.services.find((s) => s.metadata.name.toLowerCase() === name && String(s.metadata.namespace).toLowerCase() === namespace);
}

function slicesOf(view: ClusterView, svc: KubeObject): KubeObject[] {
  return view.endpointSlices.filter((s) => s.metadata.namespace === svc.metadata.namespace && (s.metadata as any).labels?.[SERVICE_NAME_LABEL] === svc.metadata.name);
}

/**
 * A slice's ports; a slice without ports gets CoreDNS's sentinel (port -1), so its endpoints
 * still have addresses (coredns plugin/kubernetes/object/endpoint.go) but no SRV record.
 */
function slicePorts(slice: KubeObject): { name: string; protocol: string; port: number }[] {
  const ports = ((slice as any).ports ?? []) as any[];
  if (ports.length === 0) return [{ name: '', protocol: 'TCP', port: -1 }];
  return ports.map((p) => ({ name: String(p.name ?? ''), protocol: String(p.protocol ?? 'TCP'), port: Number(p.port ?? -1) }));
}

/** Endpoints whose ready condition is true or unset ("nil should be interpreted as ready", discovery/v1 EndpointConditions). */
function readyEndpoints(slice: KubeObject, includeNotReady = false): { address: string; hostname?: string }[] {
  return (((slice as any).endpoints ?? []) as any[])
    // Fault dns-includes-not-ready (includeNotReady): the ready condition is not read.
    .filter((ep) => includeNotReady || ep.conditions?.ready !== false)
    .flatMap((ep) => ((ep.addresses ?? []) as string[]).map((address) => ({ address, ...(ep.hostname ? { hostname: String(ep.hostname).toLowerCase() } : {}) })));
}

/** An SRV name's port matches by name and protocol (case-insensitive); unnamed ports have no SRV name. No filter: every port. */
function portMatches(filter: PortFilter | undefined, name: unknown, protocol: unknown): boolean {
  if (!filter) return true;
  return String(name ?? '').toLowerCase() === filter.name && filter.name !== '' && String(protocol ?? 'TCP').toLowerCase() === filter.protocol;
}

function clusterIPs(spec: any): string[] {
  const ips = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0 ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : [];
  return (ips as string[]).filter((ip) => isIP(ip) !== 0);
}

/** The endpoint's hostname, or its address with dashes (1.2.3.4 → 1-2-3-4), as CoreDNS names it. */
function endpointHostname(hostname: string | undefined, address: string): string {
  return hostname ?? address.replace(/[.:]/g, '-');
}

function addressRecord(name: string, ip: string, ttl: number): DnsRecord {
  return { name, type: isIP(ip) === 6 ? 'AAAA' : 'A', class: 'IN', ttl, data: ip };
}

/** Priority 0, weights sharing 100 (what CoreDNS answers; RFC 2782 values the spec leaves open). */
function srvRecord(name: string, port: number, target: string, count: number, ttl: number): DnsRecord {
  return { name, type: 'SRV', class: 'IN', ttl, data: { priority: 0, weight: srvWeight(count), port, target } };
}

function srvWeight(count: number): number {
  return count > 0 ? Math.floor(100 / count) : 100;
}

function soa(config: DnsConfig): DnsRecord {
  return {
    name: config.zone, type: 'SOA', class: 'IN', ttl: config.ttl_s,
    // The names and timers CoreDNS's SOA carries (plugin/backend_lookup.go SOA): ns.dns.<zone>, hostmaster.<zone>.
    data: { mname: `ns.dns.${config.zone}`, rname: `hostmaster.${config.zone}`, serial: config.serial, refresh: 7200, retry: 1800, expire: 86400, minimum: config.ttl_s },
  };
}

function negative(rcode: 'NXDOMAIN' | 'NOERROR', config: DnsConfig): DnsAnswer {
  return { rcode, answers: [], authorities: [soa(config)], additionals: [] };
}

/** One record per name, type and data (an address listed in two slices, a target named twice). */
function dedupe(records: DnsRecord[]): DnsRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = `${r.name}|${r.type}|${JSON.stringify(r.data)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
