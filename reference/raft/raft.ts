/**
 * Raft as a pure state machine, shaped like etcd-io/raft's raft.go + rawnode.go.
 *
 * The only inputs are `step(msg)`, `tick()` and `propose(data)` (plus `readIndex(ctx)` for
 * linearizable reads). Nothing is sent, stored or applied here: every effect is collected
 * and handed to the host through `ready()`, which the host carries out in the order the
 * Ready type documents and then acknowledges with `advance()`. Time is a tick count and
 * randomness comes from the injected RandomSource, so a member is a function of its inputs.
 *
 * Section numbers refer to the Raft paper (Ongaro & Ousterhout, "In Search of an
 * Understandable Consensus Algorithm", extended version).
 */
import { RaftLog } from './log.ts';
import type { Entry, HardState, Message, MessageType, RandomSource, ReadState, Ready, Role } from './types.ts';

export interface RaftBugs {
  /**
   * TEST ONLY — never set outside tests. The leader treats an entry as committed as soon as
   * it is in its own log, without waiting for a majority. It exists so the simulator's
   * linearizability test can prove the checker catches a real safety bug: a checker that
   * has never been seen failing proves nothing.
   */
  commitWithoutMajority?: boolean;
  /** TEST ONLY (fault vote-for-stale-log): votes are granted without the §5.4.1 up-to-date check. */
  voteForStaleLog?: boolean;
  /** TEST ONLY (fault two-leaders-one-term): a member votes for every candidate of a term, not once. */
  voteTwicePerTerm?: boolean;
  /** TEST ONLY (fault commit-older-term): replicas of an older term's entry are counted to commit it (Figure 8). */
  commitOlderTerm?: boolean;
}

export interface RaftConfig {
  /** This member's id. */
  id: string;
  /**
   * Every voting member, this one included. The quorum is a majority of this configured set
   * — never of whoever happens to be reachable — which is what makes two leaders in one
   * term impossible (§5.2).
   */
  voters: readonly string[];
  /** Injected, seeded randomness: the election timeout is drawn from it. */
  rng: RandomSource;
  /**
   * Ticks a follower waits without hearing from a leader before campaigning. The actual
   * timeout is drawn afresh from [electionTicks, 2 × electionTicks) at every term change so
   * that two followers rarely time out together and split the vote (§5.2; etcd's
   * randomizedElectionTimeout). Default 10.
   */
  electionTicks?: number;
  /**
   * Ticks between a leader's heartbeats. Must be well below electionTicks, or healthy
   * followers would time out between two heartbeats. Default 1, as in etcd.
   */
  heartbeatTicks?: number;
  /**
   * A leader that has not heard from a quorum within an election timeout steps down
   * (etcd's CheckQuorum). Without it a leader cut off in a minority keeps accepting
   * proposals that can never commit, and its clients only find out by timing out.
   * Default true.
   */
  checkQuorum?: boolean;
  /**
   * PreVote (Raft dissertation §9.6; etcd-io/raft Config.PreVote, MsgPreVote): before a
   * follower bumps its term it asks the others whether they would vote for it, and only a
   * majority of yeses starts the real election. A member cut off from the cluster therefore
   * keeps its term however many timeouts it sits through, and when it rejoins it cannot force
   * a healthy leader to step down with a higher term. A pre-vote is granted only to a log at
   * least as up to date as the voter's, and only by a voter that has not heard from a leader
   * within an election timeout. etcd's server turns it on by default since v3.5
   * (etcd-io/etcd CHANGELOG/CHANGELOG-3.5.md: "Turned on --pre-vote by default", PR 12770);
   * etcd 3.4 (`etcd --help`: `--pre-vote 'false'`) and the raft library leave it off.
   * Default true, as etcd's server.
   */
  preVote?: boolean;
  /** Upper bound on entries in one MsgApp, so one message never carries the whole log. Default 64. */
  maxEntriesPerMsg?: number;
  /** Stable storage from an earlier life. Absent for a member that has never run. */
  persisted?: { hardState: HardState; entries: readonly Entry[] };
  bugs?: RaftBugs;
}

/**
 * How the leader feeds one follower (etcd-io/raft tracker/progress.go, StateProbe and
 * StateReplicate). Probing, the leader does not know where the follower's log matches its own:
 * it sends one MsgApp and waits for the answer (or the next heartbeat answer) before the next,
 * walking `next` back on each rejection (§5.3). Once an append is accepted the match is known
 * and the leader replicates: it streams entries, moving `next` past each batch as it is sent.
 */
type ProgressState = 'probe' | 'replicate';

interface Progress {
  /** Highest index known to match the leader's log. */
  match: number;
  /** Next index to send. Replicating, every entry in (match, next) is in flight. */
  next: number;
  state: ProgressState;
  /** Probing: a MsgApp is out and unanswered, so no other is sent (etcd's MsgAppProbesPaused). Never set replicating. */
  probeSent: boolean;
  /** Heard from since the last CheckQuorum round. */
  recentActive: boolean;
}

interface PendingRead {
  context: string;
  index: number;
  acks: Set<string>;
}

type MessageFields = Partial<Message> & { type: MessageType; to: string };

export class RaftNode {
  readonly id: string;
  private readonly voters: readonly string[];
  private readonly rng: RandomSource;
  private readonly electionTicks: number;
  private readonly heartbeatTicks: number;
  private readonly checkQuorum: boolean;
  private readonly preVote: boolean;
  private readonly maxEntriesPerMsg: number;
  private readonly bugs: RaftBugs;
  private readonly log: RaftLog;

  private currentTerm: number;
  private vote: string | null;
  private currentRole: Role = 'follower';
  private lead: string | null = null;
  private electionElapsed = 0;
  private heartbeatElapsed = 0;
  private randomizedElectionTimeout = 0;
  private readonly votes = new Map<string, boolean>();
  private readonly progress = new Map<string, Progress>();
  private msgs: Message[] = [];
  private readStates: ReadState[] = [];
  // Stryker disable next-line ArrayDeclaration: equivalent: only a leader reads it, and becomeLeader's reset() replaces it first
  private pendingReads: PendingRead[] = [];
  /** ReadIndex requests that arrived before this leader committed an entry of its term (§8). */
  // Stryker disable next-line ArrayDeclaration: equivalent: only a leader reads it, and becomeLeader's reset() replaces it first
  private readsAwaitingCommit: string[] = [];
  private prevHardState: HardState;
  private readonly sentCounts: Record<string, number> = {};
  /** Set between ready() and advance(): inputs then would invalidate what the host is doing. */
  private readyOutstanding = false;

  constructor(config: RaftConfig) {
    // Stryker disable next-line StringLiteral: equivalent: the message of a throw no run reaches (a guard against a host error): the host builds voters from its own member ids
    if (!config.voters.includes(config.id)) throw new Error(`member ${config.id} is not among the voters ${config.voters.join(',')}`);
    this.id = config.id;
    this.voters = [...config.voters];
    this.rng = config.rng;
    this.electionTicks = config.electionTicks ?? 10;
    this.heartbeatTicks = config.heartbeatTicks ?? 1;
    // Stryker disable next-line LogicalOperator,BooleanLiteral: equivalent: the only host (reference/sim/cluster.ts bootMember) always passes a boolean, and for one `b && true` and `b ?? false` are `b ?? true`
    this.checkQuorum = config.checkQuorum ?? true;
    // Stryker disable next-line LogicalOperator,BooleanLiteral: equivalent: the only host always passes a boolean (as checkQuorum above)
    this.preVote = config.preVote ?? true;
    this.maxEntriesPerMsg = config.maxEntriesPerMsg ?? 64;
    this.bugs = config.bugs ?? {};
    // Stryker disable next-line OptionalChaining,ObjectLiteral: equivalent: the only host always passes `persisted` (a new member's storage holds term 0, no vote, commit 0), so neither the chain nor the default is reached
    const hs = config.persisted?.hardState ?? { term: 0, vote: null, commit: 0 };
    // Stryker disable next-line OptionalChaining,ArrayDeclaration: equivalent: the only host always passes `persisted` (as above)
    this.log = new RaftLog(config.persisted?.entries ?? [], hs.commit);
    this.currentTerm = hs.term;
    this.vote = hs.vote;
    this.prevHardState = this.hardState();
    this.resetRandomizedElectionTimeout();
  }

  // ---- observers -------------------------------------------------------------------------

  get role(): Role {
    return this.currentRole;
  }
  get term(): number {
    return this.currentTerm;
  }
  get leaderId(): string | null {
    return this.lead;
  }
  get commitIndex(): number {
    return this.log.committed;
  }
  get lastIndex(): number {
    return this.log.lastIndex();
  }
  get appliedIndex(): number {
    return this.log.applied;
  }
  get votedFor(): string | null {
    return this.vote;
  }
  /** Messages this member has emitted since it was constructed, by type. */
  messageCounts(): Record<string, number> {
    return { ...this.sentCounts };
  }
  /** Log entries in [from, to], for tests and observers. */
  entries(from = 1, to = Number.MAX_SAFE_INTEGER): Entry[] {
    return this.log.slice(from, to);
  }
  hardState(): HardState {
    return { term: this.currentTerm, vote: this.vote, commit: this.log.committed };
  }
  private quorum(): number {
    return Math.floor(this.voters.length / 2) + 1;
  }
  private peers(): string[] {
    return this.voters.filter((v) => v !== this.id);
  }

  // ---- inputs ----------------------------------------------------------------------------

  /** One unit of logical time. */
  tick(): void {
    this.assertNoOutstandingReady();
    if (this.currentRole === 'leader') this.tickHeartbeat();
    else this.tickElection();
  }

  /**
   * Append `data` to the log if this member leads. Returns the entry's position, which the
   * host uses to recognise the entry when it is applied (and to notice it was replaced by
   * another leader's entry at the same index, meaning it will never commit). Returns null
   * when this member is not the leader: nothing was proposed.
   */
  propose(data: string): { index: number; term: number } | null {
    this.assertNoOutstandingReady();
    if (this.currentRole !== 'leader') return null;
    const entry: Entry = { term: this.currentTerm, index: this.log.lastIndex() + 1, data };
    this.log.append(entry);
    this.bcastAppend();
    this.maybeCommit();
    return { index: entry.index, term: entry.term };
  }

  /**
   * Ask for a linearizable read (Raft dissertation §6.4, etcd's ReadOnlySafe): the leader
   * notes its commit index, confirms with a heartbeat round that a quorum still follows it,
   * and only then releases a ReadState; the host answers once it has applied that index.
   * Returns false when this member is not the leader.
   */
  readIndex(context: string): boolean {
    this.assertNoOutstandingReady();
    if (this.currentRole !== 'leader') return false;
    // A new leader does not know what is committed until an entry of its own term is (§8).
    if (this.log.term(this.log.committed) !== this.currentTerm) this.readsAwaitingCommit.push(context);
    else this.startRead(context);
    return true;
  }

  step(m: Message): void {
    this.assertNoOutstandingReady();
    if (m.type === 'MsgHup') {
      if (this.currentRole !== 'leader') this.hup();
      return;
    }
    if (m.term > this.currentTerm) {
      if (m.type === 'MsgPreVote' && this.inLease()) return; // §9.6: we still hear from a leader; no answer at all
      // §5.1: a higher term always wins. The leader is not known yet: if this message is the
      // leader's own, stepFollower below names it.
      if (!isPreVoteQuestion(m)) this.becomeFollower(m.term, null);
    } else if (m.term < this.currentTerm) {
      this.stepStale(m);
      return;
    }
    if (m.type === 'MsgVote' || m.type === 'MsgPreVote') this.handleVote(m);
    else if (this.currentRole === 'leader') this.stepLeader(m);
    else if (this.currentRole === 'candidate' || this.currentRole === 'pre-candidate') this.stepCandidate(m);
    else this.stepFollower(m);
  }

  // ---- Ready / advance -------------------------------------------------------------------

  hasReady(): boolean {
    return (
      this.msgs.length > 0 ||
      this.readStates.length > 0 ||
      this.log.stable < this.log.lastIndex() ||
      this.log.applied < this.log.committed ||
      !sameHardState(this.hardState(), this.prevHardState)
    );
  }

  /** The work outstanding now. The host must carry it out and call advance() before any other input. */
  ready(): Ready {
    const hs = this.hardState();
    // Stryker disable next-line BooleanLiteral: equivalent: it only arms assertNoOutstandingReady, a guard the host never trips (see there)
    this.readyOutstanding = true;
    return {
      softState: { role: this.currentRole, leaderId: this.lead },
      ...(sameHardState(hs, this.prevHardState) ? {} : { hardState: hs }),
      entriesToPersist: this.log.unstableEntries(),
      // Stryker disable next-line MethodExpression: equivalent: no input reaches the node between ready() and advance() (assertNoOutstandingReady), so msgs does not change while the host holds the Ready, and advance() removes exactly rd.messages.length of them
      messages: this.msgs.slice(),
      committedEntries: this.log.unappliedCommitted(),
      readStates: this.readStates.slice(),
    };
  }

  /** The host has persisted, sent, applied and answered everything in `rd`. */
  advance(rd: Ready): void {
    const lastPersisted = rd.entriesToPersist[rd.entriesToPersist.length - 1];
    if (lastPersisted !== undefined) this.log.stable = Math.max(this.log.stable, lastPersisted.index);
    const lastApplied = rd.committedEntries[rd.committedEntries.length - 1];
    if (lastApplied !== undefined) this.log.applied = Math.max(this.log.applied, lastApplied.index);
    if (rd.hardState !== undefined) this.prevHardState = rd.hardState;
    this.msgs.splice(0, rd.messages.length);
    this.readStates.splice(0, rd.readStates.length);
    this.readyOutstanding = false;
  }

  // Stryker disable next-line BlockStatement: equivalent, a guard against a host error: the host (reference/sim/cluster.ts pump/finishReady) calls advance() before it hands the node any other input
  private assertNoOutstandingReady(): void {
    // Stryker disable next-line StringLiteral: equivalent: the message of a throw no run reaches (a guard against a host error)
    if (this.readyOutstanding) throw new Error(`member ${this.id}: input received between ready() and advance()`);
  }

  // ---- role changes ----------------------------------------------------------------------

  private reset(term: number): void {
    if (term !== this.currentTerm) {
      this.currentTerm = term;
      this.vote = null;
    }
    this.lead = null;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.votes.clear();
    this.progress.clear();
    this.pendingReads = [];
    this.readsAwaitingCommit = [];
  }

  private resetRandomizedElectionTimeout(): void {
    this.randomizedElectionTimeout = this.electionTicks + this.rng.intBelow(this.electionTicks);
  }

  private becomeFollower(term: number, lead: string | null): void {
    this.reset(term);
    this.currentRole = 'follower';
    this.lead = lead;
  }

  /** The term, the vote and the log stay as they are: a pre-candidate only asks (§9.6). */
  private becomePreCandidate(): void {
    this.reset(this.currentTerm);
    this.currentRole = 'pre-candidate';
  }

  private becomeCandidate(): void {
    this.reset(this.currentTerm + 1);
    this.currentRole = 'candidate';
    this.vote = this.id;
  }

  private becomeLeader(): void {
    this.reset(this.currentTerm);
    this.currentRole = 'leader';
    this.lead = this.id;
    for (const p of this.peers()) this.progress.set(p, { match: 0, next: this.log.lastIndex() + 1, state: 'probe', probeSent: false, recentActive: true });
    // The no-op lets the leader commit, and so learn the commit index, at once (§8).
    this.log.append({ term: this.currentTerm, index: this.log.lastIndex() + 1, data: null });
    this.bcastAppend();
    this.maybeCommit();
  }

  /** The election timeout fired (or the host asked for an election). */
  private hup(): void {
    if (this.preVote) this.preCampaign();
    else this.campaign();
  }

  /** Ask every peer whether it would vote for us in the next term, which we do not enter yet. */
  private preCampaign(): void {
    this.becomePreCandidate();
    if (this.poll(this.id, true)) return;
    for (const p of this.peers()) {
      this.send({ type: 'MsgPreVote', to: p, term: this.currentTerm + 1, index: this.log.lastIndex(), logTerm: this.log.lastTerm() });
    }
  }

  private campaign(): void {
    this.becomeCandidate();
    if (this.poll(this.id, true)) return;
    for (const p of this.peers()) {
      this.send({ type: 'MsgVote', to: p, index: this.log.lastIndex(), logTerm: this.log.lastTerm() });
    }
  }

  /** Record a (pre-)vote; returns true when it decided the (pre-)election either way. */
  private poll(from: string, granted: boolean): boolean {
    this.votes.set(from, granted);
    let yes = 0;
    for (const v of this.votes.values()) if (v) yes++;
    const no = this.votes.size - yes;
    if (yes >= this.quorum()) this.wonPoll();
    else if (no >= this.quorum()) this.becomeFollower(this.currentTerm, null);
    else return false;
    return true;
  }

  /** A majority said yes: a pre-candidate now runs the real election, a candidate leads. */
  private wonPoll(): void {
    if (this.currentRole === 'pre-candidate') this.campaign();
    else this.becomeLeader();
  }

  /**
   * Heard from a leader within the last election timeout (etcd's `inLease`). A leader counts
   * itself: its electionElapsed restarts at every CheckQuorum round.
   */
  private inLease(): boolean {
    return this.lead !== null && this.electionElapsed < this.electionTicks;
  }

  // ---- ticking ---------------------------------------------------------------------------

  private tickElection(): void {
    this.electionElapsed++;
    if (this.electionElapsed >= this.randomizedElectionTimeout) this.hup();
  }

  private tickHeartbeat(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    if (this.electionElapsed >= this.electionTicks) {
      this.electionElapsed = 0;
      if (this.checkQuorum && !this.quorumRecentlyActive()) {
        this.becomeFollower(this.currentTerm, null);
        return;
      }
    }
    if (this.heartbeatElapsed >= this.heartbeatTicks) {
      this.heartbeatElapsed = 0;
      this.bcastHeartbeat('');
    }
  }

  /** CheckQuorum round: did a quorum (self included) answer since the last round? Resets the marks. */
  private quorumRecentlyActive(): boolean {
    let active = 1;
    for (const pr of this.progress.values()) {
      if (pr.recentActive) active++;
      pr.recentActive = false;
    }
    return active >= this.quorum();
  }

  // ---- message handling ------------------------------------------------------------------

  /**
   * A message from an older term. Tell a stale leader about the newer term so it steps down,
   * and a pre-candidate behind us that it cannot win, with our term so it catches up.
   */
  private stepStale(m: Message): void {
    if (m.type === 'MsgApp' || m.type === 'MsgHeartbeat') this.send({ type: 'MsgAppResp', to: m.from });
    else if (m.type === 'MsgPreVote') this.send({ type: 'MsgPreVoteResp', to: m.from, reject: true });
  }

  /**
   * §5.2 one vote per term, §5.4.1 only for a log at least as up to date as ours. A pre-vote
   * for a later term is a promise of nothing: it records no vote and leaves our timer alone,
   * and it is granted at the term asked about (the pre-candidate is still in the one below).
   */
  private handleVote(m: Message): void {
    const pre = m.type === 'MsgPreVote';
    const canVote =
      this.vote === m.from ||
      (this.vote === null && this.lead === null) ||
      (pre && m.term > this.currentTerm) ||
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: fault-model seam (RaftBugs.voteTwicePerTerm, TEST ONLY): unset in every feature run, so the test is false there
      this.bugs.voteTwicePerTerm === true;
    const granted =
      canVote &&
      (this.log.isUpToDate(m.index, m.logTerm) ||
        // Stryker disable next-line ConditionalExpression,BooleanLiteral: fault-model seam (RaftBugs.voteForStaleLog, TEST ONLY): unset in every feature run
        this.bugs.voteForStaleLog === true);
    if (granted && !pre) {
      this.vote = m.from;
      this.electionElapsed = 0;
    }
    const type = pre ? 'MsgPreVoteResp' : 'MsgVoteResp';
    this.send({ type, to: m.from, reject: !granted, term: granted ? m.term : this.currentTerm });
  }

  private stepFollower(m: Message): void {
    if (m.type !== 'MsgApp' && m.type !== 'MsgHeartbeat') return;
    this.electionElapsed = 0;
    this.lead = m.from;
    if (m.type === 'MsgApp') this.handleAppend(m);
    else this.handleHeartbeat(m);
  }

  private stepCandidate(m: Message): void {
    if (m.type === 'MsgApp' || m.type === 'MsgHeartbeat') {
      // Someone won this term (§5.2): follow it.
      this.becomeFollower(this.currentTerm, m.from);
      this.stepFollower(m);
    } else if (m.type === (this.currentRole === 'pre-candidate' ? 'MsgPreVoteResp' : 'MsgVoteResp')) {
      this.poll(m.from, !m.reject);
    }
  }

  private stepLeader(m: Message): void {
    const pr = this.progress.get(m.from);
    if (pr === undefined) return;
    if (m.type === 'MsgAppResp') this.handleAppendResponse(m, pr);
    else if (m.type === 'MsgHeartbeatResp') this.handleHeartbeatResponse(m, pr);
  }

  /** AppendEntries receiver (Figure 2), with the §5.3 conflict hint on rejection. */
  private handleAppend(m: Message): void {
    if (m.index < this.log.committed) {
      // Everything up to our commit index is settled; say how far we already match.
      this.send({ type: 'MsgAppResp', to: m.from, index: this.log.committed });
      return;
    }
    if (!this.log.matchTerm(m.index, m.logTerm)) {
      this.rejectAppend(m);
      return;
    }
    const cut = this.log.mergeFrom(m.entries);
    // Stryker disable next-line StringLiteral: equivalent: the message of an invariant check no run reaches (Leader Completeness, §5.4: no leader's append cuts a committed entry)
    if (cut !== 0 && cut <= this.log.committed) throw new Error(`member ${this.id}: leader ${m.from} overwrote committed index ${cut}`);
    const lastNew = m.index + m.entries.length;
    this.log.commitTo(Math.min(m.commit, lastNew));
    this.send({ type: 'MsgAppResp', to: m.from, index: lastNew });
  }

  /**
   * Refuse an append whose previous entry we lack or hold with another term, with a hint of
   * where our logs may agree: the last entry here no later than the one asked about and of a
   * term no higher than the leader's there (etcd-io/raft handleAppendEntries).
   */
  private rejectAppend(m: Message): void {
    const hint = this.log.findConflictByTerm(m.index, m.logTerm);
    this.send({ type: 'MsgAppResp', to: m.from, index: m.index, reject: true, rejectHint: hint, logTerm: this.log.term(hint) });
  }

  private handleHeartbeat(m: Message): void {
    // The leader sends min(our match, its commit), so this never commits entries we don't share.
    this.log.commitTo(m.commit);
    this.send({ type: 'MsgHeartbeatResp', to: m.from, context: m.context });
  }

  private handleAppendResponse(m: Message, pr: Progress): void {
    pr.recentActive = true;
    // An answer about an index below the known match is late: an append since superseded.
    if (m.index < pr.match || (m.reject && m.index === pr.match)) return;
    if (m.reject) {
      // Probe again where the follower's hint says the logs may agree (etcd's MaybeDecrTo).
      pr.state = 'probe';
      pr.next = Math.max(pr.match + 1, Math.min(m.index, this.agreementAfterRefusal(m) + 1));
      pr.probeSent = false;
      this.sendAppend(m.from, pr);
      return;
    }
    const probing = pr.state === 'probe';
    pr.match = m.index;
    pr.next = Math.max(pr.next, m.index + 1);
    if (probing) {
      // An accepted probe shows where the logs agree: stream from there (BecomeReplicate).
      pr.state = 'replicate';
      pr.next = m.index + 1;
      pr.probeSent = false;
    }
    if (this.maybeCommit()) this.bcastAppend();
    // A follower that was probed may have missed the commits made meanwhile: tell it at once.
    else if (probing || pr.next <= this.log.lastIndex()) this.sendAppend(m.from, pr);
  }

  /**
   * §5.3 fast backtracking: the last index where our log may agree with the follower's, from its
   * hint — the last of ours no later than the hint with a term no higher than the follower's
   * there (etcd-io/raft stepLeader, MsgAppResp) — so a whole run of conflicting entries is
   * skipped in one round trip.
   */
  private agreementAfterRefusal(m: Message): number {
    return m.logTerm > 0 ? this.log.findConflictByTerm(m.rejectHint, m.logTerm) : m.rejectHint;
  }

  /**
   * A heartbeat answer lets a probing leader send its next probe, and lets it notice a
   * follower that is behind with nothing in flight — appends may have been lost — and send it
   * what it lacks from `next` (etcd-io/raft stepLeader, MsgHeartbeatResp). Replicating, a lost
   * batch shows up as the follower refusing what comes after it, which turns it back to probing.
   */
  private handleHeartbeatResponse(m: Message, pr: Progress): void {
    pr.recentActive = true;
    pr.probeSent = false;
    if (pr.match < this.log.lastIndex()) this.sendAppend(m.from, pr);
    // Stryker disable next-line StringLiteral: equivalent: '' marks a heartbeat that carries no read and no read has context '' (the host's are 'read-<n>'), so with another marker ackRead('') finds no read and does nothing
    if (m.context !== '') this.ackRead(m.context, m.from);
  }

  // ---- replication and commit -------------------------------------------------------------

  /** One MsgApp from `next`: probing, only if none is out; replicating, `next` moves past it. */
  private sendAppend(to: string, pr: Progress): void {
    if (pr.probeSent) return;
    const prev = pr.next - 1;
    const entries = this.log.slice(pr.next, prev + this.maxEntriesPerMsg);
    this.send({ type: 'MsgApp', to, index: prev, logTerm: this.log.term(prev), entries, commit: this.log.committed });
    const last = entries[entries.length - 1];
    if (pr.state === 'probe') pr.probeSent = true;
    else if (last !== undefined) pr.next = last.index + 1;
  }

  private bcastAppend(): void {
    for (const [p, pr] of this.progress) this.sendAppend(p, pr);
  }

  private bcastHeartbeat(context: string): void {
    // Only a leader sends heartbeats, and it holds a Progress for every peer (becomeLeader).
    for (const [p, pr] of this.progress) {
      // etcd's sendHeartbeat: a follower may not hold entries past its match yet.
      this.send({ type: 'MsgHeartbeat', to: p, commit: Math.min(pr.match, this.log.committed), context });
    }
  }

  /**
   * Advance the commit index to the highest index a majority of voters hold — but only if
   * that entry is of the current term: counting replicas of an older term's entry is unsafe
   * (§5.4.2, Figure 8; etcd's raftLog.maybeCommit checks the term the same way).
   */
  private maybeCommit(): boolean {
    // Stryker disable next-line OptionalChaining: equivalent: maybeCommit runs at a leader, which holds a Progress for every other voter
    const matches = this.voters.map((v) => (v === this.id ? this.log.lastIndex() : this.progress.get(v)?.match ?? 0));
    matches.sort((a, b) => b - a);
    let index = matches[this.quorum() - 1] ?? 0;
    // Stryker disable next-line ConditionalExpression: fault-model seam (RaftBugs.commitWithoutMajority, TEST ONLY): unset in every feature run
    if (this.bugs.commitWithoutMajority) index = this.log.lastIndex();
    if (
      index <= this.log.committed ||
      (this.log.term(index) !== this.currentTerm &&
        // Stryker disable next-line ConditionalExpression,BooleanLiteral: fault-model seam (RaftBugs.commitOlderTerm, TEST ONLY): unset in every feature run, so the test is true there
        this.bugs.commitOlderTerm !== true)
    )
      return false;
    this.log.commitTo(index);
    this.releaseReadsAwaitingCommit();
    return true;
  }

  // ---- ReadIndex -------------------------------------------------------------------------

  private releaseReadsAwaitingCommit(): void {
    const waiting = this.readsAwaitingCommit;
    this.readsAwaitingCommit = [];
    for (const ctx of waiting) this.startRead(ctx);
  }

  private startRead(context: string): void {
    if (this.quorum() === 1) {
      this.readStates.push({ context, index: this.log.committed });
      return;
    }
    this.pendingReads.push({ context, index: this.log.committed, acks: new Set([this.id]) });
    this.bcastHeartbeat(context);
  }

  /**
   * A heartbeat answer for `context` proves we still led when that read was registered, and
   * so also when every earlier read was: release them all once a quorum answered.
   */
  private ackRead(context: string, from: string): void {
    const at = this.pendingReads.findIndex((r) => r.context === context);
    const read = this.pendingReads[at];
    if (read === undefined) return;
    read.acks.add(from);
    if (read.acks.size < this.quorum()) return;
    for (const r of this.pendingReads.splice(0, at + 1)) this.readStates.push({ context: r.context, index: r.index });
  }

  private send(fields: MessageFields): void {
    const m: Message = {
      from: this.id,
      term: this.currentTerm,
      index: 0,
      logTerm: 0,
      // Stryker disable next-line ArrayDeclaration: equivalent: only a MsgApp's entries are read (handleAppend, the observer's trace), and sendAppend always sets them
      entries: [],
      commit: 0,
      reject: false,
      rejectHint: 0,
      // Stryker disable next-line StringLiteral: equivalent: only a MsgHeartbeat's and a MsgHeartbeatResp's context is read (ackRead), and both are sent with one set (bcastHeartbeat, handleHeartbeat)
      context: '',
      ...fields,
    };
    this.sentCounts[m.type] = (this.sentCounts[m.type] ?? 0) + 1;
    this.msgs.push(m);
  }
}

/**
 * A pre-vote, or a pre-vote granted, carries the term the pre-candidate would campaign in. It
 * is a question about that term, not news of it: neither side moves to it (etcd-io/raft Step).
 */
function isPreVoteQuestion(m: Message): boolean {
  return m.type === 'MsgPreVote' || (m.type === 'MsgPreVoteResp' && !m.reject);
}

function sameHardState(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit;
}
