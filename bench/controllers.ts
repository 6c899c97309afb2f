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
 * Not measured here: pods reaching Running through the scheduler and kubelets with a fake runtime
 * (10,000 pods ≤ 10 s is the goal) — this branch has neither component; the figures above
 * are the controller manager's share of that path.
 */
import type { Bench, BenchResult, Figure } from './lib.ts';
import { ReferenceCluster } from '../reference/wiring/cluster.ts';
import { VirtualClock } from '../reference/wiring/virtual-clock.ts';

const ADMIN = { subjectCN: 'bench-admin', subjectO: ['system:masters'] };
const CREATE_GOAL_MS = 1000;
const ROLLING_GOAL_MS = 1000;

export interface ControllersBenchConfig {
  replicas: number;
}
export const FULL: ControllersBenchConfig = { replicas: 100 };
export const QUICK: ControllersBenchConfig = { replicas: 10 };

const bench: Bench = async (opts) => runControllersBench(opts.quick ? QUICK : FULL);
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
  await Promise.all(pods.filter((p) => !p.metadata.deletionTimestamp && !(p.status?.conditions ?? []).some((x: any) => x.type === 'Ready' && x.status === 'True')).map((p) => {
    p.status = { ...p.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    return call('PUT', `/api/v1/namespaces/bench/pods/${p.metadata.name}/status`, p);
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

    const d = (await call('GET', '/apis/apps/v1/namespaces/bench/deployments/web')).json;
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
        'The bench marks pods Running and Ready through the status subresource, standing in for kubelets; the 10,000-pods-Running goal (scheduler + kubelets + fake runtime) needs components this branch does not have.',
      ],
    };
  } finally {
    await c.stop();
  }
}
