/**
 * A reflector in client-go's sense: list, then watch from the list's resourceVersion, keeping a
 * cache keyed by namespace/name. When the watch is answered 410 Expired — as an HTTP status or
 * as an ERROR event carrying a Status, both of which upstream servers send — it lists again.
 * (client-go: tools/cache/reflector.go treats apierrors.IsResourceExpired/IsGone as "relist".)
 */
import type { KubeFacet, KubeWatch, KubeWatchEvent } from '../../contract/contract.ts';

export interface ReflectorLog {
  lists: number;
  expired: number;
  lastResourceVersion: string;
}

export class Reflector {
  readonly cache = new Map<string, any>();
  readonly log: ReflectorLog = { lists: 0, expired: 0, lastResourceVersion: '' };
  private watch?: KubeWatch;
  private consumed = 0;

  /** @param collectionPath e.g. /api/v1/namespaces/ns/configmaps */
  constructor(private readonly kube: KubeFacet, private readonly collectionPath: string) {}

  async list(): Promise<void> {
    const res = await this.kube.request({ method: 'GET', path: this.collectionPath });
    if (res.status !== 200) throw new Error(`list ${this.collectionPath} answered ${res.status}: ${res.text}`);
    this.cache.clear();
    for (const item of res.json.items ?? []) this.cache.set(keyOf(item), item);
    this.log.lists++;
    this.log.lastResourceVersion = String(res.json.metadata?.resourceVersion ?? '');
  }

  /** Start (or resume) watching from the last resourceVersion seen. */
  async watchFromLast(): Promise<void> {
    await this.disconnect();
    this.consumed = 0;
    const rv = encodeURIComponent(this.log.lastResourceVersion);
    this.watch = await this.kube.watch(`${this.collectionPath}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`);
  }

  /**
   * Apply the events received so far. Returns true if the watch expired and the reflector
   * re-listed and re-watched (the caller may then call sync again for the new stream).
   */
  async sync(): Promise<boolean> {
    const watch = this.watch;
    if (!watch) return false;
    if (isExpired(watch.status, watch.error)) return this.relist();
    while (this.consumed < watch.events.length) {
      const event = watch.events[this.consumed++]!;
      if (event.type === 'ERROR') return isExpired(event.object?.code, event.object) ? this.relist() : this.fail(event);
      this.apply(event);
    }
    return false;
  }

  async disconnect(): Promise<void> {
    await this.watch?.close();
    this.watch = undefined;
  }

  private async relist(): Promise<boolean> {
    this.log.expired++;
    await this.list();
    await this.watchFromLast();
    return true;
  }

  private apply(event: KubeWatchEvent): void {
    const rv = event.object?.metadata?.resourceVersion;
    if (rv) this.log.lastResourceVersion = String(rv);
    if (event.type === 'BOOKMARK') return;
    if (event.type === 'DELETED') this.cache.delete(keyOf(event.object));
    else this.cache.set(keyOf(event.object), event.object);
  }

  private fail(event: KubeWatchEvent): never {
    throw new Error(`watch ERROR event that is not an expiry: ${JSON.stringify(event.object)}`);
  }
}

/** 410 with reason Expired (or Gone): the resourceVersion is too old to watch from. */
export function isExpired(code: unknown, status: any): boolean {
  return code === 410 && (status?.reason === 'Expired' || status?.reason === 'Gone' || status?.code === 410);
}

export function keyOf(object: any): string {
  const meta = object?.metadata ?? {};
  return meta.namespace ? `${meta.namespace}/${meta.name}` : String(meta.name);
}
