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
import protobuf from 'protobufjs';
import { seededRandom } from '../server.ts';
import { decodeObject, protobufKinds, writeUnknown } from './codec.ts';
import * as fixtures from './cluster-fixtures.ts';

type Rand = () => number;

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** A value that is wrong for most fields, or absent. */
function oddValue(r: Rand): unknown {
  return pick(r, [null, undefined, 'x', 7, -1, 1.5, true, {}, [], ['a'], { a: 1 }, '', 0]);
}

function scalarValue(r: Rand, type: string): unknown {
  switch (type) {
    case 'string':
      return pick(r, ['', 'a', 'web-1', 'kubernetes.io/hostname', 'ünïcödé', 'x'.repeat(200)]);
    case 'bool':
      return r() < 0.5;
    case 'bytes':
      return Buffer.from(pick(r, ['', 'v', 'secret value'])).toString('base64');
    case 'double':
    case 'float':
      return pick(r, [0, 1.5, -2, 1e10]);
    default:
      return pick(r, [0, 1, -1, 42, 2 ** 31 - 1, -(2 ** 31), 2 ** 40]);
  }
}

function specialValue(r: Rand, name: string): unknown {
  if (name.endsWith('.Time') || name.endsWith('.MicroTime')) return pick(r, ['2024-01-01T00:00:05Z', '2024-02-29T23:59:59.123456Z', '', 12]);
  if (name.endsWith('.FieldsV1')) return pick(r, [{}, { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }]);
  if (name.endsWith('.Quantity')) return pick(r, ['100m', '1Gi', 2, '0', true]);
  if (name.endsWith('.IntOrString')) return pick(r, [80, 'http', '25%', 0, false]);
  return pick(r, [['a', 'b'], [], 'x', [1]]);
}

const SPECIAL = /\.(Time|MicroTime|FieldsV1|Quantity|IntOrString|ExtraValue|AttestationValue)$/;
const INLINE = /^(Volume\.volumeSource|Probe\.handler|EphemeralContainer\.ephemeralContainerCommon|\w+\.localObjectReference|PersistentVolumeSpec\.persistentVolumeSource|IngressRule\.ingressRuleValue|RuleWithOperations\.rule)$/;

/** A random JSON form of a message, its embedded messages' fields at its own level. */
function messageValue(r: Rand, type: protobuf.Type, depth: number, into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const field of type.fieldsArray) {
    if (r() < 0.45) continue;
    const sub = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (sub && INLINE.test(`${type.name}.${field.name}`)) {
      if (depth < 6) messageValue(r, sub, depth + 1, into);
      continue;
    }
    if (r() < 0.04) {
      into[field.name] = oddValue(r);
      continue;
    }
    const one = (): unknown => (sub ? (SPECIAL.test(sub.fullName) ? specialValue(r, sub.fullName) : depth < 6 ? messageValue(r, sub, depth + 1) : {}) : scalarValue(r, field.type));
    const maybeOdd = (): unknown => (r() < 0.03 ? oddValue(r) : one());
    if (field.map) into[field.name] = Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, (_, i) => [pick(r, ['a', 'b/c', '1', `k${i}`, '']), maybeOdd()]));
    else if (field.repeated) into[field.name] = Array.from({ length: Math.floor(r() * 4) }, maybeOdd);
    else into[field.name] = one();
  }
  if (r() < 0.03) into.notAField = 'kept as JSON';
  return into;
}

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
