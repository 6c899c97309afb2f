import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../apiserver/server.ts';
import { semanticEqual, semanticKey } from './objects.ts';

test('semanticEqual ignores key order and undefined members, and nothing else', () => {
  assert.ok(semanticEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
  assert.ok(semanticEqual({ a: 1, gone: undefined }, { a: 1 }));
  assert.ok(semanticEqual({ a: 1 }, { a: 1, gone: undefined }));
  assert.ok(!semanticEqual({ a: 1 }, { a: 1, b: null }), 'null is a value');
  assert.ok(!semanticEqual({ a: 1 }, { b: 1 }));
  assert.ok(!semanticEqual({ a: undefined, b: 1 }, { b: 1, c: 2 }));
  assert.ok(!semanticEqual([1, 2], [2, 1]), 'lists keep their order');
  assert.ok(!semanticEqual([], {}));
  assert.ok(!semanticEqual({ a: '1' }, { a: 1 }));
});

/** A random JSON value from a small alphabet, so that equal values come up often. */
function value(r: () => number, depth: number): unknown {
  const x = r();
  if (depth > 3 || x < 0.3) return [0, 1, 'a', 'b', true, null][Math.floor(r() * 6)];
  if (x < 0.55) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (const k of ['verbs', 'apiGroups', 'resources', 'x']) if (r() < 0.5) o[k] = r() < 0.1 ? undefined : value(r, depth + 1);
  return o;
}

/** The same value with every object's keys in reverse order. */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
}

test('semanticKey is equal exactly when semanticEqual is, for random JSON values', () => {
  const r = seededRandom(7);
  let equal = 0;
  for (let i = 0; i < 4000; i++) {
    const a = value(r, 0);
    const b = r() < 0.3 ? reordered(a) : value(r, 0);
    const same = semanticEqual(a, b);
    assert.equal(semanticKey(a) === semanticKey(b), same, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    assert.equal(semanticEqual(b, a), same, 'symmetric');
    if (same) equal++;
  }
  assert.ok(equal > 800 && equal < 3200, `${equal} equal pairs`);
});
