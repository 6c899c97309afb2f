/**
 * The replicated state machine of the Raft-backed store: one MvccStore per member life, fed
 * the committed write commands in log order. Reads (ReadIndex queries) are JSON too, and every
 * answer — including a compacted or future revision — comes back as data, never as an
 * exception, because the simulator calls `query` inside its event loop.
 */
import type { Faults } from '../faults.ts';
import { CompactedError, type KeyValue } from '../../contract/contract.ts';
import type { RangeResult } from '../store/backend.ts';
import { decodeCommand, FutureRevisionError, type StoreResult } from '../store/commands.ts';
import { MvccStore } from '../store/mvcc.ts';
import type { StateMachine } from '../sim/state-machine.ts';

export type ReadQuery =
  | { op: 'get'; key: string; revision?: number }
  | { op: 'range'; prefix: string; revision?: number; limit?: number; fromKey?: string };

type ErrorAnswer = { op: 'error'; code: 'compacted' | 'future-revision'; requested: number; current: number; compact: number };

export type ReadAnswer =
  | { op: 'get'; kv?: KeyValue }
  | { op: 'range'; result: RangeResult }
  | { op: 'error'; error: Error };

export function encodeRead(query: ReadQuery): string {
  return JSON.stringify(query);
}

export class MvccStateMachine implements StateMachine {
  readonly store: MvccStore;
  /** Fault models reach each member's store (reference/faults.ts); default none. */
  constructor(faults?: Faults) {
    this.store = new MvccStore(faults);
  }

  apply(command: string): unknown {
    const decoded = decodeCommand(command);
    if (!('error' in decoded)) return this.store.apply(decoded.command);
    // An undecodable command is refused on every member alike; the log keeps it as an outcome.
    const refusal: StoreResult = {
      op: 'error', code: 'invalid-command', message: decoded.error,
      revision: this.store.currentRevision(), compactRevision: this.store.compactRevision(),
    };
    return refusal;
  }

  query(command: string): unknown {
    const q = JSON.parse(command) as ReadQuery;
    try {
      if (q.op === 'get') {
        const kv = this.store.get(q.key, q.revision);
        return kv ? { op: 'get', kv } : { op: 'get' };
      }
      return { op: 'range', result: this.store.range(q.prefix, { revision: q.revision, limit: q.limit, fromKey: q.fromKey }) };
    } catch (error) {
      return errorAnswer(error);
    }
  }

  snapshot(): string {
    return this.store.snapshot();
  }
}

function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof CompactedError) {
    return { op: 'error', code: 'compacted', requested: error.requestedRevision, current: 0, compact: error.compactRevision };
  }
  if (error instanceof FutureRevisionError) {
    return { op: 'error', code: 'future-revision', requested: error.requestedRevision, current: error.currentRevision, compact: 0 };
  }
  throw error;
}

/** Turns a query's answer back into what the Backend caller sees, errors as exceptions. */
export function decodeReadAnswer(raw: unknown): ReadAnswer {
  const a = raw as ErrorAnswer | { op: 'get'; kv?: KeyValue } | { op: 'range'; result: RangeResult };
  if (a.op !== 'error') return a;
  const error = a.code === 'compacted' ? new CompactedError(a.requested, a.compact) : new FutureRevisionError(a.requested, a.current);
  return { op: 'error', error };
}
