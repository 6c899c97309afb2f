/**
 * From store events to API watch events, with selectors applied the way upstream's cacheWatcher
 * does (staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go convertToWatchEvent):
 * an object that starts matching is ADDED, one that stops matching is DELETED (carrying its
 * previous state at the event's revision), a deletion is DELETED with the last state.
 */
import type { KvEvent } from '../../../adapters/contract.ts';
import { decodeAt, decodeObject } from '../storage/codec.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ApiWatchEvent {
  type: WatchEventType;
  object: unknown;
}

export function toWatchEvent(e: KvEvent, matches: (obj: any) => boolean): ApiWatchEvent | undefined {
  const revision = e.kv.modRevision;
  const prev = e.prevKv ? decodeAt(e.prevKv, revision) : undefined;
  if (e.type === 'DELETE') {
    return prev && matches(prev) ? { type: 'DELETED', object: prev } : undefined;
  }
  const cur = decodeObject(e.kv);
  const curMatches = matches(cur);
  // Without the previous state, a write that is not a creation is taken to have matched before.
  const prevMatches = prev ? matches(prev) : e.kv.createRevision !== e.kv.modRevision;
  if (curMatches && prevMatches) return { type: 'MODIFIED', object: cur };
  if (curMatches) return { type: 'ADDED', object: cur };
  if (prevMatches && prev) return { type: 'DELETED', object: prev };
  return undefined;
}

export function encodeEvent(ev: ApiWatchEvent): string {
  return JSON.stringify(ev) + '\n';
}
