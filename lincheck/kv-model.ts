/**
 * The sequential specification of a key-value store with put, get and compare-and-swap, one
 * register per key. Keys are independent, so histories are checked key by key — exactly
 * what makes checking cheap (Herlihy & Wing's locality; porcupine's partition).
 */
import { checkOperations, type CheckOptions, type CheckResult, type Model, type Operation } from './checker.ts';

export type KvInput =
  | { readonly op: 'put'; readonly key: string; readonly value: string }
  | { readonly op: 'get'; readonly key: string }
  /** Write `value` only if the key currently holds `expect` (null: the key must be absent). */
  | { readonly op: 'cas'; readonly key: string; readonly expect: string | null; readonly value: string };

/** put: true. get: the value read (null: absent). cas: whether it swapped. */
export type KvOutput = string | null | boolean;

export type KvOperation = Operation<KvInput, KvOutput>;

/** The value of one key; null when absent. */
type Register = string | null;

export const kvModel: Model<Register, KvInput, KvOutput> = {
  init: () => null,
  step(state, input, output) {
    switch (input.op) {
      case 'put':
        return { ok: true, next: input.value };
      case 'get':
        return { ok: output === undefined || output === state, next: state };
      case 'cas': {
        const swaps = state === input.expect;
        if (output === undefined) return { ok: true, next: swaps ? input.value : state };
        return { ok: output === swaps, next: swaps ? input.value : state };
      }
    }
  },
  stateKey: (state) => (state === null ? '\u0000' : `=${state}`),
  partition(ops) {
    const byKey = new Map<string, KvOperation[]>();
    for (const op of ops) {
      const list = byKey.get(op.input.key);
      if (list) list.push(op);
      else byKey.set(op.input.key, [op]);
    }
    return [...byKey.keys()].sort().map((k) => byKey.get(k) ?? []);
  },
  describe: describeKvOperation,
};

export function describeKvOperation(op: KvOperation): string {
  const i = op.input;
  const what =
    i.op === 'put' ? `put(${i.key}, ${i.value})` : i.op === 'get' ? `get(${i.key})` : `cas(${i.key}, ${String(i.expect)} -> ${i.value})`;
  const answer = op.return_ms === undefined || !Number.isFinite(op.return_ms) ? 'no answer' : `-> ${JSON.stringify(op.output)}`;
  const until = op.return_ms === undefined || !Number.isFinite(op.return_ms) ? '∞' : String(op.return_ms);
  return `client ${op.client} [${op.call_ms}, ${until}] ms ${what} ${answer}`;
}

export function checkKvHistory(history: readonly KvOperation[], opts?: CheckOptions): CheckResult<KvInput, KvOutput> {
  return checkOperations(kvModel, history, opts);
}

/** A failure report a person can read: the offending key's history, in call order. */
export function explainKvResult(result: CheckResult<KvInput, KvOutput>): string {
  if (result.outcome === 'ok') return `linearizable (${result.partitions} keys)`;
  if (result.outcome === 'unknown') return `undecided: ${result.reason}`;
  const lines = [...result.partition].sort((a, b) => a.call_ms - b.call_ms).map(describeKvOperation);
  const prefix = result.longestLinearized.map(describeKvOperation);
  return ['not linearizable; history of the key:', ...lines.map((l) => `  ${l}`), 'longest linearizable prefix:', ...prefix.map((l) => `  ${l}`)].join('\n');
}
