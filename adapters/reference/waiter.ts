/**
 * Waiting on the reference: drive virtual time forward in small steps until the condition
 * holds. Between steps the event loop gets one turn, so loopback HTTP answers (real I/O, but
 * no timing assumptions) land before more virtual time passes; and host work the components
 * wait for (a subprocess: VirtualClock.hostWork) settles first, however long the machine's load
 * makes it take.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Waiter } from '../../contract/contract.ts';
import type { VirtualClock } from '../../reference/wiring/virtual-clock.ts';

/** Virtual time moved per step: fine enough for second-granularity claims. */
const STEP_MS = 10;
/** Event-loop turns given to I/O before each virtual step. */
const TURNS_PER_STEP = 3;

export function virtualWaiter(clock: VirtualClock): Waiter {
  return {
    async until(what, condition, budget_ms) {
      const deadline_ms = clock.now_ms() + budget_ms;
      for (;;) {
        for (let turn = 0; turn < TURNS_PER_STEP; turn++) {
          if (await condition()) return;
          await nextTurn();
        }
        // Time stands still for host work; then what it set off gets its turns, as above.
        if (clock.hostWorkPending()) {
          await clock.hostWorkSettled();
          continue;
        }
        if (clock.now_ms() >= deadline_ms) {
          throw new Error(`timed out after ${budget_ms} ms of virtual time waiting for ${what}`);
        }
        clock.advance(Math.min(STEP_MS, deadline_ms - clock.now_ms()));
      }
    },
  };
}

/** Virtual time moved per step when time simply passes: coarse, since nothing is waited on. */
const PASSING_STEP_MS = 1_000;

/**
 * Let virtual time pass the way it passes on a real cluster: in steps, with event-loop turns
 * between them, so that what the passing time sets off over loopback (a watch that times out
 * and is re-opened, a retried write) happens along the way rather than all after the jump.
 */
export async function passTime(clock: VirtualClock, ms: number): Promise<void> {
  const end_ms = clock.now_ms() + ms;
  while (clock.now_ms() < end_ms) {
    for (let turn = 0; turn < TURNS_PER_STEP; turn++) await nextTurn();
    if (clock.hostWorkPending()) {
      await clock.hostWorkSettled();
      continue;
    }
    clock.advance(Math.min(PASSING_STEP_MS, end_ms - clock.now_ms()));
  }
  for (let turn = 0; turn < TURNS_PER_STEP; turn++) await nextTurn();
}
