/**
 * iptables mode: the desired state as the `nat` and `filter` tables, with upstream's structure
 * and names (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, syncProxyRules):
 *
 *   PREROUTING/OUTPUT → KUBE-SERVICES ─ ClusterIP:port ─→ KUBE-SVC-<hash> ─ random ─→ KUBE-SEP-<hash> → DNAT
 *                                    └ local dst ─→ KUBE-NODEPORTS ─ nodePort ─→ KUBE-EXT-<hash> → KUBE-SVC / KUBE-SVL
 *   POSTROUTING → KUBE-POSTROUTING: MASQUERADE what KUBE-MARK-MASQ marked (0x4000).
 *
 * - Each KUBE-SVC chain picks endpoint k of n with `--probability 1/(n-k)` and the last one
 *   unconditionally, so each endpoint is equally likely (computeProbability, "%0.10f").
 * - ClientIP affinity: first one `-m recent --rcheck --seconds T --reap` rule per endpoint in
 *   the service chain, and `-m recent --set` in each endpoint chain ("First write session
 *   affinity rules").
 * - No endpoints at all: no nat rules; the filter table REJECTs (KUBE-SERVICES for the ClusterIP,
 *   KUBE-EXTERNAL-SERVICES for NodePorts). Endpoints, but none local for a Local policy: DROP.
 * - externalTrafficPolicy Local: KUBE-EXT sends pod and node-local sources to KUBE-SVC (short
 *   circuit) and everything else to KUBE-SVL, which holds only this node's endpoints and keeps
 *   the client's source address (no masquerade). internalTrafficPolicy Local: the ClusterIP
 *   rule jumps to KUBE-SVL instead of KUBE-SVC.
 */
import {
  endpointString, externalEndpoints, hasAnyEndpoint, internalEndpoints, usableEndpoints,
  type Endpoint, type ProxyState, type ServicePort,
} from '../model.ts';
import { extChain, sepChain, svcChain, svlChain } from '../names.ts';
import * as C from './comments.ts';
import { append, addChain, newTable, type Match, type Table, type Target } from './rules.ts';

export interface IptablesOptions {
  /** kube-proxy's --cluster-cidr: traffic from outside it to a ClusterIP is masqueraded. */
  clusterCIDR: string;
  /**
   * Set by iptablesRules when the cluster has more than 1000 endpoints: the per-endpoint
   * comments are left out, as upstream does ("largeClusterMode", largeClusterEndpointsThreshold;
   * "can reduce size of iptables ... even by 40%+").
   */
  largeCluster?: boolean;
  /** Seam for the suite's on-purpose breaks; never set in the reference. */
  fault?: IptablesFault;
}

/** Plausible wrong implementations, switched on by unit tests to prove the scenarios catch them. */
export type IptablesFault = 'first-endpoint-only' | 'probability-not-cumulative' | 'affinity-not-sticky' | 'no-reject';

export const MASQ_MARK = '0x4000/0x4000';
export const DEFAULT_CLUSTER_CIDR = '10.244.0.0/16';

/** The options of one sync, with what it memoises and the fault seams as flags. */
interface SyncOptions extends IptablesOptions {
  probabilities: Match[];
  /** Fault seams (reference/faults.ts): each is the right behaviour unless its fault is on. */
  sticky: boolean;
  firstOnly: boolean;
  cumulative: boolean;
  rejects: boolean;
}

export interface IptablesRules {
  nat: Table;
  filter: Table;
}

/** Shared, never mutated: most rules jump to KUBE-MARK-MASQ or match tcp. */
const MARK_MASQ = { kind: 'jump', chain: 'KUBE-MARK-MASQ' } as const;
const PROTO: Record<string, Match> = { tcp: { kind: 'proto', proto: 'tcp' }, udp: { kind: 'proto', proto: 'udp' }, sctp: { kind: 'proto', proto: 'sctp' } };
export const LARGE_CLUSTER_ENDPOINTS = 1000;
const proto = (sp: ServicePort): string => sp.protocol.toLowerCase();
const portMatch = (sp: ServicePort, port: number): Match[] => [{ kind: 'proto', proto: proto(sp) }, { kind: 'dport', proto: proto(sp), port }];

/** The chains every sync writes, before any Service (iptablesJumpChains and the masquerade chains). */
function baseTables(): IptablesRules {
  const nat = newTable('nat', ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']);
  for (const c of ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ']) addChain(nat, c);
  append(nat, 'PREROUTING', { kind: 'jump', chain: 'KUBE-SERVICES' }, C.SERVICE_PORTALS);
  append(nat, 'OUTPUT', { kind: 'jump', chain: 'KUBE-SERVICES' }, C.SERVICE_PORTALS);
  append(nat, 'POSTROUTING', { kind: 'jump', chain: 'KUBE-POSTROUTING' }, C.POSTROUTING_RULES);
  append(nat, 'KUBE-MARK-MASQ', { kind: 'MARK', op: '--or-mark', mark: '0x4000' });
  append(nat, 'KUBE-POSTROUTING', { kind: 'RETURN' }, { kind: 'mark', negate: true, mark: MASQ_MARK });
  append(nat, 'KUBE-POSTROUTING', { kind: 'MARK', op: '--xor-mark', mark: '0x4000' });
  append(nat, 'KUBE-POSTROUTING', { kind: 'MASQUERADE' }, C.REQUIRING_SNAT);

  const filter = newTable('filter', ['INPUT', 'FORWARD', 'OUTPUT']);
  for (const c of ['KUBE-SERVICES', 'KUBE-EXTERNAL-SERVICES']) addChain(filter, c);
  const isNew: Match = { kind: 'ctstate', state: 'NEW' };
  append(filter, 'INPUT', { kind: 'jump', chain: 'KUBE-EXTERNAL-SERVICES' }, isNew, C.EXTERNAL_PORTALS);
  append(filter, 'FORWARD', { kind: 'jump', chain: 'KUBE-SERVICES' }, isNew, C.SERVICE_PORTALS);
  append(filter, 'FORWARD', { kind: 'jump', chain: 'KUBE-EXTERNAL-SERVICES' }, isNew, C.EXTERNAL_PORTALS);
  append(filter, 'OUTPUT', { kind: 'jump', chain: 'KUBE-SERVICES' }, isNew, C.SERVICE_PORTALS);
  return { nat, filter };
}

/** computeProbability: 1/n printed with 10 decimals. */
export function probability(n: number): string {
  return (1 / n).toFixed(10);
}
/**
 * The statistic match for 1/n, one shared object per n within a sync (never mutated). The memo
 * lives as long as one sync, not the process: a module-wide one would outlive a change to how the
 * probability is computed (in a long-lived mutation-testing worker, for one).
 */
function probabilityMatch(memo: Match[], n: number): Match {
  return (memo[n] ??= { kind: 'probability', p: probability(n) });
}

/**
 * KUBE-SVC / KUBE-SVL: affinity checks, then the random spread over `eps`. Returns the
 * endpoints' KUBE-SEP chain names (each hashed once per sync: the endpoint chains reuse them).
 * The hot path of a full sync (one rule per endpoint): rules are built as literals, without
 * the rest/spread arrays of `append`.
 */
function writeSpreadChain(nat: Table, chain: string, sp: ServicePort, eps: readonly Endpoint[], opts: SyncOptions): string[] {
  addChain(nat, chain);
  const rules = nat.chains.get(chain)!;
  const seps = eps.map((ep) => sepChain(sp, ep));
  const jumps: Target[] = seps.map((sep) => ({ kind: 'jump', chain: sep }));
  const timeout = sp.affinityTimeoutSeconds;
  if (timeout !== undefined && opts.sticky) {
    eps.forEach((ep, i) => {
      const check: Match = { kind: 'recent-check', name: seps[i]!, seconds: timeout };
      rules.push({ matches: opts.largeCluster ? [check] : [C.toEndpoint(sp, ep), check], target: jumps[i]! });
    });
  }
  // Stryker disable next-line MethodExpression: the fault seam's branch, never taken without the fault
  const n = opts.firstOnly ? Math.min(1, eps.length) : eps.length;
  for (let k = 0; k < n; k++) {
    const matches: Match[] = opts.largeCluster ? [] : [C.toEndpoint(sp, eps[k]!)];
    if (k < n - 1) matches.push(probabilityMatch(opts.probabilities, opts.cumulative ? n - k : n));
    rules.push({ matches, target: jumps[k]! });
  }
  return seps;
}

function writeEndpointChain(nat: Table, sp: ServicePort, ep: Endpoint, opts: IptablesOptions, chain: string): void {
  if (nat.chains.has(chain)) return;
  // Hairpin: a pod reaching itself through its Service must be masqueraded to get the reply.
  const src: Match = { kind: 'src', cidr: `${ep.ip}/32` };
  const dnat: Match[] = [PROTO[proto(sp)]!];
  if (sp.affinityTimeoutSeconds !== undefined) dnat.push({ kind: 'recent-set', name: chain });
  if (!opts.largeCluster) dnat.unshift(C.servicePort(sp));
  nat.chains.set(chain, [
    { matches: opts.largeCluster ? [src] : [C.servicePort(sp), src], target: MARK_MASQ },
    { matches: dnat, target: { kind: 'DNAT', to: endpointString(ep) } },
  ]);
}

/** The endpoint chains of `eps`, named `seps` (as writeSpreadChain returned them). */
function writeEndpointChains(nat: Table, sp: ServicePort, eps: readonly Endpoint[], seps: string[], opts: IptablesOptions): void {
  eps.forEach((ep, i) => writeEndpointChain(nat, sp, ep, opts, seps[i]!));
}

function writeClusterIP(t: IptablesRules, sp: ServicePort, node: string, opts: SyncOptions): void {
  const eps = internalEndpoints(sp, node);
  const dst: Match[] = [{ kind: 'dst', cidr: `${sp.clusterIP}/32` }, ...portMatch(sp, sp.port)];
  if (!hasAnyEndpoint(sp, node)) {
    // Stryker disable next-line ConditionalExpression: a fault seam, true without the fault
    if (opts.rejects) append(t.filter, 'KUBE-SERVICES', { kind: 'REJECT' }, C.noEndpoints(sp), ...dst);
    return;
  }
  if (eps.length === 0) {
    append(t.filter, 'KUBE-SERVICES', { kind: 'DROP' }, C.noLocalEndpoints(sp), ...dst);
    return;
  }
  const chain = sp.internalLocal ? svlChain(sp) : svcChain(sp);
  append(t.nat, 'KUBE-SERVICES', { kind: 'jump', chain }, C.clusterIP(sp), ...dst);
  // Off-cluster sources are masqueraded whichever the internal policy: upstream writes this rule
  // into the internal traffic chain, KUBE-SVL for internalTrafficPolicy Local too ("Set up
  // internal traffic handling", kubernetes/kubernetes pkg/proxy/iptables/proxier.go).
  append(t.nat, chain, { kind: 'jump', chain: 'KUBE-MARK-MASQ' }, C.clusterIP(sp), { kind: 'src', cidr: opts.clusterCIDR, negate: true }, ...dst);
  writeEndpointChains(t.nat, sp, eps, writeSpreadChain(t.nat, chain, sp, eps, opts), opts);
}

/**
 * NodePort: KUBE-NODEPORTS → KUBE-EXT whenever the Service has any endpoint. With no endpoint
 * this node may send outside traffic to (none at all, or none local under a Local policy), the
 * filter table's KUBE-EXTERNAL-SERVICES refuses what nat left alone: REJECT, or DROP for Local.
 * Under a Local policy KUBE-EXT still short-circuits pods and the node itself to KUBE-SVC and
 * only "anything else" falls through to KUBE-SVL, when there is one (kubernetes/kubernetes
 * pkg/proxy/iptables/proxier.go: usesExternalTrafficChain = hasEndpoints && externally
 * accessible; "Anything else falls thru to the appropriate policy chain. if hasExternalEndpoints").
 */
function writeNodePort(t: IptablesRules, sp: ServicePort, node: string, opts: SyncOptions): void {
  if (sp.nodePort === undefined) return;
  const local: Match = { kind: 'addrtype', dir: 'dst', type: 'LOCAL' };
  const port = portMatch(sp, sp.nodePort);
  const eps = externalEndpoints(sp, node);
  const none = !hasAnyEndpoint(sp, node);
  if (none || eps.length === 0) {
    // Stryker disable next-line ConditionalExpression: true without the fault seam no-reject
    if (!none || opts.rejects) {
      append(t.filter, 'KUBE-EXTERNAL-SERVICES', { kind: none ? 'REJECT' : 'DROP' }, none ? C.noEndpoints(sp) : C.noLocalEndpoints(sp), port[0]!, local, port[1]!);
    }
    if (none) return;
  }
  const ext = extChain(sp);
  append(t.nat, 'KUBE-NODEPORTS', { kind: 'jump', chain: ext }, C.servicePort(sp), ...port);
  addChain(t.nat, ext);
  if (!sp.externalLocal) {
    append(t.nat, ext, { kind: 'jump', chain: 'KUBE-MARK-MASQ' }, C.masqueradeExternal(sp));
    append(t.nat, ext, { kind: 'jump', chain: svcChain(sp) });
    if (!t.nat.chains.has(svcChain(sp))) {
      const all = usableEndpoints(sp, node, false);
      writeEndpointChains(t.nat, sp, all, writeSpreadChain(t.nat, svcChain(sp), sp, all, opts), opts);
    }
    return;
  }
  // Local: sources in the cluster may use every endpoint; outside clients keep their address.
  append(t.nat, ext, { kind: 'jump', chain: svcChain(sp) }, C.podTrafficExternal(sp), { kind: 'src', cidr: opts.clusterCIDR });
  append(t.nat, ext, { kind: 'jump', chain: 'KUBE-MARK-MASQ' }, C.masqueradeLocalExternal(sp), { kind: 'addrtype', dir: 'src', type: 'LOCAL' });
  append(t.nat, ext, { kind: 'jump', chain: svcChain(sp) }, C.routeLocalExternal(sp), { kind: 'addrtype', dir: 'src', type: 'LOCAL' });
  if (eps.length > 0) append(t.nat, ext, { kind: 'jump', chain: svlChain(sp) });
  const all = usableEndpoints(sp, node, false);
  const allSeps = t.nat.chains.has(svcChain(sp)) ? all.map((ep) => sepChain(sp, ep)) : writeSpreadChain(t.nat, svcChain(sp), sp, all, opts);
  // KUBE-SVL is written once: an internalTrafficPolicy Local ClusterIP may have written it already.
  const localSeps = eps.length === 0 ? [] : t.nat.chains.has(svlChain(sp)) ? eps.map((ep) => sepChain(sp, ep)) : writeSpreadChain(t.nat, svlChain(sp), sp, eps, opts);
  writeEndpointChains(t.nat, sp, all, allSeps, opts);
  writeEndpointChains(t.nat, sp, eps, localSeps, opts);
}

// Stryker disable all: the fault seams are switched by --fault models only (reference/faults.ts,
// `kubespec selftest`); in a plain run each is the right behaviour, so a mutant here is no bug.
function seams(fault: IptablesFault | undefined): Pick<SyncOptions, 'sticky' | 'firstOnly' | 'cumulative' | 'rejects'> {
  return { sticky: fault !== 'affinity-not-sticky', firstOnly: fault === 'first-endpoint-only', cumulative: fault !== 'probability-not-cumulative', rejects: fault !== 'no-reject' };
}
// Stryker restore all

/** The whole ruleset for one node (a full sync, as upstream writes with iptables-restore --noflush). */
export function iptablesRules(state: ProxyState, options: IptablesOptions = { clusterCIDR: DEFAULT_CLUSTER_CIDR }): IptablesRules {
  let endpoints = 0;
  for (const sp of state.services) endpoints += sp.endpoints.length;
  const opts: SyncOptions = { ...options, largeCluster: options.largeCluster ?? endpoints > LARGE_CLUSTER_ENDPOINTS, probabilities: [], ...seams(options.fault) };
  const t = baseTables();
  for (const sp of state.services) {
    writeClusterIP(t, sp, state.nodeName, opts);
    writeNodePort(t, sp, state.nodeName, opts);
  }
  // Must stay last: NodePorts are tried only after every ClusterIP rule missed.
  append(t.nat, 'KUBE-SERVICES', { kind: 'jump', chain: 'KUBE-NODEPORTS' }, C.NODEPORTS_LAST, { kind: 'addrtype', dir: 'dst', type: 'LOCAL' });
  return t;
}
