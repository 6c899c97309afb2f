/**
 * Helpers the kubelet and runtime steps share: pods built from a sentence ("one container "app"
 * running "sh -c 'exit 1'""), bound to the scenario's node by spec.nodeName so no scheduler is
 * needed, and reads of their status.
 */
import assert from 'node:assert/strict';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';

/** The node the scenario's pods go to unless it names one: the first node its Given named. */
export function defaultNode(world: KubespecWorld): string | undefined {
  try {
    return world.recall<string>('kubelet node');
  } catch {
    return undefined;
  }
}

/** Shell words, with '…' and "…" quoting: `sh -c 'sleep 1; exit 7'` → ['sh', '-c', 'sleep 1; exit 7']. */
export function argv(command: string): string[] {
  return (command.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^(['"])(.*)\1$/, '$2'));
}

export function container(name: string, command?: string, extra: Record<string, unknown> = {}): any {
  return { name, image: 'busybox', ...(command ? { command: argv(command) } : {}), ...extra };
}

export function podPath(world: KubespecWorld, name?: string): string {
  const base = `/api/v1/namespaces/${world.kube().namespace}/pods`;
  return name ? `${base}/${encodeURIComponent(name)}` : base;
}

export async function createPod(world: KubespecWorld, name: string, spec: any, opts: { node?: string | null; labels?: Record<string, string> } = {}): Promise<any> {
  const node = opts.node === null ? undefined : (opts.node ?? defaultNode(world));
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) }, spec: { ...(node ? { nodeName: node } : {}), ...spec } };
  const pod = expectSuccess(await world.kube().request({ method: 'POST', path: podPath(world), body }), `create pod "${name}"`);
  world.note(`uid of pod ${name}`, pod.metadata.uid);
  return pod;
}

export async function getPod(world: KubespecWorld, name: string): Promise<any> {
  return expectSuccess(await world.kube().request({ method: 'GET', path: podPath(world, name) }), `get pod "${name}"`);
}

export async function tryGetPod(world: KubespecWorld, name: string): Promise<any | undefined> {
  const res = await world.kube().request({ method: 'GET', path: podPath(world, name) });
  return res.status === 200 ? res.json : undefined;
}

export function statusOf(pod: any, containerName: string): any {
  const all = [...(pod?.status?.containerStatuses ?? []), ...(pod?.status?.initContainerStatuses ?? [])];
  return all.find((s: any) => s.name === containerName);
}

export async function containerStatus(world: KubespecWorld, pod: string, containerName: string): Promise<any> {
  return statusOf(await tryGetPod(world, pod), containerName);
}

export function describeStatus(pod: any): string {
  return JSON.stringify({ phase: pod?.status?.phase, conditions: pod?.status?.conditions?.map((c: any) => `${c.type}=${c.status}`), containers: pod?.status?.containerStatuses?.map((s: any) => ({ name: s.name, state: s.state, restarts: s.restartCount, ready: s.ready })) });
}

/** Seconds, in budgets: "within 30 seconds". */
export const seconds = (n: number) => n * 1000;

/** Let time pass: virtual time on a target with `clock.virtual`, real time elsewhere. */
export async function passSeconds(world: KubespecWorld, s: number): Promise<void> {
  if (world.session.clock) return world.session.clock.advance(s * 1000);
  await new Promise((done) => setTimeout(done, s * 1000));
}

export async function nodeOfPod(world: KubespecWorld, pod: string): Promise<string> {
  const node = (await getPod(world, pod)).spec?.nodeName;
  assert.ok(node, `pod "${pod}" is not bound to a node`);
  return node;
}

/** How far virtual time moves between two looks at the cluster: claims here are at second granularity. */
const LOOK_EVERY_MS = 250;

/**
 * Wait for a condition within a budget. On virtual time the clock moves in quarter seconds
 * between looks (each look is an API request, so looking every 10 ms of virtual time would cost
 * more than the scenario); on a real target it is the session's waiter, polling in real time.
 */
export async function eventually(world: KubespecWorld, what: string, condition: () => Promise<boolean>, budget_ms: number): Promise<void> {
  const clock = world.session.clock;
  if (!clock) return world.eventually(what, condition, budget_ms);
  const deadline_ms = clock.now_ms() + budget_ms;
  for (;;) {
    if (await condition()) return;
    if (clock.now_ms() >= deadline_ms) throw new Error(`timed out after ${budget_ms} ms of virtual time waiting for ${what}`);
    await clock.advance(Math.min(LOOK_EVERY_MS, deadline_ms - clock.now_ms()));
  }
}
