/**
 * Watch delivery: one watcher on a fresh prefix, then n puts one after another under it; each
 * event's latency runs from the put's call to the event's receipt by the watcher, and the rate is
 * events delivered per second from the first put's call to the last event's receipt.
 *
 * Receipt is stamped as the facet appends to `watch.events` (both adapters append to a plain
 * array), with a poll on every event-loop turn as a fallback should an adapter hand out an array
 * that cannot be instrumented. The waiter waits for stragglers: on the reference it drives
 * virtual time, on a real target it polls.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KvEvent, KvFacet, Waiter } from '../../contract/contract.ts';
import { percentile } from '../lib.ts';
import { uniqueSuffix } from './ops.ts';

export interface WatchDelivery {
  n: number;
  delivered: number;
  events_per_s: number;
  p50_ms: number;
  p99_ms: number;
}

/** Budget for the last events to arrive after the last put returned. */
const STRAGGLER_BUDGET_MS = 10_000;

export async function measureWatchDelivery(kv: KvFacet, waiter: Waiter, n: number): Promise<WatchDelivery> {
  const prefix = `bench-watch-${uniqueSuffix()}/`;
  const { revision } = await kv.put(`${prefix}start`, 'x');
  const watch = await kv.watch(prefix, revision + 1);
  const arrivals = stampArrivals(watch.events);
  const calledAt_ms: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      calledAt_ms.push(performance.now());
      await kv.put(`${prefix}${i}`, `value-${i}`);
    }
    await waiter.until(`${n} watch events on ${prefix}`, () => watch.events.length >= n, STRAGGLER_BUDGET_MS);
  } finally {
    arrivals.stop();
    await watch.cancel();
  }
  return summarise(n, prefix, watch.events, arrivals.receivedAt_ms, calledAt_ms);
}

function summarise(n: number, prefix: string, events: readonly KvEvent[], receivedAt_ms: number[], calledAt_ms: number[]): WatchDelivery {
  const latencies_ms: number[] = [];
  let last_ms = Number.NaN;
  events.forEach((event, index) => {
    const i = Number(event.kv.key.slice(prefix.length));
    const called = calledAt_ms[i];
    const received = receivedAt_ms[index];
    if (called === undefined || received === undefined || !event.kv.key.startsWith(prefix)) return;
    latencies_ms.push(received - called);
    last_ms = Number.isNaN(last_ms) ? received : Math.max(last_ms, received);
  });
  const first_ms = calledAt_ms[0] ?? Number.NaN;
  return {
    n,
    delivered: latencies_ms.length,
    events_per_s: latencies_ms.length / ((last_ms - first_ms) / 1000),
    p50_ms: percentile(latencies_ms, 50),
    p99_ms: percentile(latencies_ms, 99),
  };
}

/**
 * Record when each element of `events` arrived: at the push itself where the array can be
 * instrumented, else on the first event-loop turn that sees it.
 */
export function stampArrivals(events: readonly KvEvent[]): { receivedAt_ms: number[]; stop(): void } {
  const receivedAt_ms: number[] = [];
  const stampUpTo = (length: number): void => {
    const now_ms = performance.now();
    while (receivedAt_ms.length < length) receivedAt_ms.push(now_ms);
  };
  const array = events as KvEvent[];
  if (Object.isExtensible(array) && !Object.prototype.hasOwnProperty.call(array, 'push')) {
    Object.defineProperty(array, 'push', {
      configurable: true,
      writable: true,
      value(...items: KvEvent[]): number {
        stampUpTo(array.length + items.length);
        return Array.prototype.push.apply(array, items);
      },
    });
    return { receivedAt_ms, stop: () => void delete (array as { push?: unknown }).push };
  }
  // Polling spins the event loop (setImmediate never lets it sleep), so only when it must.
  let polling = true;
  void (async () => {
    while (polling) {
      stampUpTo(array.length);
      await nextTurn();
    }
  })();
  return {
    receivedAt_ms,
    stop() {
      polling = false;
      stampUpTo(array.length);
    },
  };
}
