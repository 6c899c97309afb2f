import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestTrace } from './pipeline.ts';
import { TRACE_RING_SIZE, TRACE_RING_SLACK, TraceRecorder } from './trace.ts';

test('the trace ring keeps at least the last TRACE_RING_SIZE requests, oldest first, and never more than its slack beyond', () => {
  const ring: RequestTrace[] = [];
  let longest = 0;
  for (let id = 1; id <= 3 * TRACE_RING_SIZE; id++) {
    new TraceRecorder().finish(ring, id, 'GET', '/version', 200);
    longest = Math.max(longest, ring.length);
    assert.equal(ring.at(-1)!.id, id);
  }
  assert.ok(ring.length >= TRACE_RING_SIZE);
  assert.equal(longest, TRACE_RING_SIZE + TRACE_RING_SLACK);
  assert.deepEqual(ring.map((t) => t.id), Array.from({ length: ring.length }, (_, i) => 3 * TRACE_RING_SIZE - ring.length + 1 + i));
});
