/**
 * IPVS mode (kubernetes/kubernetes pkg/proxy/ipvs/proxier.go): one IPVS virtual server per
 * ClusterIP:port (and per node IP:nodePort), its real servers the usable endpoints; ClusterIPs
 * bound to the dummy interface kube-ipvs0 so the kernel accepts them; a handful of fixed
 * iptables rules that match ipsets (KUBE-CLUSTER-IP, KUBE-NODE-PORT-TCP, ...) instead of one rule
 * per Service — so the iptables rule count stays constant as Services grow.
 *
 * - Scheduler: kube-proxy's --ipvs-scheduler, rr when empty (defaultScheduler = "rr").
 * - ClientIP affinity: a persistent virtual server, timeout = the Service's timeoutSeconds
 *   (`ipvsadm -p`; proxier.go sets Flags |= FlagPersistent and Timeout).
 * - Start-up: sysctl net/ipv4/vs/conntrack = 1, so IPVS connections go through conntrack and the
 *   iptables masquerade rules still apply (sysctlVSConnTrack).
 */
import { endpointString, externalEndpoints, hasAnyEndpoint, internalEndpoints, type ProxyState, type ServicePort } from '../model.ts';
import { addChain, append, newTable, type Match, type Table } from '../iptables/rules.ts';

export const SCHEDULERS = ['rr', 'lc', 'dh', 'sh', 'sed', 'nq'] as const;
export type Scheduler = (typeof SCHEDULERS)[number];
export const DEFAULT_SCHEDULER: Scheduler = 'rr';

export interface RealServer {
  ip: string;
  port: number;
  weight: number;
}

export interface VirtualServer {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  address: string;
  port: number;
  scheduler: Scheduler;
  /** Persistence timeout (s), for ClientIP affinity. */
  persistentTimeout?: number;
  reals: RealServer[];
}

export interface IpvsRules {
  /** "TCP 10.96.0.50:80" → virtual server. */
  virtualServers: Map<string, VirtualServer>;
  /** ipset name → entries ("10.96.0.50,tcp:80"). */
  ipsets: Map<string, Set<string>>;
  /** Addresses on the dummy interface kube-ipvs0. */
  dummyAddresses: Set<string>;
  nat: Table;
  sysctls: Record<string, number>;
}

export interface IpvsOptions {
  scheduler?: string;
  /** Seam for on-purpose breaks. */
  fault?: 'persistence-ignored';
}

/** An unknown scheduler fails kube-proxy's config validation (validation.go: "scheduler"). */
export function schedulerOf(configured: string | undefined): Scheduler {
  const s = configured === undefined || configured === '' ? DEFAULT_SCHEDULER : configured;
  if (!(SCHEDULERS as readonly string[]).includes(s)) throw new Error(`invalid ipvs scheduler "${s}"`);
  return s as Scheduler;
}

export const vsKey = (protocol: string, address: string, port: number): string => `${protocol} ${address}:${port}`;

/** The fixed nat rules of IPVS mode: they match ipsets, never a single Service. */
function fixedNat(): Table {
  const nat = newTable('nat', ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']);
  for (const c of ['KUBE-SERVICES', 'KUBE-NODE-PORT', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ', 'KUBE-LOAD-BALANCER']) addChain(nat, c);
  const c = (text: string): Match => ({ kind: 'comment', text });
  append(nat, 'PREROUTING', { kind: 'jump', chain: 'KUBE-SERVICES' }, c('kubernetes service portals'));
  append(nat, 'OUTPUT', { kind: 'jump', chain: 'KUBE-SERVICES' }, c('kubernetes service portals'));
  append(nat, 'POSTROUTING', { kind: 'jump', chain: 'KUBE-POSTROUTING' }, c('kubernetes postrouting rules'));
  append(nat, 'KUBE-MARK-MASQ', { kind: 'MARK', op: '--or-mark', mark: '0x4000' });
  append(nat, 'KUBE-POSTROUTING', { kind: 'RETURN' }, { kind: 'mark', negate: true, mark: '0x4000/0x4000' });
  append(nat, 'KUBE-POSTROUTING', { kind: 'MARK', op: '--xor-mark', mark: '0x4000' });
  append(nat, 'KUBE-POSTROUTING', { kind: 'MASQUERADE' }, c('kubernetes service traffic requiring SNAT'));
  // `-m set --match-set KUBE-CLUSTER-IP dst,dst` etc.; modelled as comments naming the set.
  append(nat, 'KUBE-SERVICES', { kind: 'jump', chain: 'KUBE-MARK-MASQ' }, c('Kubernetes service cluster ip + port for masquerade purpose (match-set KUBE-CLUSTER-IP src,dst)'));
  append(nat, 'KUBE-SERVICES', { kind: 'jump', chain: 'KUBE-NODE-PORT' }, c('kubernetes service nodeports'), { kind: 'addrtype', dir: 'dst', type: 'LOCAL' });
  append(nat, 'KUBE-SERVICES', { kind: 'ACCEPT' }, c('Kubernetes service cluster ip + port (match-set KUBE-CLUSTER-IP dst,dst)'));
  append(nat, 'KUBE-NODE-PORT', { kind: 'jump', chain: 'KUBE-MARK-MASQ' }, c('Kubernetes nodeport TCP port for masquerade purpose (match-set KUBE-NODE-PORT-TCP dst)'));
  return nat;
}

function addVirtualServer(r: IpvsRules, sp: ServicePort, address: string, port: number, reals: RealServer[], opts: IpvsOptions): void {
  const persistent = sp.affinityTimeoutSeconds !== undefined && opts.fault !== 'persistence-ignored' ? { persistentTimeout: sp.affinityTimeoutSeconds } : {};
  r.virtualServers.set(vsKey(sp.protocol, address, port), { protocol: sp.protocol, address, port, scheduler: schedulerOf(opts.scheduler), ...persistent, reals });
}

export function ipvsRules(state: ProxyState, opts: IpvsOptions = {}): IpvsRules {
  const r: IpvsRules = {
    virtualServers: new Map(),
    ipsets: new Map([['KUBE-CLUSTER-IP', new Set()], ['KUBE-NODE-PORT-TCP', new Set()], ['KUBE-NODE-PORT-UDP', new Set()], ['KUBE-LOOP-BACK', new Set()]]),
    dummyAddresses: new Set(),
    nat: fixedNat(),
    sysctls: { 'net.ipv4.vs.conntrack': 1 },
  };
  const toReal = (e: { ip: string; port: number }): RealServer => ({ ip: e.ip, port: e.port, weight: 1 });
  for (const sp of state.services) {
    const proto = sp.protocol.toLowerCase();
    r.dummyAddresses.add(sp.clusterIP);
    r.ipsets.get('KUBE-CLUSTER-IP')!.add(`${sp.clusterIP},${proto}:${sp.port}`);
    addVirtualServer(r, sp, sp.clusterIP, sp.port, internalEndpoints(sp, state.nodeName).map(toReal), opts);
    for (const ep of internalEndpoints(sp, state.nodeName)) r.ipsets.get('KUBE-LOOP-BACK')!.add(`${ep.ip},${proto}:${ep.port},${ep.ip}`);
    if (sp.nodePort === undefined) continue;
    r.ipsets.get(`KUBE-NODE-PORT-${sp.protocol === 'UDP' ? 'UDP' : 'TCP'}`)?.add(String(sp.nodePort));
    const reals = hasAnyEndpoint(sp, state.nodeName) ? externalEndpoints(sp, state.nodeName).map(toReal) : [];
    for (const ip of state.nodeIPs) addVirtualServer(r, sp, ip, sp.nodePort, reals, opts);
  }
  return r;
}

const flag = (p: string): string => (p === 'UDP' ? '-u' : p === 'SCTP' ? '--sctp-service' : '-t');

/** `ipvsadm -Sn`: one `-A` line per virtual server, then one `-a` per real server (masquerading: -m). */
export function ipvsadmSave(r: IpvsRules): string {
  const lines: string[] = [];
  const keys = [...r.virtualServers.keys()].sort();
  for (const key of keys) {
    const vs = r.virtualServers.get(key)!;
    const addr = `${vs.address}:${vs.port}`;
    lines.push(`-A ${flag(vs.protocol)} ${addr} -s ${vs.scheduler}${vs.persistentTimeout !== undefined ? ` -p ${vs.persistentTimeout}` : ''}`);
    for (const real of vs.reals) lines.push(`-a ${flag(vs.protocol)} ${addr} -r ${endpointString(real)} -m -w ${real.weight}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
