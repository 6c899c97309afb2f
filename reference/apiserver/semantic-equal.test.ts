import { test } from 'node:test';
import assert from 'node:assert/strict';
import { semanticEqual } from './semantic-equal.ts';

test('objects whose keys come in another order are semantically equal', () => {
  assert.ok(semanticEqual({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
});

test('an empty list or map equals an absent one, as nil and empty do in Semantic.DeepEqual', () => {
  assert.ok(semanticEqual({ a: [] }, {}));
  assert.ok(semanticEqual({ a: {} }, { a: null }));
});

test('different values, lengths or list orders are not equal', () => {
  assert.ok(!semanticEqual({ a: 1 }, { a: 2 }));
  assert.ok(!semanticEqual([1, 2], [2, 1]));
  assert.ok(!semanticEqual({ a: [1] }, { a: [1, 1] }));
  assert.ok(!semanticEqual({ a: '' }, {}));
  assert.ok(!semanticEqual({ a: 0 }, { a: false }));
});
