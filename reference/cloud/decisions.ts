/**
 * What the cloud-controller-manager's controllers decide, as pure functions of the objects and
 * the cloud's answers; ccm.ts makes the calls and the writes. Names and strings are upstream's
 * (kubernetes/cloud-provider: api/well_known_taints.go, controllers/node/node_controller.go,
 * controllers/route/route_controller.go, controllers/service/controller.go, cloud.go).
 */
import type { InstanceMetadata } from './provider.ts';
import type { LoadBalancerPort } from './model.ts';

/** api/well_known_taints.go TaintExternalCloudProvider: the kubelet with --cloud-provider=external registers the node with it. */
export const UNINITIALIZED_TAINT = 'node.cloudprovider.kubernetes.io/uninitialized';
/** service controller's LoadBalancerCleanupFinalizer. */
export const LB_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
/** Well-known labels the node controller sets from the instance metadata. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const REGION_LABEL = 'topology.kubernetes.io/region';
export const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';
/** Nodes with this label are left out of load balancers (service controller). */
export const EXCLUDE_LB_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers';

export function hasUninitializedTaint(node: any): boolean {
  return (node?.spec?.taints ?? []).some((t: any) => t?.key === UNINITIALIZED_TAINT);
}

/** The Node after initialisation: providerID, labels, and the taint gone (node_controller.go syncNode). */
export function initializedNode(node: any, meta: InstanceMetadata): any {
  const next = structuredClone(node);
  next.spec ??= {};
  if (!next.spec.providerID) next.spec.providerID = meta.providerID;
  next.spec.taints = (next.spec.taints ?? []).filter((t: any) => t?.key !== UNINITIALIZED_TAINT);
  if (next.spec.taints.length === 0) delete next.spec.taints;
  next.metadata.labels = { ...next.metadata.labels, [ZONE_LABEL]: meta.zone, [REGION_LABEL]: meta.region, [INSTANCE_TYPE_LABEL]: meta.instanceType };
  return next;
}

export function readyStatus(node: any): string | undefined {
  return (node?.status?.conditions ?? []).find((c: any) => c?.type === 'Ready')?.status;
}

// ---- routes -----------------------------------------------------------------------------------

export interface WantedRoute {
  name: string;
  destinationCIDR: string;
  targetNode: string;
}

/** One route per node with a podCIDR; named after the cluster and the node's uid, as the route controller's nameHint. */
export function wantedRoutes(cluster: string, nodes: readonly any[]): WantedRoute[] {
  return nodes
    .filter((n) => typeof n?.spec?.podCIDR === 'string' && n.spec.podCIDR !== '')
    .map((n) => ({ name: `${cluster}-${n.metadata.uid}`, destinationCIDR: n.spec.podCIDR, targetNode: n.metadata.name }));
}

export function routeChanges(existing: readonly WantedRoute[], wanted: readonly WantedRoute[]): { create: WantedRoute[]; remove: WantedRoute[] } {
  const key = (r: WantedRoute) => `${r.targetNode} ${r.destinationCIDR}`;
  const have = new Set(existing.map(key));
  const want = new Set(wanted.map(key));
  return { create: wanted.filter((r) => !have.has(key(r))), remove: existing.filter((r) => !want.has(key(r))) };
}

/** route_controller.go updateNetworkingCondition, for a node whose route exists. */
export function networkAvailableCondition(now: string): any {
  return { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', message: 'RouteController created a route', lastTransitionTime: now, lastHeartbeatTime: now };
}

// ---- load balancers ---------------------------------------------------------------------------

/** cloud.go DefaultLoadBalancerName: "a" + the Service's UID without dashes, at most 32 characters. */
export function loadBalancerName(service: any): string {
  return `a${String(service.metadata.uid).replaceAll('-', '')}`.slice(0, 32);
}

/** The service controller wants a load balancer for a LoadBalancer Service that is not being deleted. */
export function wantsLoadBalancer(service: any): boolean {
  return service?.spec?.type === 'LoadBalancer' && !service.metadata?.deletionTimestamp;
}

export function hasCleanupFinalizer(service: any): boolean {
  return (service?.metadata?.finalizers ?? []).includes(LB_CLEANUP_FINALIZER);
}

export function loadBalancerPorts(service: any): LoadBalancerPort[] {
  return (service.spec.ports ?? []).map((p: any) => ({ ...(p.name ? { name: p.name } : {}), protocol: p.protocol ?? 'TCP', port: p.port, nodePort: p.nodePort }));
}

/** Nodes a load balancer sends to: Ready, not excluded by label (service controller's node predicates). */
export function loadBalancerNodes(nodes: readonly any[]): string[] {
  return nodes
    .filter((n) => readyStatus(n) === 'True' && !(EXCLUDE_LB_LABEL in (n.metadata.labels ?? {})) && !hasUninitializedTaint(n))
    .map((n) => n.metadata.name as string)
    .sort();
}
