/**
 * Node-pressure eviction for memory (pkg/kubelet/eviction): the pure decisions of the eviction
 * manager's synchronize — which pod goes first, and what its status says. The thresholds, hard and soft, are thresholds.ts's; the kubelet
 * (kubelet.ts, through manager.ts) runs a pass every 10 s with the machine's and the runtime's
 * stats and kills the chosen pod.
 *
 * Upstream, as of 1.34:
 * - memory.available = the machine's memory capacity − the working set of its root cgroup
 *   (helpers.go makeSignalObservations, from the summary's node memory stats);
 * - a hard threshold `memory.available<100Mi` (`--eviction-hard`, default 100Mi) is met when the
 *   observed value is below the quantity, or below the percentage of capacity (thresholdsMet);
 * - rankMemoryPressure = orderedBy(exceedMemoryRequests, priority, memory): pods whose usage
 *   exceeds their memory requests first, then lower priority first, then the larger usage above
 *   requests first (helpers.go);
 * - evictPod refuses critical pods (IsCriticalPod: priority ≥ 2000000000, system-cluster-critical
 *   and system-node-critical) and the manager tries the next pod in rank order
 *   (eviction_manager.go synchronize, evictPod; pkg/kubelet/types/pod_update.go);
 * - the evicted pod is Failed with reason "Evicted" and the message of helpers.go evictionMessage
 *   ("The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. Container
 *   app was using 200Mi, request is 64Mi, has larger consumption of memory. "), and a condition
 *   DisruptionTarget=True with reason TerminationByKubelet (eviction_manager.go evictPod).
 */

/** kubelet.go evictionMonitoringPeriod. */
export const EVICTION_MONITORING_MS = 10_000;
/** --eviction-pressure-transition-period default: a pressure condition stays True this long after the last time a threshold was met. */
export const PRESSURE_TRANSITION_MS = 5 * 60_000;
/** pkg/apis/scheduling SystemCriticalPriority. */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
export const EVICTED_REASON = 'Evicted';

/** A pod the manager may rank: its API object and its containers' working sets by name (absent: no stats). */
export interface PodUsage {
  pod: any;
  usage?: Map<string, number>;
}

export function podPriority(pod: any): number {
  return typeof pod?.spec?.priority === 'number' ? pod.spec.priority : 0;
}

export function isCritical(pod: any): boolean {
  return podPriority(pod) >= SYSTEM_CRITICAL_PRIORITY;
}

function memoryRequest(container: any): number {
  return parseBytes(String(container?.resources?.requests?.memory ?? '0')) ?? 0;
}

function podRequest(pod: any): number {
  return (pod?.spec?.containers ?? []).reduce((sum: number, c: any) => sum + memoryRequest(c), 0);
}

function podUsed(p: PodUsage): number {
  let sum = 0;
  for (const v of p.usage?.values() ?? []) sum += v;
  return sum;
}

/** rankMemoryPressure: the order in which pods are tried for eviction, first first. */
export function rankMemoryPressure(pods: readonly PodUsage[]): PodUsage[] {
  const exceeds = (p: PodUsage) => p.usage !== undefined && podUsed(p) > podRequest(p.pod);
  return [...pods].sort((a, b) => {
    // exceedMemoryRequests: a pod without stats ranks first, then pods above their requests.
    if ((a.usage === undefined) !== (b.usage === undefined)) return a.usage === undefined ? -1 : 1;
    if (exceeds(a) !== exceeds(b)) return exceeds(a) ? -1 : 1;
    const byPriority = podPriority(a.pod) - podPriority(b.pod);
    if (byPriority !== 0) return byPriority;
    return (podUsed(b) - podRequest(b.pod)) - (podUsed(a) - podRequest(a.pod));
  });
}

/** helpers.go evictionMessage for memory. */
export function evictionMessage(threshold: string, available_bytes: number, p: PodUsage): string {
  let message = `The node was low on resource: memory. Threshold quantity: ${threshold}, available: ${formatBinarySI(available_bytes)}. `;
  for (const c of p.pod?.spec?.containers ?? []) {
    const used = p.usage?.get(c.name);
    if (used === undefined || used <= memoryRequest(c)) continue;
    message += `Container ${c.name} was using ${formatBinarySI(used)}, request is ${formatBinarySI(memoryRequest(c))}, has larger consumption of memory. `;
  }
  return message;
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

export function parseBytes(q: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(q);
  return m && UNITS[m[2]!] !== undefined ? Math.round(Number(m[1]) * UNITS[m[2]!]!) : undefined;
}

/** A byte count as resource.NewQuantity(n, BinarySI).String(): the largest binary suffix that divides it. */
export function formatBinarySI(bytes: number): string {
  if (bytes === 0) return '0';
  const sign = bytes < 0 ? '-' : '';
  let n = Math.abs(bytes);
  const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
  let i = 0;
  while (i < suffixes.length - 1 && n % 1024 === 0) {
    n /= 1024;
    i++;
  }
  return `${sign}${n}${suffixes[i]}`;
}
