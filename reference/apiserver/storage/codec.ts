/**
 * How objects sit in the store: without metadata.resourceVersion, which is the key's
 * modRevision and is filled in on every read — as upstream's etcd3 store does with its
 * APIObjectVersioner (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go, decode →
 * versioner.UpdateObject(obj, kv.ModRevision)).
 *
 * The encoding is upstream's storage media type: kube-apiserver's --storage-media-type defaults
 * to application/vnd.kubernetes.protobuf, so a built-in kind is stored as the protobuf envelope
 * (`k8s\0` + runtime.Unknown; ../protobuf/codec.ts) — here for every kind that codec defines;
 * the kinds it does not define yet, custom resources (which have no protobuf form upstream
 * either), and an object holding something its message cannot carry (a field kept as written
 * that upstream's types lack: the reference prunes against its own schemas, which are looser in
 * places), are stored as JSON, so nothing written is lost. The store's values are strings: an envelope is kept as one
 * character per byte (latin1), which no JSON text can begin with, so a reader tells the two
 * apart by the magic.
 */
import type { KeyValue } from '../../../contract/contract.ts';
import { cloneJson, jsonEqual } from '../../json-value.ts';
import { decodeObject as decodeEnvelope, decodeUnknownWrite, hasProtobuf, writeUnknown, type UnknownWrite } from '../protobuf/codec.ts';

const MAGIC = 'k8s\u0000';

export function encodeObject(obj: any): string {
  return encodeStored(obj).value;
}

/**
 * A value as written to the store, with the runtime.Unknown it was made of when it is an
 * envelope: the writer decodes its own write back (sharedStored) from those bytes rather than
 * from the text turned back into bytes.
 */
export interface Encoded {
  value: string;
  unknown?: UnknownWrite;
}

export function encodeStored(obj: any): Encoded {
  const stored = { ...obj, metadata: storedMeta(obj.metadata ?? {}) };
  const unknown = hasProtobuf(String(obj.apiVersion), String(obj.kind)) ? writeUnknown(stored, { lossless: true }) : undefined;
  if (!unknown) return { value: JSON.stringify(stored) };
  const bytes = unknown.bytes;
  return { value: MAGIC + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'), unknown };
}

/** metadata without resourceVersion and selfLink (a loop: rest destructuring costs more). */
function storedMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in meta) if (k !== 'resourceVersion' && k !== 'selfLink') out[k] = meta[k];
  return out;
}

/** A stored value back to the object's JSON form, whichever encoding it was written in. */
export function parseStored(value: string): any {
  // The bytes are the store's own: an empty string in them was one in the object written.
  if (value.startsWith(MAGIC)) return decodeEnvelope(Buffer.from(value, 'latin1'), { keepEmptyStrings: true });
  return JSON.parse(value);
}

export function decodeObject(kv: KeyValue): any {
  const obj = parseStored(kv.value);
  const meta = obj.metadata;
  // The parse made `meta` fresh, so it can take the field in place (the same key order as a copy).
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) meta.resourceVersion = String(kv.modRevision);
  else obj.metadata = { ...(meta ?? {}), resourceVersion: String(kv.modRevision) };
  return obj;
}

/**
 * Shared decodes: each key's last two stored texts, decoded once and deep-frozen (without a
 * resourceVersion), so the readers that only read — lists, watch events, the read half of a
 * read-modify-write — stop decoding the same bytes again and again. Upstream serves those from
 * its watch cache, which holds every object decoded (staging/src/k8s.io/apiserver/pkg/storage/
 * cacher/watch_cache.go); a 10,000-pod list here was 10,000 protobuf decodes.
 *
 * A decode depends only on the text, so an entry is used only when the text is the one asked
 * for: the cache cannot be stale, and stores sharing this process (several clusters in one
 * test) cannot mix up their keys. Two texts per key, because a watch event shows the previous
 * state beside the new one. Bounded: past MAX_SHARED_KEYS the key decoded least recently goes.
 */
const MAX_SHARED_KEYS = 100_000;
const sharedByKey = new Map<string, { value: string; obj: any }[]>();

function sharedBase(kv: KeyValue): any {
  return sharedStored(kv.key, kv.value);
}

/**
 * The object a key's stored text holds, as written (no resourceVersion), deep-frozen and shared
 * with every other reader of the same text under the same key in this process — also readers of
 * another store: the reference target's sessions each start over a copy of one settled store
 * (adapters/reference/warm-store.ts), and their security caches (wiring/cached-reader.ts) then
 * decode its roles and bindings once per worker, not once per session.
 */
export function sharedStored(key: string, value: string, encoded?: Encoded): any {
  const entries = sharedByKey.get(key);
  if (entries) {
    for (const e of entries) if (e.value === value) return e.obj;
  }
  // The writer's own write, when it passes the encoding of this very text: `value` is MAGIC and
  // then the Unknown's bytes as latin1, so decoding the message it put in them is decoding the
  // text, without rebuilding the bytes or reading the envelope back.
  const obj = deepFreeze(encoded?.unknown && encoded.value === value ? decodeUnknownWrite(encoded.unknown, { keepEmptyStrings: true }) : parseStored(value));
  const next = [{ value, obj }, ...(entries ?? []).slice(0, 1)];
  // Re-inserted at the end: the Map's order is then least recently decoded first.
  sharedByKey.delete(key);
  sharedByKey.set(key, next);
  if (sharedByKey.size > MAX_SHARED_KEYS) sharedByKey.delete(sharedByKey.keys().next().value!);
  return obj;
}

/**
 * The object stored in `kv`, shown at `revision` (default its modRevision), frozen: shared with
 * every other reader of that text, so it must not be changed (`clone` it first). Costs two
 * shallow copies when the text was decoded before.
 */
export function sharedObject(kv: KeyValue, revision: number = kv.modRevision, encoded?: Encoded): any {
  const base = encoded ? sharedStored(kv.key, kv.value, encoded) : sharedBase(kv);
  return Object.freeze({ ...base, metadata: Object.freeze({ ...(base.metadata ?? {}), resourceVersion: String(revision) }) });
}

/** The object as of a given revision (a deleted object is reported at its deletion revision). */
export function decodeAt(kv: KeyValue, revision: number): any {
  const obj = decodeObject(kv);
  obj.metadata.resourceVersion = String(revision);
  return obj;
}

/** Freezes a JSON value and everything in it: for objects several readers share. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    // Walked in place: Object.values made an array per object, the most garbage of any step of
    // sharing a decode.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const k in value) if (Object.prototype.hasOwnProperty.call(value, k)) deepFreeze((value as Record<string, unknown>)[k]);
    Object.freeze(value);
  }
  return value;
}


/** A deep copy, as a JSON round trip makes it (reference/json-value.ts). */
export function clone<T>(v: T): T {
  return cloneJson(v);
}

/** The same JSON once every object's keys are sorted (reference/json-value.ts). */
export function deepEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b);
}
