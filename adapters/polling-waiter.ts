/**
 * Real-time waiting for real targets (etcd, any Kubernetes cluster): poll a condition until it holds or the budget runs out.
 *
 * A real cluster has no virtual clock to drive, so every wait is a bounded poll. A condition that
 * throws counts as "not yet" (a member that is still starting refuses connections); the last error
 * is kept so that running out of budget says what was in the way.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Waiter } from '../contract/contract.ts';

/** Often enough to see a Raft election (~1 s) promptly, rare enough not to load the members. */
export const DEFAULT_POLL_INTERVAL_MS = 50;

export class WaitTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly budget_ms: number,
    readonly lastError?: unknown,
  ) {
    const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
    super(`timed out after ${budget_ms} ms waiting for: ${what}${cause}`);
    this.name = 'WaitTimeoutError';
  }
}

/** Thrown by a condition when waiting longer cannot help (a process crashed): ends the wait at once. */
export class HopelessWaitError extends Error {
  override name = 'HopelessWaitError';
}

export async function pollUntil(
  what: string,
  condition: () => Promise<boolean> | boolean,
  budget_ms: number,
  interval_ms = DEFAULT_POLL_INTERVAL_MS,
): Promise<void> {
  const deadline_ms = Date.now() + budget_ms;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
      lastError = undefined;
    } catch (err) {
      if (err instanceof HopelessWaitError) throw err;
      lastError = err;
    }
    const left_ms = deadline_ms - Date.now();
    if (left_ms <= 0) throw new WaitTimeoutError(what, budget_ms, lastError);
    await delay(Math.min(interval_ms, left_ms));
  }
}

/** Poll until `produce` returns a value other than undefined; same budget rules as pollUntil. */
export async function pollFor<T>(
  what: string,
  produce: () => Promise<T | undefined>,
  budget_ms: number,
  interval_ms = DEFAULT_POLL_INTERVAL_MS,
): Promise<T> {
  let found: T | undefined;
  await pollUntil(what, async () => (found = await produce()) !== undefined, budget_ms, interval_ms);
  return found as T;
}

export function createPollingWaiter(interval_ms = DEFAULT_POLL_INTERVAL_MS): Waiter {
  return {
    until: (what, condition, budget_ms) => pollUntil(what, condition, budget_ms, interval_ms),
  };
}
