/**
 * The node lifecycle controller's zone states and NoExecute tainting rates
 * (kubernetes/kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go: ComputeZoneState,
 * handleDisruption, setLimiterInZone, HealthyQPSFunc, ReducedQPSFunc). Pure: the node Ready
 * conditions by zone in, the states and rates out.
 *
 * - A zone (GetZoneKey: the region and zone labels) is FullDisruption when none of its nodes is
 *   Ready and at least one is not; PartialDisruption when more than 2 nodes are not Ready and they
 *   are at least --unhealthy-zone-threshold (0.55) of it; Normal otherwise. So a zone of one or
 *   two nodes is never PartialDisruption, and a one-node zone with that node down is FullDisruption.
 * - Rates (tainting a node NoExecute, which the taint-eviction controller turns into evictions):
 *   Normal → --node-eviction-rate (0.1 nodes/s); PartialDisruption → --secondary-node-eviction-rate
 *   (0.01/s) in a zone larger than --large-cluster-size-threshold (50), else 0 (stopped);
 *   FullDisruption → the normal rate again: a zone that is wholly down (its own network, say)
 *   is handled as usual.
 * - Unless every zone is FullDisruption: then the controller assumes its own view is broken
 *   ("master disruption mode"): every rate is 0 and the NoExecute not-ready/unreachable taints come
 *   off every node (markNodeAsReachable), until some node is Ready again, when each zone gets its
 *   state's rate back. A one-zone cluster whose nodes are all down is in this mode — a one-node
 *   cluster with its node down gets no NoExecute taint and no eviction.
 *
 * The controller (index.ts) evaluates handleDisruption whenever it reconciles a node, and draws a
 * token from the node's zone's limiter (below) before it adds a not-ready/unreachable NoExecute taint.
 */
export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface ZoneOptions {
  /** --node-eviction-rate, nodes per second. */
  evictionRate: number;
  /** --secondary-node-eviction-rate. */
  secondaryEvictionRate: number;
  /** --unhealthy-zone-threshold. */
  unhealthyZoneThreshold: number;
  /** --large-cluster-size-threshold. */
  largeClusterSizeThreshold: number;
}

/** kube-controller-manager's defaults (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go). */
export const DEFAULT_ZONE_OPTIONS: ZoneOptions = { evictionRate: 0.1, secondaryEvictionRate: 0.01, unhealthyZoneThreshold: 0.55, largeClusterSizeThreshold: 50 };

/** topology.kubernetes.io labels and their deprecated failure-domain.beta ones. */
const REGION_LABELS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];
const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];

/** GetZoneKey (pkg/util/node): "region:\x00:zone", or "" for a node with neither label. */
export function zoneKey(labels: Record<string, string> | undefined): string {
  const pick = (keys: string[]) => keys.map((k) => labels?.[k]).find((v) => v !== undefined) ?? '';
  const region = pick(REGION_LABELS);
  const zone = pick(ZONE_LABELS);
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState over the zone's nodes' Ready condition statuses (undefined: no Ready condition). */
export function computeZoneState(readyStatuses: readonly (string | undefined)[], opts: ZoneOptions = DEFAULT_ZONE_OPTIONS): { notReady: number; state: ZoneState } {
  const ready = readyStatuses.filter((s) => s === 'True').length;
  const notReady = readyStatuses.length - ready;
  if (ready === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + ready) >= opts.unhealthyZoneThreshold) return { notReady, state: 'PartialDisruption' };
  return { notReady, state: 'Normal' };
}

/** setLimiterInZone: the tainting rate (nodes/s) for a zone of `zoneSize` nodes in `state`. */
export function zoneRate(state: ZoneState, zoneSize: number, opts: ZoneOptions = DEFAULT_ZONE_OPTIONS): number {
  switch (state) {
    case 'PartialDisruption':
      return zoneSize > opts.largeClusterSizeThreshold ? opts.secondaryEvictionRate : 0;
    case 'Normal':
    case 'FullDisruption':
      return opts.evictionRate;
    case 'Initial':
      return opts.evictionRate;
  }
}

export interface DisruptionView {
  /** Each zone's state now. */
  states: Map<string, ZoneState>;
  /** Each zone's tainting rate, nodes/s. */
  rates: Map<string, number>;
  /** Every zone is FullDisruption: no tainting, and the NoExecute taints come off. */
  masterDisruption: boolean;
  /** This pass entered master disruption mode (the taints are to be removed now). */
  entered: boolean;
  /** This pass left it: every zone's limiter goes back to its state's rate. */
  left: boolean;
}

/**
 * handleDisruption: the zones' new states from their nodes' Ready statuses, and the rates. A zone
 * seen for the first time is Initial in the previous pass (it counts as not fully disrupted before).
 */
export function handleDisruption(previous: ReadonlyMap<string, ZoneState>, readyByZone: ReadonlyMap<string, readonly (string | undefined)[]>, opts: ZoneOptions = DEFAULT_ZONE_OPTIONS): DisruptionView {
  const states = new Map<string, ZoneState>();
  for (const [zone, statuses] of readyByZone) states.set(zone, computeZoneState(statuses, opts).state);
  const all = (m: ReadonlyMap<string, ZoneState>, zones: Iterable<string>) => {
    const list = [...zones];
    return list.length > 0 && list.every((z) => m.get(z) === 'FullDisruption');
  };
  const allAre = all(states, states.keys());
  const allWere = all(previous, states.keys());
  const rates = new Map<string, number>();
  for (const [zone, state] of states) rates.set(zone, allAre ? 0 : zoneRate(state, readyByZone.get(zone)!.length, opts));
  return { states, rates, masterDisruption: allAre, entered: allAre && !allWere, left: allWere && !allAre };
}

/**
 * A zone's tainting limiter: upstream's RateLimitedTimedQueue over a client-go token bucket with
 * burst 1 (pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go, EvictionRateLimiterBurst),
 * or the never-accepting limiter for a rate of 0. `next_ms`: when the bucket holds its one token.
 */
export interface ZoneLimiter {
  rate: number;
  next_ms: number;
}

/** addPodEvictorForNewZone: a new zone's limiter runs at --node-eviction-rate, its token there at once. */
export function newLimiter(rate: number, now_ms: number): ZoneLimiter {
  return rate > 0 ? { rate, next_ms: now_ms } : { rate: 0, next_ms: Infinity };
}

/** TryAccept: take the token if it is there; the next one comes 1/rate later. */
export function tryAccept(limiter: ZoneLimiter, now_ms: number): boolean {
  if (limiter.rate <= 0 || now_ms < limiter.next_ms) return false;
  limiter.next_ms = now_ms + 1000 / limiter.rate;
  return true;
}

/**
 * SwapLimiter: the same rate keeps the bucket as it is; a new rate gets a new bucket, drained when
 * the old one had no token to give ("If we're currently waiting on limiter, we drain the new one").
 */
export function swapLimiter(limiter: ZoneLimiter, rate: number, now_ms: number): ZoneLimiter {
  if (limiter.rate === rate) return limiter;
  if (rate <= 0) return newLimiter(0, now_ms);
  const hadToken = limiter.rate > 0 && now_ms >= limiter.next_ms;
  return { rate, next_ms: hadToken ? now_ms : now_ms + 1000 / rate };
}
