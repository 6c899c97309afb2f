import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rfc3339 } from './prepare.ts';

test('timestamps are RFC 3339 in UTC at second precision, as metav1.Time marshals them', () => {
  for (const ms of [0, 951782400000, 1704067199999, 1709210096789, 4102444800000, 1234567890123]) {
    assert.equal(rfc3339(ms), new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
  }
});
