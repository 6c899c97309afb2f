/**
 * A model of the kernel's IPVS: a virtual server is found by one hash lookup on
 * (protocol, address, port) — one evaluation however many Services there are — and its
 * scheduler picks a real server. Schedulers, as the LVS documentation and ipvsadm(8) define them:
 *
 * - rr  round robin: the real servers in turn.
 * - lc  least connection: the fewest active connections.
 * - dh  destination hashing: a hash of the destination address picks the server (static).
 * - sh  source hashing: a hash of the client address picks the server (static).
 * - sed shortest expected delay: the smallest (active + 1) / weight.
 * - nq  never queue: an idle server if there is one, else as sed.
 *
 * Persistence (`-p T`): a client's connections go to the server it last used while the
 * template is younger than T seconds.
 */
import { vsKey, type IpvsRules, type RealServer, type VirtualServer } from '../ipvs/proxier.ts';
import { toInt, type Packet, type Verdict } from './packet.ts';

export interface IpvsDataplaneOptions {
  /** Seam for on-purpose breaks: look virtual servers up by scanning the list. */
  fault?: 'walks-linearly';
}

export class IpvsDataplane {
  private readonly active = new Map<string, number>();
  private readonly rrNext = new Map<string, number>();
  /** Persistence templates: vs key → client → { real, last seen }. */
  private readonly templates = new Map<string, Map<string, { real: string; seen_s: number }>>();

  constructor(private readonly rules: IpvsRules, private readonly opts: IpvsDataplaneOptions = {}) {}

  /** The same connection table and scheduler state over re-synced virtual servers. */
  withRules(rules: IpvsRules): IpvsDataplane {
    const next = new IpvsDataplane(rules, this.opts);
    for (const [k, v] of this.active) next.active.set(k, v);
    for (const [k, v] of this.rrNext) next.rrNext.set(k, v);
    for (const [k, v] of this.templates) next.templates.set(k, v);
    return next;
  }

  connect(pkt: Packet): Verdict {
    const key = vsKey(pkt.proto, pkt.dst, pkt.dport);
    let evaluations = 1;
    let vs: VirtualServer | undefined;
    if (this.opts.fault === 'walks-linearly') {
      evaluations = 0;
      for (const [k, v] of this.rules.virtualServers) {
        evaluations++;
        if (k === key) { vs = v; break; }
      }
    } else {
      vs = this.rules.virtualServers.get(key);
    }
    if (!vs) return { outcome: 'no-match', evaluations, masquerade: false };
    if (vs.reals.length === 0) return { outcome: 'rejected', evaluations, masquerade: false };
    const real = this.persisted(key, vs, pkt) ?? this.schedule(key, vs, pkt);
    const id = `${real.ip}:${real.port}`;
    this.active.set(id, (this.active.get(id) ?? 0) + 1);
    if (vs.persistentTimeout !== undefined) this.templates.get(key)!.set(pkt.src, { real: id, seen_s: pkt.now_s });
    return { backend: id, outcome: 'forwarded', evaluations, masquerade: false };
  }

  /** A connection ended: its real server has one active connection fewer (lc, sed, nq). */
  close(backend: string): void {
    this.active.set(backend, Math.max(0, (this.active.get(backend) ?? 0) - 1));
  }

  private persisted(key: string, vs: VirtualServer, pkt: Packet): RealServer | undefined {
    if (vs.persistentTimeout === undefined) return undefined;
    if (!this.templates.has(key)) this.templates.set(key, new Map());
    const t = this.templates.get(key)!.get(pkt.src);
    if (!t || pkt.now_s - t.seen_s > vs.persistentTimeout) return undefined;
    return vs.reals.find((r) => `${r.ip}:${r.port}` === t.real);
  }

  private load(r: RealServer): number {
    return this.active.get(`${r.ip}:${r.port}`) ?? 0;
  }

  private schedule(key: string, vs: VirtualServer, pkt: Packet): RealServer {
    const reals = vs.reals;
    switch (vs.scheduler) {
      case 'rr': {
        const i = (this.rrNext.get(key) ?? 0) % reals.length;
        this.rrNext.set(key, i + 1);
        return reals[i]!;
      }
      case 'lc': return minBy(reals, (r) => this.load(r));
      case 'dh': return reals[hashAddr(pkt.dst) % reals.length]!;
      case 'sh': return reals[hashAddr(pkt.src) % reals.length]!;
      case 'sed': return minBy(reals, (r) => (this.load(r) + 1) / r.weight);
      case 'nq': return reals.find((r) => this.load(r) === 0) ?? minBy(reals, (r) => (this.load(r) + 1) / r.weight);
    }
  }
}

function minBy<T extends object>(items: T[], cost: (t: T) => number): T {
  let best = items[0]!;
  for (const it of items) if (cost(it) < cost(best)) best = it;
  return best;
}

/** ip_vs_sh / ip_vs_dh hash an address with a multiplicative hash (golden ratio prime). */
function hashAddr(ip: string): number {
  return Math.imul(toInt(ip), 2654435761) >>> 8;
}
