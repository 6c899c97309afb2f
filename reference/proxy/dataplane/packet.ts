/**
 * What the dataplane models share: a new connection's first packet, and what became of it.
 * The models only read the rules a mode generated; they never look at the desired state, so a
 * wrong rule shows up as a wrong answer.
 */

export interface Packet {
  src: string;
  dst: string;
  proto: 'TCP' | 'UDP' | 'SCTP';
  dport: number;
  /** The time the packet is seen, in seconds: for affinity timeouts. */
  now_s: number;
}

export interface Verdict {
  /** "ip:port" the connection was sent to, when it was DNATed / forwarded. */
  backend?: string;
  /** REJECT (ICMP port unreachable), DROP, or passed through untouched. */
  outcome: 'forwarded' | 'rejected' | 'dropped' | 'no-match';
  /** Rules (or table lookups) evaluated on the way: the cost of the mode for this packet. */
  evaluations: number;
  masquerade: boolean;
}

/** Whether `ip` is inside `cidr` ("a.b.c.d/n"). */
export function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const n = Number(bits ?? 32);
  const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
  return ((toInt(ip) & mask) >>> 0) === ((toInt(base!) & mask) >>> 0);
}

export function toInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => ((acc << 8) + Number(part)) >>> 0, 0);
}
