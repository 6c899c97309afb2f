/**
 * Waiting on the reference: drive virtual time forward in small steps until the condition
 * holds. Between steps the event loop gets one turn, so loopback HTTP answers (real I/O, but
 * no timing assumptions) land before more virtual time passes; and host work the components
 * wait for (a subprocess: VirtualClock.hostWork) settles first, however long the machine's load
 * makes it take.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Waiter } from '../../contract/contract.ts';
import { TURNS_PER_STEP, type VirtualClock } from '../../reference/wiring/virtual-clock.ts';

/** Virtual time moved per step: fine enough for second-granularity claims. */
const STEP_MS = 10;

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

export { passTime } from '../../reference/wiring/virtual-clock.ts';
