/** Builders for the scheduler's unit tests: nodes and pods in a line each. */
import type { Node, Pod, Taint, Toleration } from './types.ts';

export function node(name: string, opts: { cpu?: string; memory?: string; pods?: string; labels?: Record<string, string>; taints?: Taint[]; unschedulable?: boolean; images?: { names: string[]; sizeBytes: number }[] } = {}): Node {
  const allocatable = { cpu: opts.cpu ?? '4', memory: opts.memory ?? '8Gi', pods: opts.pods ?? '110' };
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(opts.labels ?? {}) } },
    spec: { ...(opts.taints ? { taints: opts.taints } : {}), ...(opts.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable, capacity: allocatable, ...(opts.images ? { images: opts.images } : {}) },
  };
}

export function pod(name: string, opts: { cpu?: string; memory?: string; nodeName?: string; priority?: number; labels?: Record<string, string>; tolerations?: Toleration[]; nodeSelector?: Record<string, string>; affinity?: any; image?: string; namespace?: string; preemptionPolicy?: string; topologySpreadConstraints?: any[]; schedulerName?: string } = {}): Pod {
  const requests: Record<string, string> = {};
  if (opts.cpu) requests['cpu'] = opts.cpu;
  if (opts.memory) requests['memory'] = opts.memory;
  return {
    metadata: { name, namespace: opts.namespace ?? 'default', uid: `uid-${name}`, labels: opts.labels ?? {} },
    spec: {
      containers: [{ name: 'c', image: opts.image ?? 'busybox', resources: { requests } }],
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
      ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
      ...(opts.nodeSelector ? { nodeSelector: opts.nodeSelector } : {}),
      ...(opts.affinity ? { affinity: opts.affinity } : {}),
      ...(opts.preemptionPolicy ? { preemptionPolicy: opts.preemptionPolicy } : {}),
      ...(opts.topologySpreadConstraints ? { topologySpreadConstraints: opts.topologySpreadConstraints } : {}),
      ...(opts.schedulerName ? { schedulerName: opts.schedulerName } : {}),
    },
  };
}

/** A deterministic uniform source for tie-breaks. */
export function seeded(seed = 1): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
