/**
 * nftables rules as data, for the `kube-proxy` table of nftables mode: rendered to `nft -f`
 * text and evaluated by the dataplane model (dataplane/nftables.ts).
 */

export type Cond =
  | { kind: 'saddr-in'; cidr: string; negate?: boolean }
  | { kind: 'saddr-local' }
  | { kind: 'saddr-in-set'; set: string }
  | { kind: 'daddr-port'; ip: string; proto: string; port: number };

export type NftRule =
  | { kind: 'jump' | 'goto'; chain: string; conds: Cond[]; text?: string }
  /** `ip daddr . meta l4proto . th dport vmap @map` (or `meta l4proto . th dport` for node ports on a local address). */
  | { kind: 'vmap'; map: string; key: 'addr-proto-port' | 'proto-port' }
  | { kind: 'numgen'; targets: string[] }
  | { kind: 'dnat'; proto: string; to: string }
  | { kind: 'update-set'; set: string }
  | { kind: 'reject' | 'drop' }
  /** Rules the model treats as no-ops (marks, masquerade); text only. */
  | { kind: 'text'; text: string };

export interface Verdict {
  kind: 'goto' | 'jump';
  chain: string;
}

export interface NftMap {
  type: string;
  elements: Map<string, Verdict>;
}

export interface NftSet {
  type: string;
  timeout_s: number;
}

/** One Service port's share of the table: what a partial sync rewrites when it changes. */
export interface Fragment {
  chains: Map<string, NftRule[]>;
  /** map name → key → verdict. */
  elements: Map<string, Map<string, Verdict>>;
  sets: Map<string, NftSet>;
}

function condText(c: Cond): string {
  switch (c.kind) {
    case 'saddr-in': return `ip saddr ${c.negate ? '!= ' : ''}${c.cidr}`;
    case 'saddr-local': return 'fib saddr type local';
    case 'saddr-in-set': return `ip saddr @${c.set}`;
    case 'daddr-port': return `ip daddr ${c.ip} ${c.proto} dport ${c.port}`;
  }
}

export function ruleText(r: NftRule): string {
  switch (r.kind) {
    case 'jump':
    case 'goto': return [...r.conds.map(condText), `${r.kind} ${r.chain}`].join(' ');
    case 'vmap': return r.key === 'addr-proto-port'
      ? `ip daddr . meta l4proto . th dport vmap @${r.map}`
      : `fib daddr type local meta l4proto . th dport vmap @${r.map}`;
    case 'numgen': return `numgen random mod ${r.targets.length} vmap { ${r.targets.map((t, i) => `${i} : goto ${t}`).join(' , ')} }`;
    case 'dnat': return `meta l4proto ${r.proto} dnat to ${r.to}`;
    case 'update-set': return `update @${r.set} { ip saddr }`;
    case 'reject': return 'reject';
    case 'drop': return 'drop';
    case 'text': return r.text;
  }
}

export const verdictText = (v: Verdict): string => `${v.kind} ${v.chain}`;
