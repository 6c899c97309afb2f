/**
 * The Kubernetes protobuf wire form, after kubernetes/apimachinery
 * pkg/runtime/serializer/protobuf/protobuf.go: a body is the 4-byte magic `k8s\0` followed by a
 * runtime.Unknown whose typeMeta names apiVersion and kind and whose `raw` is the object's own
 * message (without TypeMeta). Watch streams (the "raw" stream serializer and
 * LengthDelimitedFramer) send each WatchEvent as a 4-byte big-endian length and the bare
 * WatchEvent message, whose object.raw is the object in the enveloped form.
 *
 * The server keeps working on the JSON form: these functions translate at the edge, with the
 * types whose JSON and protobuf forms differ converted here (Time as RFC 3339 text vs
 * seconds/nanos, FieldsV1 as an object vs its JSON bytes, bytes as base64).
 */
import protobuf from 'protobufjs';
import { ByteWriter } from './byte-writer.ts';
import { CORE_V1_PROTO, META_V1_PROTO, RBAC_V1_PROTO, RUNTIME_PROTO } from './schema.ts';
import { APPS_V1_PROTO, BATCH_V1_PROTO, CORE_V1_WORKLOAD_PROTO, INTSTR_PROTO, RESOURCE_PROTO } from './schema-workloads.ts';
import * as CLUSTER from './schema-cluster.ts';
import { rfc3339 } from '../../timestamps.ts';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

const root = new protobuf.Root();
const PROTOS = [RUNTIME_PROTO, META_V1_PROTO, RESOURCE_PROTO, INTSTR_PROTO, RBAC_V1_PROTO, CORE_V1_PROTO, CORE_V1_WORKLOAD_PROTO, APPS_V1_PROTO, BATCH_V1_PROTO, ...Object.values(CLUSTER)];
for (const text of PROTOS) protobuf.parse(text, root, { keepCase: true });
root.resolveAll();

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const Unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
const WatchEvent = root.lookupType(`${META}.WatchEvent`);

/** apiVersion/kind → message; a List kind is its item kind + "List". */
const KIND_MESSAGES: Record<string, string> = {
  'v1/Status': `${META}.Status`,
  'meta.k8s.io/v1/Status': `${META}.Status`,
};
for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']) {
  KIND_MESSAGES[`rbac.authorization.k8s.io/v1/${kind}`] = `k8s.io.api.rbac.v1.${kind}`;
  KIND_MESSAGES[`rbac.authorization.k8s.io/v1/${kind}List`] = `k8s.io.api.rbac.v1.${kind}List`;
}
const GROUP_KINDS: [apiVersion: string, pkg: string, kinds: string[]][] = [
  ['v1', 'k8s.io.api.core.v1', ['ConfigMap', 'Secret', 'Namespace', 'ServiceAccount', 'Pod', 'Service', 'PersistentVolumeClaim']],
  ['v1', 'k8s.io.api.core.v1', ['Node', 'Event', 'Endpoints', 'ReplicationController', 'ResourceQuota', 'LimitRange', 'PersistentVolume']],
  ['apps/v1', 'k8s.io.api.apps.v1', ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet']],
  ['batch/v1', 'k8s.io.api.batch.v1', ['Job', 'CronJob']],
  ['coordination.k8s.io/v1', 'k8s.io.api.coordination.v1', ['Lease']],
  ['discovery.k8s.io/v1', 'k8s.io.api.discovery.v1', ['EndpointSlice']],
  ['events.k8s.io/v1', 'k8s.io.api.events.v1', ['Event']],
  ['policy/v1', 'k8s.io.api.policy.v1', ['PodDisruptionBudget']],
  ['scheduling.k8s.io/v1', 'k8s.io.api.scheduling.v1', ['PriorityClass']],
  ['autoscaling/v2', 'k8s.io.api.autoscaling.v2', ['HorizontalPodAutoscaler']],
  ['networking.k8s.io/v1', 'k8s.io.api.networking.v1', ['Ingress', 'NetworkPolicy']],
  ['storage.k8s.io/v1', 'k8s.io.api.storage.v1', ['StorageClass']],
  ['certificates.k8s.io/v1', 'k8s.io.api.certificates.v1', ['CertificateSigningRequest']],
  ['admissionregistration.k8s.io/v1', 'k8s.io.api.admissionregistration.v1', ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']],
];
for (const [apiVersion, pkg, kinds] of GROUP_KINDS) {
  for (const kind of kinds) {
    KIND_MESSAGES[`${apiVersion}/${kind}`] = `${pkg}.${kind}`;
    KIND_MESSAGES[`${apiVersion}/${kind}List`] = `${pkg}.${kind}List`;
  }
}
/** Kinds only a verb or a subresource speaks: they have no List. */
const SINGLE_KINDS: [apiVersion: string, pkg: string, kinds: string[]][] = [
  ['v1', 'k8s.io.api.core.v1', ['Binding']],
  ['policy/v1', 'k8s.io.api.policy.v1', ['Eviction']],
  ['autoscaling/v1', 'k8s.io.api.autoscaling.v1', ['Scale']],
  ['authentication.k8s.io/v1', 'k8s.io.api.authentication.v1', ['TokenRequest', 'TokenReview', 'SelfSubjectReview']],
  ['authorization.k8s.io/v1', 'k8s.io.api.authorization.v1', ['SubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview']],
];
for (const [apiVersion, pkg, kinds] of SINGLE_KINDS) for (const kind of kinds) KIND_MESSAGES[`${apiVersion}/${kind}`] = `${pkg}.${kind}`;

/**
 * Fields Go embeds in the parent struct (`json:""` in k8s.io/api core/v1 types.go): on the wire
 * they are one submessage, in JSON their members sit at the parent's level.
 */
const INLINE_FIELDS = new Set([
  'Volume.volumeSource',
  'Probe.handler',
  'EphemeralContainer.ephemeralContainerCommon',
  ...['ConfigMapKeySelector', 'SecretKeySelector', 'ConfigMapEnvSource', 'SecretEnvSource', 'ConfigMapVolumeSource', 'ConfigMapProjection', 'SecretProjection'].map(
    (parent) => `${parent}.localObjectReference`,
  ),
  'PersistentVolumeSpec.persistentVolumeSource',
  'IngressRule.ingressRuleValue',
  'RuleWithOperations.rule',
]);

/**
 * Messages that are a []string in Go and JSON (`+protobuf.nullable=true` in k8s.io/api
 * authentication/v1, authorization/v1 and certificates/v1 generated.proto): on the wire the list
 * sits in their one field, `items` (1).
 */
const STRING_LISTS = new Set([
  'k8s.io.api.authentication.v1.ExtraValue',
  'k8s.io.api.authentication.v1.AttestationValue',
  'k8s.io.api.authorization.v1.ExtraValue',
  'k8s.io.api.certificates.v1.ExtraValue',
]);

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

/** Looked up once per kind: protobufjs resolves a name by walking the namespace tree on every lookup. */
const typeOfKind = new Map<string, protobuf.Type | undefined>();

function messageFor(apiVersion: string, kind: string): protobuf.Type | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!typeOfKind.has(key)) {
    const name = messageName(apiVersion, kind);
    typeOfKind.set(key, name ? root.lookupType(name) : undefined);
  }
  return typeOfKind.get(key);
}

/** A type's full name without the leading dot, cached: protobufjs' fullName getter rebuilds it from the parents each time. */
const nameOfType = new WeakMap<protobuf.Type, string>();

function typeName(type: protobuf.Type): string {
  let name = nameOfType.get(type);
  if (name === undefined) nameOfType.set(type, (name = type.fullName.slice(1)));
  return name;
}

/**
 * The message of an apiVersion/kind. DeleteOptions is registered in every group version
 * (apimachinery pkg/apis/meta/v1/register.go AddToGroupVersion: optionsTypes), so client-go's
 * DELETE body names the resource's own group version, e.g. coordination.k8s.io/v1 DeleteOptions.
 */
function messageName(apiVersion: string, kind: string): string | undefined {
  if (kind === 'DeleteOptions' && apiVersion !== '') return `${META}.DeleteOptions`;
  return KIND_MESSAGES[`${apiVersion}/${kind}`];
}

/** Every apiVersion/kind with a protobuf form here and its message (for the codec's tests). */
export function protobufKinds(): Array<{ apiVersion: string; kind: string; type: protobuf.Type }> {
  return Object.keys(KIND_MESSAGES).map((key) => {
    const slash = key.lastIndexOf('/');
    const apiVersion = key.slice(0, slash);
    const kind = key.slice(slash + 1);
    return { apiVersion, kind, type: messageFor(apiVersion, kind)! };
  });
}

/** Whether objects of this apiVersion/kind have a protobuf form here. */
export function hasProtobuf(apiVersion: string, kind: string): boolean {
  return messageName(apiVersion, kind) !== undefined;
}

export function isProtobufEnvelope(body: Uint8Array): boolean {
  return body.length >= 4 && body[0] === MAGIC[0] && body[1] === MAGIC[1] && body[2] === MAGIC[2] && body[3] === MAGIC[3];
}

// ---- JSON form <-> protobufjs plain form ---------------------------------------------------

/** RFC 3339 (seconds, or microseconds for MicroTime) ↔ {seconds, nanos}, as metav1.Time does. */
function timeToProto(text: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  // Conversions remembered: an object carries several timestamps (created, managed, started,
  // each condition's transition), objects written together share them, and Date.parse is the
  // dearest step of encoding a small object. The result is only read (by Time's encoder): frozen.
  const known = TIME_TEXTS.get(text);
  if (known) return known;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new ProtobufError(`invalid time ${JSON.stringify(text)}`);
  const frac = /\.(\d+)/.exec(text)?.[1] ?? '';
  const time = Object.freeze({ seconds: Math.floor(ms / 1000), nanos: Number((frac + '000000000').slice(0, 9)) });
  if (TIME_TEXTS.size >= MAX_TIME_TEXTS) TIME_TEXTS.clear();
  TIME_TEXTS.set(text, time);
  return time;
}

const TIME_TEXTS = new Map<string, Readonly<{ seconds: number; nanos: number }>>();
const MAX_TIME_TEXTS = 1024;

function timeFromProto(t: { seconds?: number; nanos?: number }, micro: boolean): string | undefined {
  const seconds = t.seconds ?? 0;
  const nanos = t.nanos ?? 0;
  if (seconds === 0 && nanos === 0) return undefined; // the zero Time: JSON null, left out
  const base = secondsText(seconds);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

/** rfc3339's `YYYY-MM-DDTHH:MM:SS` for a second, remembered (see timeToProto). */
function secondsText(seconds: number): string {
  let text = SECONDS_TEXTS.get(seconds);
  if (text === undefined) {
    text = rfc3339(seconds * 1000).slice(0, 19);
    if (SECONDS_TEXTS.size >= MAX_TIME_TEXTS) SECONDS_TEXTS.clear();
    SECONDS_TEXTS.set(seconds, text);
  }
  return text;
}

const SECONDS_TEXTS = new Map<number, string>();

/**
 * intstr.IntOrString: `type` 0 is an int (intVal), 1 a string (strVal); upstream's Go writes all
 * three fields (pkg/util/intstr/intstr.go), so a reader goes by `type`.
 */
function intOrStringToProto(json: unknown): { type: number; intVal?: number; strVal?: string } | undefined {
  if (typeof json === 'number') return { type: 0, intVal: json };
  if (typeof json === 'string') return { type: 1, strVal: json };
  return undefined;
}

function intOrStringFromProto(p: { type?: number; intVal?: number; strVal?: string }): number | string {
  return p.type === 1 ? (p.strVal ?? '') : (p.intVal ?? 0);
}

const b64 = (bytes: string | Uint8Array): string => (typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'));

const QUANTITY = 'k8s.io.apimachinery.pkg.api.resource.Quantity';
// Constants, not template literals in each `case`: those would build the string on every call.
const TIME = `${META}.Time`;
const MICRO_TIME = `${META}.MicroTime`;
const FIELDS_V1 = `${META}.FieldsV1`;
const INT_OR_STRING = 'k8s.io.apimachinery.pkg.util.intstr.IntOrString';

/** Whether a field is Go-embedded: its members are the parent's in JSON. */
const inlineOf = new WeakMap<protobuf.Field, boolean>();

function isInline(field: protobuf.Field): boolean {
  let inline = inlineOf.get(field);
  if (inline === undefined) inlineOf.set(field, (inline = INLINE_FIELDS.has(`${field.parent!.name}.${field.name}`)));
  return inline;
}

/** The JSON keys a message's form has: its fields', with the members of embedded fields in place of those. */
const jsonKeysOf = new WeakMap<protobuf.Type, Set<string>>();

function jsonKeys(type: protobuf.Type): Set<string> {
  let keys = jsonKeysOf.get(type);
  if (!keys) {
    keys = new Set();
    for (const field of type.fieldsArray) {
      if (isInline(field)) for (const k of jsonKeys(field.resolvedType as protobuf.Type)) keys.add(k);
      else keys.add(field.name);
    }
    jsonKeysOf.set(type, keys);
  }
  return keys;
}

/** Whether a JSON scalar fits a scalar field (protobufjs would otherwise coerce it, e.g. "x" → 0). */
function scalarFits(fieldType: string, v: unknown): boolean {
  switch (fieldType) {
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'bytes':
      return typeof v === 'string';
    default:
      return typeof v === 'number' && Number.isInteger(v);
  }
}

/**
 * What toPlain could not carry: keys the message has no field for, or values of the wrong type.
 * The store keeps such an object as JSON rather than lose them (../storage/codec.ts).
 */
interface Losses {
  lost: boolean;
}

/** The envelope's own keys: an object's top level has them besides its message's fields. */
const TYPE_META_KEYS = new Set(['apiVersion', 'kind']);

/** The messages whose JSON form is not field by field: the cases toPlain and fromMessage handle apart. */
const SPECIAL_TYPES = new Set([TIME, MICRO_TIME, FIELDS_V1, QUANTITY, INT_OR_STRING, ...STRING_LISTS]);
const specialOf = new WeakMap<protobuf.Type, string>();

/**
 * A type's name if it is one of SPECIAL_TYPES, else '': worked out once per type, so an ordinary
 * message (nearly all of them) costs one lookup rather than a set lookup and five string compares.
 */
function specialName(type: protobuf.Type): string {
  let special = specialOf.get(type);
  if (special === undefined) {
    const name = typeName(type);
    specialOf.set(type, (special = SPECIAL_TYPES.has(name) ? name : ''));
  }
  return special;
}

// ---- JSON form straight to the wire ------------------------------------------------------------

/**
 * Writes a message from its JSON form straight into `w` (inside a fork the caller ends): the
 * bytes protobufjs' generated encoder writes for toPlain's output — `type.encode(toPlain(json))`,
 * which is what this did before — without building that plain copy first (on a fleet of pods it
 * was a third of storing an object, and most of its garbage). It mirrors encoder.js (protobufjs
 * 7.x): fields in field-number order; a proto2 optional field only when set; a list only when
 * not empty, each element with its own tag (these protos declare nothing packed); a map as one
 * entry message per key, key field 1 and value field 2, in the plain object's key order. The
 * special messages (Time, Quantity, FieldsV1, IntOrString, the string lists), a type with a field
 * this does not mirror (required, packed or a group), and `viaPlain` (the tests' oracle) take the
 * old way for that message. codec-writer.test.ts compares the two byte for byte.
 */
function writeMessage(type: protobuf.Type, json: any, w: protobuf.Writer, losses: Losses, embedded: boolean, topLevel: boolean, viaPlain: boolean): void {
  const order = viaPlain ? undefined : writeOrder(type);
  if (!order) {
    // toPlain's output is already what protobufjs' encoder reads (numbers, strings, base64 bytes,
    // nested plain objects; these protos have no enums): no fromObject copy first.
    type.encode(toPlain(type, json, losses, embedded, topLevel), w);
    return;
  }
  if (!embedded) countUnknownKeys(type, json, losses, topLevel);
  for (let i = 0; i < order.length; i++) {
    const f = order[i]!;
    if (f.inline) {
      // An embedded message is written when toPlain's copy of it would have had any key.
      if (!anySet(f.sub!, json)) continue;
      writeMessage(f.sub!, json, w.uint32(f.tag).fork(), losses, true, false, false);
      w.ldelim();
      continue;
    }
    const v = json[f.name];
    if (v === undefined || v === null) continue;
    if (isDroppedZero(f.field, v)) losses.lost = true;
    if (f.map) writeMap(f, v, w, losses);
    else if (f.repeated) writeList(f, v, w, losses);
    else writeValue(f, f.tag, v, w, losses);
  }
}

function countUnknownKeys(type: protobuf.Type, json: any, losses: Losses, topLevel: boolean): void {
  const keys = jsonKeys(type);
  for (const k in json) if (!keys.has(k) && json[k] !== null && json[k] !== undefined && !(topLevel && TYPE_META_KEYS.has(k))) losses.lost = true;
}

/** A map field: toPlain's checks, then one entry per key whose value has a wire form. */
function writeMap(f: WritePlan, v: any, w: protobuf.Writer, losses: Losses): void {
  if (typeof v !== 'object' || Array.isArray(v)) {
    losses.lost = true;
    return;
  }
  for (const k in v) {
    const x = v[k];
    if (f.sub) {
      const plain = subValue(f, x, losses);
      if (plain === undefined) continue;
      scalar(w.uint32(f.tag).fork().uint32(f.keyTag), f.keyType, k);
      writeSub(f, plain, x, w.uint32(18), losses);
      w.ldelim();
    } else {
      if (!scalarFits(f.type, x)) losses.lost = true;
      if (x === undefined) continue;
      // The encoder writes what toPlain kept, whatever it is (a wrong type may throw, as before).
      scalar(scalar(w.uint32(f.tag).fork().uint32(f.keyTag), f.keyType, k).uint32(f.valueTag), f.type, x);
      w.ldelim();
    }
  }
}

/** A repeated field: toPlain's checks, then each element that has a wire form. */
function writeList(f: WritePlan, v: any, w: protobuf.Writer, losses: Losses): void {
  if (!Array.isArray(v)) {
    losses.lost = true;
    return;
  }
  for (let i = 0; i < v.length; i++) writeValue(f, f.tag, v[i], w, losses);
}

/** One value of a field (its single value, or a list element) under its tag, if it has a wire form. */
function writeValue(f: WritePlan, tag: number, x: unknown, w: protobuf.Writer, losses: Losses): void {
  if (!f.sub) {
    if (!scalarFits(f.type, x)) losses.lost = true;
    if (x !== undefined) scalar(w.uint32(tag), f.type, x);
    return;
  }
  const plain = subValue(f, x, losses);
  if (plain !== undefined) writeSub(f, plain, x, w.uint32(tag), losses);
}

/** Writes a scalar with the writer method of its protobuf type (`string`, `int64`, `bool`, `bytes`, …), as the encoder does. */
function scalar(w: protobuf.Writer, type: string, x: unknown): protobuf.Writer {
  return (w as unknown as Record<string, (value: unknown) => protobuf.Writer>)[type]!.call(w, x);
}

/**
 * What toPlain would make of a message-typed value, told without making it for an ordinary
 * message: undefined when it has no wire form (not an object), SAME when it is written from the
 * JSON as it is; a special message's plain value itself.
 */
function subValue(f: WritePlan, x: unknown, losses: Losses): unknown {
  if (f.special !== '') return specialToPlain(f.special, x, losses);
  if (x === null || typeof x !== 'object' || Array.isArray(x)) {
    losses.lost = true;
    return undefined;
  }
  return SAME;
}

const SAME = Symbol('written from the JSON');

/** A message-typed value after its tag: length-delimited, from its plain value or its JSON. */
function writeSub(f: WritePlan, plain: unknown, x: unknown, w: protobuf.Writer, losses: Losses): void {
  if (plain === SAME) writeMessage(f.sub!, x, w.fork(), losses, false, false, false);
  else f.sub!.encode(plain as object, w.fork());
  w.ldelim();
}

/** Whether toPlain's copy of an embedded message (read from the parent's JSON) would have any key. */
function anySet(type: protobuf.Type, json: any): boolean {
  const scratch: Losses = { lost: false };
  for (const plan of fieldsOf(type)) {
    if (plan.sub && plan.inline) {
      if (anySet(plan.sub, json)) return true;
      continue;
    }
    const v = json[plan.name];
    if (v === undefined || v === null) continue;
    if (plan.map || plan.repeated) {
      if (typeof v === 'object' && Array.isArray(v) === plan.repeated) return true;
      continue;
    }
    if (!plan.sub) return true;
    const name = specialName(plan.sub);
    if (name !== '' ? specialToPlain(name, v, scratch) !== undefined : typeof v === 'object' && !Array.isArray(v)) return true;
  }
  return false;
}

/** What writing a field needs, worked out once per message type. */
interface WritePlan {
  field: protobuf.Field;
  name: string;
  /** The field's tag: its number and wire type (length-delimited for messages, lists of them and maps). */
  tag: number;
  type: string;
  sub: protobuf.Type | undefined;
  /** specialName(sub), or '' for an ordinary message or a scalar. */
  special: string;
  map: boolean;
  repeated: boolean;
  inline: boolean;
  keyType: string;
  keyTag: number;
  valueTag: number;
}

/** A type's fields in number order, or null when one of them is of a kind writeMessage does not mirror. */
const writeOrderOf = new WeakMap<protobuf.Type, WritePlan[] | null>();

function writeOrder(type: protobuf.Type): WritePlan[] | null {
  let order = writeOrderOf.get(type);
  if (order === undefined) {
    order = specialName(type) === '' && type.fieldsArray.every(mirrored) ? [...type.fieldsArray].sort((a, b) => a.id - b.id).map(writePlan) : null;
    writeOrderOf.set(type, order);
  }
  return order;
}

function mirrored(field: protobuf.Field): boolean {
  const basic = (protobuf.types.basic as Record<string, number | undefined>)[field.type];
  const isMessage = field.resolvedType instanceof protobuf.Type;
  if (field.resolvedType && !isMessage) return false; // an enum (none in these protos)
  if (field.delimited || (field.packed && (protobuf.types.packed as Record<string, number | undefined>)[field.type] !== undefined)) return false;
  if (!field.map && !field.repeated && !field.optional) return false;
  return isMessage || basic !== undefined;
}

function writePlan(field: protobuf.Field): WritePlan {
  const sub = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
  const basic = (protobuf.types.basic as Record<string, number | undefined>)[field.type];
  const wire = field.map || sub ? 2 : basic!;
  const keyType = field instanceof protobuf.MapField ? field.keyType : '';
  const mapKey = (protobuf.types.mapKey as Record<string, number | undefined>)[keyType] ?? 0;
  const valueWire = field.map && !sub ? basic! : 2;
  return {
    field,
    name: field.name,
    tag: ((field.id << 3) | wire) >>> 0,
    type: field.type,
    sub,
    special: sub ? specialName(sub) : '',
    map: field.map,
    repeated: field.repeated,
    inline: sub !== undefined && isInline(field),
    keyType,
    keyTag: 8 | mapKey,
    valueTag: 16 | valueWire,
  };
}

/** Rewrites a JSON-form value for protobufjs' fromObject, following the message type. */
function toPlain(type: protobuf.Type, json: any, losses: Losses, embedded = false, topLevel = false): any {
  const name = specialName(type);
  if (name !== '') return specialToPlain(name, json, losses);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    losses.lost = true;
    return undefined;
  }
  if (!embedded) {
    const keys = jsonKeys(type);
    for (const k in json) if (!keys.has(k) && json[k] !== null && json[k] !== undefined && !(topLevel && TYPE_META_KEYS.has(k))) losses.lost = true;
  }
  const out: Record<string, unknown> = {};
  // The per-type field plans decoding uses (fieldsOf): sub-message and embedding worked out once,
  // not an instanceof and a WeakMap lookup per field per object.
  const plans = fieldsOf(type);
  const fields = type.fieldsArray;
  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i]!;
    const field = fields[i]!;
    const sub = plan.sub;
    if (sub && plan.inline) {
      const inner = toPlain(sub, json, losses, true);
      if (Object.keys(inner).length > 0) out[plan.name] = inner;
      continue;
    }
    const v = json[plan.name];
    if (v === undefined || v === null) continue;
    if (isDroppedZero(field, v)) losses.lost = true;
    out[plan.name] = fieldToPlain(field, sub, v, losses);
    if (out[plan.name] === undefined) delete out[plan.name];
  }
  return out;
}

/** toPlain for one of SPECIAL_TYPES. */
function specialToPlain(name: string, json: any, losses: Losses): any {
  if (STRING_LISTS.has(name)) return stringListToPlain(json, losses);
  switch (name) {
    case TIME:
    case MICRO_TIME:
      return timeToProto(json);
    case FIELDS_V1:
      return { Raw: Buffer.from(JSON.stringify(json ?? {})).toString('base64') };
    case QUANTITY:
      if (typeof json === 'number') return { string: String(json) };
      if (typeof json !== 'string') losses.lost = true;
      return typeof json === 'string' ? { string: json } : undefined;
    default:
      // INT_OR_STRING, the last of SPECIAL_TYPES.
      if (typeof json !== 'number' && typeof json !== 'string') losses.lost = true;
      return intOrStringToProto(json);
  }
}

/**
 * The values that have no wire form: an empty list or map (e.g. an EndpointSlice's
 * `endpoints: []`, which upstream's JSON shows as `null`). They would not come back, so a lossless
 * encoding refuses them and the store keeps that object as JSON. (An empty string is on the wire;
 * the store's reader keeps it: decodeObject's keepEmptyStrings.)
 */
function isDroppedZero(field: protobuf.Field, v: unknown): boolean {
  if (field.map) return typeof v === 'object' && Object.keys(v as object).length === 0;
  if (field.repeated) return Array.isArray(v) && v.length === 0;
  return false;
}

function stringListToPlain(json: unknown, losses: Losses): { items: string[] } | undefined {
  if (!Array.isArray(json) || !json.every((x) => typeof x === 'string')) return (losses.lost = true), undefined;
  return { items: json };
}

function fieldToPlain(field: protobuf.Field, sub: protobuf.Type | undefined, v: any, losses: Losses): unknown {
  if (field.map) {
    if (typeof v !== 'object' || Array.isArray(v)) return (losses.lost = true), undefined;
    const out: Record<string, unknown> = {};
    // A value that has no wire form (already counted as lost) is left out: the encoder cannot write it.
    for (const k in v) {
      const x = valueToPlain(field, sub, v[k], losses);
      if (x !== undefined) out[k] = x;
    }
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(v)) return (losses.lost = true), undefined;
    const out = new Array<unknown>(v.length);
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const x = valueToPlain(field, sub, v[i], losses);
      if (x !== undefined) out[n++] = x;
    }
    out.length = n;
    return out;
  }
  return valueToPlain(field, sub, v, losses);
}

/** One value of a field (an element of a list or map, or the field's single value). */
function valueToPlain(field: protobuf.Field, sub: protobuf.Type | undefined, x: unknown, losses: Losses): unknown {
  if (sub) return toPlain(sub, x, losses);
  if (!scalarFits(field.type, x)) losses.lost = true;
  return x;
}

/**
 * A decoded message back to JSON form, read straight from protobufjs' message instances (no
 * toObject copy first: that pass cost more than the decode itself). Presence is kept as the
 * wire has it (proto2: an optional field is on the wire only when set; protobufjs makes a field
 * an own property only when it read it, its defaults sit on the prototype; its constructor
 * gives each list and map field an empty own one), so `false`, `0` and
 * an empty message `{}` come back where they were written — upstream's JSON shows
 * `securityContext: {}` and `resources: {}` on a defaulted Pod. Two zero values are left out, as
 * JSON's `omitempty` does: the empty string (upstream's Go writes every non-pointer string field,
 * set or not) and the zero Time (JSON null). Empty lists and maps have no wire form at all.
 */
function fromMessage(type: protobuf.Type, msg: any, keepEmpty: boolean): any {
  const name = specialName(type);
  if (name !== '') return specialFromMessage(name, msg);
  const out: Record<string, unknown> = {};
  for (const field of fieldsOf(type)) {
    if (!hasOwn(msg, field.name)) continue;
    const v = msg[field.name];
    if (v === undefined || v === null || (v === '' && !keepEmpty)) continue;
    const sub = field.sub;
    let converted: unknown;
    if (field.map) converted = mapFromMessage(field, v, keepEmpty);
    else if (field.repeated) converted = (v as unknown[]).map((x) => (sub ? fromMessage(sub, x, keepEmpty) : scalarFromMessage(field, x)));
    else if (sub && field.inline) {
      Object.assign(out, fromMessage(sub, v, keepEmpty));
      continue;
    } else converted = sub ? fromMessage(sub, v, keepEmpty) : scalarFromMessage(field, v);
    if (converted === undefined || (Array.isArray(converted) && converted.length === 0)) continue;
    out[field.name] = converted;
  }
  return out;
}

/** fromMessage for one of SPECIAL_TYPES. */
function specialFromMessage(name: string, msg: any): any {
  if (STRING_LISTS.has(name)) return [...(msg.items ?? [])];
  switch (name) {
    case TIME:
      return timeFromProto({ seconds: toNumber(msg.seconds), nanos: msg.nanos }, false);
    case MICRO_TIME:
      return timeFromProto({ seconds: toNumber(msg.seconds), nanos: msg.nanos }, true);
    case FIELDS_V1:
      return hasOwn(msg, 'Raw') && msg.Raw.length > 0 ? JSON.parse(utf8(msg.Raw)) : {};
    case QUANTITY:
      return hasOwn(msg, 'string') ? msg.string : '0';
    default:
      // INT_OR_STRING, the last of SPECIAL_TYPES. `type` is an int64 upstream: protobufjs reads it as a Long.
      return intOrStringFromProto({ type: toNumber(msg.type), intVal: msg.intVal, strVal: msg.strVal });
  }
}

/** A map field; an empty one (protobufjs' constructor gives every map field one) is left out. */
function mapFromMessage(field: FieldPlan, v: Record<string, unknown>, keepEmpty: boolean): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const k in v) (out ??= {})[k] = field.sub ? fromMessage(field.sub, v[k], keepEmpty) : scalarFromMessage(field, v[k]);
  return out;
}

/** bytes as base64 (JSON's form of []byte), 64-bit integers (protobufjs' Long) as numbers. */
function scalarFromMessage(field: FieldPlan, v: unknown): unknown {
  if (field.bytes) return b64(v as Uint8Array);
  if (field.long) return toNumber(v);
  return v;
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v === undefined || v === null) return 0;
  return (v as { toNumber(): number }).toNumber();
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const utf8 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** What decoding needs to know of a field, worked out once per message type. */
interface FieldPlan {
  name: string;
  sub: protobuf.Type | undefined;
  map: boolean;
  repeated: boolean;
  inline: boolean;
  bytes: boolean;
  long: boolean;
}

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const plansOf = new WeakMap<protobuf.Type, FieldPlan[]>();

function fieldsOf(type: protobuf.Type): FieldPlan[] {
  let plan = plansOf.get(type);
  if (!plan) {
    plan = type.fieldsArray.map((field) => {
      const sub = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
      return { name: field.name, sub, map: field.map, repeated: field.repeated, inline: isInline(field), bytes: field.type === 'bytes', long: LONG_TYPES.has(field.type) };
    });
    plansOf.set(type, plan);
  }
  return plan;
}

/**
 * How a message is read: `direct` (readMessage, the old way for whatever it does not mirror),
 * `message` (the old way: protobufjs' decode, then fromMessage) or `direct-only` (readMessage,
 * throwing where it would have fallen back). The last two are for the codec's tests.
 */
export type ReadWay = 'direct' | 'message' | 'direct-only';

function decodeMessage(type: protobuf.Type, raw: Uint8Array, keepEmpty: boolean, way: ReadWay = 'direct'): any {
  // As a Buffer (a view, not a copy), protobufjs reads strings with node's own UTF-8 decoder
  // (BufferReader's utf8Slice) rather than its JavaScript one: a third of reading an object.
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (way !== 'message') {
    const r = protobuf.Reader.create(bytes);
    try {
      return readMessage(type, r, bytes.length, keepEmpty);
    } catch (e) {
      // Anything the reader does not mirror, and any malformed input, is read the old way, which
      // answers (or throws, with its own message) as before.
      if (way === 'direct-only') throw e;
    }
  }
  return fromMessage(type, type.decode(bytes), keepEmpty);
}

// ---- the wire straight to the JSON form -----------------------------------------------------------

/** Raised inside readMessage for a message it does not read as protobufjs would: the caller reads it the old way. */
const NOT_MIRRORED = new Error('not mirrored here');

/**
 * A message read from the wire straight into its JSON form: what fromMessage makes of
 * protobufjs' decode (decoder.js, 7.x), without the message instances in between. Fields are
 * collected by number as they come (a later value of a singular field replaces an earlier one, a
 * list grows, a map entry is set), then laid out in declaration order with fromMessage's rules:
 * an empty list or map left out, an empty string left out unless `keepEmpty`, an embedded
 * message's members at this level, 64-bit integers as numbers, bytes as base64. The special
 * messages (Time, Quantity, FieldsV1, IntOrString, the string lists) are decoded by protobufjs
 * and converted as fromMessage does. A wire type other than the field's, a packed list, or a map
 * entry without its value stop it, and the whole message is read the old way.
 */
function readMessage(type: protobuf.Type, r: protobuf.Reader, length: number, keepEmpty: boolean): any {
  const name = specialName(type);
  if (name !== '') return specialFromMessage(name, type.decode(r, length));
  const plan = readPlan(type);
  const end = r.pos + length;
  const slots: unknown[] = new Array(plan.fields.length);
  while (r.pos < end) {
    const tag = r.uint32();
    const f = plan.byNumber.get(tag >>> 3);
    if (!f) {
      r.skipType(tag & 7);
      continue;
    }
    if ((tag & 7) !== f.wire) throw NOT_MIRRORED;
    if (f.plan.map) slots[f.index] = readMapEntry(f, r, (slots[f.index] as Record<string, unknown> | undefined) ?? {}, keepEmpty);
    else if (f.plan.repeated) ((slots[f.index] ??= []) as unknown[]).push(readValue(f, r, keepEmpty));
    else slots[f.index] = readValue(f, r, keepEmpty);
  }
  if (r.pos !== end) throw NOT_MIRRORED;
  return layOut(plan.fields, slots, keepEmpty);
}

/** fromMessage's output from the values read, field by field in declaration order. */
function layOut(fields: readonly FieldPlan[], slots: unknown[], keepEmpty: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) {
    const v = slots[i];
    if (v === undefined) continue;
    const field = fields[i]!;
    if (v === EMPTY_STRING) {
      if (keepEmpty) out[field.name] = '';
      continue;
    }
    // fromMessage leaves out an empty list (a repeated field's, or a string-list message's).
    if (Array.isArray(v) && v.length === 0) continue;
    if (field.sub && field.inline && !field.map && !field.repeated) Object.assign(out, v);
    else out[field.name] = v;
  }
  return out;
}

/** A singular field's empty string, told apart from an absent one (fromMessage leaves it out unless keepEmpty). */
const EMPTY_STRING = Symbol('empty string');

/** One value: a message's JSON form, or a scalar as fromMessage converts it. */
function readValue(f: ReadField, r: protobuf.Reader, keepEmpty: boolean): unknown {
  const plan = f.plan;
  if (plan.sub) return readMessage(plan.sub, r, r.uint32(), keepEmpty);
  const v = (r as unknown as Record<string, () => unknown>)[f.type]!.call(r);
  if (plan.bytes) return b64(v as Uint8Array);
  if (plan.long) return toNumber(v);
  // Only a singular field's empty string is dropped (a list keeps its empty elements).
  return v === '' && !plan.repeated ? EMPTY_STRING : v;
}

/** One map entry (key field 1, value field 2, as protobufjs reads them) into the field's map. */
function readMapEntry(f: ReadField, r: protobuf.Reader, map: Record<string, unknown>, keepEmpty: boolean): Record<string, unknown> {
  const end = r.uint32() + r.pos;
  let key: string | undefined;
  let value: unknown;
  let hasValue = false;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === f.keyTag) key = r.string();
    else if (tag === f.valueTag) {
      value = f.plan.sub ? readMessage(f.plan.sub, r, r.uint32(), keepEmpty) : scalarFromMessage(f.plan, (r as unknown as Record<string, () => unknown>)[f.type]!.call(r));
      hasValue = true;
    } else throw NOT_MIRRORED;
  }
  // protobufjs fills an absent key or value with its default: rare enough to leave to it.
  if (key === undefined || !hasValue || r.pos !== end) throw NOT_MIRRORED;
  map[key] = value;
  return map;
}

/** A field as the reader meets it: its declaration index, the wire type it must come with, its plan. */
interface ReadField {
  index: number;
  wire: number;
  type: string;
  plan: FieldPlan;
  keyTag: number;
  valueTag: number;
}

interface ReadPlan {
  fields: FieldPlan[];
  byNumber: Map<number, ReadField>;
}

const readPlanOf = new WeakMap<protobuf.Type, ReadPlan>();

/** A field the reader leaves to protobufjs: no wire type matches it. */
const UNREAD: ReadField = { index: -1, wire: -1, type: '', plan: undefined as unknown as FieldPlan, keyTag: 0, valueTag: 0 };

function readPlan(type: protobuf.Type): ReadPlan {
  let plan = readPlanOf.get(type);
  if (!plan) {
    const fields = fieldsOf(type);
    const byNumber = new Map<number, ReadField>();
    type.fieldsArray.forEach((field, index) => {
      const basic = (protobuf.types.basic as Record<string, number | undefined>)[field.type];
      const isMessage = field.resolvedType instanceof protobuf.Type;
      // An enum, a group or a key type other than string: not read here (none in these protos).
      const keyType = field instanceof protobuf.MapField ? field.keyType : 'string';
      if ((!isMessage && basic === undefined) || field.delimited || keyType !== 'string') return;
      const wire = field.map || isMessage ? 2 : basic!;
      byNumber.set(field.id, { index, wire, type: field.type, plan: fields[index]!, keyTag: 10, valueTag: field.map ? (16 | (isMessage ? 2 : basic!)) >>> 0 : 0 });
    });
    // A field left out above is UNREAD: no wire type matches it, so a message that carries it is read the old way.
    const unread = type.fieldsArray.filter((f) => !byNumber.has(f.id)).map((f) => f.id);
    for (const id of unread) byNumber.set(id, UNREAD);
    plan = { fields, byNumber };
    readPlanOf.set(type, plan);
  }
  return plan;
}

// ---- envelopes --------------------------------------------------------------------------------

/**
 * The enveloped form of an object; undefined when its kind has no protobuf form here, or, with
 * `lossless`, when the object holds something its message cannot carry (a field the message
 * lacks, a value of the wrong type). Without it such parts are dropped, as upstream's decoder
 * would have dropped them on the way in.
 */
export function encodeObject(obj: any, options: { lossless?: boolean } = {}): Uint8Array | undefined {
  const unknown = encodeUnknown(obj, options);
  if (!unknown) return undefined;
  const out = new Uint8Array(MAGIC.length + unknown.length);
  out.set(MAGIC);
  out.set(unknown, MAGIC.length);
  return out;
}

/**
 * The runtime.Unknown of an enveloped object (the envelope without its 4-byte magic), or
 * undefined as encodeObject says. Written in one writer (ByteWriter): the object's message goes
 * straight into Unknown's `raw` (field 2) rather than being finished into its own buffer and
 * copied in by Unknown.encode(Unknown.fromObject(…)). The bytes are the same: Unknown$encode
 * writes typeMeta (field 1, with apiVersion and kind each written when set, '' included) as a
 * length-delimited submessage and then raw as bytes — a length and the message's bytes, which
 * is what fork()/ldelim() write; contentEncoding and contentType are never set here.
 */
export function encodeUnknown(obj: any, options: { lossless?: boolean } = {}): Uint8Array | undefined {
  return writeUnknown(obj, options)?.bytes;
}

/** An Unknown as written here, with what its reader would find in it: typeMeta's two names, and raw (a view into `bytes`). */
export interface UnknownWrite {
  bytes: Uint8Array;
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

/** One writer for every write (a write runs to its end before the next begins): its buffer is kept. */
const SHARED_WRITER = new ByteWriter();

/** encodeUnknown, keeping where the object's message sits in the bytes. */
export function writeUnknown(obj: any, options: { lossless?: boolean; viaPlain?: boolean } = {}): UnknownWrite | undefined {
  const apiVersion = obj?.apiVersion;
  const kind = obj?.kind;
  const type = typeof apiVersion === 'string' && typeof kind === 'string' ? messageFor(apiVersion, kind) : undefined;
  if (!type) return undefined;
  const losses: Losses = { lost: false };
  // The oracle's way is protobufjs' all through, its writer included (byte-writer.ts says why not otherwise).
  const w = options.viaPlain === true ? protobuf.Writer.create() : (SHARED_WRITER.reset() as unknown as protobuf.Writer);
  w.uint32(10).fork().uint32(10).string(apiVersion).uint32(18).string(kind).ldelim();
  // Encoded before the losses are looked at, as before: an object the encoder throws on still throws.
  writeMessage(type, obj, w.uint32(18).fork(), losses, false, true, options.viaPlain === true);
  // Inside the fork the writer counts only the message: raw is the last rawLength bytes.
  const rawLength = w.len;
  w.ldelim();
  if (losses.lost && options.lossless) return undefined;
  const bytes = w.finish();
  return { bytes, apiVersion, kind, raw: bytes.subarray(bytes.length - rawLength) };
}

/**
 * decodeUnknown(write.bytes) without reading the envelope back: its typeMeta and raw are the
 * ones writeUnknown wrote, so only the object's message is decoded. Throws ProtobufError.
 */
export function decodeUnknownWrite(write: UnknownWrite, options: { keepEmptyStrings?: boolean; way?: ReadWay } = {}): any {
  const type = messageFor(write.apiVersion, write.kind)!;
  try {
    return { apiVersion: write.apiVersion, kind: write.kind, ...decodeMessage(type, write.raw, options.keepEmptyStrings === true, options.way) };
  } catch (e) {
    throw new ProtobufError((e as Error).message);
  }
}

/**
 * An enveloped body to the JSON form (apiVersion and kind from the envelope). Throws ProtobufError.
 * `keepEmptyStrings` is for bytes this codec wrote itself (the store's): there an empty string on
 * the wire was an empty string in the JSON form, not Go's unset field, and comes back.
 */
export function decodeObject(body: Uint8Array, options: { keepEmptyStrings?: boolean; way?: ReadWay } = {}): any {
  if (!isProtobufEnvelope(body)) throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  return decodeUnknown(body.subarray(MAGIC.length), options);
}

/** decodeObject's work after the magic: a runtime.Unknown's bytes to the JSON form. Throws ProtobufError. */
function decodeUnknown(bytes: Uint8Array, options: { keepEmptyStrings?: boolean; way?: ReadWay } = {}): any {
  let unk: any;
  try {
    unk = Unknown.decode(bytes);
  } catch (e) {
    throw new ProtobufError((e as Error).message);
  }
  // Unset fields read as protobufjs' defaults: '' for the strings, an empty buffer for raw.
  const apiVersion: string = unk.typeMeta?.apiVersion ?? '';
  const kind: string = unk.typeMeta?.kind ?? '';
  const type = messageFor(apiVersion, kind);
  if (!type) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  try {
    return { apiVersion, kind, ...decodeMessage(type, unk.raw ?? new Uint8Array(), options.keepEmptyStrings === true, options.way) };
  } catch (e) {
    throw new ProtobufError((e as Error).message);
  }
}

/** One frame of a protobuf watch stream: length (4 bytes, big-endian), then a WatchEvent. */
export function encodeWatchFrame(type: string, object: unknown): Uint8Array | undefined {
  const raw = encodeObject(object);
  if (!raw) return undefined;
  const event = WatchEvent.encode(WatchEvent.fromObject({ type, object: { raw } })).finish();
  const frame = new Uint8Array(4 + event.length);
  new DataView(frame.buffer).setUint32(0, event.length, false);
  frame.set(event, 4);
  return frame;
}

/** Reads the frames of a protobuf watch stream back (for tests and clients). */
export function decodeWatchFrames(bytes: Uint8Array): { type: string; object: any }[] {
  const events: { type: string; object: any }[] = [];
  let at = 0;
  while (at + 4 <= bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    const ev: any = WatchEvent.toObject(WatchEvent.decode(bytes.subarray(at + 4, at + 4 + length)), { defaults: false });
    events.push({ type: ev.type, object: decodeObject(ev.object.raw) });
    at += 4 + length;
  }
  return events;
}
