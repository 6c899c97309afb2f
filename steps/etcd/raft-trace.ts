/**
 * Reading the `raft.observe` transcript (formats: adapters/reference/raft-observer.ts) into
 * records the steps can query. Lines this does not know are kept as kind 'other'.
 */

export interface TraceLine {
  kind: 'append' | 'commit' | 'apply' | 'send' | 'recv' | 'became' | 'other';
  text: string;
  /** The member the line is about (append/commit/apply/became) or the sender (send/recv). */
  member?: string;
  role?: string;
  index?: number;
  term: number;
  /** Messages. */
  type?: string;
  from?: string;
  to?: string;
  entriesFrom?: number;
  entriesTo?: number;
  reject?: boolean;
  /** append: the entry's write, e.g. "put /k". */
  command?: string;
}

const ROLE_LINE = /^(append|commit|apply) (leader|follower|pre-candidate|candidate)=(\S+) index=(\d+)(?: term=(\d+))?(?: (.+))?$/;
const MESSAGE_LINE = /^(send|recv) (Msg\w+) from=(\S+) to=(\S+) term=(\d+)(.*)$/;
const BECAME_LINE = /^became (leader|follower|pre-candidate|candidate) member=(\S+) term=(\d+)/;

export function parseLine(text: string): TraceLine {
  const body = text.replace(/ @\d+ms$/, '');
  let m = ROLE_LINE.exec(body);
  if (m) {
    const line: TraceLine = { kind: m[1] as TraceLine['kind'], text, role: m[2]!, member: m[3]!, index: Number(m[4]), term: Number(m[5] ?? 0) };
    if (m[6] !== undefined && m[6] !== '') line.command = m[6];
    return line;
  }
  m = MESSAGE_LINE.exec(body);
  if (m) return messageLine(text, m);
  m = BECAME_LINE.exec(body);
  if (m) return { kind: 'became', text, role: m[1]!, member: m[2]!, term: Number(m[3]) };
  return { kind: 'other', text, term: 0 };
}

function messageLine(text: string, m: RegExpExecArray): TraceLine {
  const rest = m[6] ?? '';
  const line: TraceLine = { kind: m[1] as 'send' | 'recv', text, type: m[2]!, from: m[3]!, member: m[3]!, to: m[4]!, term: Number(m[5]) };
  const index = /\bindex=(\d+)/.exec(rest);
  if (index) line.index = Number(index[1]);
  const entries = /\bentries=(\d+)\.\.(\d+)/.exec(rest);
  if (entries) {
    line.entriesFrom = Number(entries[1]);
    line.entriesTo = Number(entries[2]);
  }
  line.reject = /\breject\b/.test(rest);
  return line;
}

export function parseTrace(lines: readonly string[]): TraceLine[] {
  return lines.map(parseLine);
}

export function appendsOf(lines: readonly TraceLine[]): TraceLine[] {
  return lines.filter((l) => l.kind === 'append');
}

export function sendsOf(lines: readonly TraceLine[]): TraceLine[] {
  return lines.filter((l) => l.kind === 'send');
}

/** Commit lines with their position in `lines`. */
export function commitsOf(lines: readonly TraceLine[]): (TraceLine & { at: number; index: number; member: string })[] {
  const out: (TraceLine & { at: number; index: number; member: string })[] = [];
  lines.forEach((l, at) => {
    if (l.kind === 'commit' && l.index !== undefined && l.member !== undefined) out.push({ ...l, at, index: l.index, member: l.member });
  });
  return out;
}

/** The log index of the last entry that wrote `key`, and the leader that appended it. */
export function entryIndexOf(lines: readonly TraceLine[], key: string): { index: number; leader: string } {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (l.kind === 'append' && l.role === 'leader' && l.command === `put ${key}`) return { index: l.index!, leader: l.member! };
  }
  throw new Error(`the trace holds no leader append of a put of "${key}"`);
}

/**
 * Raft §5.4.2: a leader advances its commit index by counting replicas only onto an entry of its
 * own term. Replays the transcript — each member's log terms from its append lines, each leader's
 * term from its "became leader" line — and returns every leader commit line that broke the rule.
 */
export function commitsOntoEarlierTerms(lines: readonly TraceLine[]): string[] {
  const logTerms = new Map<string, Map<number, number>>();
  const leaderTerm = new Map<string, number>();
  const broken: string[] = [];
  for (const l of lines) {
    if (l.member === undefined) continue;
    if (l.kind === 'append' && l.index !== undefined) {
      const log = logTerms.get(l.member) ?? new Map<number, number>();
      log.set(l.index, l.term);
      logTerms.set(l.member, log);
    } else if (l.kind === 'became' && l.role === 'leader') {
      leaderTerm.set(l.member, l.term);
    } else if (l.kind === 'commit' && l.role === 'leader' && l.index !== undefined) {
      const entryTerm = logTerms.get(l.member)?.get(l.index);
      const term = leaderTerm.get(l.member);
      if (entryTerm !== undefined && term !== undefined && entryTerm !== term) {
        broken.push(`${l.text} (entry of term ${entryTerm}, leader of term ${term})`);
      }
    }
  }
  return broken;
}

/** etcd's default election timeout (`--election-timeout`, 1000 ms), as the reference's. */
export const ELECTION_TIMEOUT_MS = 1000;

/** etcd's default heartbeat interval (`--heartbeat-interval`, 100 ms), as the reference's. */
export const HEARTBEAT_INTERVAL_MS = 100;

const ELECTION_MESSAGE = /^Msg(Pre)?Vote(Resp)?$/;

export function timeOf(text: string | undefined): number | undefined {
  const m = text === undefined ? null : / @(\d+)ms$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * Whether the election behind the current leader is over in the transcript: no vote or
 * pre-vote message was sent in the last election timeout. A leader can win while a losing
 * candidate's requests are still on the wire, and the answers to them come later; those are
 * the election's messages, not the stable cluster's. A transcript without times counts as
 * settled (nothing to wait on).
 */
export function electionSettled(trace: readonly string[]): boolean {
  const now = timeOf(trace.at(-1));
  if (now === undefined) return true;
  for (let i = trace.length - 1; i >= 0; i--) {
    if (!trace[i]!.includes('Vote')) continue; // most lines are appends and heartbeats: skip the parse
    const line = parseLine(trace[i]!);
    if (line.kind === 'send' && ELECTION_MESSAGE.test(line.type ?? '')) return now - (timeOf(trace[i]) ?? now) >= ELECTION_TIMEOUT_MS;
  }
  return true;
}

/**
 * Each member's log, index → term, as its append lines built it, from the first line to `end`
 * (exclusive). A Ready persists a suffix of the log in index order, so an append at index i
 * replaces whatever the member held from i on (etcd-io/raft log_unstable.go, truncateAndAppend).
 */
export function logsFromTrace(lines: readonly TraceLine[], end = lines.length): Map<string, number[]> {
  const logs = new Map<string, number[]>();
  for (const l of lines.slice(0, end)) {
    if (l.kind !== 'append' || l.member === undefined || l.index === undefined) continue;
    const log = logs.get(l.member) ?? [];
    log.length = l.index - 1;
    log.push(l.term);
    logs.set(l.member, log);
  }
  return logs;
}

/** How many leading entries two logs share (by Log Matching, the rest cannot agree). */
export function agreedPrefix(a: readonly number[], b: readonly number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Entries carried by the MsgApps in `lines` sent to `to`. */
export function entriesSentTo(lines: readonly TraceLine[], to: string): number {
  let n = 0;
  for (const l of lines) {
    if (l.kind === 'send' && l.type === 'MsgApp' && l.to === to && l.entriesFrom !== undefined) n += l.entriesTo! - l.entriesFrom + 1;
  }
  return n;
}

/** The position of the last line that `matches`, or -1. */
export function lastLineWhere(lines: readonly TraceLine[], matches: (l: TraceLine) => boolean): number {
  for (let i = lines.length - 1; i >= 0; i--) if (matches(lines[i]!)) return i;
  return -1;
}
