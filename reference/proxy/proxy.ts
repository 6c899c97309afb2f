/**
 * One node's kube-proxy, pure: it is told the Services and EndpointSlices it has seen and keeps
 * its mode's rules programmed; it answers for what it programmed (iptables-save, ipvsadm -Sn,
 * nft list table) and sends connections through its dataplane model. The host (reference/
 * wiring/proxy.ts) feeds it from informers over the API server and owns the clock.
 */
import { buildState, type ProxyState, type ServicePort } from './model.ts';
import { DEFAULT_CLUSTER_CIDR, iptablesRules, type IptablesFault, type IptablesRules } from './iptables/proxier.ts';
import { renderTable, ruleCount } from './iptables/rules.ts';
import { restoreRefusal } from './iptables/restore.ts';
import { ipvsadmSave, ipvsRules, schedulerOf, type IpvsRules } from './ipvs/proxier.ts';
import { NftablesProxier, keyOf, listTable } from './nftables/proxier.ts';
import { IptablesDataplane } from './dataplane/iptables.ts';
import { IpvsDataplane } from './dataplane/ipvs.ts';
import { NftablesDataplane } from './dataplane/nftables.ts';
import type { Packet, Verdict } from './dataplane/packet.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';

export interface ProxyConfig {
  mode: ProxyMode;
  nodeName: string;
  nodeIPs: string[];
  clusterCIDR?: string;
  /** --ipvs-scheduler (empty: rr). */
  ipvsScheduler?: string;
  /** Kernel modules the node has: IPVS mode needs ip_vs. Undefined: all of them. */
  kernelModules?: readonly string[];
  random: () => number;
  iptablesFault?: IptablesFault;
  /** Fault models (reference/faults.ts), mapped onto the modes' seams below; default none. */
  faults?: Faults;
}

/** The registry's proxy faults onto each mode's own seam. */
function iptablesFaultOf(faults: Faults): IptablesFault | undefined {
  if (faults.has('iptables-probability-not-cumulative')) return 'probability-not-cumulative';
  if (faults.has('iptables-first-endpoint-only')) return 'first-endpoint-only';
  if (faults.has('iptables-affinity-not-sticky')) return 'affinity-not-sticky';
  if (faults.has('iptables-no-reject')) return 'no-reject';
  return undefined;
}

/** Why kube-proxy refuses to start (server_linux.go: "can't use the IPVS proxier"; no fallback since v1.26). */
export function startError(cfg: ProxyConfig): string | undefined {
  // validateProxyModeLinux (pkg/proxy/apis/config/validation/validation.go).
  if (!['iptables', 'ipvs', 'nftables'].includes(cfg.mode)) {
    return `KubeProxyConfiguration.Mode: Invalid value: "${cfg.mode}": must be iptables,ipvs,nftables or blank (blank means the best-available proxy [currently iptables])`;
  }
  if (cfg.mode === 'ipvs' && cfg.kernelModules && !cfg.kernelModules.includes('ip_vs')) {
    return 'can\'t use the IPVS proxier: IPVS proxier will not be used because the following required kernel modules are not loaded: [ip_vs]';
  }
  try {
    if (cfg.mode === 'ipvs') schedulerOf(cfg.ipvsScheduler);
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

export class KubeProxy {
  private state: ProxyState;
  private iptables?: { rules: IptablesRules; plane: IptablesDataplane; restoreInput: string };
  private ipvs?: { rules: IpvsRules; plane: IpvsDataplane };
  private readonly nft?: { proxier: NftablesProxier; plane: NftablesDataplane };
  private lastIds = new Map<string, string>();
  /** Why the last sync failed (iptables-restore refused its rules), or undefined after a good one. */
  syncError?: string;
  /** Statements in the last nftables transaction: what a partial sync cost. */
  lastTransaction: string[] = [];
  readonly clusterCIDR: string;
  private readonly faults: Faults;
  private readonly iptablesFault?: IptablesFault;

  constructor(readonly config: ProxyConfig) {
    const err = startError(config);
    if (err) throw new Error(err);
    this.clusterCIDR = config.clusterCIDR ?? DEFAULT_CLUSTER_CIDR;
    this.faults = config.faults ?? NO_FAULTS;
    this.iptablesFault = config.iptablesFault ?? iptablesFaultOf(this.faults);
    this.state = { nodeName: config.nodeName, nodeIPs: config.nodeIPs, services: [] };
    if (config.mode === 'nftables') {
      const proxier = new NftablesProxier({ clusterCIDR: this.clusterCIDR, ...(this.faults.has('nft-map-first-port-only') ? { fault: 'first-port-only' as const } : {}) });
      this.nft = { proxier, plane: new NftablesDataplane(() => proxier.ruleset(), config.nodeIPs, config.random) };
    }
    this.sync([], []);
  }

  /**
   * A sync: the whole desired state from what the informers hold. False when it failed: in
   * iptables mode, iptables-restore refused the rules, so the kernel (and this proxy's answers)
   * keep the last loaded ones — upstream's syncProxyRules returns on a failed RestoreAll without
   * marking the sync done, and retries later (kubernetes/kubernetes pkg/proxy/iptables/proxier.go).
   */
  sync(services: readonly any[], slices: readonly any[]): boolean {
    this.state = buildState(services, slices, this.config.nodeName, this.config.nodeIPs, this.faults);
    this.syncError = undefined;
    if (this.config.mode === 'iptables') {
      const rules = iptablesRules(this.state, { clusterCIDR: this.clusterCIDR, ...(this.iptablesFault ? { fault: this.iptablesFault } : {}) });
      const restoreInput = renderTable(rules.nat) + renderTable(rules.filter);
      this.syncError = restoreRefusal(restoreInput);
      if (this.syncError) return false;
      this.iptables = { rules, plane: new IptablesDataplane(rules, this.config.nodeIPs, this.config.random, this.iptables?.plane.recent), restoreInput };
    } else if (this.config.mode === 'ipvs') {
      const rules = ipvsRules(this.state, { ...(this.config.ipvsScheduler ? { scheduler: this.config.ipvsScheduler } : {}), ...(this.faults.has('ipvs-persistence-ignored') ? { fault: 'persistence-ignored' as const } : {}) });
      // The IPVS connection table survives a resync; only a first sync builds it.
      this.ipvs = this.ipvs ? { rules, plane: this.ipvs.plane.withRules(rules) } : { rules, plane: new IpvsDataplane(rules) };
    } else {
      this.lastTransaction = this.nft!.proxier.sync(this.state, this.changedIds());
    }
    return true;
  }

  /** Service ports whose desired state differs from the last sync, with their new state (the change tracker). */
  private changedIds(): Map<string, ServicePort | undefined> {
    const byId = new Map(this.state.services.map((sp) => [keyOf(sp), sp]));
    const next = new Map([...byId].map(([id, sp]) => [id, JSON.stringify(sp)]));
    const changed = new Map<string, ServicePort | undefined>();
    for (const [id, json] of next) if (this.lastIds.get(id) !== json) changed.set(id, byId.get(id));
    for (const id of this.lastIds.keys()) if (!next.has(id)) changed.set(id, undefined);
    this.lastIds = next;
    return changed;
  }

  get desired(): ProxyState {
    return this.state;
  }

  /** `iptables-save -t <table>` (in IPVS mode, its fixed nat rules); empty in nftables mode. */
  iptablesSave(table: 'nat' | 'filter'): string {
    if (this.iptables) return renderTable(this.iptables.rules[table], true);
    if (this.ipvs && table === 'nat') return renderTable(this.ipvs.rules.nat, true);
    return '';
  }

  /**
   * The `iptables-restore` input for what is programmed now (nat and filter; probabilities as
   * kube-proxy writes them), for a host that loads the rules into a real kernel; '' in nftables mode.
   */
  iptablesRestoreInput(): string {
    if (this.iptables) return this.iptables.restoreInput;
    return this.ipvs ? renderTable(this.ipvs.rules.nat) : '';
  }

  /**
   * nftables mode: the `nft -f` transaction that writes the whole table afresh (a full sync, as
   * kube-proxy runs at start), for a host whose kernel has not seen this proxy's table yet; later
   * syncs' transactions are `lastTransaction`.
   */
  nftFullTransaction(): string[] {
    return this.nft ? this.nft.proxier.sync(this.state) : [];
  }

  iptablesRuleCount(): number {
    if (this.iptables) return ruleCount(this.iptables.rules.nat) + ruleCount(this.iptables.rules.filter);
    return this.ipvs ? ruleCount(this.ipvs.rules.nat) : 0;
  }

  ipvsadmSave(): string {
    return this.ipvs ? ipvsadmSave(this.ipvs.rules) : '';
  }

  ipset(name: string): string[] {
    return [...(this.ipvs?.rules.ipsets.get(name) ?? [])].sort();
  }

  dummyAddresses(): string[] {
    return [...(this.ipvs?.rules.dummyAddresses ?? [])].sort();
  }

  sysctl(name: string): number | undefined {
    return this.ipvs?.rules.sysctls[name];
  }

  nftList(): string {
    return this.nft ? listTable(this.nft.proxier.ruleset()) : '';
  }

  connect(pkt: Packet, fromNode = false): Verdict {
    if (this.iptables) return this.iptables.plane.connect(pkt, fromNode);
    // iptables mode whose every sync was refused: the kernel holds none of its rules.
    if (this.config.mode === 'iptables') return { outcome: 'no-match', evaluations: 0, masquerade: false };
    if (this.ipvs) return this.ipvs.plane.connect(pkt);
    return this.nft!.plane.connect(pkt, fromNode);
  }
}
