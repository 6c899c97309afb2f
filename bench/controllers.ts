/**
 * Controller manager benchmark, on the reference cluster in-process (virtual clock; the
 * controllers need I/O turns but no virtual time, so wall time is what the work costs):
 *
 * - a 100-replica Deployment, POST → all 100 pods created (ReplicaSet made, pods created in
 *   slow-start batches, each through the API as system:kube-controller-manager); goal ≤ 1 s;
 * - the same Deployment → rolled out (what `kubectl rollout status` waits for), with the bench
 *   marking each pod Running and Ready through the status subresource as its kubelet would;
 * - a rolling update of those 100 replicas (new image) → rolled out again, same kubelet stand-in;
 *   goal ≤ 1 s;
 * - peak RSS of the process.
 *
 * - a fleet: 100 Deployments × 100 replicas POSTed at once → 10,000 pods Running, through the
 *   whole path — Deployment and ReplicaSet controllers, the scheduler, a kubelet per node (100
 *   nodes, 110 pods each at most) with the fake runtime — in real time; goal ≤ 10 s. Pods Running
 *   are counted by listing them once a second (the bench's own reads go in-process, not over HTTP).
 */
import type { Bench, BenchResult, Figure } from './lib.ts';
import { ReferenceCluster } from '../reference/wiring/cluster.ts';
import { VirtualClock } from '../reference/wiring/virtual-clock.ts';
import { RealTimeScheduler } from '../reference/wiring/realtime.ts';

const ADMIN = { subjectCN: 'bench-admin', subjectO: ['system:masters'] };
const CREATE_GOAL_MS = 1000;
const ROLLING_GOAL_MS = 1000;

export interface ControllersBenchConfig {
  replicas: number;
}
export const FULL: ControllersBenchConfig = { replicas: 100 };
export const QUICK: ControllersBenchConfig = { replicas: 10 };

export interface FleetConfig {
  deployments: number;
  replicas: number;
  nodes: number;
  /** Give up after this long (the figure then says how many pods ran). */
  budget_ms: number;
  /**
   * How the components reach the API server: `in-process`, as the suite's reference target wires
   * them (reference/wiring/in-process.ts: the whole request pipeline, no loopback HTTP), or
   * `http`, as `kubespec serve` does. Default http.
   */
  wiring?: 'http' | 'in-process';
}
export const FULL_FLEET: FleetConfig = { deployments: 100, replicas: 100, nodes: 100, budget_ms: 120_000 };
export const QUICK_FLEET: FleetConfig = { deployments: 5, replicas: 10, nodes: 2, budget_ms: 60_000 };
const FLEET_GOAL_MS = 10_000;

const bench: Bench = async (opts) => {
  const one = await runControllersBench(opts.quick ? QUICK : FULL);
  // The fleet twice: as the suite's reference target wires its components, and as serve does.
  const fleets = [];
  for (const wiring of ['in-process', 'http'] as const) fleets.push(await runFleetBench({ ...(opts.quick ? QUICK_FLEET : FULL_FLEET), wiring }));
  const fleetFigures = fleets.flatMap((f) => f.figures);
  const rss = Math.max(...[...one.figures, ...fleetFigures].filter((f) => f.unit === 'MiB').map((f) => f.value));
  return {
    ...one,
    figures: [...one.figures.filter((f) => f.unit !== 'MiB'), ...fleetFigures.filter((f) => f.unit !== 'MiB'), { name: 'peak RSS of the process', value: rss, unit: 'MiB', system: 'reference' }],
    notes: [...(one.notes ?? []), ...(fleets[0]?.notes ?? [])],
  };
};
export default bench;

type Call = (method: string, url: string, body?: unknown, contentType?: string) => Promise<{ status: number; json: any }>;

function caller(c: ReferenceCluster): Call {
  return async (method, url, body, contentType = 'application/json') => {
    const { status, answer } = await c.api.handle({ method, url, headers: { 'content-type': contentType, accept: 'application/json' }, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)), clientCert: ADMIN });
    return { status, json: answer.kind === 'reply' ? (answer.body as any) : undefined };
  };
}

const turn = () => new Promise((r) => setImmediate(r));

/** Lets the controllers work until `done` holds, playing the kubelet if asked. */
async function until(c: ReferenceCluster, call: Call, done: () => Promise<boolean>, kubelet: boolean, budget_ms = 60_000): Promise<void> {
  const start = performance.now();
  for (;;) {
    await c.controllers.settled();
    if (kubelet) await markReady(call);
    if (await done()) return;
    if (performance.now() - start > budget_ms) throw new Error('the controllers did not get there in time');
    await turn();
  }
}

async function markReady(call: Call): Promise<void> {
  const pods = (await call('GET', '/api/v1/namespaces/bench/pods')).json.items as any[];
  // A new object, not the listed one changed: in process the API server's answers are frozen (ApiServer.handle).
  await Promise.all(pods.filter((p) => !p.metadata.deletionTimestamp && !(p.status?.conditions ?? []).some((x: any) => x.type === 'Ready' && x.status === 'True')).map((p) => {
    const ready = { ...p, status: { ...p.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
    return call('PUT', `/api/v1/namespaces/bench/pods/${p.metadata.name}/status`, ready);
  }));
}

export async function runControllersBench(config: ControllersBenchConfig): Promise<BenchResult> {
  const c = await ReferenceCluster.start({ seed: 7, clock: new VirtualClock(), secure: { anonymous: true } });
  const call = caller(c);
  let peakRss = process.memoryUsage().rss;
  const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
  try {
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    const n = config.replicas;
    const labels = { app: 'web' };
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: n, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { schedulerName: 'kubespec-no-scheduler', containers: [{ name: 'c', image: 'app:v1' }] } } } };
    const podCount = async () => ((await call('GET', '/api/v1/namespaces/bench/pods')).json.items as any[]).filter((p) => !p.metadata.deletionTimestamp).length;
    const rolledOut = async () => {
      const d = (await call('GET', '/apis/apps/v1/namespaces/bench/deployments/web')).json;
      sample();
      return d.status?.observedGeneration >= d.metadata.generation && d.status?.updatedReplicas === n && d.status?.replicas === n && d.status?.availableReplicas === n;
    };

    let t0 = performance.now();
    await call('POST', '/apis/apps/v1/namespaces/bench/deployments', deployment);
    await until(c, call, async () => (await podCount()) === n, false);
    const created_ms = performance.now() - t0;
    await until(c, call, rolledOut, true);
    const rolled_ms = performance.now() - t0;

    // A copy to change: in process the API server's answers are frozen (ApiServer.handle).
    const d = structuredClone((await call('GET', '/apis/apps/v1/namespaces/bench/deployments/web')).json);
    d.spec.template.spec.containers[0].image = 'app:v2';
    t0 = performance.now();
    await call('PUT', '/apis/apps/v1/namespaces/bench/deployments/web', d);
    await until(c, call, rolledOut, true);
    const rolling_ms = performance.now() - t0;

    const figures: Figure[] = [
      { name: `Deployment of ${n}: POST → ${n} pods created`, value: Math.round(created_ms), unit: 'ms', system: 'reference', goal: { text: `≤ ${CREATE_GOAL_MS} ms`, met: created_ms <= CREATE_GOAL_MS } },
      { name: `Deployment of ${n}: POST → rolled out (pods marked Ready by the bench as their kubelet)`, value: Math.round(rolled_ms), unit: 'ms', system: 'reference' },
      { name: `rolling update of ${n} replicas → rolled out (same kubelet stand-in)`, value: Math.round(rolling_ms), unit: 'ms', system: 'reference', goal: { text: `≤ ${ROLLING_GOAL_MS} ms`, met: rolling_ms <= ROLLING_GOAL_MS } },
      { name: 'peak RSS of the process', value: Math.round(peakRss / 1024 / 1024), unit: 'MiB', system: 'reference' },
    ];
    return {
      name: 'controllers',
      figures,
      notes: [
        'Wall time on the in-process reference cluster (virtual clock: the controllers need no virtual time, only I/O turns), every request over loopback HTTP with authentication, RBAC and admission.',
        'The single-Deployment figures mark pods Running and Ready through the status subresource, standing in for kubelets.',
      ],
    };
  } finally {
    await c.stop();
  }
}

/** 100 Deployments × 100 replicas → 10,000 pods Running, through scheduler, controllers and kubelets, in real time. */
export async function runFleetBench(config: FleetConfig): Promise<BenchResult> {
  const clock = new RealTimeScheduler();
  const c = await ReferenceCluster.start({ seed: 11, clock, secure: { anonymous: true }, lazyHttpInterceptor: true, inProcessComponents: config.wiring === 'in-process' });
  const call = caller(c);
  let peakRss = process.memoryUsage().rss;
  try {
    for (let i = 1; i <= config.nodes; i++) await c.addKubelet(`node-${i}`);
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fleet' } });
    while ((await call('GET', '/api/v1/namespaces/fleet/serviceaccounts/default')).status !== 200) await new Promise((r) => setTimeout(r, 10));
    const total = config.deployments * config.replicas;
    const t0 = performance.now();
    for (let d = 0; d < config.deployments; d++) {
      const labels = { app: `app-${d}` };
      const spec = { replicas: config.replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } };
      const res = await call('POST', '/apis/apps/v1/namespaces/fleet/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `app-${d}` }, spec });
      if (res.status !== 201) throw new Error(`POST Deployment app-${d}: ${res.status}`);
    }
    let running = 0;
    let elapsed_ms = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const pods = (await call('GET', '/api/v1/namespaces/fleet/pods')).json.items as any[];
      running = pods.filter((p) => p.status?.phase === 'Running').length;
      elapsed_ms = performance.now() - t0;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      if (running >= total || elapsed_ms > config.budget_ms) break;
    }
    const met = running >= total && elapsed_ms <= FLEET_GOAL_MS;
    const over = config.wiring === 'in-process' ? 'in process, as the reference target wires them' : 'over loopback HTTP, as kubespec serve wires them';
    const name = `${config.deployments} Deployments × ${config.replicas} → ${total} pods Running (scheduler, controllers, ${config.nodes} kubelets, fake runtime; components reach the API server ${over})`;
    return {
      name: 'controllers',
      figures: [
        { name, value: Math.round(elapsed_ms), unit: 'ms', system: 'reference', goal: { text: `≤ ${FLEET_GOAL_MS} ms`, met } },
        { name: `pods Running when that was measured (of ${total}; ${config.wiring ?? 'http'})`, value: running, unit: 'pods', system: 'reference' },
        { name: 'peak RSS of the process', value: Math.round(peakRss / 1024 / 1024), unit: 'MiB', system: 'reference' },
      ],
      notes: [`Fleet: real time, one process, counted by a list once a second (so ±1 s); gave up after ${config.budget_ms / 1000} s if not all Running.`],
    };
  } finally {
    clock.cancelAll();
    await c.stop();
  }
}
