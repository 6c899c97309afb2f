/**
 * The `ha` facet of one reference session (`cluster.ha`): leader-elected control-plane processes
 * (reference/wiring/ha.ts) over the session's cluster, on its virtual clock.
 *
 * Time, here, moves in 100 ms steps, and before each step every process that is waiting on the
 * API server — and is neither frozen nor cut off — gets its answer: a Lease request over
 * loopback needs a handful of event-loop turns, and letting virtual seconds pass during them
 * would make every renewal look slow. (A real cluster's requests take real milliseconds.)
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ClockFacet, ControlPlaneProcess, HaFacet, Waiter } from '../../contract/contract.ts';
import type { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import type { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { HaControlPlane, type HaControlPlaneOptions } from '../../reference/wiring/ha.ts';
import { seededRandom } from '../../reference/apiserver/server.ts';

const STEP_MS = 100;
/** Event-loop turns a step may wait for answers; a request is never this slow on loopback. */
const MAX_TURNS = 200;
/** Turns given to I/O in every step anyway (watch events, reconciles). */
const MIN_TURNS = 3;

export interface HaSession {
  readonly ha: HaFacet;
  readonly plane: HaControlPlane;
  readonly clock: ClockFacet;
  readonly waiter: Waiter;
  close(): Promise<void>;
}

/**
 * `step` moves time: the virtual clock by default; over a replicated store (HA topologies) the
 * store's simulator, which moves the clock with it.
 */
export function openHaSession(cluster: ReferenceCluster, clock: VirtualClock, seed: number, extra: Pick<HaControlPlaneOptions, 'runners' | 'credentials' | 'faults' | 'apiServer'> = {}, step: (ms: number) => void | Promise<void> = (ms) => clock.advance(ms)): HaSession {
  const plane = new HaControlPlane({ cluster, clock, random: seededRandom(seed ^ 0x4a11), ...extra });
  const busy = () => plane.components.some((c) => plane.list(c).some((p) => p.awaitingAnswer));
  const settle = async () => {
    for (let turn = 0; turn < MAX_TURNS && (turn < MIN_TURNS || busy()); turn++) await nextTurn();
  };
  const advance = async (ms: number) => {
    const end_ms = clock.now_ms() + ms;
    while (clock.now_ms() < end_ms) {
      await settle();
      await step(Math.min(STEP_MS, end_ms - clock.now_ms()));
    }
    await settle();
  };
  const at = (component: string, name: string) => plane.instance(component, name);
  const ha: HaFacet = {
    start: (component, names) => plane.start(component, names),
    process: async (component, name): Promise<ControlPlaneProcess> => {
      const p = at(component, name);
      return { name, identity: p.identity, alive: p.alive, leading: p.leading, writes: p.writes };
    },
    kill: async (c, n) => at(c, n).kill(),
    restart: async (c, n) => at(c, n).restart(),
    freeze: async (c, n) => at(c, n).freeze(),
    thaw: async (c, n) => at(c, n).thaw(),
    disconnect: async (c, n) => at(c, n).disconnect(),
    reconnect: async (c, n) => at(c, n).reconnect(),
  };
  return {
    ha,
    plane,
    clock: { now_ms: () => clock.now_ms(), advance },
    waiter: {
      async until(what, condition, budget_ms) {
        const deadline_ms = clock.now_ms() + budget_ms;
        for (;;) {
          await settle();
          if (await condition()) return;
          if (clock.now_ms() >= deadline_ms) throw new Error(`timed out after ${budget_ms} ms of virtual time waiting for ${what}`);
          await advance(Math.min(STEP_MS, deadline_ms - clock.now_ms()));
        }
      },
    },
    close: () => plane.close(),
  };
}
