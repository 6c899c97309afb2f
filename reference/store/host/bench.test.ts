import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureDurablePut, measurePutGet } from './bench.ts';

test('the put/get micro-benchmark reports positive rates for both phases', () => {
  const result = measurePutGet(2000);
  assert.ok(result.put_ops_s > 0 && result.get_ops_s > 0, JSON.stringify(result));
});

test('the durable put benchmark completes and reports a positive rate', async () => {
  const result = await measureDurablePut(50, 4);
  assert.ok(result.put_ops_s > 0);
});
