import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Expectations, EXPECTATIONS_TIMEOUT_MS } from './expectations.ts';

test('a key with creates in flight is not satisfied until each create is observed', () => {
  const e = new Expectations();
  assert.ok(e.satisfied('ns/rs', 0), 'nothing recorded yet');
  e.expect('ns/rs', 2, 0, 0);
  assert.ok(!e.satisfied('ns/rs', 1));
  e.creationObserved('ns/rs');
  assert.ok(!e.satisfied('ns/rs', 2));
  e.creationObserved('ns/rs');
  assert.ok(e.satisfied('ns/rs', 3));
});

test('deletes count the same way, and a record older than five minutes no longer blocks', () => {
  const e = new Expectations();
  e.expect('ns/rs', 0, 1, 0);
  assert.ok(!e.satisfied('ns/rs', EXPECTATIONS_TIMEOUT_MS));
  assert.ok(e.satisfied('ns/rs', EXPECTATIONS_TIMEOUT_MS + 1));
  e.expect('ns/rs', 0, 1, 0);
  e.deletionObserved('ns/rs');
  assert.ok(e.satisfied('ns/rs', 1));
});
