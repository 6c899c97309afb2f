/**
 * The codec writes an object's message straight from its JSON form (codec.ts writeMessage); the
 * way it did before — protobufjs' generated encoder over toPlain's copy — is kept as the oracle
 * (`viaPlain`). Random objects of every kind with a protobuf form, made from the message types
 * (every field kind: scalars, lists, maps, embedded and special messages; now and then a null,
 * a wrong type, an empty list or map, an unknown key), must give the same bytes both ways and the
 * same verdict on losses; when one way throws, so must the other. (Which fault an object with
 * several is refused for may differ: the plain copy converted every field before writing any,
 * the writer meets them in field-number order. Objects reach the codec validated, so either is
 * a bug's report, never an answer a client sees.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../server.ts';
import { decodeObject, protobufKinds, writeUnknown } from './codec.ts';
import * as fixtures from './cluster-fixtures.ts';
import { messageValue } from './random-objects.ts';

function bothWays(obj: unknown): { direct: unknown; oracle: unknown } {
  const run = (viaPlain: boolean) => {
    try {
      const lossless = writeUnknown(obj, { lossless: true, viaPlain });
      const lossy = writeUnknown(obj, { viaPlain });
      return { lossless: lossless && Buffer.from(lossless.bytes).toString('hex'), lossy: lossy && Buffer.from(lossy.bytes).toString('hex'), raw: lossy && Buffer.from(lossy.raw).toString('hex') };
    } catch {
      return { threw: true };
    }
  };
  return { direct: run(false), oracle: run(true) };
}

test('every fixture is written to the same bytes straight from JSON as through the plain copy', () => {
  for (const [name, obj] of Object.entries(fixtures)) {
    if (typeof obj !== 'object' || obj === null || !('kind' in obj)) continue;
    const { direct, oracle } = bothWays(obj);
    assert.deepEqual(direct, oracle, name);
  }
});

test('random objects of every kind: the same bytes and the same losses both ways, or a throw both ways', () => {
  const kinds = protobufKinds();
  assert.ok(kinds.length > 40, `${kinds.length} kinds`);
  const r = seededRandom(20261206);
  let compared = 0;
  let lossless = 0;
  for (let round = 0; round < 60; round++) {
    for (const { apiVersion, kind, type } of kinds) {
      const obj = { apiVersion, kind, ...messageValue(r, type, 0) };
      const { direct, oracle } = bothWays(obj);
      assert.deepEqual(direct, oracle, `${apiVersion}/${kind} round ${round}: ${JSON.stringify(obj).slice(0, 400)}`);
      compared++;
      if ((direct as { lossless?: string }).lossless) lossless++;
    }
  }
  // The corpus must reach the lossless path often, and the lossy one too.
  assert.ok(lossless > compared / 10 && lossless < compared, `${lossless} of ${compared} lossless`);
});

test('what is written straight from JSON reads back as the object', () => {
  const obj = fixtures.node;
  const write = writeUnknown(obj, { lossless: true })!;
  assert.deepEqual(decodeObject(Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), write.bytes])), obj);
});
