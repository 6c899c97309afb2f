/**
 * The store's write commands and their results: plain JSON data, so a replicated log can
 * carry a command as a string and every member can apply it and compare results.
 */
import { CompactedError } from '../../contract/contract.ts';
import type { CompareAndSwap, KeyValue } from '../../contract/contract.ts';

export type StoreCommand =
  | { op: 'put'; key: string; value: string }
  | { op: 'delete'; key: string }
  | { op: 'txn'; cas: CompareAndSwap }
  | { op: 'compact'; revision: number };

/** Why a command did nothing: etcd's ErrCompacted / ErrFutureRev, or a command that does not parse. */
export type StoreErrorCode = 'compacted' | 'future-revision' | 'invalid-command';

export type StoreResult =
  | { op: 'put'; revision: number; kv: KeyValue }
  | { op: 'delete'; revision: number; deleted?: KeyValue }
  | { op: 'txn'; succeeded: boolean; revision: number; kv?: KeyValue }
  | { op: 'compact'; revision: number; compactRevision: number }
  | {
      op: 'error';
      code: StoreErrorCode;
      message: string;
      /** The store's revision and compact revision when the command was refused. */
      revision: number;
      compactRevision: number;
      /** The revision the command asked for, for compaction errors. */
      requestedRevision?: number;
    };

/** Raised for a read above the current revision (etcd's mvcc.ErrFutureRev). */
export class FutureRevisionError extends Error {
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`mvcc: required revision is a future revision (requested ${requestedRevision}, current ${currentRevision})`);
    this.name = 'FutureRevisionError';
  }
}

export function encodeCommand(command: StoreCommand): string {
  return JSON.stringify(command);
}

/**
 * Checks a command's shape (it may come off the wire or out of a log). Accepts a JSON string
 * or an object; never throws. An empty key is refused as etcd refuses it ("key is not provided").
 */
export function decodeCommand(input: unknown): { command: StoreCommand } | { error: string } {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { error: 'command is not JSON' };
    }
  }
  if (typeof value !== 'object' || value === null) return { error: 'command is not an object' };
  const c = value as Record<string, unknown>;
  switch (c.op) {
    case 'put':
      if (!isKey(c.key) || typeof c.value !== 'string') return { error: 'put needs a non-empty key and a string value' };
      return { command: { op: 'put', key: c.key, value: c.value } };
    case 'delete':
      if (!isKey(c.key)) return { error: 'delete needs a non-empty key' };
      return { command: { op: 'delete', key: c.key } };
    case 'txn':
      return decodeTxn(c.cas);
    case 'compact':
      if (!Number.isSafeInteger(c.revision) || (c.revision as number) < 0) return { error: 'compact needs a revision >= 0' };
      return { command: { op: 'compact', revision: c.revision as number } };
    default:
      return { error: `unknown command op ${JSON.stringify(c.op)}` };
  }
}

function decodeTxn(cas: unknown): { command: StoreCommand } | { error: string } {
  if (typeof cas !== 'object' || cas === null) return { error: 'txn needs a cas object' };
  const c = cas as Record<string, unknown>;
  if (!isKey(c.key)) return { error: 'txn needs a non-empty key' };
  if (!Number.isSafeInteger(c.expectModRevision) || (c.expectModRevision as number) < 0) {
    return { error: 'txn needs expectModRevision >= 0' };
  }
  if (c.value !== null && typeof c.value !== 'string') return { error: 'txn value must be a string or null' };
  return { command: { op: 'txn', cas: { key: c.key, expectModRevision: c.expectModRevision as number, value: c.value } } };
}

function isKey(key: unknown): key is string {
  return typeof key === 'string' && key.length > 0;
}

/** The exception a caller of an async API should see for an error result; undefined for success. */
export function errorOfResult(result: StoreResult): Error | undefined {
  if (result.op !== 'error') return undefined;
  if (result.code === 'compacted') return new CompactedError(result.requestedRevision ?? 0, result.compactRevision);
  if (result.code === 'future-revision') return new FutureRevisionError(result.requestedRevision ?? 0, result.revision);
  return new Error(`invalid store command: ${result.message}`);
}
