/**
 * nftables mode (kubernetes/kubernetes pkg/proxy/nftables/proxier.go): everything in one table,
 * `ip kube-proxy`. Service dispatch is one verdict-map lookup — `service-ips` keyed by
 * ClusterIP . protocol . port, `service-nodeports` by protocol . port — instead of a rule per
 * Service; each Service's chain picks an endpoint with `numgen random mod n vmap`.
 *
 * - No endpoints: the `no-endpoint-services` / `no-endpoint-nodeports` maps send the packet to
 *   `reject-chain` (filter hooks), as upstream.
 * - ClientIP affinity: a dynamic set per endpoint (`affinity-…`, with the Service's timeout) the
 *   endpoint chain updates and the service chain checks first.
 * - Local policies: `external-…` short-circuits cluster and node-local sources to the service
 *   chain and sends the rest to `local-…`, which holds only this node's endpoints.
 * - Partial syncs: the proxier keeps each Service port's fragment (its chains, sets and map
 *   elements) and, given the Service ports that changed, emits a transaction touching only
 *   those — upstream's "partial sync" of changed services between periodic full syncs.
 *
 * The output hook uses priority -100, not `dstnat`: nft 1.0.6 rejects `dstnat` there.
 */
import {
  endpointString, externalEndpoints, hasAnyEndpoint, internalEndpoints, usableEndpoints,
  type Endpoint, type ProxyState, type ServicePort,
} from '../model.ts';
import { nftEndpointBase, nftServiceBase } from '../names.ts';
import { ruleText, verdictText, type Fragment, type NftRule, type Verdict } from './ruleset.ts';

export const TABLE = 'ip kube-proxy';
export const MAPS: Record<string, string> = {
  'service-ips': 'ipv4_addr . inet_proto . inet_service : verdict',
  'service-nodeports': 'inet_proto . inet_service : verdict',
  'no-endpoint-services': 'ipv4_addr . inet_proto . inet_service : verdict',
  'no-endpoint-nodeports': 'inet_proto . inet_service : verdict',
};

export interface NftablesOptions {
  clusterCIDR: string;
  /** Seams for on-purpose breaks (first-port-only: fault nft-map-first-port-only). */
  fault?: 'full-sync-always' | 'first-port-only';
}

/** Whether `sp` is the first port (by id) of its Service: for the first-port-only fault. */
function isFirstPort(state: ProxyState, sp: ServicePort): boolean {
  return state.services.find((s) => s.namespace === sp.namespace && s.name === sp.name) === sp;
}

/** The chains that never change: hooks, dispatch and masquerading. */
export function baseChains(): Map<string, { hook?: string; rules: NftRule[] }> {
  const t = (text: string): NftRule => ({ kind: 'text', text });
  return new Map<string, { hook?: string; rules: NftRule[] }>([
    ['mark-for-masquerade', { rules: [t('mark set mark or 0x4000')] }],
    ['masquerading', { rules: [t('mark and 0x4000 == 0 return'), t('mark set mark xor 0x4000'), t('masquerade fully-random')] }],
    ['services', { rules: [{ kind: 'vmap', map: 'service-ips', key: 'addr-proto-port' }, { kind: 'vmap', map: 'service-nodeports', key: 'proto-port' }] }],
    ['service-endpoints-check', { rules: [{ kind: 'vmap', map: 'no-endpoint-services', key: 'addr-proto-port' }, { kind: 'vmap', map: 'no-endpoint-nodeports', key: 'proto-port' }] }],
    ['reject-chain', { rules: [{ kind: 'reject' }] }],
    ['nat-prerouting', { hook: 'type nat hook prerouting priority -100', rules: [{ kind: 'jump', chain: 'services', conds: [] }] }],
    ['nat-output', { hook: 'type nat hook output priority -100', rules: [{ kind: 'jump', chain: 'services', conds: [] }] }],
    ['nat-postrouting', { hook: 'type nat hook postrouting priority 100', rules: [{ kind: 'jump', chain: 'masquerading', conds: [] }] }],
    ['filter-input', { hook: 'type filter hook input priority -110', rules: [t('ct state new jump service-endpoints-check')] }],
    ['filter-forward', { hook: 'type filter hook forward priority -110', rules: [t('ct state new jump service-endpoints-check')] }],
    ['filter-output', { hook: 'type filter hook output priority -110', rules: [t('ct state new jump service-endpoints-check')] }],
  ]);
}

const goto = (chain: string): Verdict => ({ kind: 'goto', chain });

function emptyFragment(): Fragment {
  return { chains: new Map(), elements: new Map(), sets: new Map() };
}

function element(f: Fragment, map: string, key: string, v: Verdict): void {
  if (!f.elements.has(map)) f.elements.set(map, new Map());
  f.elements.get(map)!.set(key, v);
}

function endpointChain(f: Fragment, sp: ServicePort, ep: Endpoint): string {
  const name = `endpoint-${nftEndpointBase(sp, ep)}`;
  if (f.chains.has(name)) return name;
  const rules: NftRule[] = [{ kind: 'jump', chain: 'mark-for-masquerade', conds: [{ kind: 'saddr-in', cidr: ep.ip }] }];
  if (sp.affinityTimeoutSeconds !== undefined) {
    const set = `affinity-${nftEndpointBase(sp, ep)}`;
    f.sets.set(set, { type: 'ipv4_addr', timeout_s: sp.affinityTimeoutSeconds });
    rules.push({ kind: 'update-set', set });
  }
  rules.push({ kind: 'dnat', proto: sp.protocol.toLowerCase(), to: endpointString(ep) });
  f.chains.set(name, rules);
  return name;
}

/** service-… / local-…: affinity checks, then numgen over the endpoints. */
function spreadChain(f: Fragment, name: string, sp: ServicePort, eps: readonly Endpoint[], prefix: NftRule[]): void {
  const targets = eps.map((ep) => endpointChain(f, sp, ep));
  const affinity: NftRule[] = sp.affinityTimeoutSeconds === undefined ? [] : eps.map((ep, i) => ({ kind: 'goto', chain: targets[i]!, conds: [{ kind: 'saddr-in-set', set: `affinity-${nftEndpointBase(sp, ep)}` }] }));
  f.chains.set(name, [...prefix, ...affinity, { kind: 'numgen', targets }]);
}

/** One Service port's chains, sets and map elements. */
export function fragmentFor(sp: ServicePort, node: string, opts: NftablesOptions): Fragment {
  const f = emptyFragment();
  const proto = sp.protocol.toLowerCase();
  const ipKey = `${sp.clusterIP} . ${proto} . ${sp.port}`;
  const npKey = `${proto} . ${sp.nodePort}`;
  const base = nftServiceBase(sp);
  if (!hasAnyEndpoint(sp, node)) {
    element(f, 'no-endpoint-services', ipKey, goto('reject-chain'));
    if (sp.nodePort !== undefined) element(f, 'no-endpoint-nodeports', npKey, goto('reject-chain'));
    return f;
  }
  const svc = `service-${base}`;
  const all = usableEndpoints(sp, node, false);
  const masq: NftRule = { kind: 'jump', chain: 'mark-for-masquerade', conds: [{ kind: 'daddr-port', ip: sp.clusterIP, proto, port: sp.port }, { kind: 'saddr-in', cidr: opts.clusterCIDR, negate: true }] };
  spreadChain(f, svc, sp, all, [masq]);
  const internal = internalEndpoints(sp, node);
  // Off-cluster sources to the ClusterIP are masqueraded under either internal policy: upstream
  // adds the rule to the internal traffic chain, the local one for internalTrafficPolicy Local
  // (kubernetes/kubernetes pkg/proxy/nftables/proxier.go, "Set up internal traffic handling").
  // The rule matches the ClusterIP only, so external traffic sharing the local chain skips it.
  const localPrefix = sp.internalLocal ? [masq] : [];
  if (sp.internalLocal) {
    if (internal.length > 0) spreadChain(f, `local-${base}`, sp, internal, localPrefix);
    element(f, internal.length > 0 ? 'service-ips' : 'no-endpoint-services', ipKey, internal.length > 0 ? goto(`local-${base}`) : { kind: 'goto', chain: 'drop-chain' });
  } else {
    element(f, 'service-ips', ipKey, goto(svc));
  }
  if (sp.nodePort === undefined) return f;
  const ext = externalEndpoints(sp, node);
  if (!sp.externalLocal) {
    f.chains.set(`external-${base}`, [{ kind: 'jump', chain: 'mark-for-masquerade', conds: [] }, { kind: 'goto', chain: svc, conds: [] }]);
  } else {
    if (ext.length > 0) spreadChain(f, `local-${base}`, sp, ext, localPrefix);
    f.chains.set(`external-${base}`, [
      { kind: 'goto', chain: svc, conds: [{ kind: 'saddr-in', cidr: opts.clusterCIDR }] },
      { kind: 'jump', chain: 'mark-for-masquerade', conds: [{ kind: 'saddr-local' }] },
      { kind: 'goto', chain: svc, conds: [{ kind: 'saddr-local' }] },
      ext.length > 0 ? { kind: 'goto', chain: `local-${base}`, conds: [] } : { kind: 'drop' },
    ]);
  }
  element(f, 'service-nodeports', npKey, goto(`external-${base}`));
  return f;
}

const ADD_CHAIN = `add chain ${TABLE} `;
const FLUSH_CHAIN = `flush chain ${TABLE} `;
const ADD_RULE = `add rule ${TABLE} `;

/** A chain's lines, pushed onto `lines` (a full sync writes 400,000 of them: no spread arrays). */
function pushChainLines(lines: string[], name: string, rules: NftRule[]): void {
  lines.push(ADD_CHAIN + name, FLUSH_CHAIN + name);
  const rulePrefix = `${ADD_RULE + name} `;
  for (const r of rules) lines.push(rulePrefix + ruleText(r));
}

/** A fragment's sets, chains and map elements, pushed onto `lines`. */
function pushFragmentAddLines(lines: string[], f: Fragment): void {
  for (const [set, s] of f.sets) lines.push(`add set ${TABLE} ${set} { type ${s.type} ; flags dynamic,timeout ; timeout ${s.timeout_s}s ; }`);
  // A chain must exist before a rule can goto it: fragmentFor inserts endpoint chains before
  // the chains that jump to them, so insertion order is the order to write.
  for (const [name, rules] of f.chains) pushChainLines(lines, name, rules);
  for (const [map, els] of f.elements) for (const [k, v] of els) lines.push(`add element ${TABLE} ${map} { ${k} : ${verdictText(v)} }`);
}

function fragmentDeleteLines(f: Fragment): string[] {
  const lines: string[] = [];
  for (const [map, els] of f.elements) for (const k of els.keys()) lines.push(`delete element ${TABLE} ${map} { ${k} }`);
  const names = [...f.chains.keys()].sort((a, b) => Number(a.startsWith('endpoint-')) - Number(b.startsWith('endpoint-')));
  for (const name of names) lines.push(`flush chain ${TABLE} ${name}`);
  for (const name of names) lines.push(`delete chain ${TABLE} ${name}`);
  for (const set of f.sets.keys()) lines.push(`delete set ${TABLE} ${set}`);
  return lines;
}

/** The table skeleton: base chains with hooks, the maps, the drop chain. */
function skeletonLines(): string[] {
  const lines = [`add table ${TABLE} { comment "rules for kube-proxy" ; }`, `flush table ${TABLE}`];
  for (const [map, type] of Object.entries(MAPS)) lines.push(`add map ${TABLE} ${map} { type ${type} ; }`);
  lines.push(`add chain ${TABLE} drop-chain`, `add rule ${TABLE} drop-chain drop`);
  for (const [name, c] of baseChains()) {
    lines.push(c.hook ? `add chain ${TABLE} ${name} { ${c.hook} ; }` : `add chain ${TABLE} ${name}`);
    for (const r of c.rules) lines.push(`add rule ${TABLE} ${name} ${ruleText(r)}`);
  }
  return lines;
}

/**
 * The proxier's memory of what it programmed. `sync` with the full state and the ids of the
 * Service ports that changed (undefined = full sync) returns the `nft -f` transaction.
 */
export class NftablesProxier {
  private readonly fragments = new Map<string, Fragment>();
  private synced = false;
  private cached?: NftRuleset;

  constructor(private readonly opts: NftablesOptions) {}

  /**
   * A full sync (no `changed`), or a partial one: `changed` maps each changed Service port's key
   * to its new state (undefined: it is gone). A partial sync reads nothing else, so its cost is
   * O(changed) however many Services there are.
   */
  sync(state: ProxyState, changed?: ReadonlyMap<string, ServicePort | undefined>): string[] {
    const full = !this.synced || changed === undefined || this.opts.fault === 'full-sync-always';
    // A full sync flushes the table, so only what should exist is written.
    const work: Iterable<[string, ServicePort | undefined]> = full ? state.services.map((sp): [string, ServicePort] => [keyOf(sp), sp]) : changed!;
    const lines = full ? skeletonLines() : [];
    if (full) this.fragments.clear();
    for (const [id, sp] of work) {
      const old = this.fragments.get(id);
      if (old && !full) lines.push(...fragmentDeleteLines(old));
      this.fragments.delete(id);
      if (!sp) continue;
      const f = fragmentFor(sp, state.nodeName, this.opts);
      if (this.opts.fault === 'first-port-only' && !isFirstPort(state, sp)) f.elements.delete('service-ips');
      this.fragments.set(id, f);
      pushFragmentAddLines(lines, f);
    }
    this.synced = true;
    this.cached = undefined;
    return lines;
  }

  /** What is programmed now, as one ruleset (for the dataplane and for `nft list table`). */
  ruleset(): NftRuleset {
    return (this.cached ??= this.assemble());
  }

  private assemble(): NftRuleset {
    const chains = new Map<string, NftRule[]>([['drop-chain', [{ kind: 'drop' }]]]);
    for (const [name, c] of baseChains()) chains.set(name, c.rules);
    const maps = new Map<string, Map<string, Verdict>>(Object.keys(MAPS).map((m) => [m, new Map()]));
    const sets = new Map<string, { type: string; timeout_s: number }>();
    for (const f of this.fragments.values()) {
      for (const [n, rules] of f.chains) chains.set(n, rules);
      for (const [m, els] of f.elements) for (const [k, v] of els) maps.get(m)!.set(k, v);
      for (const [s, def] of f.sets) sets.set(s, def);
    }
    return { chains, maps, sets };
  }
}

export interface NftRuleset {
  chains: Map<string, NftRule[]>;
  maps: Map<string, Map<string, Verdict>>;
  sets: Map<string, { type: string; timeout_s: number }>;
}

export const keyOf = (sp: ServicePort): string => `${sp.id}/${sp.protocol}`;

/** `nft list table ip kube-proxy`, roughly as nft prints it. */
export function listTable(r: NftRuleset): string {
  const out = ['table ip kube-proxy {', '\tcomment "rules for kube-proxy"'];
  for (const [name, els] of r.maps) {
    out.push(`\tmap ${name} {`, `\t\ttype ${MAPS[name]}`);
    if (els.size > 0) out.push(`\t\telements = { ${[...els].map(([k, v]) => `${k} : ${verdictText(v)}`).join(',\n\t\t\t     ')} }`);
    out.push('\t}');
  }
  for (const [name, s] of r.sets) out.push(`\tset ${name} {`, `\t\ttype ${s.type}`, '\t\tflags dynamic,timeout', `\t\ttimeout ${s.timeout_s}s`, '\t}');
  const hooks = baseChains();
  for (const [name, rules] of r.chains) {
    out.push(`\tchain ${name} {`);
    const hook = hooks.get(name)?.hook;
    if (hook) out.push(`\t\t${hook}; policy accept;`);
    for (const rule of rules) out.push(`\t\t${ruleText(rule)}`);
    out.push('\t}');
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}
