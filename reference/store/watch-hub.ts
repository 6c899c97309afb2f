/**
 * The store's watchers and the order they hear about changes in. Modelled on etcd's
 * watchable store (etcd-io/etcd server/storage/mvcc/watchable_store.go), minus the
 * synced/unsynced split: a watcher is caught up from the event log the moment it registers
 * (synchronously), so every registered watcher is "synced" and compaction never strands one.
 *
 * Delivery is synchronous but queued: when a handler writes to the store while being
 * notified, the new event waits until the current one has reached every watcher, so all
 * watchers see events in revision order. Each watcher also remembers the next revision it
 * wants, so an event can never reach it twice (e.g. a watcher registered from inside a
 * handler replays from the log and must not then receive the queued copy).
 */
import type { KvEvent } from '../../contract/contract.ts';
import type { WatchHandlers } from './backend.ts';

interface Watcher {
  readonly prefix: string;
  readonly handlers: WatchHandlers;
  /** Events below this revision were delivered already (or were never wanted). */
  nextRevision: number;
  active: boolean;
}

interface PendingDelivery {
  readonly event: KvEvent;
  readonly revision: number;
}

export function copyEvent(event: KvEvent): KvEvent {
  const copy: KvEvent = { type: event.type, kv: { ...event.kv } };
  if (event.prevKv !== undefined) copy.prevKv = { ...event.prevKv };
  return copy;
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly pending: PendingDelivery[] = [];
  private delivering = false;

  /** Registers a watcher wanting events at `fromRevision` and later; returns its cancel function. */
  add(prefix: string, fromRevision: number, handlers: WatchHandlers): { watcher: Watcher; cancel: () => void } {
    const watcher: Watcher = { prefix, handlers, nextRevision: fromRevision, active: true };
    this.watchers.add(watcher);
    const cancel = (): void => {
      watcher.active = false;
      this.watchers.delete(watcher);
    };
    return { watcher, cancel };
  }

  /** Hands a batch of already-applied events (the replay) to one watcher, skipping what it has seen. */
  replay(watcher: Watcher, events: readonly KvEvent[], storeRevision: number): void {
    const wanted = events.filter((e) => e.kv.modRevision >= watcher.nextRevision && e.kv.key.startsWith(watcher.prefix));
    if (wanted.length === 0) return;
    watcher.nextRevision = wanted[wanted.length - 1]!.kv.modRevision + 1;
    watcher.handlers.onEvents(wanted.map(copyEvent), storeRevision);
  }

  /** Announces one applied change; returns once every watcher (and any change they caused) is notified. */
  publish(event: KvEvent, revision: number): void {
    this.pending.push({ event, revision });
    if (this.delivering) return;
    this.delivering = true;
    let firstError: unknown;
    try {
      for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
        firstError ??= this.deliverToAll(next);
      }
    } finally {
      this.delivering = false;
    }
    // A throwing handler must not stop the others hearing about the change; its error still surfaces.
    if (firstError !== undefined) throw firstError;
  }

  get size(): number {
    return this.watchers.size;
  }

  private deliverToAll(delivery: PendingDelivery): unknown {
    let firstError: unknown;
    for (const watcher of [...this.watchers]) {
      if (!watcher.active || !delivery.event.kv.key.startsWith(watcher.prefix)) continue;
      if (delivery.event.kv.modRevision < watcher.nextRevision) continue;
      watcher.nextRevision = delivery.event.kv.modRevision + 1;
      try {
        watcher.handlers.onEvents([copyEvent(delivery.event)], delivery.revision);
      } catch (error) {
        firstError ??= error;
      }
    }
    return firstError;
  }
}
