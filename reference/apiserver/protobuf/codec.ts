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
import { CORE_V1_PROTO, META_V1_PROTO, RBAC_V1_PROTO, RUNTIME_PROTO } from './schema.ts';
import { rfc3339 } from '../../timestamps.ts';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

const root = new protobuf.Root();
for (const text of [RUNTIME_PROTO, META_V1_PROTO, RBAC_V1_PROTO, CORE_V1_PROTO]) protobuf.parse(text, root, { keepCase: true });
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
for (const kind of ['ConfigMap', 'Secret', 'Namespace', 'ServiceAccount']) {
  KIND_MESSAGES[`v1/${kind}`] = `k8s.io.api.core.v1.${kind}`;
  KIND_MESSAGES[`v1/${kind}List`] = `k8s.io.api.core.v1.${kind}List`;
}

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

/** Looked up once per kind: protobufjs resolves a name by walking the namespace tree on every lookup. */
const typeOfKind = new Map<string, protobuf.Type | undefined>();

function messageFor(apiVersion: string, kind: string): protobuf.Type | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!typeOfKind.has(key)) {
    const name = KIND_MESSAGES[key];
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

/** Whether objects of this apiVersion/kind have a protobuf form here. */
export function hasProtobuf(apiVersion: string, kind: string): boolean {
  return KIND_MESSAGES[`${apiVersion}/${kind}`] !== undefined;
}

export function isProtobufEnvelope(body: Uint8Array): boolean {
  return body.length >= 4 && MAGIC.every((b, i) => body[i] === b);
}

// ---- JSON form <-> protobufjs plain form ---------------------------------------------------

/** RFC 3339 (seconds, or microseconds for MicroTime) ↔ {seconds, nanos}, as metav1.Time does. */
function timeToProto(text: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new ProtobufError(`invalid time ${JSON.stringify(text)}`);
  const frac = /\.(\d+)/.exec(text)?.[1] ?? '';
  return { seconds: Math.floor(ms / 1000), nanos: Number((frac + '000000000').slice(0, 9)) };
}

function timeFromProto(t: { seconds?: number; nanos?: number }, micro: boolean): string | undefined {
  const seconds = t.seconds ?? 0;
  const nanos = t.nanos ?? 0;
  if (seconds === 0 && nanos === 0) return undefined; // the zero Time: JSON null, left out
  const base = rfc3339(seconds * 1000).slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

const b64 = (bytes: string | Uint8Array): string => (typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64'));

/** Rewrites a JSON-form value for protobufjs' fromObject, following the message type. */
function toPlain(type: protobuf.Type, json: any): any {
  switch (typeName(type)) {
    case `${META}.Time`:
    case `${META}.MicroTime`:
      return timeToProto(json);
    case `${META}.FieldsV1`:
      return { Raw: Buffer.from(JSON.stringify(json ?? {})).toString('base64') };
  }
  if (json === null || typeof json !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const v = json[field.name];
    if (v === undefined || v === null) continue;
    const sub = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (!sub) out[field.name] = v;
    else if (field.map) out[field.name] = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlain(sub, x)]));
    else if (field.repeated) out[field.name] = (v as unknown[]).map((x) => toPlain(sub, x));
    else {
      const converted = toPlain(sub, v);
      if (converted !== undefined) out[field.name] = converted;
    }
  }
  return out;
}

/**
 * protobufjs' plain form back to JSON form. Upstream writes every non-pointer field, so empty
 * strings, empty messages and the zero Time arrive; JSON's `omitempty` leaves them out.
 */
function fromPlain(type: protobuf.Type, plain: any): any {
  switch (typeName(type)) {
    case `${META}.Time`:
      return timeFromProto(plain, false);
    case `${META}.MicroTime`:
      return timeFromProto(plain, true);
    case `${META}.FieldsV1`:
      return plain.Raw ? JSON.parse(Buffer.from(plain.Raw, 'base64').toString('utf8')) : {};
  }
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const v = plain[field.name];
    if (v === undefined || v === null || v === '') continue;
    const sub = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    let converted: unknown = v;
    if (field.type === 'bytes') converted = field.map ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, b64(x as string)])) : b64(v);
    else if (sub && field.map) converted = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromPlain(sub, x)]));
    else if (sub && field.repeated) converted = (v as unknown[]).map((x) => fromPlain(sub, x));
    else if (sub) converted = fromPlain(sub, v);
    if (converted === undefined || (typeof converted === 'object' && converted !== null && Object.keys(converted).length === 0 && !Array.isArray(converted) && !field.map)) continue;
    if (Array.isArray(converted) && converted.length === 0) continue;
    out[field.name] = converted;
  }
  return out;
}

function encodeMessage(type: protobuf.Type, json: unknown): Uint8Array {
  return type.encode(type.fromObject(toPlain(type, json))).finish();
}

function decodeMessage(type: protobuf.Type, bytes: Uint8Array): any {
  const msg = type.decode(bytes);
  return fromPlain(type, type.toObject(msg, { longs: Number, bytes: String, defaults: false }));
}

// ---- envelopes --------------------------------------------------------------------------------

/** The enveloped form of an object; undefined when its kind has no protobuf form here. */
export function encodeObject(obj: any): Uint8Array | undefined {
  const apiVersion = obj?.apiVersion;
  const kind = obj?.kind;
  const type = typeof apiVersion === 'string' && typeof kind === 'string' ? messageFor(apiVersion, kind) : undefined;
  if (!type) return undefined;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  const raw = encodeMessage(type, rest);
  const unknown = Unknown.encode(Unknown.fromObject({ typeMeta: { apiVersion, kind }, raw })).finish();
  const out = new Uint8Array(MAGIC.length + unknown.length);
  out.set(MAGIC);
  out.set(unknown, MAGIC.length);
  return out;
}

/** An enveloped body to the JSON form (apiVersion and kind from the envelope). Throws ProtobufError. */
export function decodeObject(body: Uint8Array): any {
  if (!isProtobufEnvelope(body)) throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  let unk: any;
  try {
    unk = Unknown.toObject(Unknown.decode(body.subarray(MAGIC.length)), { defaults: false });
  } catch (e) {
    throw new ProtobufError((e as Error).message);
  }
  const apiVersion: string = unk.typeMeta?.apiVersion ?? '';
  const kind: string = unk.typeMeta?.kind ?? '';
  const type = messageFor(apiVersion, kind);
  if (!type) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  try {
    return { apiVersion, kind, ...decodeMessage(type, unk.raw ?? new Uint8Array()) };
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
