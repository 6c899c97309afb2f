import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBody } from './negotiation.ts';

test('a JSON or YAML body is read from its own bytes, also when they sit inside a larger buffer', () => {
  const pool = Buffer.from('xxxx{"kind":"ConfigMap","data":{"k":"välue"}}yyyy', 'utf8');
  const body = pool.subarray(4, pool.length - 4);
  assert.deepEqual(decodeBody('application/json', body), { kind: 'ConfigMap', data: { k: 'välue' } });
  assert.deepEqual(decodeBody('', body), { kind: 'ConfigMap', data: { k: 'välue' } });
  const yaml = Buffer.from('--kind: ConfigMap\ndata:\n  k: välue\n--', 'utf8');
  assert.deepEqual(decodeBody('application/yaml', yaml.subarray(2, yaml.length - 2)), { kind: 'ConfigMap', data: { k: 'välue' } });
});
