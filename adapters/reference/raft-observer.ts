/**
 * The `raft.observe` facet over the Raft-backed reference store: per-member role, term, log
 * and commit index, message counts, and a protocol transcript.
 *
 * The transcript is taken at the boundary between each Raft member and its host: every
 * message a member steps (`recv`) and every Ready batch it hands over. A Ready is reported in
 * the order the host carries it out (reference/raft/types.ts): entries persisted (`append`),
 * the commit index it now knows (`commit`), messages sent (`send`), entries applied
 * (`apply`). Lines name the member by its role at that moment, so "append leader=1 index=5"
 * reads as the write-flow claims do. Formats:
 *
 *   append leader=1 index=5 term=2 put /k        (the entry's command, when it is a write)
 *   commit leader=1 index=5
 *   send MsgApp from=1 to=2 term=2 index=4 entries=5..5 commit=4
 *   recv MsgAppResp from=2 to=1 term=2 index=5
 *   apply follower=2 index=5
 *   became candidate member=2 term=3
 *   kill member=1 | restart member=1 | partition [1] [2,3] | heal
 *
 * How: the simulator exposes each live member's RaftNode (`sim.raft(id)`); this observer
 * wraps that instance's public `step` and `ready` methods, and re-wraps after a restart
 * (a new RaftNode). Nothing in the core changes; the wrappers only record and delegate.
 */
import type { Entry, Message, Ready, Role } from '../../reference/raft/types.ts';
import type { RaftNode } from '../../reference/raft/raft.ts';
import type { RaftBackend } from '../../reference/wiring/raft-backend.ts';
import type { RaftObserver } from '../../contract/contract.ts';

/** Lines kept; a minute of a five-member cluster's heartbeats is ~10 000. */
const TRACE_LIMIT = 200_000;

export class ReferenceRaftObserver implements RaftObserver {
  private readonly lines: string[] = [];
  private readonly instrumented = new WeakSet<RaftNode>();
  private readonly lastRole = new Map<string, Role>();
  private readonly lastCommit = new Map<string, number>();
  private readonly leaders = new Map<number, string[]>();

  constructor(private readonly backend: RaftBackend) {
    this.instrumentAll();
    // A restarted member is a new RaftNode: wrap it before it sees any traffic.
    backend.onAfterRun(() => this.instrumentAll());
  }

  role(id: string): Role {
    const s = this.backend.sim.status(id);
    if (!s.alive || s.role === undefined) throw new Error(`member ${id} is down: it has no role`);
    return s.role;
  }

  term(id: string): number {
    return this.live(id).term ?? 0;
  }

  commitIndex(id: string): number {
    return this.live(id).commitIndex ?? 0;
  }

  lastLogIndex(id: string): number {
    return this.live(id).lastIndex ?? 0;
  }

  messageCounts(): Record<string, number> {
    return this.backend.sim.messageCounts();
  }

  trace(): readonly string[] {
    return this.lines;
  }

  leadersByTerm(): ReadonlyMap<number, readonly string[]> {
    return this.leaders;
  }

  /** Record something that happened outside the protocol (faults, clients). */
  note(line: string): void {
    this.record(line);
  }

  /** Wrap every live member not wrapped yet; call after a restart. */
  instrumentAll(): void {
    for (const id of this.backend.sim.ids) {
      const node = this.backend.sim.raft(id);
      if (node !== undefined && !this.instrumented.has(node)) this.instrument(node);
    }
  }

  private live(id: string) {
    const s = this.backend.sim.status(id);
    if (!s.alive) throw new Error(`member ${id} is down`);
    return s;
  }

  private instrument(node: RaftNode): void {
    this.instrumented.add(node);
    this.lastRole.set(node.id, node.role);
    this.lastCommit.set(node.id, node.commitIndex);
    const step = node.step.bind(node);
    const ready = node.ready.bind(node);
    node.step = (m: Message) => {
      if (m.type !== 'MsgHup') this.record(`recv ${describeMessage(m)}`);
      step(m);
    };
    node.ready = (): Ready => {
      const rd = ready();
      this.recordReady(node.id, rd);
      return rd;
    };
  }

  private recordReady(id: string, rd: Ready): void {
    const role = rd.softState.role;
    if (role === 'leader') this.noteLeader(id, this.backend.sim.raft(id)?.term ?? 0);
    if (this.lastRole.get(id) !== role) {
      this.lastRole.set(id, role);
      this.record(`became ${role} member=${id} term=${rd.hardState?.term ?? this.backend.sim.status(id).term ?? 0}`);
    }
    for (const e of rd.entriesToPersist) this.record(`append ${role}=${id} index=${e.index} term=${e.term}${describeEntry(e)}`);
    const commit = rd.hardState?.commit;
    // Every change is a line, a move back too (none in a correct core: commitIndex only grows,
    // Raft Figure 2), so a step can check that claim from the transcript.
    if (commit !== undefined && commit !== (this.lastCommit.get(id) ?? 0)) {
      this.lastCommit.set(id, commit);
      this.record(`commit ${role}=${id} index=${commit}`);
    }
    for (const m of rd.messages) this.record(`send ${describeMessage(m)}`);
    const last = rd.committedEntries[rd.committedEntries.length - 1];
    if (last !== undefined) this.record(`apply ${role}=${id} index=${last.index}`);
  }

  /** Kept apart from the transcript, which drops old lines on a long run: this record never does. */
  private noteLeader(id: string, term: number): void {
    const ids = this.leaders.get(term) ?? [];
    if (!ids.includes(id)) this.leaders.set(term, [...ids, id]);
  }

  private record(line: string): void {
    if (this.lines.length >= TRACE_LIMIT) this.lines.splice(0, TRACE_LIMIT / 10);
    this.lines.push(`${line} @${this.backend.now_ms()}ms`);
  }
}

export function describeMessage(m: Message): string {
  const parts = [m.type, `from=${m.from}`, `to=${m.to}`, `term=${m.term}`];
  if (m.type === 'MsgApp') {
    const first = m.entries[0];
    const last = m.entries[m.entries.length - 1];
    parts.push(`index=${m.index}`, `entries=${first && last ? `${first.index}..${last.index}` : '-'}`, `commit=${m.commit}`);
  } else if (m.type === 'MsgAppResp') {
    parts.push(`index=${m.index}`);
  } else if (m.type === 'MsgHeartbeat') {
    parts.push(`commit=${m.commit}`);
  } else if (m.type === 'MsgVote' || m.type === 'MsgPreVote') {
    parts.push(`index=${m.index}`, `logTerm=${m.logTerm}`);
  }
  if (m.reject) parts.push('reject');
  return parts.join(' ');
}

/** " put /k" for a write command, "" for the leader's no-op or anything else. */
function describeEntry(e: Entry): string {
  if (e.data === null) return ' noop';
  try {
    const c = JSON.parse(e.data) as { op?: string; key?: string; cas?: { key?: string }; revision?: number };
    if (c.op === 'put' || c.op === 'delete') return ` ${c.op} ${c.key}`;
    if (c.op === 'txn') return ` txn ${c.cas?.key}`;
    if (c.op === 'compact') return ` compact ${c.revision}`;
  } catch {
    // not a store command
  }
  return '';
}
