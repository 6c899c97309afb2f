/**
 * A model of the kernel walking the `kube-proxy` table: the `services` chain does one map lookup
 * (a hash in the kernel, one evaluation however many Services there are), then the service chain
 * and the endpoint chain run; a packet nat left alone meets `service-endpoints-check`, whose
 * maps send Services without endpoints to `reject-chain`. Affinity sets remember sources with a
 * timeout; `numgen random` draws from the injected source.
 */
import type { NftRuleset } from '../nftables/proxier.ts';
import type { Cond, NftRule } from '../nftables/ruleset.ts';
import { inCidr, type Packet, type Verdict } from './packet.ts';

const MAX_DEPTH = 16;

interface Walk {
  evaluations: number;
  masquerade: boolean;
  dnat?: string;
  verdict?: 'reject' | 'drop';
}

export class NftablesDataplane {
  /** Dynamic sets: name → source → last update (s). */
  private readonly sets = new Map<string, Map<string, number>>();

  constructor(
    private readonly ruleset: () => NftRuleset,
    private readonly localIPs: readonly string[],
    private readonly random: () => number,
  ) {}

  connect(pkt: Packet, fromNode = false): Verdict {
    const walk: Walk = { evaluations: 0, masquerade: false };
    this.run(fromNode ? 'nat-output' : 'nat-prerouting', pkt, walk, 0);
    if (walk.dnat) return { backend: walk.dnat, outcome: 'forwarded', evaluations: walk.evaluations, masquerade: walk.masquerade };
    this.run('service-endpoints-check', pkt, walk, 0);
    const outcome = walk.verdict === 'reject' ? 'rejected' : walk.verdict === 'drop' ? 'dropped' : 'no-match';
    return { outcome, evaluations: walk.evaluations, masquerade: walk.masquerade };
  }

  /** True when the walk ended (a verdict, a dnat, or a goto that ended). */
  private run(chain: string, pkt: Packet, walk: Walk, depth: number): boolean {
    if (depth > MAX_DEPTH) throw new Error(`chain nesting deeper than ${MAX_DEPTH} at ${chain}`);
    for (const rule of this.ruleset().chains.get(chain) ?? []) {
      walk.evaluations++;
      const next = this.step(rule, pkt, walk);
      if (next === 'stop') return true;
      if (next === undefined) continue;
      if (next.kind === 'jump') {
        if (next.chain === 'mark-for-masquerade') {
          walk.masquerade = true;
          continue;
        }
        if (this.run(next.chain, pkt, walk, depth + 1)) return true;
        continue;
      }
      this.run(next.chain, pkt, walk, depth + 1);
      return true;
    }
    return false;
  }

  /** One rule: undefined = fall through, 'stop' = terminal, else where to go. */
  private step(rule: NftRule, pkt: Packet, walk: Walk): { kind: 'jump' | 'goto'; chain: string } | 'stop' | undefined {
    switch (rule.kind) {
      case 'jump':
      case 'goto':
        return rule.conds.every((c) => this.cond(c, pkt)) ? { kind: rule.kind, chain: rule.chain } : undefined;
      case 'vmap': {
        if (rule.key === 'proto-port' && !this.localIPs.includes(pkt.dst)) return undefined;
        const key = rule.key === 'addr-proto-port' ? `${pkt.dst} . ${pkt.proto.toLowerCase()} . ${pkt.dport}` : `${pkt.proto.toLowerCase()} . ${pkt.dport}`;
        return this.ruleset().maps.get(rule.map)?.get(key);
      }
      case 'numgen': {
        const i = Math.floor(this.random() * rule.targets.length);
        return { kind: 'goto', chain: rule.targets[i]! };
      }
      case 'update-set':
        this.set(rule.set).set(pkt.src, pkt.now_s);
        return undefined;
      case 'dnat':
        walk.dnat = rule.to;
        return 'stop';
      case 'reject':
      case 'drop':
        walk.verdict = rule.kind;
        return 'stop';
      case 'text':
        return undefined;
    }
  }

  private cond(c: Cond, pkt: Packet): boolean {
    switch (c.kind) {
      case 'saddr-in': return inCidr(pkt.src, c.cidr.includes('/') ? c.cidr : `${c.cidr}/32`) !== (c.negate ?? false);
      case 'saddr-local': return this.localIPs.includes(pkt.src);
      case 'daddr-port': return pkt.dst === c.ip && pkt.dport === c.port && pkt.proto.toLowerCase() === c.proto;
      case 'saddr-in-set': {
        const def = this.ruleset().sets.get(c.set);
        const seen = this.set(c.set).get(pkt.src);
        return def !== undefined && seen !== undefined && pkt.now_s - seen <= def.timeout_s;
      }
    }
  }

  private set(name: string): Map<string, number> {
    let s = this.sets.get(name);
    if (!s) this.sets.set(name, (s = new Map()));
    return s;
  }
}
