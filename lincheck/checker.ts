/**
 * A linearizability checker over recorded client histories, after Wing & Gong (1993) with
 * Lowe's memoization (2017) — the algorithm of anishathalye/porcupine's checkSingle.
 *
 * A history is linearizable when every operation can be given one instant between its
 * invocation and its return such that, taken in the order of those instants, the operations
 * are legal for the sequential model. An operation that never returned gets no upper bound:
 * it may have taken effect at any time after its call, or not at all (placing it after
 * everything else has the same effect as "never", since nobody observes it there).
 *
 * The search keeps the history as a doubly linked list of call and return events sorted by
 * time. It repeatedly tries to linearize some call that precedes the first remaining return;
 * a (set of linearized operations, model state) pair seen before is never explored again.
 */

export interface Operation<I, O> {
  /** Who issued it; only used in reports. */
  readonly client: number;
  readonly input: I;
  /** The answer; undefined when the call never returned (its effect is unknown). */
  readonly output?: O;
  readonly call_ms: number;
  /** When the answer arrived; undefined (or Infinity) when it never did. */
  readonly return_ms?: number;
}

export interface Model<S, I, O> {
  init(): S;
  /**
   * Is `output` a legal answer to `input` in `state`, and what state follows? `output` is
   * undefined for an operation that never returned: any answer is acceptable then.
   */
  step(state: S, input: I, output: O | undefined): { ok: boolean; next: S };
  /** A string equal for equal states, for the memo table. */
  stateKey(state: S): string;
  /** Split into histories that can be checked apart (P-compositionality), e.g. by key. */
  partition?(ops: readonly Operation<I, O>[]): Operation<I, O>[][];
  describe?(op: Operation<I, O>): string;
}

export type CheckResult<I, O> =
  | { outcome: 'ok'; partitions: number }
  | {
      outcome: 'illegal';
      /** The sub-history that admits no linearization. */
      partition: Operation<I, O>[];
      /** The longest sequence of its operations the search managed to linearize. */
      longestLinearized: Operation<I, O>[];
    }
  | { outcome: 'unknown'; reason: string };

export interface CheckOptions {
  /** Bound on search steps per partition; exceeding it yields 'unknown' rather than running forever. */
  maxSteps?: number;
}

interface Event {
  readonly op: number;
  readonly isCall: boolean;
  readonly time: number;
  match: Event | null;
  prev: Event | null;
  next: Event | null;
}

export function checkOperations<S, I, O>(
  model: Model<S, I, O>,
  history: readonly Operation<I, O>[],
  opts: CheckOptions = {},
): CheckResult<I, O> {
  const parts = model.partition ? model.partition(history) : [history.slice()];
  for (const part of parts) {
    const result = checkPartition(model, part, opts.maxSteps ?? 1_000_000);
    if (result.outcome !== 'ok') return result;
  }
  return { outcome: 'ok', partitions: parts.length };
}

/** Build the sorted event list behind a sentinel head. Ties: calls first, which reads overlapping as concurrent. */
function buildEvents<I, O>(ops: readonly Operation<I, O>[]): Event {
  const events: Event[] = [];
  ops.forEach((op, i) => {
    const call: Event = { op: i, isCall: true, time: op.call_ms, match: null, prev: null, next: null };
    const ret: Event = { op: i, isCall: false, time: isPending(op) ? Infinity : (op.return_ms as number), match: null, prev: null, next: null };
    call.match = ret;
    events.push(call, ret);
  });
  events.sort((a, b) => a.time - b.time || Number(b.isCall) - Number(a.isCall) || a.op - b.op);
  const head: Event = { op: -1, isCall: false, time: -Infinity, match: null, prev: null, next: null };
  let last = head;
  for (const e of events) {
    last.next = e;
    e.prev = last;
    last = e;
  }
  return head;
}

/** Take a call and its return out of the list. */
function lift(call: Event): void {
  for (const e of [call, call.match]) {
    if (e === null || e.prev === null) continue;
    e.prev.next = e.next;
    if (e.next !== null) e.next.prev = e.prev;
  }
}

/** Put them back, in the reverse order of lift. */
function unlift(call: Event): void {
  for (const e of [call.match, call]) {
    if (e === null || e.prev === null) continue;
    e.prev.next = e;
    if (e.next !== null) e.next.prev = e;
  }
}

class Bitset {
  private readonly words: Uint32Array;
  constructor(size: number) {
    this.words = new Uint32Array(Math.ceil(size / 32) || 1);
  }
  set(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }
  clear(i: number): void {
    this.words[i >>> 5]! &= ~(1 << (i & 31));
  }
  key(): string {
    return Array.from(this.words, (w) => w.toString(36)).join('.');
  }
}

function isPending(op: Operation<unknown, unknown>): boolean {
  return op.return_ms === undefined || !Number.isFinite(op.return_ms);
}

function checkPartition<S, I, O>(model: Model<S, I, O>, ops: Operation<I, O>[], maxSteps: number): CheckResult<I, O> {
  const head = buildEvents(ops);
  const linearized = new Bitset(ops.length);
  const seen = new Set<string>();
  const stack: { call: Event; state: S }[] = [];
  let longest: number[] = [];
  let state = model.init();
  let entry = head.next;
  for (let steps = 0; head.next !== null; steps++) {
    if (steps >= maxSteps) return { outcome: 'unknown', reason: `search exceeded ${maxSteps} steps on ${ops.length} operations` };
    if (entry === null) throw new Error('linearizability search ran off the event list');
    if (entry.isCall) {
      const op = ops[entry.op]!;
      const { ok, next } = model.step(state, op.input, isPending(op) ? undefined : op.output);
      linearized.set(entry.op);
      const key = ok ? `${linearized.key()}|${model.stateKey(next)}` : '';
      if (ok && !seen.has(key)) {
        seen.add(key);
        stack.push({ call: entry, state });
        state = next;
        lift(entry);
        entry = head.next;
        if (stack.length > longest.length) longest = stack.map((s) => s.call.op);
      } else {
        linearized.clear(entry.op);
        entry = entry.next;
      }
      continue;
    }
    // A return: its operation must be linearized before anything later. Backtrack.
    const top = stack.pop();
    if (top === undefined) return { outcome: 'illegal', partition: ops, longestLinearized: longest.map((i) => ops[i]!) };
    state = top.state;
    linearized.clear(top.call.op);
    unlift(top.call);
    entry = top.call.next;
  }
  return { outcome: 'ok', partitions: 1 };
}
