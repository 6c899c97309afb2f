import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateFields } from './duplicate-fields.ts';
import { harness } from './testing/harness.ts';

const cases: Array<[string, string, string[]]> = [
  ['no duplicates', '{"a":1,"b":{"a":2}}', []],
  ['a duplicate at the root', '{"a":1,"a":2}', ['a']],
  ['a duplicate in a nested object', '{"metadata":{"name":"x","name":"y"}}', ['metadata.name']],
  ['a duplicate inside an array element, with its index', '{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","image":"j"}]}}', ['spec.containers[1].image']],
  ['the same key in sibling objects is no duplicate', '[{"a":1},{"a":2}]', []],
  ['a key repeated three times is reported once', '{"a":1,"a":2,"a":3}', ['a']],
  ['keys are compared after unescaping', '{"a":1,"\\u0061":2}', ['a']],
  ['quotes, braces and commas inside strings are text', '{"a":"}{,\\"a\\":","b":[",{"],"a":0}', ['a']],
];

for (const [name, text, expected] of cases) {
  test(`duplicate fields: ${name}`, () => {
    assert.deepEqual(duplicateFields(text), expected);
  });
}

const CM = '/api/v1/namespaces/default/configmaps';
const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","name":"c"},"data":{"k":"1","k":"2"}}';

test('under fieldValidation=Strict a body with duplicate keys is 400 naming each duplicate', async () => {
  const h = await harness();
  const r = await h.call('POST', `${CM}?fieldValidation=Strict`, body);
  assert.equal(r.status, 400);
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.k"');
});

test('under Warn (the default) duplicate keys are accepted with one Warning each; under Ignore silently', async () => {
  const h = await harness();
  const warned = await h.call('POST', CM, body);
  assert.equal(warned.status, 201);
  assert.equal(warned.headers.warning, '299 - "duplicate field \\"metadata.name\\"", 299 - "duplicate field \\"data.k\\""');
  assert.equal(warned.json.data.k, '2', 'the last value wins, as Go\'s decoder keeps it');
  const ignored = await h.call('POST', `${CM}?fieldValidation=Ignore`, body.replaceAll('"c"', '"d"'));
  assert.equal(ignored.status, 201);
  assert.equal(ignored.headers.warning, undefined);
});

test('a duplicate inside an unknown field is reported only as the unknown field', async () => {
  const h = await harness();
  const r = await h.call('POST', `${CM}?fieldValidation=Strict`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"e"},"extra":{"x":1,"x":2}}');
  assert.equal(r.status, 400);
  assert.match(r.json.message, /strict decoding error: unknown field "extra"$/);
});
