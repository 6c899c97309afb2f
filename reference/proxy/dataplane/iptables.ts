/**
 * A model of netfilter walking the tables kube-proxy wrote: nat PREROUTING (or OUTPUT for a
 * node-local client) first — where DNAT happens — then, for a packet nat left alone, the filter
 * chains that REJECT or DROP it. Each rule looked at counts one evaluation, so a packet for the
 * last Service in KUBE-SERVICES pays for every Service before it: iptables' linear cost.
 *
 * State a real kernel keeps is kept here too: the `recent` lists (source → last seen) for
 * ClientIP affinity. Randomness (`-m statistic`) comes from the injected source.
 */
import type { Match, Rule, Table } from '../iptables/rules.ts';
import type { IptablesRules } from '../iptables/proxier.ts';
import { inCidr, type Packet, type Verdict } from './packet.ts';

/** Chains nested deeper than this mean a loop in the rules: iptables refuses those too. */
const MAX_DEPTH = 16;

export class IptablesDataplane {
  constructor(
    private readonly rules: IptablesRules,
    private readonly localIPs: readonly string[],
    private readonly random: () => number,
    /**
     * `recent` lists: name → source address → last time set (s). The kernel keeps a list while
     * any rule names it, so a resync (iptables-restore) must not forget who was seen: pass the
     * previous dataplane's lists on.
     */
    readonly recent = new Map<string, Map<string, number>>(),
  ) {}

  /** A new connection's first packet arriving at this node (or sent by it, with `fromNode`). */
  connect(pkt: Packet, fromNode = false): Verdict {
    const walk = { evaluations: 0, masquerade: false, dnat: undefined as string | undefined, verdict: undefined as string | undefined };
    this.run(this.rules.nat, fromNode ? 'OUTPUT' : 'PREROUTING', pkt, walk, 0);
    if (walk.dnat) return { backend: walk.dnat, outcome: 'forwarded', evaluations: walk.evaluations, masquerade: walk.masquerade };
    const local = this.localIPs.includes(pkt.dst);
    const chain = fromNode ? 'OUTPUT' : local ? 'INPUT' : 'FORWARD';
    this.run(this.rules.filter, chain, pkt, walk, 0);
    const outcome = walk.verdict === 'REJECT' ? 'rejected' : walk.verdict === 'DROP' ? 'dropped' : 'no-match';
    return { outcome, evaluations: walk.evaluations, masquerade: walk.masquerade };
  }

  /** Runs a chain; returns true when a terminating target ended the walk. */
  private run(table: Table, chain: string, pkt: Packet, walk: Walk, depth: number): boolean {
    if (depth > MAX_DEPTH) throw new Error(`chain nesting deeper than ${MAX_DEPTH} at ${chain}: a loop`);
    for (const rule of table.chains.get(chain) ?? []) {
      walk.evaluations++;
      if (!rule.matches.every((m) => this.matches(m, pkt))) continue;
      for (const m of rule.matches) if (m.kind === 'recent-set') this.list(m.name).set(pkt.src, pkt.now_s);
      if (this.apply(table, rule, pkt, walk, depth)) return true;
    }
    return false;
  }

  private apply(table: Table, rule: Rule, pkt: Packet, walk: Walk, depth: number): boolean {
    const t = rule.target;
    switch (t.kind) {
      case 'jump':
        if (t.chain === 'KUBE-MARK-MASQ') {
          walk.masquerade = true;
          return false;
        }
        return this.run(table, t.chain, pkt, walk, depth + 1);
      case 'DNAT':
        walk.dnat = t.to;
        return true;
      case 'REJECT':
      case 'DROP':
      case 'ACCEPT':
        walk.verdict = t.kind;
        return true;
      case 'RETURN':
        return false;
      default:
        return false;
    }
  }

  private matches(m: Match, pkt: Packet): boolean {
    switch (m.kind) {
      case 'src': return inCidr(pkt.src, m.cidr) !== (m.negate ?? false);
      case 'dst': return inCidr(pkt.dst, m.cidr);
      case 'proto': return m.proto === pkt.proto.toLowerCase();
      case 'dport': return m.port === pkt.dport;
      case 'addrtype': return this.localIPs.includes(m.dir === 'dst' ? pkt.dst : pkt.src);
      case 'probability': return this.random() < Number(m.p);
      case 'recent-check': return this.recentCheck(m.name, m.seconds, pkt);
      default: return true;
    }
  }

  /** `--rcheck --seconds S --reap`: seen within S seconds; older entries are forgotten. */
  private recentCheck(name: string, seconds: number, pkt: Packet): boolean {
    const list = this.list(name);
    const seen = list.get(pkt.src);
    if (seen === undefined) return false;
    if (pkt.now_s - seen > seconds) {
      list.delete(pkt.src);
      return false;
    }
    return true;
  }

  private list(name: string): Map<string, number> {
    let l = this.recent.get(name);
    if (!l) this.recent.set(name, (l = new Map()));
    return l;
  }
}

interface Walk {
  evaluations: number;
  masquerade: boolean;
  dnat: string | undefined;
  verdict: string | undefined;
}
