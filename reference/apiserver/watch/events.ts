/**
 * From store events to API watch events, with selectors applied the way upstream's cacheWatcher
 * does (staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go convertToWatchEvent):
 * an object that starts matching is ADDED, one that stops matching is DELETED (carrying its
 * previous state at the event's revision), a deletion is DELETED with the last state.
 *
 * Every watcher of a prefix hears of the same store event, one after another; the object is
 * decoded and encoded once for all of them, as upstream's cacher wraps an event's object in a
 * cachingObject that serialises once per format
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go). The shared object is
 * frozen, so a watcher can only read it.
 */
import type { KeyValue, KvEvent } from '../../../contract/contract.ts';
import { sharedObject } from '../storage/codec.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ApiWatchEvent {
  type: WatchEventType;
  object: unknown;
}

/**
 * The last few decoded objects. A decoded object depends only on the stored text and the
 * resourceVersion it is shown at, so the pair is the whole key; the watchers of one event
 * ask one after another, so a handful of entries is enough.
 */
const SHARED_DECODES = 16;
// Stryker disable next-line ArrayDeclaration: equivalent, a dummy first entry matches no lookup (CPU only)
const recent: Array<{ value: string; revision: number; obj: any }> = [];
let nextSlot = 0;
/**
 * Each shared object's encoded events, by encoding ("json", "protobuf") and then event type,
 * made by the first watcher that sends one and handed as the very same string or bytes to the
 * rest. Two levels, so a lookup builds no key string per watcher.
 */
const encodedOf = new WeakMap<object, Map<string, Map<WatchEventType, string | Uint8Array>>>();

/** The object as stored in `kv`, shown at `revision`: shared and frozen. */
export function sharedDecode(kv: KeyValue, revision: number): any {
  // Stryker disable next-line BlockStatement: equivalent, a cache that never hits decodes every time (CPU only)
  for (const d of recent) {
    if (d.revision === revision && d.value === kv.value) return d.obj;
  }
  const obj = sharedObject(kv, revision);
  encodedOf.set(obj, new Map());
  // Stryker disable next-line ObjectLiteral: equivalent, an empty entry matches no lookup (CPU only)
  recent[nextSlot] = { value: kv.value, revision, obj };
  nextSlot = (nextSlot + 1) % SHARED_DECODES;
  return obj;
}

export function toWatchEvent(e: KvEvent, matches: (obj: any) => boolean): ApiWatchEvent | undefined {
  const revision = e.kv.modRevision;
  const prev = e.prevKv ? sharedDecode(e.prevKv, revision) : undefined;
  if (e.type === 'DELETE') {
    return prev && matches(prev) ? { type: 'DELETED', object: prev } : undefined;
  }
  const cur = sharedDecode(e.kv, revision);
  const curMatches = matches(cur);
  // Without the previous state, a write that is not a creation is taken to have matched before.
  const prevMatches = prev ? matches(prev) : e.kv.createRevision !== e.kv.modRevision;
  if (curMatches && prevMatches) return { type: 'MODIFIED', object: cur };
  if (curMatches) return { type: 'ADDED', object: cur };
  if (prevMatches && prev) return { type: 'DELETED', object: prev };
  return undefined;
}

/**
 * One line of the stream: the same bytes as JSON.stringify(ev) + '\n'. For a shared object the
 * line is made once per type and the very same string handed to every watcher.
 */
export function encodeEvent(ev: ApiWatchEvent): string {
  return encodeShared(ev, 'json', jsonLine);
}

function jsonLine(ev: ApiWatchEvent): string {
  return JSON.stringify(ev) + '\n';
}

/** `encode(ev)`, once per (event object, event type, encoding) when the object is a shared one. */
export function encodeShared<T extends string | Uint8Array>(ev: ApiWatchEvent, encoding: string, encode: (ev: ApiWatchEvent) => T): T {
  const obj = ev.object;
  // Stryker disable next-line all: equivalent, the guard only spares WeakMap.get a primitive, for which it answers undefined too
  const encoded = obj !== null && typeof obj === 'object' ? encodedOf.get(obj) : undefined;
  if (!encoded) return encode(ev);
  let byType = encoded.get(encoding);
  // Stryker disable next-line ConditionalExpression: equivalent as `true`, a fresh map each time only encodes again (CPU only); as `false` every watch fails
  if (!byType) encoded.set(encoding, (byType = new Map()));
  let out = byType.get(ev.type) as T | undefined;
  if (out === undefined) byType.set(ev.type, (out = encode(ev)));
  return out;
}
