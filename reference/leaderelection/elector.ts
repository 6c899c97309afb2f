/**
 * Lease-based leader election with client-go's semantics
 * (kubernetes/client-go tools/leaderelection/leaderelection.go):
 *
 * - Acquire: try every retryPeriod, jittered — wait.JitterUntil(tryAcquireOrRenew, RetryPeriod,
 *   JitterFactor = 1.2, sliding) waits RetryPeriod·(1 + 1.2·rand) after each try returns.
 * - tryAcquireOrRenew: read the Lease (create it if it is absent). If the record differs from
 *   the one last observed, note it and *when this instance observed it* (observedTime, local
 *   clock). Another holder's lease counts as valid while observedTime + LeaseDuration is in the
 *   future — client-go never trusts the record's renewTime, written by another machine's clock
 *   ("A client only acts on timestamps captured locally"). Otherwise update the Lease through
 *   the API server at the resourceVersion just read (optimistic concurrency): holderIdentity =
 *   self, renewTime = now, acquireTime = now and leaderTransitions + 1 on a change of holder.
 * - Renew: wait.Until every RetryPeriod, each round a poll that retries every RetryPeriod and
 *   gives up after RenewDeadline; giving up calls OnStoppedLeading (the upstream components
 *   then exit). So a leader that cannot renew stops about RetryPeriod + RenewDeadline = 12 s
 *   after its last successful renewal, before any standby can take over (≥ 15 s).
 *
 * One deliberate tightening: client-go's renew deadline counts from the start of the poll
 * round, so a process paused between rounds (GC, SIGSTOP) would resume and act until a fresh
 * deadline — the package warns it "does not guarantee that only one client is acting as a
 * leader (a.k.a. fencing)". Here the deadline is pinned to the *start* of the last successful
 * renewal attempt + RetryPeriod + RenewDeadline (the same instant when nothing is paused), and
 * `acting()` checks it, so a resumed process stops before it acts. See safety.property.test.ts
 * for the invariant this buys.
 *
 * - A leader whose lease it still observes as valid first tries client-go's fast path: an update
 *   at the resourceVersion of the Lease it last wrote, with no read; only when that fails (409,
 *   an error) does it take the slow path above (get, then update at that resourceVersion).
 *
 * Pure: the clock/timers, the randomness and the Lease lock (the API server) are injected.
 */
import type { Scheduler } from '../wiring/virtual-clock.ts';
import { microTime, sameRecord, type LeaderElectionRecord, type LeaseLock } from './record.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';

export interface ElectionTimings {
  leaseDuration_ms: number;
  renewDeadline_ms: number;
  retryPeriod_ms: number;
}

/**
 * Upstream's defaults for kube-scheduler, kube-controller-manager and cloud-controller-manager
 * (k8s.io/component-base/config/v1alpha1/defaults.go RecommendedDefaultLeaderElectionConfiguration:
 * LeaseDuration 15s, RenewDeadline 10s, RetryPeriod 2s).
 */
export const DEFAULT_TIMINGS: ElectionTimings = { leaseDuration_ms: 15_000, renewDeadline_ms: 10_000, retryPeriod_ms: 2_000 };

/** leaderelection.go JitterFactor. */
export const JITTER_FACTOR = 1.2;

export interface ElectorCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
  /** A holder other than the last one reported was observed (also the first holder seen). */
  onNewLeader?(identity: string): void;
}

export interface ElectorOptions {
  identity: string;
  lock: LeaseLock;
  clock: Scheduler;
  /** Uniform in [0, 1), seeded. */
  random: () => number;
  timings?: ElectionTimings;
  callbacks: ElectorCallbacks;
  /** Where failed attempts are reported. */
  log?: (line: string) => void;
  /** Fault models (reference/faults.ts); default none. */
  faults?: Faults;
}

export type ElectorPhase = 'idle' | 'acquiring' | 'leading' | 'stopped';

export class LeaderElector {
  readonly identity: string;
  readonly timings: ElectionTimings;
  private observed?: LeaderElectionRecord;
  private observedTime_ms = 0;
  /** The resourceVersion of the Lease as this instance last wrote it: the fast path's precondition. */
  private leaseVersion?: string;
  private reportedLeader = '';
  private phase_: ElectorPhase = 'idle';
  /** Bumped on stop: continuations of requests started before it are dropped. */
  private generation = 0;
  private cancelTimer: () => void = () => {};
  private cancelDeadline: () => void = () => {};
  private deadline_ms = 0;
  private readonly faults: Faults;

  constructor(private readonly opts: ElectorOptions) {
    this.identity = opts.identity;
    this.timings = opts.timings ?? DEFAULT_TIMINGS;
    this.faults = opts.faults ?? NO_FAULTS;
    const t = this.timings;
    // NewLeaderElector's validation.
    if (t.leaseDuration_ms <= t.renewDeadline_ms) throw new Error('leaseDuration must be greater than renewDeadline');
    if (t.renewDeadline_ms <= JITTER_FACTOR * t.retryPeriod_ms) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  }

  get phase(): ElectorPhase {
    return this.phase_;
  }

  /** client-go GetLeader: the holder last observed. */
  get leader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /** The record last observed and when (local clock). */
  observation(): { record?: LeaderElectionRecord; observedTime_ms: number } {
    return { ...(this.observed ? { record: { ...this.observed } } : {}), observedTime_ms: this.observedTime_ms };
  }

  /** Run: acquire, then renew until that fails. */
  start(): void {
    if (this.phase_ !== 'idle') throw new Error(`elector ${this.identity} already started`);
    this.phase_ = 'acquiring';
    void this.acquireRound();
  }

  /**
   * Whether this instance may act as leader now. A leader past its renew deadline (it was
   * paused, or its timers ran late) stops leading here, before the caller acts.
   */
  acting(): boolean {
    if (this.phase_ !== 'leading') return false;
    // Fault leader-ignores-renew-deadline: no deadline is ever checked.
    if (this.opts.clock.now_ms() >= this.deadline_ms && !this.faults.has('leader-ignores-renew-deadline')) this.stopLeading('renew deadline passed');
    return this.phase_ === 'leading';
  }

  /** The process dies: no more requests, no callbacks. */
  crash(): void {
    this.halt();
    this.phase_ = 'stopped';
  }

  /**
   * client-go's release() (LeaderElectionConfig.ReleaseOnCancel): a leader that stops on purpose
   * stops acting first, then empties the holder with a 1 s duration, so a successor need not
   * wait out the lease (tools/leaderelection/leaderelection.go). Best effort: a write that
   * raced it (409) or a failed request leaves the lease to expire.
   */
  async release(): Promise<void> {
    const wasLeader = this.phase_ === 'leading';
    this.crash();
    if (!wasLeader) return;
    try {
      const current = await this.opts.lock.get();
      if (!current || current.record.holderIdentity !== this.identity) return;
      const now = microTime(this.opts.clock.now_ms());
      await this.opts.lock.update({ holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaderTransitions: current.record.leaderTransitions }, current.resourceVersion);
    } catch (error) {
      this.log(`release failed: ${(error as Error).message}`);
    }
  }

  // ---- acquire ----------------------------------------------------------------------------------

  private async acquireRound(): Promise<void> {
    const generation = this.generation;
    const started_ms = this.opts.clock.now_ms();
    const acquired = await this.tryAcquireOrRenew();
    if (generation !== this.generation) return;
    if (acquired) {
      this.becomeLeader(started_ms);
      return;
    }
    const t = this.timings;
    // wait.Jitter(duration, maxFactor) = duration + rand·maxFactor·duration; sliding: counted from now.
    const wait_ms = t.retryPeriod_ms * (1 + this.opts.random() * JITTER_FACTOR);
    this.cancelTimer = this.opts.clock.after(wait_ms, () => void this.acquireRound());
  }

  private becomeLeader(attemptStarted_ms: number): void {
    this.phase_ = 'leading';
    this.renewed(attemptStarted_ms);
    this.opts.callbacks.onStartedLeading();
    // wait.Until runs its first round at once: the renew loop starts with an immediate try.
    if (this.phase_ === 'leading') void this.renewAttempt();
  }

  // ---- renew ------------------------------------------------------------------------------------

  private async renewAttempt(): Promise<void> {
    const generation = this.generation;
    const started_ms = this.opts.clock.now_ms();
    let renewed = false;
    try {
      renewed = await this.tryAcquireOrRenew();
    } catch (error) {
      this.log(`renew failed: ${(error as Error).message}`);
    }
    if (generation !== this.generation || this.phase_ !== 'leading') return;
    if (renewed) this.renewed(started_ms);
    // Success: the next round in RetryPeriod. Failure: the poll tries again in RetryPeriod
    // (PollImmediateUntil's interval), until the deadline timer stops it.
    const next_ms = Math.max(0, started_ms + this.timings.retryPeriod_ms - this.opts.clock.now_ms());
    this.cancelTimer = this.opts.clock.after(renewed ? this.timings.retryPeriod_ms : next_ms, () => void this.renewAttempt());
  }

  /** A renewal that started at `started_ms` succeeded: the next round starts in RetryPeriod and may poll for RenewDeadline. */
  private renewed(started_ms: number): void {
    this.deadline_ms = started_ms + this.timings.retryPeriod_ms + this.timings.renewDeadline_ms;
    this.cancelDeadline();
    this.cancelDeadline = this.opts.clock.after(this.deadline_ms - this.opts.clock.now_ms(), () => {
      if (this.phase_ === 'leading' && !this.faults.has('leader-ignores-renew-deadline')) this.stopLeading('failed to renew within the renew deadline');
    });
  }

  private stopLeading(why: string): void {
    this.log(`stopped leading: ${why}`);
    this.halt();
    this.phase_ = 'stopped';
    this.opts.callbacks.onStoppedLeading();
  }

  private halt(): void {
    this.generation++;
    this.cancelTimer();
    this.cancelDeadline();
  }

  // ---- one try ----------------------------------------------------------------------------------

  /** client-go tryAcquireOrRenew; any failure is `false`. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const generation = this.generation;
    const now_ms = this.opts.clock.now_ms();
    const desired: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.floor(this.timings.leaseDuration_ms / 1000),
      acquireTime: microTime(now_ms),
      renewTime: microTime(now_ms),
      leaderTransitions: 0,
    };
    if (this.mayRenewOptimistically(now_ms)) {
      if (await this.renewOptimistically(desired, generation)) return true;
      if (generation !== this.generation) return false;
    }
    try {
      const current = await this.opts.lock.get();
      if (generation !== this.generation) return false;
      if (!current) return await this.createLease(desired, generation);
      this.observe(current.record);
      // Fault lease-taken-before-expiry: another holder's lease is never waited out.
      const held = current.record.holderIdentity !== '' && this.observedTime_ms + this.timings.leaseDuration_ms > now_ms && !this.faults.has('lease-taken-before-expiry');
      if (held && !this.isLeader()) {
        return false;
      }
      if (this.isLeader()) {
        desired.acquireTime = current.record.acquireTime;
        desired.leaderTransitions = current.record.leaderTransitions;
      } else {
        desired.leaderTransitions = current.record.leaderTransitions + 1;
      }
      const written = await this.opts.lock.update(desired, current.resourceVersion);
      if (!written || generation !== this.generation) return false;
      this.leaseVersion = written;
      this.setObserved(desired);
      return true;
    } catch (error) {
      this.log(`error retrieving or updating the lease: ${(error as Error).message}`);
      return false;
    } finally {
      if (generation === this.generation) this.maybeReportTransition();
    }
  }

  private async createLease(desired: LeaderElectionRecord, generation: number): Promise<boolean> {
    const written = await this.opts.lock.create(desired);
    if (!written || generation !== this.generation) return false;
    this.leaseVersion = written;
    this.setObserved(desired);
    return true;
  }

  /** The fast path's condition: IsLeader, isLeaseValid (observedTime + the observed leaseDurationSeconds is ahead), a Lease written. */
  private mayRenewOptimistically(now_ms: number): boolean {
    const observed = this.observed;
    return this.isLeader() && observed !== undefined && this.observedTime_ms + observed.leaseDurationSeconds * 1000 > now_ms && this.leaseVersion !== undefined;
  }

  /**
   * client-go's fast path (tryAcquireOrRenew step 1): a leader whose lease is still valid by its
   * own observation writes its renewal straight over the Lease it last wrote, without reading it
   * first — one request a round instead of two. Any failure (409: someone else wrote the Lease;
   * an error) falls back to the slow path, which reads the Lease and decides from what it finds.
   */
  private async renewOptimistically(desired: LeaderElectionRecord, generation: number): Promise<boolean> {
    const observed = this.observed!;
    const renewal = { ...desired, acquireTime: observed.acquireTime, leaderTransitions: observed.leaderTransitions };
    try {
      const written = await this.opts.lock.update(renewal, this.leaseVersion!);
      if (!written || generation !== this.generation) return false;
      this.leaseVersion = written;
      this.setObserved(renewal);
      return true;
    } catch (error) {
      this.log(`failed to update the lease optimistically, falling back to the slow path: ${(error as Error).message}`);
      return false;
    }
  }

  /** IsLeader: the last observed holder is this instance. */
  private isLeader(): boolean {
    return this.observed?.holderIdentity === this.identity;
  }

  private observe(record: LeaderElectionRecord): void {
    if (!sameRecord(this.observed, record)) this.setObserved(record);
  }

  private setObserved(record: LeaderElectionRecord): void {
    this.observed = { ...record };
    this.observedTime_ms = this.opts.clock.now_ms();
  }

  private maybeReportTransition(): void {
    const holder = this.observed?.holderIdentity ?? '';
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    this.opts.callbacks.onNewLeader?.(holder);
  }

  private log(line: string): void {
    this.opts.log?.(`leaderelection ${this.identity}: ${line}`);
  }
}
