/**
 * A Raft-replicated Backend: the store's write commands (reference/store/commands.ts) are
 * proposed as strings through a simulated Raft cluster (reference/sim/cluster.ts); every
 * member applies them to its own MvccStore, and a write is acknowledged once the member that
 * proposed it — the leader — has committed and applied it. That is etcd's write path: the
 * etcd server proposes the request to Raft and answers the client after applying it
 * (etcd-io/etcd server/etcdserver/v3_server.go, processInternalRaftRequestOnce).
 *
 * Reads are linearizable: the leader confirms it still leads with a ReadIndex round and
 * answers from its store once it has applied that index (etcd's default "linearizable"
 * read; the simulator's `read`).
 *
 * Time. The simulator's clock is virtual and only moves when driven. Every client call drives
 * it until the call settles (a call "takes" virtual time, as a real one takes real time), and
 * the session's waiter drives it while waiting; runs are serialised, so two callers never
 * move the clock at once. After each run, `onAdvance` is told how far time moved, so the
 * session's VirtualClock (API server, retention) keeps step.
 *
 * Client behaviour on failure follows etcd's: while there is no leader (an election, or too
 * few members for one) a request waits and retries, and gives up after the server's request
 * timeout — 5 s plus two election timeouts (etcdserver/config.go, ReqTimeout) — with
 * "etcdserver: request timed out". A request whose fate is unknown (its member crashed, or it
 * timed out inside Raft) fails at once; it may still commit later.
 *
 * Watches are served from the leader's store. If the member serving a watch crashes (or is
 * restarted with a fresh store), the watch moves to the current leader and resumes from the
 * revision after the last event it delivered, as an etcd client's watch reconnects to another
 * member and resumes.
 */
import type { Faults } from '../faults.ts';
import type { CompareAndSwap, KeyValue } from '../../contract/contract.ts';
import type { Backend, RangeOptions, RangeResult, TxnResult, WatchHandlers } from '../store/backend.ts';
import { encodeCommand, errorOfResult, type StoreCommand, type StoreResult } from '../store/commands.ts';
import { SimCluster, type SimClusterOptions } from '../sim/cluster.ts';
import { ProposalDroppedError, ProposalTimeoutError, SimClientError } from '../sim/errors.ts';
import { MvccStateMachine, decodeReadAnswer, encodeRead, type ReadQuery } from './raft-state-machine.ts';
import { ReplicatedWatch } from './raft-watch.ts';

export interface RaftBackendOptions {
  seed: number;
  /** Cluster size: 1, 3, 4, 5, … */
  members: number;
  /** Virtual ms per Raft tick. Default 100: etcd's default --heartbeat-interval. */
  tick_ms?: number;
  /** Ticks before a follower campaigns. Default 10: etcd's default --election-timeout of 1000 ms. */
  electionTicks?: number;
  /** Ticks between heartbeats. Default 1. */
  heartbeatTicks?: number;
  /** Told after every run how many virtual ms passed, so other clocks can keep step. */
  onAdvance?: (elapsed_ms: number) => void;
  /** Fault models to inject (reference/faults.ts); default none. */
  faults?: Faults;
  /**
   * Default true: a client call drives the cluster until it settles (virtual time, the suite).
   * False: something else drives it (raft-realtime.ts, under `serve --ha`), and a call waits for
   * those runs — so a write without a quorum takes the whole request timeout of real time.
   */
  drivenByCallers?: boolean;
}

/** Retry a request that found no leader after this long (one tick's worth is plenty). */
const RETRY_INTERVAL_MS = 50;

type Outcome = { settled: true; ok: true; value: unknown } | { settled: true; ok: false; error: unknown } | { settled: false };

export class RequestTimeoutError extends Error {
  constructor(
    readonly lastError: unknown,
    /** etcd's ErrTimeoutDueToLeaderFail wording, for a proposal a leader change lost. */
    leaderFailed = false,
  ) {
    super(`etcdserver: request timed out${leaderFailed ? ', possibly due to previous leader failure' : ''}${lastError instanceof Error ? ` (last: ${lastError.message})` : ''}`);
    this.name = 'RequestTimeoutError';
  }
}

export class RaftBackend implements Backend {
  readonly sim: SimCluster;
  readonly requestTimeout_ms: number;
  private readonly onAdvance: (elapsed_ms: number) => void;
  private runLock: Promise<void> = Promise.resolve();
  private readonly watches = new Set<ReplicatedWatch>();
  private readonly afterRunHooks: (() => void)[] = [];
  private readonly drivenByCallers: boolean;
  /** Callers waiting for a run to bring what they need (when not drivenByCallers). */
  private readonly waiters = new Set<() => void>();

  constructor(opts: RaftBackendOptions) {
    const tick_ms = opts.tick_ms ?? 100;
    const electionTicks = opts.electionTicks ?? 10;
    this.requestTimeout_ms = 5_000 + 2 * electionTicks * tick_ms;
    this.onAdvance = opts.onAdvance ?? (() => {});
    this.drivenByCallers = opts.drivenByCallers ?? true;
    this.sim = new SimCluster({
      seed: opts.seed,
      members: opts.members,
      stateMachine: () => new MvccStateMachine(opts.faults),
      tick_ms,
      electionTicks,
      heartbeatTicks: opts.heartbeatTicks ?? 1,
      requestTimeout_ms: this.requestTimeout_ms,
      // etcd's members talk over TCP streams: what one sends another arrives in order.
      network: { inOrder: true },
      ...(opts.faults ? simFaults(opts.faults) : {}),
    });
  }

  // ---- time --------------------------------------------------------------------------------

  now_ms(): number {
    return this.sim.now_ms;
  }

  /** Run the cluster for `ms` of virtual time. */
  advance(ms: number): Promise<void> {
    return this.run(() => false, ms).then(() => undefined);
  }

  /** Run until `done` holds (checked after every event) or `budget_ms` passes; serialised with every other run. */
  run(done: () => boolean, budget_ms: number): Promise<boolean> {
    const result = this.runLock.then(async () => {
      const before_ms = this.sim.now_ms;
      try {
        return await this.sim.runUntil(done, Math.max(0, budget_ms));
      } finally {
        this.onAdvance(this.sim.now_ms - before_ms);
        this.afterRun();
      }
    });
    this.runLock = result.then(() => undefined, () => undefined);
    return result;
  }

  /** Called after every run: observers that look at the members between runs (watch failover). */
  onAfterRun(hook: () => void): void {
    this.afterRunHooks.push(hook);
  }

  // ---- Backend -----------------------------------------------------------------------------

  currentRevision(): number {
    return this.servingStore()?.currentRevision() ?? 1;
  }

  compactRevision(): number {
    return this.servingStore()?.compactRevision() ?? 0;
  }

  async get(key: string, revision?: number): Promise<KeyValue | undefined> {
    const answer = await this.read({ op: 'get', key, ...(revision ? { revision } : {}) });
    return answer.op === 'get' ? answer.kv : undefined;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const answer = await this.read({ op: 'range', prefix, ...opts });
    if (answer.op !== 'range') throw new Error('the store answered a range with something else');
    return answer.result;
  }

  async put(key: string, value: string): Promise<{ revision: number; kv: KeyValue }> {
    const result = await this.submit({ op: 'put', key, value });
    if (result.op !== 'put') throw new Error(`store answered ${result.op} to a put`);
    return { revision: result.revision, kv: result.kv };
  }

  async delete(key: string): Promise<{ revision: number; deleted?: KeyValue }> {
    const result = await this.submit({ op: 'delete', key });
    if (result.op !== 'delete') throw new Error(`store answered ${result.op} to a delete`);
    return result.deleted ? { revision: result.revision, deleted: result.deleted } : { revision: result.revision };
  }

  async txn(cas: CompareAndSwap): Promise<TxnResult> {
    const result = await this.submit({ op: 'txn', cas: { key: cas.key, expectModRevision: cas.expectModRevision, value: cas.value } });
    if (result.op !== 'txn') throw new Error(`store answered ${result.op} to a txn`);
    return result.kv ? { succeeded: result.succeeded, revision: result.revision, kv: result.kv } : { succeeded: result.succeeded, revision: result.revision };
  }

  async compact(revision: number): Promise<void> {
    const result = await this.submit({ op: 'compact', revision });
    if (result.op !== 'compact') throw new Error(`store answered ${result.op} to a compact`);
  }

  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): () => void {
    const watch = new ReplicatedWatch(prefix, fromRevision, handlers, () => this.servingMember());
    this.watches.add(watch);
    watch.attach((id) => this.storeOf(id));
    return () => {
      watch.cancel();
      this.watches.delete(watch);
    };
  }

  /** A snapshot of the most up-to-date live store (the leader's, when there is one). */
  snapshot(): string {
    const store = this.servingStore();
    if (store === undefined) throw new Error('no live member to take a snapshot from');
    return store.snapshot();
  }

  // ---- members -----------------------------------------------------------------------------

  /** The member's store in its current life; undefined while it is down. */
  storeOf(id: string): MvccStateMachine['store'] | undefined {
    const sm = this.sim.stateMachine(id);
    return sm instanceof MvccStateMachine ? sm.store : undefined;
  }

  /** The leader, or else the live member that has applied the most. */
  servingMember(): string | undefined {
    const leader = this.sim.leader();
    if (leader !== undefined) return leader;
    let best: { id: string; applied: number } | undefined;
    for (const id of this.sim.ids) {
      const s = this.sim.status(id);
      if (s.alive && (best === undefined || (s.appliedIndex ?? 0) > best.applied)) best = { id, applied: s.appliedIndex ?? 0 };
    }
    return best?.id;
  }

  private servingStore(): MvccStateMachine['store'] | undefined {
    const id = this.servingMember();
    return id === undefined ? undefined : this.storeOf(id);
  }

  // ---- requests ----------------------------------------------------------------------------

  private async submit(command: StoreCommand): Promise<StoreResult> {
    const result = (await this.request(() => this.sim.propose(encodeCommand(command)))) as StoreResult;
    const error = errorOfResult(result);
    if (error !== undefined) throw error;
    return result;
  }

  private async read(query: ReadQuery) {
    const answer = decodeReadAnswer(await this.request(() => this.sim.read(encodeRead(query))));
    if (answer.op === 'error') throw answer.error;
    return answer;
  }

  /**
   * One client request: start it, drive the cluster until it settles, retry while there is no
   * leader (nothing was proposed), and give up after the request timeout.
   */
  private async request(start: () => Promise<unknown>): Promise<unknown> {
    const deadline_ms = this.sim.now_ms + this.requestTimeout_ms;
    let lastError: unknown;
    for (;;) {
      const outcome = await this.settle(start(), deadline_ms);
      if (outcome.settled && outcome.ok) return outcome.value;
      if (outcome.settled) lastError = outcome.error;
      // Raft could not commit it in time: etcd answers that with "etcdserver: request timed out" too.
      if (outcome.settled && outcome.error instanceof ProposalTimeoutError) throw new RequestTimeoutError(outcome.error);
      // A proposal a new leader overwrote: etcd's server cannot tell it from a slow commit, so
      // its client waits out the request timeout and gets ErrTimeoutDueToLeaderFail
      // (etcd-io/etcd server/etcdserver/v3_server.go, processInternalRaftRequestOnce waits on
      // the proposal's id until ReqTimeout; parseProposeCtxErr names the leader failure).
      if (outcome.settled && outcome.error instanceof ProposalDroppedError) {
        await this.until(deadline_ms);
        throw new RequestTimeoutError(outcome.error, true);
      }
      if (outcome.settled && !retryable(outcome.error)) throw outcome.error;
      if (this.sim.now_ms >= deadline_ms) throw new RequestTimeoutError(lastError);
      await this.until(Math.min(this.sim.now_ms + RETRY_INTERVAL_MS, deadline_ms));
    }
  }

  /** Lets the cluster's time reach `at_ms`: driving it, or waiting for whoever drives it. */
  private async until(at_ms: number): Promise<void> {
    if (this.sim.now_ms >= at_ms) return;
    if (this.drivenByCallers) await this.run(() => false, at_ms - this.sim.now_ms);
    else await this.untilARunBrings(() => this.sim.now_ms >= at_ms);
  }

  private async settle(promise: Promise<unknown>, deadline_ms: number): Promise<Outcome> {
    let outcome = { settled: false } as Outcome;
    promise.then(
      (value) => (outcome = { settled: true, ok: true, value }),
      (error: unknown) => (outcome = { settled: true, ok: false, error }),
    );
    // A request refused on the spot (no leader) settles in a microtask: notice before moving time.
    await Promise.resolve();
    await Promise.resolve();
    if (outcome.settled) return outcome;
    if (this.drivenByCallers) await this.run(() => outcome.settled, deadline_ms - this.sim.now_ms);
    else await this.untilARunBrings(() => outcome.settled || this.sim.now_ms >= deadline_ms);
    return outcome;
  }

  /** Resolves after the first run (of whoever drives the cluster) at whose end `holds` is true. */
  private untilARunBrings(holds: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!holds()) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private afterRun(): void {
    for (const watch of this.watches) watch.attach((id) => this.storeOf(id));
    for (const hook of this.afterRunHooks) hook();
    // A proposal settled in this run reaches its caller's `then` a few microtasks later: look after those.
    if (this.waiters.size > 0) void Promise.resolve().then(() => Promise.resolve()).then(() => { for (const check of [...this.waiters]) check(); });
  }
}

/** Nothing was proposed (no leader, not enough members, the member is down): trying again is safe. */
function retryable(error: unknown): boolean {
  return error instanceof SimClientError && !error.indeterminate;
}

/** The Raft fault models (reference/faults.ts) as the simulator's bug switches and options. */
export function simFaults(faults: Faults): Pick<SimClusterOptions, 'bugs' | 'checkQuorum' | 'preVote'> {
  return {
    bugs: {
      commitWithoutMajority: faults.has('commit-without-majority'),
      readsWithoutReadIndex: faults.has('stale-leader-read'),
      voteForStaleLog: faults.has('vote-for-stale-log'),
      voteTwicePerTerm: faults.has('two-leaders-one-term'),
      commitOlderTerm: faults.has('commit-older-term'),
    },
    ...(faults.has('leader-never-steps-down') ? { checkQuorum: false } : {}),
    ...(faults.has('no-pre-vote') ? { preVote: false } : {}),
  };
}
