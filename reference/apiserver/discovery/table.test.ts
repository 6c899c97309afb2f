import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, parseRfc3339_ms } from './age.ts';
import { harness, pod } from '../testing/harness.ts';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

test('ages read like kubectl\'s: seconds up to two minutes, then minutes and seconds, hours, days, years', () => {
  const s = 1000;
  assert.equal(humanDuration(45 * s), '45s');
  assert.equal(humanDuration(190 * s), '3m10s');
  assert.equal(humanDuration(25 * 60 * s), '25m');
  assert.equal(humanDuration((2 * 3600 + 5 * 60) * s), '125m');
  assert.equal(humanDuration((4 * 3600 + 5 * 60) * s), '4h5m');
  assert.equal(humanDuration(30 * 3600 * s), '30h');
  assert.equal(humanDuration((4 * 24 + 3) * 3600 * s), '4d3h');
  assert.equal(humanDuration(800 * 24 * 3600 * s), '2y70d');
  assert.equal(parseRfc3339_ms('2024-03-01T12:34:56Z'), Date.UTC(2024, 2, 1, 12, 34, 56));
});

test('kubectl\'s Table accept header gets a meta.k8s.io/v1 Table with pod columns and metadata rows', async () => {
  const h = await harness();
  await h.call('POST', '/api/v1/namespaces/default/pods', pod('a'));
  h.clock.advance(190_000);
  const r = await h.call('GET', '/api/v1/namespaces/default/pods?limit=500', undefined, { accept: TABLE });
  assert.equal(r.json.kind, 'Table');
  assert.equal(r.json.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(r.json.columnDefinitions.filter((c: any) => c.priority === 0).map((c: any) => c.name), ['Name', 'Ready', 'Status', 'Restarts', 'Age']);
  assert.deepEqual(r.json.rows[0].cells.slice(0, 5), ['a', '0/1', 'Pending', '0', '3m10s']);
  assert.equal(r.json.rows[0].object.kind, 'PartialObjectMetadata');
  assert.equal(r.json.rows[0].object.metadata.name, 'a');
});

test('plain JSON stays the answer when the client does not ask for a Table first', async () => {
  const h = await harness();
  const r = await h.call('GET', '/api/v1/namespaces', undefined, { accept: 'application/json, */*' });
  assert.equal(r.json.kind, 'NamespaceList');
});
