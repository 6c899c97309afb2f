/**
 * The codec reads an object's message straight from the wire into its JSON form (codec.ts
 * readMessage); the way it did before — protobufjs' decode, then fromMessage — is the oracle.
 * The bytes of random objects of every kind (as the writer makes them, lossy ones included) must
 * read the same both ways, with and without keepEmptyStrings, and the direct reader must need no
 * fallback for them. Corrupted bytes (a byte changed, the end cut off) must read the same both
 * ways, or be refused both ways.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../server.ts';
import { decodeObject, encodeObject, protobufKinds, type ReadWay } from './codec.ts';
import * as fixtures from './cluster-fixtures.ts';
import { messageValue } from './random-objects.ts';

function read(bytes: Uint8Array, keepEmptyStrings: boolean, way: ReadWay): unknown {
  try {
    return { value: decodeObject(bytes, { keepEmptyStrings, way }) };
  } catch (e) {
    return { threw: (e as Error).name };
  }
}

function writtenObjects(rounds: number): Array<{ label: string; bytes: Uint8Array }> {
  const out: Array<{ label: string; bytes: Uint8Array }> = [];
  for (const [name, obj] of Object.entries(fixtures)) {
    const bytes = typeof obj === 'object' && obj !== null && 'kind' in obj ? encodeObject(obj) : undefined;
    if (bytes) out.push({ label: name, bytes });
  }
  const r = seededRandom(61206);
  for (let round = 0; round < rounds; round++) {
    for (const { apiVersion, kind, type } of protobufKinds()) {
      try {
        const bytes = encodeObject({ apiVersion, kind, ...messageValue(r, type, 0) });
        if (bytes) out.push({ label: `${apiVersion}/${kind} round ${round}`, bytes });
      } catch {
        // an object the encoder refuses has no bytes to read
      }
    }
  }
  return out;
}

test('what the writer wrote reads the same straight from the wire as through protobufjs, without a fallback', () => {
  const objects = writtenObjects(20);
  assert.ok(objects.length > 1000, `${objects.length} objects`);
  for (const { label, bytes } of objects) {
    for (const keep of [true, false]) {
      const oracle = read(bytes, keep, 'message');
      assert.deepEqual(read(bytes, keep, 'direct-only'), oracle, `${label}, keepEmptyStrings ${keep}`);
    }
  }
});

test('corrupted bytes read the same both ways, or are refused both ways', () => {
  const r = seededRandom(7);
  let refused = 0;
  let compared = 0;
  for (const { label, bytes } of writtenObjects(3)) {
    for (let i = 0; i < 4; i++) {
      const bad = Uint8Array.from(bytes);
      if (i === 3) {
        const cut = bad.subarray(0, 4 + Math.floor(r() * (bad.length - 4)));
        const oracle = read(cut, true, 'message');
        assert.deepEqual(read(cut, true, 'direct'), oracle, `${label}, cut`);
        continue;
      }
      // Past the magic and the envelope's first bytes, so the object's own message is hit.
      const at = 4 + Math.floor(r() * (bad.length - 4));
      bad[at] = Math.floor(r() * 256);
      const oracle = read(bad, true, 'message') as { threw?: string };
      assert.deepEqual(read(bad, true, 'direct'), oracle, `${label}, byte ${at} changed`);
      compared++;
      if (oracle.threw) refused++;
    }
  }
  assert.ok(refused > 0 && refused < compared, `${refused} of ${compared} refused`);
});
