/**
 * The real etcd target: scenarios run against etcd 3.4 processes this adapter starts on loopback
 * (or against endpoints somebody else runs, with `endpoints`).
 *
 * One cluster per worker process serves every scenario; each scenario gets its own key prefix
 * (see kv.ts for why a prefix and not a fresh cluster). Scenarios tagged `@members:N` (N ≠ 3) share a
 * cluster of that size, started the first time one needs it. A scenario may kill members;
 * closing its session restarts them and waits for a leader, so the next scenario starts healthy.
 */
import { randomBytes } from 'node:crypto';
import type { Capability } from '../../contract/capabilities.ts';
import type { MemberInfo, MembersFacet, ScenarioContext, Session, Target } from '../../contract/contract.ts';
import { EtcdCluster, binaryAvailable } from './cluster.ts';
import { EtcdKv } from './kv.ts';
import { createPollingWaiter, pollUntil } from '../polling-waiter.ts';

export { EtcdCluster } from './cluster.ts';
export { EtcdKv } from './kv.ts';

export interface EtcdTargetOptions {
  /** Use these running members instead of starting a cluster; kill/restart are then unavailable. */
  endpoints?: string[];
  etcdBin?: string;
  etcdctlBin?: string;
}

/** Budget for healing a cluster after a scenario killed members (restart + election ~1–3 s). */
export const HEAL_BUDGET_MS = 20_000;
/** Budget for attached endpoints to answer at start. */
export const ATTACH_BUDGET_MS = 10_000;

/** `--etcd-endpoints http://a:2379,http://b:2379` → the list. */
export function parseEndpoints(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

export function createEtcdTarget(opts: EtcdTargetOptions = {}): Target {
  return new EtcdTarget(opts);
}

class EtcdTarget implements Target {
  readonly name = 'etcd';
  readonly capabilities: ReadonlySet<Capability>;
  readonly knownDeviations: ReadonlyMap<string, string> = new Map();
  private readonly managed: boolean;
  /** Distinguishes this run's prefixes from keys an earlier run left on attached endpoints. */
  private readonly runId = randomBytes(4).toString('hex');
  private sessionCount = 0;
  private main?: EtcdCluster;
  /** Clusters other than the main one, by `size` or `size/retention`. */
  private readonly bySize = new Map<string, Promise<EtcdCluster>>();

  constructor(private readonly opts: EtcdTargetOptions) {
    this.managed = opts.endpoints === undefined || opts.endpoints.length === 0;
    // Every etcd member serves /metrics on its client URL, attached endpoints too.
    const caps: Capability[] = ['kv', 'kv.watch', 'kv.compaction', 'kv.snapshot', 'kv.metrics'];
    // Killing and restarting members needs processes we own; attached endpoints are someone else's.
    if (this.managed) caps.push('kv.members', 'kv.members.5');
    // 'net.partition' is not declared: all members are processes on 127.0.0.1 in one network
    // namespace, so nothing can cut the traffic between two of them without per-member network
    // namespaces or addresses plus firewall rules — root-only changes to the host, out of scope.
    this.capabilities = new Set(caps);
  }

  async start(): Promise<void> {
    if (!this.managed) {
      const cluster = EtcdCluster.attach(this.opts.endpoints ?? [], this.opts.etcdctlBin);
      await pollUntil(`etcd at ${cluster.endpoints().join(',')} to report a leader`,
        async () => (await cluster.leader()) !== undefined, ATTACH_BUDGET_MS);
      this.main = cluster;
      return;
    }
    const etcdBin = this.opts.etcdBin ?? 'etcd';
    if (!(await binaryAvailable(etcdBin))) {
      throw new Error(`${etcdBin} not found: apt-get install etcd-server etcd-client`);
    }
    this.main = await EtcdCluster.start({ members: 3, ...this.binaries() });
  }

  /** The member's own word: etcd answers GET /version on its client URL ({"etcdserver":"3.4.23",…}). */
  async versions(): Promise<Record<string, string>> {
    const endpoint = this.main?.liveEndpoints()[0];
    if (!endpoint) return {};
    const res = await fetch(`${endpoint}/version`, { signal: AbortSignal.timeout(5_000) });
    const body = (await res.json()) as { etcdserver?: string };
    return body.etcdserver ? { etcd: body.etcdserver } : {};
  }

  async openSession(ctx: ScenarioContext): Promise<Session> {
    const cluster = await this.clusterFor(ctx);
    if (this.managed) await heal(cluster);
    const prefix = `/kubespec/${this.runId}/${++this.sessionCount}-${slug(ctx.name)}/`;
    const kv = new EtcdKv({ cluster, prefix });
    const members = this.managed ? new EtcdMembers(cluster) : undefined;
    const managed = this.managed;
    return {
      seed: ctx.seed,
      waiter: createPollingWaiter(),
      kv,
      ...(members ? { members } : {}),
      kvMetrics: { scrape: () => scrapeMembers(cluster) },
      describe: () => ({ target: 'etcd', scenario: ctx.name, prefix, cluster: cluster.describe(), kv: kv.describe() }),
      async close() {
        await kv.close();
        if (managed) await heal(cluster);
      },
    };
  }

  async stop(): Promise<void> {
    const others = [...this.bySize.values()];
    this.bySize.clear();
    await Promise.all([this.main?.stop(), ...others.map((c) => c.then((x) => x.stop(), () => undefined))]);
    this.main = undefined;
  }

  private async clusterFor(ctx: ScenarioContext): Promise<EtcdCluster> {
    if (this.main === undefined) throw new Error('etcd target used before start()');
    const size = membersFromTags(ctx.tags);
    const retention = retentionFromTags(ctx.tags);
    if ((size === 3 && retention === undefined) || !this.managed) return this.main;
    // Auto-compaction compacts the whole keyspace, so a scenario that turns it on gets a cluster
    // of its own rather than compacting every other scenario's history.
    const key = retention === undefined ? String(size) : `${size}/${retention}`;
    const extraArgs = retention === undefined ? [] : ['--auto-compaction-mode=periodic', `--auto-compaction-retention=${retention}`];
    // Started once per size, on first need, then kept: five members cost ~1 s to start.
    let cluster = this.bySize.get(key);
    if (!cluster) {
      cluster = EtcdCluster.start({ members: size, extraArgs, ...this.binaries() });
      this.bySize.set(key, cluster);
      // Let a later scenario try again rather than inherit this failure.
      cluster.catch(() => this.bySize.delete(key));
    }
    return cluster;
  }

  private binaries(): { etcdBin?: string; etcdctlBin?: string } {
    return {
      ...(this.opts.etcdBin ? { etcdBin: this.opts.etcdBin } : {}),
      ...(this.opts.etcdctlBin ? { etcdctlBin: this.opts.etcdctlBin } : {}),
    };
  }
}

/** Restart whatever a scenario killed and wait until the members agree on a leader again. */
async function heal(cluster: EtcdCluster): Promise<void> {
  const dead = cluster.members().filter((m) => !m.alive);
  if (dead.length === 0) return;
  for (const m of dead) await cluster.restart(m.name);
  await cluster.waitForLeader(HEAL_BUDGET_MS);
}

/** Budget for one member's /metrics to answer. */
const METRICS_DEADLINE_MS = 5_000;

/**
 * GET /metrics on every live member's client URL (etcd serves it there unless --listen-metrics-urls
 * moves it), by member name — the ids the members facet uses. A member that does not answer is left out.
 */
async function scrapeMembers(cluster: EtcdCluster): Promise<Map<string, string>> {
  const live = cluster.members().filter((m) => m.alive);
  const texts = await Promise.all(live.map(async (m) => {
    try {
      const res = await fetch(`${m.clientUrl}/metrics`, { signal: AbortSignal.timeout(METRICS_DEADLINE_MS) });
      return res.ok ? await res.text() : undefined;
    } catch {
      return undefined;
    }
  }));
  return new Map(live.flatMap((m, i) => (texts[i] === undefined ? [] : [[m.name, texts[i]!] as [string, string]])));
}

/** `@members:N` sizes the cluster a scenario gets; 3 when untagged. */
export function membersFromTags(tags: readonly string[]): number {
  const tag = tags.find((t) => /^@?members:\d+$/.test(t));
  return tag ? Number(tag.split(':')[1]) : 3;
}

/**
 * `@auto-compaction-retention:3s` → "3s": etcd's periodic retention as a duration (etcd-io/etcd
 * embed/config.go: AutoCompactionRetention accepts an hour count or a Go duration in periodic mode).
 */
export function retentionFromTags(tags: readonly string[]): string | undefined {
  const tag = tags.find((t) => /^@auto-compaction-retention:\d+[smh]$/.test(t));
  return tag?.split(':')[1];
}

/** Scenario names become part of a key: keep them short and free of '/'. */
function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'scenario';
}

/** MembersFacet over a cluster this adapter started. Member ids are the etcd names e1..eN. */
export class EtcdMembers implements MembersFacet {
  constructor(private readonly cluster: EtcdCluster) {}

  async list(): Promise<MemberInfo[]> {
    const views = this.cluster.members();
    const statuses = await Promise.all(views.map((m) => this.cluster.status(m.name)));
    return Promise.all(views.map(async (m, i) => {
      const s = statuses[i];
      if (s === undefined) return { id: m.name, alive: m.alive };
      // etcd 3.4's Status has no role; a member knowing no leader may be a candidate or a
      // follower, so no role is claimed then.
      const role = s.leaderId === '0' ? undefined : s.leaderId === s.memberId ? 'leader' as const : 'follower' as const;
      // A leader's reported term may be its predecessor's (see confirmedLeaderTerm): give a
      // leader's term only once confirmed, so "one leader per term" is judged on real terms.
      const term = role === 'leader' ? await this.cluster.confirmedLeaderTerm(m.name) : s.raftTerm;
      return { id: m.name, alive: m.alive, ...(role ? { role } : {}), ...(term !== undefined ? { term } : {}) };
    }));
  }

  leader(): Promise<string | undefined> {
    return this.cluster.leader();
  }

  kill(id: string): Promise<void> {
    return this.cluster.kill(id);
  }

  restart(id: string): Promise<void> {
    return this.cluster.restart(id);
  }
}
