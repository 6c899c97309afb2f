/**
 * What `iptables-restore` refuses in the input kube-proxy hands it. Upstream kube-proxy writes a
 * whole sync as one iptables-restore transaction; when the tool refuses it, nothing of that sync
 * reaches the kernel, the old rules stay, and the sync counts as failed ("Failed to execute
 * iptables-restore", retried later; kubernetes/kubernetes pkg/proxy/iptables/proxier.go,
 * syncProxyRules, around its call of iptables.RestoreAll). KubeProxy.sync models that with this
 * check, so a rule the real tool would reject is never "loaded" in the reference either.
 *
 * Only the parse errors kube-proxy's own rule shapes can run into, each checked against
 * iptables-restore v1.8.9 (nf_tables) in a throwaway network namespace (restore.test.ts lists
 * the inputs and the tool's messages). Not a full parser: options are only recognised as far as
 * kube-proxy writes them.
 */

const TABLES = new Set(['filter', 'nat', 'mangle', 'raw', 'security']);
/** Targets the kernel provides (anything else after -j must be a chain declared in the table). */
const TARGETS = new Set(['ACCEPT', 'DROP', 'RETURN', 'REJECT', 'DNAT', 'SNAT', 'MASQUERADE', 'MARK']);
const PROTOCOLS = new Set(['tcp', 'udp', 'sctp', 'dccp', 'icmp', 'all']);
/** Options kube-proxy writes and whether each takes a value. */
const OPTIONS = new Map<string, boolean>([
  ['-p', true], ['-s', true], ['-d', true], ['-m', true], ['-j', true],
  ['--dport', true], ['--comment', true], ['--mark', true], ['--or-mark', true], ['--xor-mark', true],
  ['--to-destination', true], ['--mode', true], ['--probability', true], ['--seconds', true], ['--name', true],
  ['--mask', true], ['--src-type', true], ['--dst-type', true], ['--ctstate', true],
  ['--rcheck', false], ['--set', false], ['--reap', false], ['--rsource', false], ['--random-fully', false],
]);
/** iptables' chain names are under 29 characters (XT_EXTENSION_MAXNAMELEN). */
const MAX_CHAIN = 28;

/** The first reason iptables-restore would refuse `input` (several tables, each `*t … COMMIT`), or undefined. */
export function restoreRefusal(input: string): string | undefined {
  let chains = new Set<string>();
  const lines = input.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = `line ${i + 1}`;
    if (line.startsWith('*')) {
      if (!TABLES.has(line.slice(1))) return `${at}: table name invalid`;
      chains = new Set();
    } else if (line.startsWith(':')) {
      const name = line.slice(1).split(' ')[0]!;
      if (name === '' || name.startsWith('-') || name.startsWith('!')) return `${at}: chain name "${name}" not allowed`;
      if (name.length > MAX_CHAIN) return `${at}: chain name "${name}" too long (must be under 29 chars)`;
      chains.add(name);
    } else if (line.startsWith('-A ')) {
      const why = ruleRefusal(tokens(line), chains);
      if (why) return `${at}: ${why}`;
    }
  }
  return undefined;
}

/** Whitespace-separated, a quoted string one token (as the shell-like parser of iptables-restore). */
function tokens(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|\S+/g)].map((m) => m[1] ?? m[0]);
}

function ruleRefusal(t: string[], chains: Set<string>): string | undefined {
  if (!chains.has(t[1] ?? '')) return `Chain '${t[1]}' does not exist`;
  const values = new Map<string, string>();
  for (let i = 2; i < t.length; i++) {
    if (t[i] === '!') continue;
    const takesValue = OPTIONS.get(t[i]!);
    if (takesValue === undefined) return `unknown option "${t[i]}"`;
    if (!takesValue) continue;
    const v = t[i + 1];
    if (v === undefined || OPTIONS.has(v)) return `option "${t[i]}" requires an argument`;
    values.set(t[i]!, v);
    i++;
  }
  return valueRefusal(values, chains);
}

/** The values' own checks: protocol, port, target, and what the MARK and DNAT targets need. */
function valueRefusal(v: Map<string, string>, chains: Set<string>): string | undefined {
  const proto = v.get('-p');
  if (proto !== undefined && !PROTOCOLS.has(proto)) return `unknown protocol "${proto}" specified`;
  const port = v.get('--dport');
  if (port !== undefined && !(/^\d+$/.test(port) && Number(port) <= 65535)) return `invalid port/service \`${port}' specified`;
  const target = v.get('-j');
  if (target === undefined) return undefined;
  if (!TARGETS.has(target) && !chains.has(target)) return `Chain '${target}' does not exist`;
  if (target === 'MARK' && !v.has('--or-mark') && !v.has('--xor-mark')) return 'MARK: One of the --set-xmark, --{and,or,xor,set}-mark options is required';
  const to = v.get('--to-destination');
  if (target === 'DNAT' && to?.includes(':') && !['tcp', 'udp', 'sctp', 'dccp'].includes(proto ?? '')) return 'Need TCP, UDP, SCTP or DCCP with port specification';
  return undefined;
}
