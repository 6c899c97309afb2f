/**
 * Random JSON forms of the protobuf messages, for the codec's property tests: every field kind
 * (scalars, lists, maps, embedded and special messages), and now and then a null, a wrong type,
 * an empty list or map, or an unknown key.
 */
import protobuf from 'protobufjs';

export type Rand = () => number;

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
export function messageValue(r: Rand, type: protobuf.Type, depth: number, into: Record<string, unknown> = {}): Record<string, unknown> {
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

