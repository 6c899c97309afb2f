/**
 * Scheduler benchmark, after kube-scheduler's scheduler_perf (test/integration/scheduler_perf,
 * config/performance-config.yaml "SchedulingBasic", 5000Nodes_10000Pods): 5,000 nodes (4 CPU,
 * 32 GiB, 110 pods: node-default.yaml), 1,000 pods placed first, then 10,000 measured pods
 * requesting 100m CPU and 500 MiB (pod-default.yaml), default plugins, measured from the first
 * measured pod created to the last bound. Upstream's CI threshold for this shape is 680 pods/s.
 *
 * It runs the reference's own SchedulerCore — framework, queue, cache and every default plugin,
 * the code path the suite runs — in process. Pods reach it as informer events and each binding
 * comes back as the bound pod's update, as the API server's watch would deliver it; the HTTP
 * round trips are left out (the API server has its own bench), so this measures scheduling.
 *
 * Beside it, a mixed workload on 1,000 nodes in 10 zones (a seventh tainted): a quarter of the
 * pods with required node affinity, a quarter with required anti-affinity on hostname, a
 * quarter with a zone spread constraint (maxSkew 1), a quarter tolerating the taint.
 */
import { percentile, type Bench, type BenchResult, type Figure } from './lib.ts';
import { SchedulerCore } from '../reference/scheduler/scheduler.ts';
import type { Node, Pod } from '../reference/scheduler/types.ts';
import { node as testNode, seeded } from '../reference/scheduler/testing.ts';

/** node-default.yaml's node: 4 CPU, 32 GiB, 110 pods; in the mixed workload, a zone and maybe the taint. */
function node(i: number, extra: { zone?: string; taint?: boolean } = {}): Node {
  return testNode(`node-${i}`, {
    memory: '32Gi',
    ...(extra.zone ? { labels: { 'topology.kubernetes.io/zone': extra.zone } } : {}),
    ...(extra.taint ? { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] } : {}),
  });
}

function pod(name: string, spec: Partial<Pod['spec']> = {}, labels: Record<string, string> = {}): Pod {
  return {
    metadata: { name, namespace: 'bench', uid: name, labels },
    spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '100m', memory: '500Mi' } } }], ...spec },
  };
}

interface Run {
  pods_per_s: number;
  attemptP50_ms: number;
  attemptP99_ms: number;
  e2eP99_ms: number;
  unscheduled: number;
}

/** Feeds the pods in, schedules until the queue is empty, applies each binding as the watch would. */
function schedule(core: SchedulerCore, pods: Pod[]): Run {
  const attempts: number[] = [];
  const created = new Map<string, number>();
  const e2e: number[] = [];
  const t0 = performance.now();
  for (const p of pods) {
    created.set(p.metadata.name, performance.now());
    core.onPod('ADDED', p, 0);
  }
  let bound = 0;
  for (;;) {
    const a0 = performance.now();
    const attempt = core.scheduleOne(0);
    if (!attempt) break;
    attempts.push(performance.now() - a0);
    const bind = attempt.effects.find((e) => e.kind === 'bind');
    if (!bind || bind.kind !== 'bind') continue;
    core.bindingDone(attempt, true, 0);
    core.onPod('MODIFIED', { ...bind.pod, spec: { ...bind.pod.spec, nodeName: bind.node } }, 0);
    e2e.push(performance.now() - created.get(bind.pod.metadata.name)!);
    bound++;
  }
  const elapsed_s = (performance.now() - t0) / 1000;
  return { pods_per_s: bound / elapsed_s, attemptP50_ms: percentile(attempts, 50), attemptP99_ms: percentile(attempts, 99), e2eP99_ms: percentile(e2e, 99), unscheduled: pods.length - bound };
}

function basic(nodes: number, initPods: number, measuredPods: number): Run {
  const core = new SchedulerCore({ random: seeded(1) });
  for (let i = 0; i < nodes; i++) core.onNode('ADDED', node(i), 0);
  schedule(core, Array.from({ length: initPods }, (_, i) => pod(`init-${i}`)));
  return schedule(core, Array.from({ length: measuredPods }, (_, i) => pod(`pod-${i}`)));
}

export function mixed(nodes: number, pods: number): Run {
  const core = new SchedulerCore({ random: seeded(2) });
  for (let i = 0; i < nodes; i++) core.onNode('ADDED', node(i, { zone: `zone-${i % 10}`, taint: i % 7 === 0 }), 0);
  const list = Array.from({ length: pods }, (_, i) => {
    switch (i % 4) {
      case 0: return pod(`affinity-${i}`, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-1', 'zone-2', 'zone-3'] }] }] } } } });
      case 1: return pod(`anti-${i}`, { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { group: `g${i % 50}` } } }] } } }, { group: `g${i % 50}` });
      case 2: return pod(`spread-${i}`, { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } } }] }, { app: 'spread' });
      default: return pod(`tolerant-${i}`, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }] });
    }
  });
  return schedule(core, list);
}

const bench: Bench = async ({ quick }): Promise<BenchResult> => {
  const size = quick ? { nodes: 100, init: 50, pods: 200, mixedNodes: 50, mixedPods: 100 } : { nodes: 5000, init: 1000, pods: 10000, mixedNodes: 1000, mixedPods: 2000 };
  let peakRss = process.memoryUsage().rss;
  const b = basic(size.nodes, size.init, size.pods);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const m = mixed(size.mixedNodes, size.mixedPods);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const basicName = `SchedulingBasic ${size.nodes} nodes, ${size.pods} pods`;
  const figures: Figure[] = [
    { name: `${basicName}: throughput`, value: round(b.pods_per_s), unit: 'pods/s', system: 'reference', goal: { text: '≥ 1000 pods/s (upstream CI threshold for this shape: 680)', met: b.pods_per_s >= 1000 } },
    { name: `${basicName}: scheduling attempt p50`, value: round(b.attemptP50_ms, 3), unit: 'ms', system: 'reference' },
    { name: `${basicName}: scheduling attempt p99`, value: round(b.attemptP99_ms, 3), unit: 'ms', system: 'reference' },
    { name: `${basicName}: created → bound p99 (all pods created at once)`, value: round(b.e2eP99_ms), unit: 'ms', system: 'reference' },
    { name: `${basicName}: pods left unscheduled`, value: b.unscheduled, unit: 'pods', system: 'reference', goal: { text: '0', met: b.unscheduled === 0 } },
    { name: `mixed ${size.mixedNodes} nodes, ${size.mixedPods} pods (affinity, anti-affinity, spread, taints): throughput`, value: round(m.pods_per_s), unit: 'pods/s', system: 'reference' },
    { name: 'mixed: scheduling attempt p99', value: round(m.attemptP99_ms, 3), unit: 'ms', system: 'reference' },
    { name: 'mixed: pods left unscheduled', value: m.unscheduled, unit: 'pods', system: 'reference' },
    { name: 'peak RSS', value: Math.round(peakRss / 2 ** 20), unit: 'MiB', system: 'reference', goal: { text: '≤ 1024 MiB', met: peakRss <= 2 ** 30 } },
  ];
  return {
    name: 'scheduler',
    figures,
    notes: [
      'in-process SchedulerCore (framework, queue, cache, default plugins); bindings fed back as watch updates; no HTTP',
      `percentageOfNodesToScore adaptive: ${size.nodes} nodes → ${size.nodes >= 100 ? Math.max(100, Math.trunc((size.nodes * Math.max(5, Math.trunc(50 - size.nodes / 125))) / 100)) : size.nodes} feasible nodes per cycle`,
    ],
  };
};

function round(v: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export default bench;
