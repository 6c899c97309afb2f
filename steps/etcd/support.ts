/**
 * Helpers the etcd steps share: revision labels, key ranges written "a … b", event lists,
 * and bounded attempts for "does not succeed within". Pure functions where they can be, so
 * support.test.ts checks them without a target.
 */
import type { KvEvent, KvFacet, Waiter } from '../../contract/contract.ts';

/** Probed for the current revision: a key no scenario writes, so the read has no effect. */
const REVISION_PROBE_KEY = '/.kubespec-revision-probe';

/** The store's current revision (etcd's response header revision on a read). */
export async function currentRevision(kv: KvFacet): Promise<number> {
  return (await kv.get(REVISION_PROBE_KEY)).revision;
}

/**
 * Keys "/s/000" … "/s/099": the same prefix, a zero-padded counter from the first to the last.
 * Refuses anything else, so a typo in a feature fails loudly instead of writing one key.
 */
export function keyRange(first: string, last: string): string[] {
  const a = /^(.*?)(\d+)$/.exec(first);
  const b = /^(.*?)(\d+)$/.exec(last);
  if (!a || !b || a[1] !== b[1] || a[2]!.length !== b[2]!.length) {
    throw new Error(`"${first}" … "${last}" is not a range of keys with one prefix and a zero-padded counter`);
  }
  const width = a[2]!.length;
  const from = Number(a[2]);
  const to = Number(b[2]);
  if (to < from) throw new Error(`"${first}" … "${last}" runs backwards`);
  return Array.from({ length: to - from + 1 }, (_, i) => `${a[1]}${String(from + i).padStart(width, '0')}`);
}

/** The prefix and counter width of a range's first key: "/seq/0001" → { prefix: "/seq/", width: 4, from: 1 }. */
export function rangeShape(first: string): { prefix: string; width: number; from: number } {
  const m = /^(.*?)(\d+)$/.exec(first);
  if (!m) throw new Error(`"${first}" does not end in a counter`);
  return { prefix: m[1]!, width: m[2]!.length, from: Number(m[2]) };
}

export interface ExpectedEvent {
  type: 'PUT' | 'DELETE';
  key: string;
  value?: string;
}

/** `PUT "/w/a"="1", DELETE "/w/a"` → the events, in order. */
export function parseEvents(text: string): ExpectedEvent[] {
  const pattern = /(PUT|DELETE) "([^"]*)"(?:="([^"]*)")?/g;
  const events = [...text.matchAll(pattern)].map((m): ExpectedEvent => {
    const type = m[1] as 'PUT' | 'DELETE';
    return m[3] === undefined ? { type, key: m[2]! } : { type, key: m[2]!, value: m[3] };
  });
  const rest = text.replace(pattern, '').replace(/[\s,]/g, '');
  if (events.length === 0 || rest !== '') throw new Error(`cannot read the event list: ${text}`);
  return events;
}

/** Events as the feature writes them, for comparison and for failure messages. */
export function describeEvents(events: readonly (KvEvent | ExpectedEvent)[]): string {
  return events
    .map((e) => {
      const key = 'kv' in e ? e.kv.key : e.key;
      const value = 'kv' in e ? e.kv.value : e.value;
      if (e.type === 'PUT') return `PUT "${key}"="${value}"`;
      // Anything but PUT and DELETE is shown as it is, so it can never pass for a DELETE.
      return e.type === 'DELETE' ? `DELETE "${key}"` : `${JSON.stringify(e.type)} "${key}"`;
    })
    .join(', ');
}

/** "r" or "r + 4" or "12": a noted revision plus an offset, or a number. */
export function revisionOf(expr: string, recall: (label: string) => number): number {
  const m = /^\s*([A-Za-z]\w*|\d+)\s*(?:([+-])\s*(\d+))?\s*$/.exec(expr);
  if (!m) throw new Error(`"${expr}" is not a revision: write a noted label, optionally "+ n"`);
  const base = /^\d+$/.test(m[1]!) ? Number(m[1]) : recall(m[1]!);
  const offset = m[3] === undefined ? 0 : Number(m[3]) * (m[2] === '-' ? -1 : 1);
  return base + offset;
}

/** Durations as features write them: "800 ms", "5 s", "10 minutes", "2 hours". */
export function durationMs(amount: number, unit: string): number {
  if (unit === 'ms') return amount;
  if (/^(s|seconds?)$/.test(unit)) return amount * 1000;
  if (/^minutes?$/.test(unit)) return amount * 60_000;
  if (/^hours?$/.test(unit)) return amount * 3_600_000;
  throw new Error(`unknown time unit "${unit}"`);
}

export type Settled<T> = { settled: true; ok: true; value: T } | { settled: true; ok: false; error: unknown } | { settled: false };

/**
 * Start `op` and wait, through the session's waiter (virtual time on the reference, real time
 * elsewhere), at most `budget_ms` for it to settle. A real store's call may hang far longer than
 * the scenario's budget (etcd retries a write without quorum); such a call is left to settle on
 * its own and reported as not settled.
 */
export async function settleWithin<T>(waiter: Waiter, what: string, op: () => Promise<T>, budget_ms: number): Promise<Settled<T>> {
  let outcome: Settled<T> = { settled: false };
  op().then(
    (value) => (outcome = { settled: true, ok: true, value }),
    (error: unknown) => (outcome = { settled: true, ok: false, error }),
  );
  try {
    await waiter.until(what, () => outcome.settled, budget_ms);
  } catch {
    // Out of budget: `outcome` says "not settled", which is the answer.
  }
  return outcome;
}

/** Writes a scenario saw acknowledged, key → value: none of them may ever be lost. */
export function acknowledged(world: { recall<T>(name: string): T; note(name: string, value: unknown): void }): Map<string, string> {
  try {
    return world.recall<Map<string, string>>('acknowledged writes');
  } catch {
    const fresh = new Map<string, string>();
    world.note('acknowledged writes', fresh);
    return fresh;
  }
}

export function acknowledge(world: { recall<T>(name: string): T; note(name: string, value: unknown): void }, key: string, value: string): void {
  acknowledged(world).set(key, value);
}
