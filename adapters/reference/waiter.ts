/**
 * Waiting on the reference: drive virtual time forward in small steps until the condition
 * holds. Between steps the event loop gets one turn, so loopback HTTP answers (real I/O, but
 * no timing assumptions) land before more virtual time passes.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Waiter } from '../contract.ts';
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
        if (clock.now_ms() >= deadline_ms) {
          throw new Error(`timed out after ${budget_ms} ms of virtual time waiting for ${what}`);
        }
        clock.advance(Math.min(STEP_MS, deadline_ms - clock.now_ms()));
      }
    },
  };
}
