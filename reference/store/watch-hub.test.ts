import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvEvent } from '../../contract/contract.ts';
import { WatchHub } from './watch-hub.ts';

const change = (key: string, modRevision: number): KvEvent => ({ type: 'PUT', kv: { key, value: 'v', createRevision: modRevision, modRevision, version: 1 } });

test('every watcher of a change is handed one copy of it, not the store\'s own event', () => {
  const hub = new WatchHub();
  const seen: (readonly KvEvent[])[] = [];
  for (let i = 0; i < 3; i++) hub.add('/registry/', 1, { onEvents: (events) => void seen.push(events), onCancel: () => {} });
  const event = change('/registry/configmaps/a', 2);
  hub.publish(event, 2);
  assert.equal(seen.length, 3);
  assert.ok(seen.every((events) => events === seen[0]), 'one array for all');
  assert.notEqual(seen[0]![0], event, 'a copy, not the store\'s event');
  assert.notEqual(seen[0]![0]!.kv, event.kv, 'the key-value copied too');
  assert.deepEqual(seen[0]![0], event);
});
