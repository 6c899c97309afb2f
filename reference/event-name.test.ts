import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventName } from './event-name.ts';

test('two recorders naming events about one pod in the same millisecond get different names', () => {
  const now = Date.UTC(2026, 0, 1);
  assert.notEqual(eventName('web-1', now, 'default-scheduler', 0), eventName('web-1', now, 'kubelet/node-1', 0));
});

test('the name is <object>.<unix nanoseconds in hex>, within the millisecond it was recorded in', () => {
  const now = 1_767_225_600_000;
  const [object, hex] = eventName('web-1', now, 'kubelet/node-1', 7).split('.');
  assert.equal(object, 'web-1');
  const nanos = BigInt(`0x${hex}`);
  assert.ok(nanos >= BigInt(now) * 1_000_000n && nanos < BigInt(now + 1) * 1_000_000n);
});

test('one recorder keeps its events apart within a millisecond by its sequence', () => {
  const now = 1_767_225_600_000;
  assert.notEqual(eventName('web-1', now, 'default-scheduler', 0), eventName('web-1', now, 'default-scheduler', 1));
});
