import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_RECORDER, eventName } from './timestamps.ts';

test('an event name is <object>.<unix nanos in hex>, as client-go names events', () => {
  const ms = Date.UTC(2026, 11, 1, 12, 0, 0, 123);
  const name = eventName('web-1', ms, EVENT_RECORDER.scheduler, 0);
  assert.match(name, /^web-1\.[0-9a-f]+$/);
  assert.equal(BigInt(`0x${name.split('.')[1]}`), BigInt(ms) * 1_000_000n);
});

test('the scheduler and the kubelet naming events of one pod in one millisecond, with the same sequence numbers, never pick one name', () => {
  const ms = 1_764_590_400_000;
  const scheduler = new Set(Array.from({ length: 1000 }, (_, i) => eventName('p', ms, EVENT_RECORDER.scheduler, i)));
  const kubelet = Array.from({ length: 1000 }, (_, i) => eventName('p', ms, EVENT_RECORDER.kubelet, i));
  assert.equal(scheduler.size, 1000);
  assert.equal(new Set(kubelet).size, 1000);
  assert.ok(kubelet.every((n) => !scheduler.has(n)));
});
