/**
 * Helpers for scenarios whose pods really run on kubelets: a wait that asks the API at most every
 * 250 ms of the cluster's time (the reference's waiter steps 10 ms of virtual time, and these
 * waits span tens of seconds), and placing a workload on one node by cordoning the others.
 */
import type { KubespecWorld } from '../support/world.ts';
import { mergePatch, nodePath } from './support.ts';

/** Poll at most once per 250 ms of the cluster's time (the reference's waiter steps 10 ms). */
export async function sampled(world: KubespecWorld, what: string, check: () => Promise<boolean>, budget_ms: number): Promise<void> {
  let last: number | undefined;
  await world.eventually(what, async () => {
    const at = world.session.clock?.now_ms() ?? Date.now();
    if (last !== undefined && at - last < 250) return false;
    last = at;
    return check();
  }, budget_ms);
}

/** Run `place` with every other node cordoned, so what it creates lands on `node`; then uncordon them. */
export async function placedOn(world: KubespecWorld, node: string, place: () => Promise<void>): Promise<void> {
  const others = world.recallOr<string[]>('kubelet nodes', []).filter((n) => n !== node);
  for (const n of others) await mergePatch(world, nodePath(world.kube(), n), { spec: { unschedulable: true } }, `cordon ${n}`);
  await place();
  for (const n of others) await mergePatch(world, nodePath(world.kube(), n), { spec: { unschedulable: false } }, `uncordon ${n}`);
}

