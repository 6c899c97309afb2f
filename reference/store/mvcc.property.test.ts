/**
 * Property checks against a naive model: a full copy of the key space at every revision.
 * Whatever commands run, reads at every retained revision match the model, and a snapshot
 * restores to a store that answers reads and watch replays identically.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KvEvent } from '../../contract/contract.ts';
import { MvccStore, type StoreCommand } from './mvcc.ts';

const keys = ['/a', '/a/1', '/a/2', '/b', '/b/1'];

const commandArb: fc.Arbitrary<StoreCommand> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('put' as const), key: fc.constantFrom(...keys), value: fc.string({ maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.constantFrom(...keys) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('txn' as const),
      cas: fc.record({ key: fc.constantFrom(...keys), expectModRevision: fc.nat(12), value: fc.option(fc.string({ maxLength: 3 }), { nil: null }) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('compact' as const), revision: fc.nat(30) }) },
);

/** Model: value map per revision, index = revision. */
function modelOf(commands: StoreCommand[], store: MvccStore): Map<string, string>[] {
  const states: Map<string, string>[] = [new Map(), new Map()];
  for (const command of commands) {
    const before = store.currentRevision();
    store.apply(command);
    if (store.currentRevision() === before) continue;
    assert.equal(store.currentRevision(), before + 1, 'a change moves the revision by exactly one');
    const next = new Map(states[before]!);
    for (const key of keys) {
      const kv = store.get(key);
      if (kv === undefined) next.delete(key);
      else next.set(key, kv.value);
    }
    states.push(next);
  }
  return states;
}

function replayFrom(store: MvccStore, revision: number): KvEvent[] {
  const events: KvEvent[] = [];
  const cancel = store.watch('', revision, { onEvents: (batch) => events.push(...batch), onCancel: () => {} });
  cancel();
  return events;
}

test('reads at every retained revision match a naive per-revision model, also after a snapshot round trip', () => {
  fc.assert(
    fc.property(fc.array(commandArb, { maxLength: 40 }), (commands) => {
      const store = new MvccStore();
      const states = modelOf(commands, store);
      const restored = MvccStore.restore(store.snapshot());
      const oldest = Math.max(1, store.compactRevision());
      for (let revision = oldest; revision <= store.currentRevision(); revision++) {
        const expected = [...states[revision]!.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
        for (const s of [store, restored]) {
          assert.deepEqual(s.range('', { revision }).kvs.map((kv) => [kv.key, kv.value]), expected);
        }
      }
      assert.deepEqual(replayFrom(restored, oldest), replayFrom(store, oldest));
      assert.equal(restored.snapshot(), store.snapshot());
    }),
    { numRuns: 300, seed: 20240601 },
  );
});

test('a watch replay from any retained revision equals the live events seen from the start', () => {
  fc.assert(
    fc.property(fc.array(commandArb, { maxLength: 30 }), (commands) => {
      const store = new MvccStore();
      const live: KvEvent[] = [];
      store.watch('/a', 1, { onEvents: (batch) => live.push(...batch), onCancel: () => {} });
      for (const command of commands) store.apply(command);
      const from = Math.max(1, store.compactRevision());
      const replayed: KvEvent[] = [];
      store.watch('/a', from, { onEvents: (batch) => replayed.push(...batch), onCancel: () => {} });
      assert.deepEqual(replayed, live.filter((e) => e.kv.modRevision >= from));
    }),
    { numRuns: 300, seed: 7 },
  );
});
