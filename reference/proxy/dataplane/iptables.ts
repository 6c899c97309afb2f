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

  /**
   * A new connection's first packet arriving at this node (or sent by it, with `fromNode`), in
   * netfilter's order: nat PREROUTING (OUTPUT) — DNAT —, the filter table only for a packet nat
   * left alone (a DNATed one no longer matches the filter rules kube-proxy writes), then nat
   * POSTROUTING, where KUBE-POSTROUTING masquerades what carries the mark KUBE-MARK-MASQ set.
   * The packet's mark is kept as the kernel keeps skb->mark, so masquerading happens only if
   * the rules really set and test the same bit.
   */
  connect(pkt: Packet, fromNode = false): Verdict {
    const walk: Walk = { evaluations: 0, masquerade: false, mark: 0, dnat: undefined, verdict: undefined };
    this.run(this.rules.nat, fromNode ? 'OUTPUT' : 'PREROUTING', pkt, walk, 0);
    if (!walk.dnat) {
      const local = this.localIPs.includes(pkt.dst);
      const chain = fromNode ? 'OUTPUT' : local ? 'INPUT' : 'FORWARD';
      this.run(this.rules.filter, chain, pkt, walk, 0);
      if (walk.verdict === 'REJECT' || walk.verdict === 'DROP') {
        return { outcome: walk.verdict === 'REJECT' ? 'rejected' : 'dropped', evaluations: walk.evaluations, masquerade: false };
      }
    }
    // POSTROUTING is the same few rules for every packet: not part of the lookup cost counted.
    const evaluations = walk.evaluations;
    this.run(this.rules.nat, 'POSTROUTING', walk.dnat ? { ...pkt, dst: walk.dnat.split(':')[0]! } : pkt, walk, 0);
    if (walk.dnat) return { backend: walk.dnat, outcome: 'forwarded', evaluations, masquerade: walk.masquerade };
    return { outcome: 'no-match', evaluations, masquerade: walk.masquerade };
  }

  /** Runs a chain; returns true when a terminating target ended the walk. */
  private run(table: Table, chain: string, pkt: Packet, walk: Walk, depth: number): boolean {
    if (depth > MAX_DEPTH) throw new Error(`chain nesting deeper than ${MAX_DEPTH} at ${chain}: a loop`);
    for (const rule of table.chains.get(chain) ?? []) {
      walk.evaluations++;
      if (!rule.matches.every((m) => this.matches(m, pkt, walk))) continue;
      for (const m of rule.matches) if (m.kind === 'recent-set') this.list(m.name).set(pkt.src, pkt.now_s);
      const next = this.apply(table, rule, pkt, walk, depth);
      if (next === 'stop') return true;
      if (next === 'return') return false;
    }
    return false;
  }

  /** What the walk does after a rule matched: stop (a terminating target), leave this chain, or go on. */
  private apply(table: Table, rule: Rule, pkt: Packet, walk: Walk, depth: number): 'stop' | 'return' | 'next' {
    const t = rule.target;
    switch (t.kind) {
      case 'jump':
        // A user chain returns to its caller unless a terminating target ended the walk.
        return this.run(table, t.chain, pkt, walk, depth + 1) ? 'stop' : 'next';
      case 'DNAT':
        walk.dnat = t.to;
        return 'stop';
      case 'REJECT':
      case 'DROP':
      case 'ACCEPT':
        walk.verdict = t.kind;
        return 'stop';
      case 'MARK':
        walk.mark = markAfter(t.op, walk.mark, Number(t.mark));
        return 'next';
      case 'MASQUERADE':
        walk.masquerade = true;
        return 'stop';
      case 'RETURN':
        return 'return';
    }
  }

  private matches(m: Match, pkt: Packet, walk: Walk): boolean {
    switch (m.kind) {
      case 'src': return inCidr(pkt.src, m.cidr) !== (m.negate ?? false);
      case 'dst': return inCidr(pkt.dst, m.cidr);
      case 'proto': return m.proto === pkt.proto.toLowerCase();
      case 'dport': return m.port === pkt.dport;
      // `-m addrtype --dst-type LOCAL`: an address of this node. LOCAL is the only type kube-proxy
      // writes; any other type (or none) is not an address of this node as far as the model knows.
      case 'addrtype': return m.type === 'LOCAL' && this.localIPs.includes(m.dir === 'dst' ? pkt.dst : pkt.src);
      case 'probability': return this.random() < Number(m.p);
      // Every packet this model sees is a new connection's first: conntrack's state NEW.
      case 'ctstate': return m.state === 'NEW';
      case 'mark': return this.markMatches(m.mark, walk.mark) !== m.negate;
      case 'recent-check': return this.recentCheck(m.name, m.seconds, pkt);
      default: return true;
    }
  }

  /** `-m mark --mark value/mask`: the packet's mark, masked, equals the value. */
  private markMatches(spec: string, mark: number): boolean {
    const [value, mask] = spec.split('/');
    return ((mark & Number(mask ?? '0xffffffff')) >>> 0) === Number(value) >>> 0;
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

/** The MARK target's two operations kube-proxy writes; iptables-restore refuses any other. */
function markAfter(op: string, mark: number, bits: number): number {
  if (op === '--or-mark') return (mark | bits) >>> 0;
  if (op === '--xor-mark') return (mark ^ bits) >>> 0;
  throw new Error(`iptables-restore would refuse "-j MARK ${op}": not a MARK operation`);
}

interface Walk {
  evaluations: number;
  masquerade: boolean;
  /** The packet's netfilter mark (skb->mark), as MARK targets leave it. */
  mark: number;
  dnat: string | undefined;
  verdict: string | undefined;
}
