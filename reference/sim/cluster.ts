/**
 * A deterministic simulation of a Raft cluster, in the manner of TigerBeetle's simulator:
 * one uint32 seed drives a PRNG that decides every message delay, drop and duplicate (and,
 * through faults.ts, every crash and partition); time is virtual, in milliseconds, and
 * only moves when the host calls runFor/runUntil. Same seed, same calls ⇒ same trace.
 *
 * Each member is a pure RaftNode plus what a real host would own: stable storage (which
 * survives a crash), a state machine (which does not — a restarted member replays its
 * committed log into a fresh one) and the client requests waiting on it.
 *
 * Reads are linearizable through ReadIndex (Raft dissertation §6.4): the leader confirms its
 * leadership with a heartbeat round, waits until it has applied the commit index it noted,
 * and only then queries its state machine. Without a `query` method, reads go through the log.
 */
import { RaftNode, type RaftBugs } from '../raft/raft.ts';
import type { Entry, HardState, Message, Ready, Role } from '../raft/types.ts';
import { MemberCrashedError, MemberDownError, NotLeaderError, ProposalDroppedError, ProposalTimeoutError } from './errors.ts';
import { EventQueue } from './event-queue.ts';
import { EtcdMemberMetrics } from './metrics.ts';
import { Prng } from './prng.ts';
import type { StateMachine, StateMachineFactory } from './state-machine.ts';

export interface NetworkFaults {
  /** Every message is delayed by a uniform draw from [minDelay_ms, maxDelay_ms]; unequal draws reorder. */
  minDelay_ms: number;
  maxDelay_ms: number;
  /** Probability that a message is lost. */
  dropRate: number;
  /** Probability that a message is delivered twice (with independent delays). */
  duplicateRate: number;
  /**
   * Messages from one member to another arrive in the order they were sent, as over etcd's peer
   * streams (rafthttp: one long-lived HTTP stream per peer and kind of message, over TCP). Off,
   * unequal delays reorder them: the seeded fault schedules keep it off to explore reordering.
   */
  inOrder?: boolean;
}

export interface SimBugs {
  /** TEST ONLY: leaders commit without a majority (see RaftBugs). Exists to prove the checker catches it. */
  commitWithoutMajority?: boolean;
  /**
   * TEST ONLY: reads are answered from whichever member believes it leads, without a
   * ReadIndex round — a deposed leader then serves stale data. Exists to prove the checker
   * catches it.
   */
  readsWithoutReadIndex?: boolean;
  /** TEST ONLY: see RaftBugs (faults vote-for-stale-log, two-leaders-one-term). */
  voteForStaleLog?: boolean;
  voteTwicePerTerm?: boolean;
  commitOlderTerm?: boolean;
}

export interface SimClusterOptions {
  seed: number;
  /** Cluster size, 1 to 9. */
  members: number;
  /** A fresh state machine for a member life. */
  stateMachine: StateMachineFactory;
  /** Member ids; default '1', '2', … */
  ids?: readonly string[];
  /** Virtual milliseconds per Raft tick. Default 10. */
  tick_ms?: number;
  /** See RaftConfig. Default 10 (election timeout 100–200 ms at the default tick). */
  electionTicks?: number;
  /** See RaftConfig. Default 2. */
  heartbeatTicks?: number;
  checkQuorum?: boolean;
  /** See RaftConfig. Default true, as etcd's server since v3.5. */
  preVote?: boolean;
  /** Default: 1–10 ms delays, no drops, no duplicates. */
  network?: Partial<NetworkFaults>;
  /** How long a client call waits for its answer. Default 3000 ms. */
  requestTimeout_ms?: number;
  bugs?: SimBugs;
  /** Trace lines kept; later ones still feed the fingerprint. Default 50 000. */
  traceLimit?: number;
}

export interface MemberStatus {
  id: string;
  alive: boolean;
  role?: Role;
  term?: number;
  leaderId?: string | null;
  commitIndex?: number;
  lastIndex?: number;
  appliedIndex?: number;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface PendingProposal extends Waiter {
  term: number;
}

interface PendingRead extends Waiter {
  command: string;
  /** Set once the leader confirmed it: answer when this index is applied. */
  index?: number;
}

interface Member {
  readonly id: string;
  node: RaftNode | null;
  sm: StateMachine | null;
  storage: { hardState: HardState; entries: Entry[] };
  life: number;
  /**
   * Client proposals by log index. Several can wait on one index: a member that lost and
   * regained leadership may propose again at an index whose earlier entry is not yet
   * settled — that earlier entry may still commit through another member.
   */
  proposals: Map<number, PendingProposal[]>;
  reads: Map<string, PendingRead>;
  lastRole: Role;
  lastTerm: number;
  /** Every sync of this member's stable storage takes this long (0: instant). */
  diskLatency_ms: number;
  /**
   * Set while a Ready waits for its sync. The member does nothing else meanwhile — no ticks,
   * no messages, no client requests — as etcd's raft loop blocks on its WAL write.
   */
  syncingUntil_ms?: number;
  /** What this member's /metrics serves (etcd's names); a restart starts it afresh. */
  metrics: EtcdMemberMetrics;
}

type SimEvent = { kind: 'tick'; id: string; life: number } | { kind: 'deliver'; msg: Message } | { kind: 'timer'; fire: () => void };

/**
 * Bound on events per virtual millisecond of one run call. A healthy 5-member cluster under
 * load handles about one; a livelock (say, two members bouncing a rejected append forever)
 * fails loudly at this bound instead of hanging the test.
 */
const MAX_EVENTS_PER_MS = 200;

export class SimCluster {
  readonly seed: number;
  readonly ids: readonly string[];
  private readonly opts: SimClusterOptions;
  private readonly tick_ms: number;
  private readonly requestTimeout_ms: number;
  private net: NetworkFaults;
  /** Per link, when its last message arrives (network.inOrder). */
  private readonly lastArrival_ms = new Map<string, number>();
  private readonly rng: Prng;
  private readonly netRng: Prng;
  private readonly members = new Map<string, Member>();
  private readonly queue = new EventQueue<SimEvent>();
  private groupOf = new Map<string, number>();
  private clock_ms = 0;
  private settled = false;
  private readSeq = 0;
  private readonly retiredCounts: Record<string, number> = {};
  private readonly netCounts = { delivered: 0, dropped: 0, duplicated: 0 };
  private readonly traceLines: string[] = [];
  private hash = 0x811c9dc5;

  constructor(opts: SimClusterOptions) {
    if (!(opts.members >= 1 && opts.members <= 9)) throw new Error(`members must be 1..9, got ${opts.members}`);
    this.opts = opts;
    this.seed = opts.seed >>> 0;
    this.ids = opts.ids ?? Array.from({ length: opts.members }, (_, i) => String(i + 1));
    this.tick_ms = opts.tick_ms ?? 10;
    this.requestTimeout_ms = opts.requestTimeout_ms ?? 3000;
    this.net = { minDelay_ms: 1, maxDelay_ms: 10, dropRate: 0, duplicateRate: 0, ...opts.network };
    this.rng = new Prng(this.seed);
    this.netRng = this.rng.fork();
    for (const id of this.ids) this.members.set(id, this.freshMember(id));
    for (const id of this.ids) this.bootMember(this.member(id));
  }

  // ---- observers -------------------------------------------------------------------------

  get now_ms(): number {
    return this.clock_ms;
  }

  /** The live member that leads in the highest term, if any. */
  leader(): string | undefined {
    let best: RaftNode | undefined;
    for (const m of this.members.values()) {
      if (m.node?.role === 'leader' && (best === undefined || m.node.term > best.term)) best = m.node;
    }
    return best?.id;
  }

  isAlive(id: string): boolean {
    return this.member(id).node !== null;
  }

  status(id: string): MemberStatus {
    const n = this.member(id).node;
    if (n === null) return { id, alive: false };
    return { id, alive: true, role: n.role, term: n.term, leaderId: n.leaderId, commitIndex: n.commitIndex, lastIndex: n.lastIndex, appliedIndex: n.appliedIndex };
  }

  /**
   * The member's Prometheus metrics under etcd's names (reference/sim/metrics.ts), as its
   * /metrics would serve them; undefined while it is down (a dead process serves nothing).
   */
  metricsText(id: string): string | undefined {
    const m = this.member(id);
    if (m.node === null) return undefined;
    return m.metrics.exposition({ hasLeader: m.node.leaderId !== null, isLeader: m.node.role === 'leader', committedIndex: m.node.commitIndex });
  }

  /** The live Raft member, for observers; undefined while crashed. */
  raft(id: string): RaftNode | undefined {
    return this.member(id).node ?? undefined;
  }

  /** The live state machine of a member; undefined while crashed. */
  stateMachine(id: string): StateMachine | undefined {
    return this.member(id).sm ?? undefined;
  }

  /** Raft messages sent, by type, summed over members and over all their lives. */
  messageCounts(): Record<string, number> {
    const total: Record<string, number> = { ...this.retiredCounts };
    for (const m of this.members.values()) addCounts(total, m.node?.messageCounts() ?? {});
    return total;
  }

  networkCounts(): { delivered: number; dropped: number; duplicated: number } {
    return { ...this.netCounts };
  }

  trace(): readonly string[] {
    return this.traceLines;
  }

  /** A hash of every event of the run: equal fingerprints ⇒ (almost surely) identical runs. */
  fingerprint(): string {
    return (this.hash >>> 0).toString(16).padStart(8, '0');
  }

  // ---- faults ----------------------------------------------------------------------------

  /** Crash a member: its stable storage survives, everything else (state machine, requests) is lost. */
  kill(id: string): void {
    const m = this.member(id);
    if (m.node === null) return;
    addCounts(this.retiredCounts, m.node.messageCounts());
    m.node = null;
    m.sm = null;
    m.syncingUntil_ms = undefined;
    this.failAll(m, () => new MemberCrashedError(id));
    this.record(`kill ${id}`);
  }

  /** Bring a crashed member back from its stable storage. */
  restart(id: string): void {
    const m = this.member(id);
    if (m.node !== null) return;
    m.life++;
    this.record(`restart ${id} term=${m.storage.hardState.term} lastIndex=${m.storage.entries.length}`);
    this.bootMember(m);
  }

  /** Members in different groups cannot exchange messages; a member in no group is cut off from all. */
  partition(groups: readonly (readonly string[])[]): void {
    this.groupOf = new Map();
    groups.forEach((g, i) => g.forEach((id) => this.groupOf.set(id, i)));
    this.ids.forEach((id, i) => {
      if (!this.groupOf.has(id)) this.groupOf.set(id, groups.length + i);
    });
    this.record(`partition ${groups.map((g) => `[${g.join(',')}]`).join(' ')}`);
  }

  heal(): void {
    this.groupOf = new Map();
    this.record('heal');
  }

  setNetwork(faults: Partial<NetworkFaults>): void {
    this.net = { ...this.net, ...faults };
    this.record(`network ${JSON.stringify(this.net)}`);
  }

  /**
   * Make every sync of `id`'s stable storage (the WAL fsync before a Ready's messages may leave)
   * take `latency_ms`. A crash during a sync loses what it was writing. Survives restarts: it is
   * the member's disk.
   */
  setDiskLatency(id: string, latency_ms: number): void {
    this.member(id).diskLatency_ms = Math.max(0, latency_ms);
    this.record(`disk ${id} latency=${latency_ms}ms`);
  }

  connected(a: string, b: string): boolean {
    return (this.groupOf.get(a) ?? -1) === (this.groupOf.get(b) ?? -1);
  }

  // ---- clients ---------------------------------------------------------------------------

  /**
   * Replicate `command` and resolve with the proposing member's apply result once it is
   * committed and applied there. Goes to `via`, or to the current leader. Rejects with
   * NotLeaderError / MemberDownError / ProposalDroppedError (certainly no effect), or
   * ProposalTimeoutError / MemberCrashedError (effect unknown); see errors.ts.
   *
   * The simulator never refuses a request for lack of a quorum on its own: it only delivers,
   * drops, delays and crashes. Whether a write with too few members alive commits is for Raft
   * to decide — a leader without a majority cannot commit (the request times out) and, with
   * CheckQuorum, steps down (the next attempt finds no leader).
   */
  propose(command: string, opts: { via?: string } = {}): Promise<unknown> {
    const target = this.clientTarget(opts.via);
    if (target instanceof Error) return Promise.reject(target);
    if (target.syncingUntil_ms !== undefined) return this.afterSync(target).then(() => this.propose(command, { via: target.id }));
    const at = target.node?.propose(command) ?? null;
    if (at === null) return Promise.reject(new NotLeaderError(target.id, target.node?.leaderId ?? undefined));
    this.record(`propose via=${target.id} index=${at.index} term=${at.term} ${command}`);
    return new Promise((resolve, reject) => {
      const pending: PendingProposal = { term: at.term, resolve: this.settling(resolve), reject: this.settling(reject) };
      target.proposals.set(at.index, [...(target.proposals.get(at.index) ?? []), pending]);
      this.after(this.requestTimeout_ms, () => {
        const waiting = target.proposals.get(at.index) ?? [];
        if (!waiting.includes(pending)) return;
        target.proposals.set(at.index, waiting.filter((p) => p !== pending));
        pending.reject(new ProposalTimeoutError(`proposal at index ${at.index}`, this.requestTimeout_ms));
      });
      this.pump(target);
    });
  }

  /** A linearizable read (ReadIndex), answered by the target's state machine `query`. */
  read(command: string, opts: { via?: string } = {}): Promise<unknown> {
    const target = this.clientTarget(opts.via);
    if (target instanceof Error) return Promise.reject(target);
    if (target.syncingUntil_ms !== undefined) return this.afterSync(target).then(() => this.read(command, { via: target.id }));
    const node = target.node;
    const sm = target.sm;
    if (node === null || sm === null) return Promise.reject(new NotLeaderError(target.id, undefined));
    if (sm.query === undefined) return this.propose(command, { via: target.id });
    if (node.role !== 'leader') return Promise.reject(new NotLeaderError(target.id, node.leaderId ?? undefined));
    if (this.opts.bugs?.readsWithoutReadIndex) return Promise.resolve(sm.query(command));
    const ctx = `read-${++this.readSeq}`;
    node.readIndex(ctx);
    return new Promise((resolve, reject) => {
      target.reads.set(ctx, { command, resolve: this.settling(resolve), reject: this.settling(reject) });
      this.after(this.requestTimeout_ms, () => {
        const r = target.reads.get(ctx);
        if (r === undefined) return;
        target.reads.delete(ctx);
        r.reject(new ProposalTimeoutError(`read ${ctx}`, this.requestTimeout_ms));
      });
      this.pump(target);
    });
  }

  /** Resolves once the member's current sync is over (at once if it is not syncing). */
  private afterSync(m: Member): Promise<void> {
    return this.sleep(Math.max(0, (m.syncingUntil_ms ?? this.clock_ms) - this.clock_ms));
  }

  /** Resolve after `ms` of virtual time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, this.settling(() => resolve())));
  }

  /** Run `fire` after `ms` of virtual time. */
  after(ms: number, fire: () => void): void {
    this.queue.push(this.clock_ms + Math.max(0, ms), { kind: 'timer', fire });
  }

  /** Where a client request goes: the member asked for, or the member that leads in the highest term. */
  private clientTarget(via: string | undefined): Member | Error {
    const id = via ?? this.leader();
    if (id === undefined) return new NotLeaderError(undefined, undefined);
    const m = this.member(id);
    if (m.node === null) return new MemberDownError(id);
    return m;
  }

  // ---- running ---------------------------------------------------------------------------

  /** Advance virtual time by `ms`, handling every event due. */
  async runFor(ms: number): Promise<void> {
    const until_ms = this.clock_ms + ms;
    const maxEvents = maxEventsFor(ms);
    for (let n = 0; n < maxEvents; n++) {
      const next = this.queue.peekTime();
      if (next === undefined || next > until_ms) {
        this.clock_ms = until_ms;
        return;
      }
      await this.handleNext();
    }
    throw new LivelockError(this.seed, this.clock_ms);
  }

  /** Run until `predicate` holds (checked after every event) or `budget_ms` passes. */
  async runUntil(predicate: () => boolean, budget_ms: number): Promise<boolean> {
    const until_ms = this.clock_ms + budget_ms;
    const maxEvents = maxEventsFor(budget_ms);
    for (let n = 0; n < maxEvents; n++) {
      if (predicate()) return true;
      const next = this.queue.peekTime();
      if (next === undefined || next > until_ms) {
        this.clock_ms = until_ms;
        return predicate();
      }
      await this.handleNext();
    }
    throw new LivelockError(this.seed, this.clock_ms);
  }

  private async handleNext(): Promise<void> {
    const ev = this.queue.pop();
    if (ev === undefined) return;
    this.clock_ms = ev.at_ms;
    if (ev.item.kind === 'tick') this.tickMember(ev.item.id, ev.item.life);
    else if (ev.item.kind === 'deliver') this.deliver(ev.item.msg);
    else ev.item.fire();
    if (this.settled) {
      this.settled = false;
      // Let clients awaiting a settled promise run now, at this virtual instant.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private settling<A extends unknown[]>(f: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      this.settled = true;
      f(...args);
    };
  }

  /**
   * Each member ticks on its own clock, at a phase drawn when it boots — as real members do.
   * Ticking all members at one instant would make two candidates whose randomized timeouts
   * drew the same tick campaign at exactly the same moment and split the vote far more often
   * than real clusters do. A tick queued for an earlier life of the member is dropped.
   */
  private tickMember(id: string, life: number): void {
    const m = this.member(id);
    if (m.node === null || m.life !== life) return;
    this.mix(1, Number(id) || 0);
    // A tick that comes while the member is blocked on its disk is lost, as a Go ticker drops ticks.
    if (m.syncingUntil_ms === undefined) {
      m.node.tick();
      this.pump(m);
    }
    this.queue.push(this.clock_ms + this.tick_ms, { kind: 'tick', id, life });
  }

  // ---- network ---------------------------------------------------------------------------

  private send(msg: Message): void {
    if (!this.connected(msg.from, msg.to) || this.netRng.chance(this.net.dropRate)) {
      this.netCounts.dropped++;
      return;
    }
    const copies = this.netRng.chance(this.net.duplicateRate) ? 2 : 1;
    if (copies === 2) this.netCounts.duplicated++;
    for (let i = 0; i < copies; i++) {
      const delay_ms = this.netRng.intBetween(this.net.minDelay_ms, Math.max(this.net.minDelay_ms, this.net.maxDelay_ms));
      this.queue.push(this.arrivalTime(msg, this.clock_ms + delay_ms), { kind: 'deliver', msg });
    }
  }

  /** In order: never before the last message on the same link (the queue keeps ties in push order). */
  private arrivalTime(msg: Message, at_ms: number): number {
    if (this.net.inOrder !== true) return at_ms;
    const link = `${msg.from}>${msg.to}`;
    const at = Math.max(at_ms, this.lastArrival_ms.get(link) ?? 0);
    this.lastArrival_ms.set(link, at);
    return at;
  }

  private deliver(msg: Message): void {
    const to = this.member(msg.to);
    this.mix(2, msg.term, msg.index, Number(msg.reject));
    if (to.node === null || !this.connected(msg.from, msg.to)) {
      this.netCounts.dropped++;
      return;
    }
    if (to.syncingUntil_ms !== undefined) {
      // Waits in the member's receive buffer until the sync is over.
      this.queue.push(to.syncingUntil_ms, { kind: 'deliver', msg });
      return;
    }
    this.netCounts.delivered++;
    to.node.step(msg);
    this.pump(to);
  }

  // ---- the host side of Ready ------------------------------------------------------------

  /** Carry out every Ready of a member, in the order types.ts documents. */
  private pump(m: Member): void {
    for (let guard = 0; m.node !== null && m.syncingUntil_ms === undefined && m.node.hasReady(); guard++) {
      if (guard > 10_000) throw new Error(`seed ${this.seed}: member ${m.id} produced Ready batches without end`);
      const node = m.node;
      const rd = node.ready();
      if (m.diskLatency_ms > 0 && needsSync(rd)) {
        this.syncThenFinish(m, node, rd);
        return;
      }
      if (needsSync(rd)) m.metrics.observeFsync(0);
      this.finishReady(m, node, rd);
    }
  }

  /** A slow disk: the Ready's writes become durable, and its messages leave, `diskLatency_ms` later. */
  private syncThenFinish(m: Member, node: RaftNode, rd: Ready): void {
    const until_ms = this.clock_ms + m.diskLatency_ms;
    m.syncingUntil_ms = until_ms;
    this.queue.push(until_ms, {
      kind: 'timer',
      fire: () => {
        if (m.node !== node) return; // crashed meanwhile: the write never completed
        m.syncingUntil_ms = undefined;
        m.metrics.observeFsync(m.diskLatency_ms);
        this.finishReady(m, node, rd);
        this.pump(m);
      },
    });
  }

  private finishReady(m: Member, node: RaftNode, rd: Ready): void {
    this.persist(m, rd);
    for (const msg of rd.messages) {
      if (msg.type === 'MsgHeartbeat') m.metrics.noteHeartbeatSent(msg.to, this.clock_ms);
      this.send(msg);
    }
    this.apply(m, rd.committedEntries);
    node.advance(rd);
    m.metrics.noteLeader(node.leaderId, node.role === 'leader' && m.lastRole !== 'leader');
    this.noteReadStates(m, rd);
    this.noteRoleChange(m, node);
    this.answerReads(m);
  }

  private persist(m: Member, rd: Ready): void {
    if (rd.hardState !== undefined) m.storage.hardState = rd.hardState;
    const first = rd.entriesToPersist[0];
    if (first === undefined) return;
    m.storage.entries.length = first.index - 1;
    for (const e of rd.entriesToPersist) m.storage.entries.push(e);
    if (rd.softState.role === 'leader') {
      for (const e of rd.entriesToPersist) this.record(`append leader=${m.id} index=${e.index} term=${e.term}`);
    }
  }

  private apply(m: Member, entries: readonly Entry[]): void {
    for (const e of entries) {
      const result = e.data === null ? undefined : this.applyOne(m, e.data);
      const waiting = m.proposals.get(e.index);
      if (waiting === undefined) continue;
      m.proposals.delete(e.index);
      // Index e.index is now committed for good: a proposal of another term there never will be.
      for (const p of waiting) {
        if (p.term !== e.term) p.reject(new ProposalDroppedError(e.index, p.term));
        else if (result instanceof Error) p.reject(result);
        else p.resolve(result);
      }
    }
    const last = entries[entries.length - 1];
    if (last !== undefined && m.node?.role === 'leader') this.record(`apply leader=${m.id} index=${last.index}`);
  }

  private applyOne(m: Member, data: string): unknown {
    try {
      return m.sm?.apply(data);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  private noteReadStates(m: Member, rd: Ready): void {
    for (const rs of rd.readStates) {
      const r = m.reads.get(rs.context);
      if (r !== undefined) r.index = rs.index;
    }
  }

  private answerReads(m: Member): void {
    const node = m.node;
    const sm = m.sm;
    if (node === null || sm === null || m.reads.size === 0) return;
    for (const [ctx, r] of m.reads) {
      if (r.index === undefined || node.appliedIndex < r.index) continue;
      m.reads.delete(ctx);
      r.resolve(sm.query?.(r.command));
    }
  }

  private noteRoleChange(m: Member, node: RaftNode): void {
    if (node.role === m.lastRole && node.term === m.lastTerm) return;
    const roleChanged = node.role !== m.lastRole;
    m.lastRole = node.role;
    m.lastTerm = node.term;
    this.record(`${m.id} ${roleChanged ? 'became' : 'is still'} ${node.role} term=${node.term}`);
    if (node.role === 'leader') return;
    // A read not yet confirmed will never be by this member: tell the client (reads have no effect).
    for (const [ctx, r] of m.reads) {
      if (r.index !== undefined) continue;
      m.reads.delete(ctx);
      r.reject(new NotLeaderError(m.id, node.leaderId ?? undefined));
    }
  }

  // ---- members ---------------------------------------------------------------------------

  private freshMember(id: string): Member {
    return {
      id,
      node: null,
      sm: null,
      storage: { hardState: { term: 0, vote: null, commit: 0 }, entries: [] },
      life: 0,
      proposals: new Map(),
      reads: new Map(),
      lastRole: 'follower',
      lastTerm: 0,
      diskLatency_ms: 0,
      metrics: new EtcdMemberMetrics(this.tick_ms * (this.opts.heartbeatTicks ?? 2)),
    };
  }

  private bootMember(m: Member): void {
    m.node = new RaftNode({
      id: m.id,
      voters: this.ids,
      rng: this.rng.fork(),
      electionTicks: this.opts.electionTicks ?? 10,
      heartbeatTicks: this.opts.heartbeatTicks ?? 2,
      checkQuorum: this.opts.checkQuorum ?? true,
      preVote: this.opts.preVote ?? true,
      persisted: { hardState: m.storage.hardState, entries: m.storage.entries.slice() },
      ...(this.opts.bugs ? { bugs: raftBugs(this.opts.bugs) } : {}),
    });
    m.sm = this.opts.stateMachine(m.id);
    m.metrics = new EtcdMemberMetrics(this.tick_ms * (this.opts.heartbeatTicks ?? 2));
    m.lastRole = 'follower';
    m.lastTerm = m.storage.hardState.term;
    this.pump(m);
    const phase_ms = 1 + this.rng.intBelow(this.tick_ms);
    this.queue.push(this.clock_ms + phase_ms, { kind: 'tick', id: m.id, life: m.life });
  }

  private failAll(m: Member, error: () => Error): void {
    const waiting: Waiter[] = [...[...m.proposals.values()].flat(), ...m.reads.values()];
    m.proposals.clear();
    m.reads.clear();
    for (const w of waiting) w.reject(error());
  }

  private member(id: string): Member {
    const m = this.members.get(id);
    if (m === undefined) throw new Error(`no member ${id}; members are ${this.ids.join(', ')}`);
    return m;
  }

  // ---- trace -----------------------------------------------------------------------------

  private record(line: string): void {
    for (let i = 0; i < line.length; i++) this.mix(line.charCodeAt(i));
    if (this.traceLines.length < (this.opts.traceLimit ?? 50_000)) this.traceLines.push(`${line} @${this.clock_ms}ms`);
  }

  /** FNV-1a over numbers: cheap enough to run on every event. */
  private mix(...values: number[]): void {
    let h = Math.imul(this.hash ^ (this.clock_ms & 0xffffffff), 0x01000193);
    // An indexed loop: this runs for every character of every trace line.
    for (let i = 0; i < values.length; i++) {
      h ^= values[i]! & 0xffffffff;
      h = Math.imul(h, 0x01000193);
    }
    this.hash = h;
  }
}

/** The simulation handled far more events per virtual millisecond than any healthy run does. */
export class LivelockError extends Error {
  constructor(seed: number, at_ms: number) {
    super(`seed ${seed}: more than ${MAX_EVENTS_PER_MS} events per virtual ms by ${at_ms} ms — a livelock`);
    this.name = 'LivelockError';
  }
}

function maxEventsFor(ms: number): number {
  return 10_000 + MAX_EVENTS_PER_MS * Math.max(0, ms);
}

/** A Ready that writes stable storage: new entries or a changed HardState. */
function needsSync(rd: Ready): boolean {
  return rd.entriesToPersist.length > 0 || rd.hardState !== undefined;
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** The Raft-level subset of the simulator's bugs, handed to each member's RaftNode. */
function raftBugs(b: SimBugs): RaftBugs {
  return {
    ...(b.commitWithoutMajority ? { commitWithoutMajority: true } : {}),
    ...(b.voteForStaleLog ? { voteForStaleLog: true } : {}),
    ...(b.voteTwicePerTerm ? { voteTwicePerTerm: true } : {}),
    ...(b.commitOlderTerm ? { commitOlderTerm: true } : {}),
  };
}
