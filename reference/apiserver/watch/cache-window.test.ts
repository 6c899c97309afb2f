import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_WINDOW, WatchCacheWindow, WatchCacheWindows } from './cache-window.ts';

const FRESH = DEFAULT_WINDOW.eventFresh_ms;

test('until an event leaves the ring, the window sets no limit', () => {
  const w = new WatchCacheWindow();
  for (let rv = 1; rv <= 100; rv++) w.record(rv, 0);
  assert.equal(w.oldestWatchable(), undefined);
});

test('a burst of fresh events doubles the ring instead of dropping, up to the upper bound', () => {
  const w = new WatchCacheWindow({ lowerBound: 4, upperBound: 16, eventFresh_ms: FRESH });
  for (let rv = 1; rv <= 16; rv++) w.record(rv, 0);
  assert.equal(w.capacity, 16);
  assert.equal(w.oldestWatchable(), undefined);
  w.record(17, 0);
  // At the upper bound the oldest is dropped: a watch can start from 1 (events after 1), not before.
  assert.equal(w.oldestWatchable(), 1);
});

test('with upstream defaults, events older than eventFreshDuration leave once 100 newer ones arrive', () => {
  const w = new WatchCacheWindow();
  w.record(10, 0);
  w.record(11, 0);
  // 98 more fill the ring of 100 at t = 76 s; the oldest (10, 11) are stale, so no growth.
  for (let i = 0; i < 98; i++) w.record(20 + i, FRESH + 1000);
  assert.equal(w.oldestWatchable(), undefined);
  w.record(200, FRESH + 1000);
  assert.equal(w.capacity, 100);
  assert.equal(w.oldestWatchable(), 10, 'the event at 10 left: a watch from 10 still sees 11 on');
  w.record(201, FRESH + 1000);
  assert.equal(w.oldestWatchable(), 19, 'after 11 left too, the oldest kept is 20: watchable from 19');
});

test('a full ring whose newest quarter is stale halves, dropping the oldest events', () => {
  const w = new WatchCacheWindow({ lowerBound: 4, upperBound: 64, eventFresh_ms: FRESH });
  for (let rv = 1; rv <= 16; rv++) w.record(rv, 0);
  assert.equal(w.capacity, 16);
  for (let rv = 17; rv <= 32; rv++) w.record(rv, 0);
  assert.equal(w.capacity, 32);
  // Full (32 events) and all stale: the next event halves the ring to 16, keeping the newest.
  w.record(33, FRESH + 1);
  assert.equal(w.capacity, 16);
  assert.equal(w.size, 16);
  assert.equal(w.oldestWatchable(), 17, 'events 1..17 left; the oldest kept is 18');
});

test('each resource has its own window', () => {
  const ws = new WatchCacheWindows({ lowerBound: 2, upperBound: 2, eventFresh_ms: FRESH });
  for (let rv = 1; rv <= 5; rv++) ws.record('/registry/configmaps/', rv, 0);
  ws.record('/registry/secrets/', 6, 0);
  assert.equal(ws.oldestWatchable('/registry/configmaps/'), 3);
  assert.equal(ws.oldestWatchable('/registry/secrets/'), undefined);
  assert.equal(ws.oldestWatchable('/registry/pods/'), undefined);
});
