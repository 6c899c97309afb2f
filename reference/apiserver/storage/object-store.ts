/**
 * The API server's view of its store: objects by resource/namespace/name under the registry
 * key layout (reference/store/registry.ts), every write a compare-and-swap on the key's
 * modRevision so that two concurrent writers can never both win — the contract upstream's
 * GuaranteedUpdate builds on (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go).
 */
import { CompactedError } from '../../../contract/contract.ts';
import type { KeyValue } from '../../../contract/contract.ts';
import type { Backend } from '../../store/backend.ts';
import { registryKey, registryPrefix } from '../../store/registry.ts';
import type { ResourceDef } from '../resources/registry.ts';
import { errors } from '../status.ts';
import { encodeStored, sharedObject } from './codec.ts';
import { servedAs, storedAs, type ConversionHost } from '../apiextensions/convert.ts';

export interface StoredObject {
  /** Frozen and shared with the store's other readers (codec.ts sharedObject): `clone` it to change it. */
  obj: any;
  kv: KeyValue;
}

/** A write lost its compare-and-swap: someone else changed the key first. */
export class CasFailed extends Error {
  constructor(readonly current: KeyValue | undefined) {
    super('compare-and-swap failed');
  }
}

function validSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..' && !s.includes('/');
}

/** How the store's calls are timed for etcd_request_duration_seconds (metrics/metrics.ts). */
export interface StoreTiming {
  now_ms(): number;
  record(operation: string, type: string, seconds: number): void;
}

/** The resource of a registry key or prefix: /registry/<resource>/… */
function typeOf(keyOrPrefix: string): string {
  return keyOrPrefix.split('/')[2] ?? '';
}

/**
 * What the key layout knows the resource by: its plural, or for a custom resource `<group>/<plural>`
 * (customresource_handler.go: ResourcePrefix = path.Join(group, plural)), the same for every version.
 */
function storageResource(def: ResourceDef): string {
  return def.custom?.storagePrefix ?? def.resource;
}

export class ObjectStore {
  timing?: StoreTiming;
  /** Told of every write's revision, by resource prefix: what feeds the watch cache's window (watch/cache-window.ts). */
  onWrite?: (resourcePrefix: string, revision: number) => void;
  /** How custom resources reach their conversion webhooks (wiring sets it; none: such a conversion fails). */
  conversion?: ConversionHost;

  constructor(readonly backend: Backend) {}

  /**
   * The call's own promise when nothing is timed; else one reaction that records the duration
   * however it settles. Not an async function: that would add a promise and its ticks per call.
   */
  private timed<T>(operation: string, type: string, call: () => Promise<T>): Promise<T> {
    const timing = this.timing;
    if (!timing) return call();
    const start_ms = timing.now_ms();
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (e) {
      timing.record(operation, type, (timing.now_ms() - start_ms) / 1000);
      return Promise.reject(e);
    }
    return pending.then(
      (v) => (timing.record(operation, type, (timing.now_ms() - start_ms) / 1000), v),
      (e) => {
        timing.record(operation, type, (timing.now_ms() - start_ms) / 1000);
        throw e;
      },
    );
  }

  /** A custom resource in the version asked for; a built-in kind has one version and needs no call: await this only for a custom one. */
  private served(def: ResourceDef, obj: any): any {
    return def.custom ? servedAs(def, obj, this.conversion) : obj;
  }

  key(def: ResourceDef, namespace: string, name: string): string | undefined {
    if (!validSegment(name) || (def.namespaced && !validSegment(namespace))) return undefined;
    return registryKey({ resource: storageResource(def), namespace: def.namespaced ? namespace : undefined, name });
  }

  prefix(def: ResourceDef, namespace: string): string {
    if (def.namespaced && namespace && validSegment(namespace)) return registryPrefix(storageResource(def), namespace);
    if (def.namespaced && namespace) return registryPrefix(storageResource(def), '\u0000invalid');
    return registryPrefix(storageResource(def));
  }

  async get(def: ResourceDef, namespace: string, name: string): Promise<StoredObject | undefined> {
    const key = this.key(def, namespace, name);
    if (!key) return undefined;
    const kv = await this.timed('get', def.resource, () => this.backend.get(key));
    return kv ? { obj: def.custom ? await this.served(def, sharedObject(kv)) : sharedObject(kv), kv } : undefined;
  }

  /** Whether the object exists, without decoding it. */
  async exists(def: ResourceDef, namespace: string, name: string): Promise<boolean> {
    const key = this.key(def, namespace, name);
    return key !== undefined && (await this.backend.get(key)) !== undefined;
  }

  async mustGet(def: ResourceDef, namespace: string, name: string): Promise<StoredObject> {
    const found = await this.get(def, namespace, name);
    if (!found) throw errors.notFound(def.group, def.resource, name);
    return found;
  }

  /** Creates the object only if its key is free; a taken key is 409 AlreadyExists. */
  async create(def: ResourceDef, obj: any): Promise<StoredObject> {
    const key = this.key(def, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
    if (!key) throw errors.badRequest(`invalid object name ${JSON.stringify(obj.metadata?.name ?? '')}`);
    const encoded = encodeStored(def.custom ? await storedAs(def, obj, this.conversion) : obj);
    const value = encoded.value;
    const res = await this.timed('create', def.resource, () => this.backend.txn({ key, expectModRevision: 0, value }));
    if (!res.succeeded || !res.kv) throw errors.alreadyExists(def.group, def.resource, obj.metadata.name);
    this.onWrite?.(this.prefix(def, ''), res.kv.modRevision);
    const shared = sharedObject(res.kv, res.kv.modRevision, encoded);
    return { obj: def.custom ? await this.served(def, shared) : shared, kv: res.kv };
  }

  /** Replaces the object if it is still at `expectModRevision`, else throws CasFailed. */
  async replace(def: ResourceDef, obj: any, expectModRevision: number): Promise<StoredObject> {
    const key = this.key(def, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '')!;
    const encoded = encodeStored(def.custom ? await storedAs(def, obj, this.conversion) : obj);
    const value = encoded.value;
    const res = await this.timed('update', def.resource, () => this.backend.txn({ key, expectModRevision, value }));
    if (!res.succeeded || !res.kv) throw new CasFailed(res.kv);
    this.onWrite?.(this.prefix(def, ''), res.kv.modRevision);
    const shared = sharedObject(res.kv, res.kv.modRevision, encoded);
    return { obj: def.custom ? await this.served(def, shared) : shared, kv: res.kv };
  }

  /** Deletes the object if it is still at `expectModRevision`; returns the deletion revision. */
  async remove(def: ResourceDef, namespace: string, name: string, expectModRevision: number): Promise<number> {
    const key = this.key(def, namespace, name)!;
    const res = await this.timed('delete', def.resource, () => this.backend.txn({ key, expectModRevision, value: null }));
    if (!res.succeeded) throw new CasFailed(res.kv);
    this.onWrite?.(this.prefix(def, ''), res.revision);
    return res.revision;
  }

  /** One page of keys under a prefix, at a revision; a compacted revision becomes 410 with `expiredMessage`. */
  async range(prefix: string, opts: { revision?: number; limit?: number; fromKey?: string }, expiredMessage: string) {
    try {
      return await this.timed('list', typeOf(prefix), () => this.backend.range(prefix, opts));
    } catch (e) {
      if (e instanceof CompactedError || (e as Error)?.name === 'CompactedError') throw errors.expired(expiredMessage);
      if ((e as Error)?.name === 'FutureRevisionError') throw errors.badRequest(`Too large resource version: ${opts.revision}, current: ${this.backend.currentRevision()}`);
      throw e;
    }
  }
}
