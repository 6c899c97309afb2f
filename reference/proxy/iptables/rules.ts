/**
 * iptables rules as data: each rule a list of matches and a target, rendered to the text
 * `iptables-restore` reads and `iptables-save` prints, and evaluated by the dataplane model
 * (dataplane/iptables.ts) — so what is simulated is exactly what is written.
 */

export type Match =
  | { kind: 'comment'; text: string }
  | { kind: 'src'; cidr: string; negate?: boolean }
  | { kind: 'dst'; cidr: string }
  | { kind: 'proto'; proto: string }
  | { kind: 'dport'; proto: string; port: number }
  | { kind: 'addrtype'; dir: 'src' | 'dst'; type: 'LOCAL' }
  | { kind: 'mark'; negate: boolean; mark: string }
  | { kind: 'ctstate'; state: 'NEW' }
  /** `-m statistic --mode random --probability p`, p as upstream prints it ("%0.10f"). */
  | { kind: 'probability'; p: string }
  /** `-m recent --name N --mask 255.255.255.255 --rsource --rcheck --seconds S --reap` */
  | { kind: 'recent-check'; name: string; seconds: number }
  /** `-m recent --name N --set`: records the source in list N. */
  | { kind: 'recent-set'; name: string };

export type Target =
  | { kind: 'jump'; chain: string }
  | { kind: 'DNAT'; to: string }
  | { kind: 'REJECT' | 'DROP' | 'RETURN' | 'ACCEPT' }
  | { kind: 'MASQUERADE' }
  | { kind: 'MARK'; op: '--or-mark' | '--xor-mark'; mark: string };

export interface Rule {
  matches: Match[];
  target: Target;
}

export interface Table {
  name: 'nat' | 'filter';
  /** Built-in chains with their policy. */
  builtins: string[];
  /** Every chain in declaration order, built-ins included; rules in evaluation order. */
  chains: Map<string, Rule[]>;
}

export function newTable(name: 'nat' | 'filter', builtins: string[]): Table {
  return { name, builtins, chains: new Map(builtins.map((c) => [c, []])) };
}

export function addChain(t: Table, chain: string): void {
  if (!t.chains.has(chain)) t.chains.set(chain, []);
}

export function append(t: Table, chain: string, target: Target, ...matches: Match[]): void {
  addChain(t, chain);
  t.chains.get(chain)!.push({ matches, target });
}

function quote(text: string): string {
  return /^[A-Za-z0-9_./:-]+$/.test(text) ? text : `"${text}"`;
}

function matchText(m: Match, printProbability: (p: string) => string): string {
  switch (m.kind) {
    case 'comment': return `-m comment --comment ${quote(m.text)}`;
    case 'src': return `${m.negate ? '! ' : ''}-s ${m.cidr}`;
    case 'dst': return `-d ${m.cidr}`;
    case 'proto': return `-p ${m.proto}`;
    case 'dport': return `-m ${m.proto} --dport ${m.port}`;
    case 'addrtype': return `-m addrtype --${m.dir}-type ${m.type}`;
    case 'mark': return `-m mark ${m.negate ? '! ' : ''}--mark ${m.mark}`;
    case 'ctstate': return `-m conntrack --ctstate ${m.state}`;
    case 'probability': return `-m statistic --mode random --probability ${printProbability(m.p)}`;
    case 'recent-check': return `-m recent --rcheck --seconds ${m.seconds} --reap --name ${m.name} --mask 255.255.255.255 --rsource`;
    case 'recent-set': return `-m recent --set --name ${m.name} --mask 255.255.255.255 --rsource`;
  }
}

function targetText(t: Target): string {
  switch (t.kind) {
    case 'jump': return `-j ${t.chain}`;
    case 'DNAT': return `-j DNAT --to-destination ${t.to}`;
    case 'MARK': return `-j MARK ${t.op} ${t.mark}`;
    case 'MASQUERADE': return '-j MASQUERADE --random-fully';
    default: return `-j ${t.kind}`;
  }
}

/**
 * xt_statistic keeps the probability as a 31-bit fraction (lround(p * 2^31)) and iptables-save
 * prints it back with 11 decimals, so 0.3333333333 is read back as 0.33333333349.
 */
export function savedProbability(p: string): string {
  return (Math.round(Number(p) * 0x80000000) / 0x80000000).toFixed(11);
}

/**
 * One rule as a line, `-A CHAIN ...`, matches in the order written — the generator writes them
 * as iptables-save prints them (comment, addresses, protocol, then the match modules), and a
 * port match always after its `-p`, as iptables requires.
 */
export function ruleLine(chain: string, r: Rule, printProbability: (p: string) => string = (p) => p): string {
  // Parts joined once: one flat string per line rather than a tree of small concatenations.
  const parts = ['-A', chain];
  for (const m of r.matches) parts.push(matchText(m, printProbability));
  parts.push(targetText(r.target));
  return parts.join(' ');
}

/**
 * The table as `iptables-restore` input (with `saved`, as `iptables-save` prints it back):
 * `*nat`, one `:CHAIN POLICY [0:0]` per chain, the rules, `COMMIT`.
 */
export function renderTable(t: Table, saved = false): string {
  const lines = [`*${t.name}`];
  for (const chain of t.chains.keys()) lines.push(`:${chain} ${t.builtins.includes(chain) ? 'ACCEPT' : '-'} [0:0]`);
  const print = saved ? savedProbability : (p: string) => p;
  for (const [chain, rules] of t.chains) for (const r of rules) lines.push(ruleLine(chain, r, print));
  lines.push('COMMIT', '');
  return lines.join('\n');
}

export function ruleCount(t: Table): number {
  let n = 0;
  for (const rules of t.chains.values()) n += rules.length;
  return n;
}
