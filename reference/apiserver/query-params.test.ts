import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryBool, queryOptionalBool } from './query-params.ts';

test('booleans parse as apimachinery Convert_Slice_string_To_bool: only absent, "false" (any case) and "0" are false', () => {
  const q = (s: string) => new URLSearchParams(s);
  for (const t of ['watch=true', 'watch=True', 'watch=TRUE', 'watch=1', 'watch=', 'watch', 'watch=yes']) assert.equal(queryBool(q(t), 'watch'), true, t);
  for (const f of ['', 'watch=false', 'watch=False', 'watch=FALSE', 'watch=0']) assert.equal(queryBool(q(f), 'watch'), false, f);
  assert.equal(queryOptionalBool(q(''), 'sendInitialEvents'), undefined);
  assert.equal(queryOptionalBool(q('sendInitialEvents=True'), 'sendInitialEvents'), true);
  assert.equal(queryOptionalBool(q('sendInitialEvents=False'), 'sendInitialEvents'), false);
});
