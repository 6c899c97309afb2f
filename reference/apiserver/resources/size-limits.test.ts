import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from '../testing/harness.ts';
import { MAX_SECRET_SIZE_BYTES } from './validation.ts';

const NS = '/api/v1/namespaces/default';
const MiB = MAX_SECRET_SIZE_BYTES;

test('the limit is core.MaxSecretSize, 1 MiB', () => assert.equal(MiB, 1048576));

test('a ConfigMap whose data and binaryData total more than 1 MiB is 422 on the whole object', async () => {
  const h = await harness();
  const body = { metadata: { name: 'big' }, data: { a: 'x'.repeat(MiB - 10) }, binaryData: { b: Buffer.alloc(11).toString('base64') } };
  const r = await h.call('POST', `${NS}/configmaps`, body);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes');
  assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' }]);
});

test('a ConfigMap of exactly 1 MiB is accepted', async () => {
  const h = await harness();
  const r = await h.call('POST', `${NS}/configmaps`, { metadata: { name: 'full' }, data: { a: 'x'.repeat(MiB - 1), b: 'y' } });
  assert.equal(r.status, 201);
});

test('multi-byte characters count as their UTF-8 bytes', async () => {
  const h = await harness();
  const r = await h.call('POST', `${NS}/configmaps`, { metadata: { name: 'wide' }, data: { a: 'é'.repeat(MiB / 2 + 1) } });
  assert.equal(r.status, 422);
});

test('a Secret whose decoded data exceed 1 MiB is 422 on data, also when it came as stringData', async () => {
  const h = await harness();
  const viaData = await h.call('POST', `${NS}/secrets`, { metadata: { name: 's1' }, data: { a: Buffer.alloc(MiB + 1).toString('base64') } });
  assert.equal(viaData.status, 422);
  assert.equal(viaData.json.message, 'Secret "s1" is invalid: data: Too long: may not be more than 1048576 bytes');
  const viaStringData = await h.call('POST', `${NS}/secrets`, { metadata: { name: 's2' }, stringData: { a: 'x'.repeat(MiB), b: 'y' } });
  assert.equal(viaStringData.status, 422);
  const fits = await h.call('POST', `${NS}/secrets`, { metadata: { name: 's3' }, data: { a: Buffer.alloc(MiB).toString('base64') } });
  assert.equal(fits.status, 201, 'base64 text is longer than 1 MiB, but the bytes it holds are not');
});

test('an update that grows a ConfigMap past 1 MiB is refused too', async () => {
  const h = await harness();
  const created = await h.call('POST', `${NS}/configmaps`, { metadata: { name: 'grow' }, data: { a: 'x' } });
  const r = await h.call('PUT', `${NS}/configmaps/grow`, { ...created.json, data: { a: 'x'.repeat(MiB + 1) } });
  assert.equal(r.status, 422);
});
