/**
 * Resource arithmetic the scheduler needs: quantities (`500m`, `2`, `512Mi`, `1G`) in integers
 * (milli-CPU, bytes), and what a pod requests.
 *
 * A pod's request is the larger of its containers' sum and its largest init container, plus its
 * overhead (pkg/api/v1/resource PodRequests). For *scoring* only, a container that requests no
 * CPU counts as 100m and one that requests no memory as 200 MiB
 * (pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest, DefaultMemoryRequest), so that
 * pods without requests still spread instead of piling onto one node; the Filter uses the true
 * requests, so such pods always fit by CPU and memory.
 */
import type { Container, Pod } from './types.ts';

export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export interface Resources {
  milliCPU: number;
  memory: number;
}

const SUFFIX: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** A resource.Quantity as a number of base units (cores, bytes); NaN if it does not parse. */
export function parseQuantity(text: string | number | undefined): number {
  if (text === undefined) return 0;
  if (typeof text === 'number') return text;
  const m = /^([+-]?[0-9.]+)(?:[eE]([+-]?[0-9]+))?([a-zA-Z]*)$/.exec(text.trim());
  if (!m || !(m[3]! in SUFFIX)) return NaN;
  return Number(m[1]) * 10 ** Number(m[2] ?? 0) * SUFFIX[m[3]!]!;
}

export function milliCPU(text: string | undefined): number {
  return Math.ceil(parseQuantity(text) * 1000);
}

export function bytes(text: string | undefined): number {
  return Math.ceil(parseQuantity(text));
}

function containerRequests(c: Container, nonZero: boolean): Resources {
  const req = c.resources?.requests ?? {};
  const cpu = req['cpu'] ?? (nonZero ? undefined : c.resources?.limits?.['cpu']);
  const mem = req['memory'] ?? (nonZero ? undefined : c.resources?.limits?.['memory']);
  return {
    milliCPU: cpu !== undefined ? milliCPU(cpu) : nonZero ? DEFAULT_MILLI_CPU_REQUEST : 0,
    memory: mem !== undefined ? bytes(mem) : nonZero ? DEFAULT_MEMORY_REQUEST : 0,
  };
}

/**
 * Requests are computed once per pod spec: keyed by the containers array, which every copy of a
 * pod the cache makes (assume, status updates) shares until the spec itself changes.
 */
const cache = new WeakMap<object, { exact: Resources; nonZero: Resources }>();

/** What the pod requests; `nonZero` applies the scoring defaults for missing requests. Do not mutate the answer. */
export function podRequests(pod: Pod, nonZero = false): Resources {
  const key = pod.spec.containers;
  if (!key || pod.spec.overhead || pod.spec.initContainers) return computeRequests(pod, nonZero);
  let hit = cache.get(key);
  if (!hit) cache.set(key, (hit = { exact: computeRequests(pod, false), nonZero: computeRequests(pod, true) }));
  return nonZero ? hit.nonZero : hit.exact;
}

function computeRequests(pod: Pod, nonZero: boolean): Resources {
  const sum: Resources = { milliCPU: 0, memory: 0 };
  for (const c of pod.spec.containers ?? []) {
    const r = containerRequests(c, nonZero);
    sum.milliCPU += r.milliCPU;
    sum.memory += r.memory;
  }
  for (const c of pod.spec.initContainers ?? []) {
    const r = containerRequests(c, false);
    sum.milliCPU = Math.max(sum.milliCPU, r.milliCPU);
    sum.memory = Math.max(sum.memory, r.memory);
  }
  const overhead = pod.spec.overhead ?? {};
  sum.milliCPU += milliCPU(overhead['cpu']);
  sum.memory += bytes(overhead['memory']);
  return sum;
}
