/**
 * The legacy Endpoints controller (pkg/controller/endpoint/endpoints_controller.go): for every
 * Service with a selector, one Endpoints object of the same name whose subsets list the
 * selected pods' addresses — ready ones under `addresses`, the others under
 * `notReadyAddresses` — per resolved port set (RepackSubsets in pkg/api/v1/endpoints/util.go).
 *
 * Differences from the EndpointSlice controller it shares pods.ts with: terminating pods are
 * left out (unless the Service publishes not-ready addresses, which also makes every address
 * ready); a pod's node is not looked up; the object has no owner — the controller deletes it
 * when its Service goes; it holds at most 1000 addresses (maxCapacity), truncated with the
 * annotation `endpoints.kubernetes.io/over-capacity: truncated`.
 */
import { clone, isPodReady, keyOf, semanticEqual, splitKey } from '../shared/objects.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject } from '../types.ts';
import { endpointPorts, isHeadless, isIPv6, LABEL_HEADLESS, podIPs, selectsPod, serviceSelector, shouldPodBeInEndpoints, type EndpointPort } from '../endpointslice/pods.ts';
import { servicesOfPod } from '../endpointslice/index.ts';

export const ENDPOINT_CONTROLLER = 'endpoints-controller';
/** maxCapacity in endpoints_controller.go. */
export const MAX_CAPACITY = 1000;
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

export function endpointsController(): ControllerDef {
  return {
    name: ENDPOINT_CONTROLLER,
    aliases: ['endpoint'],
    capability: 'controllers.endpoint',
    watches: [RESOURCES.services, RESOURCES.pods, RESOURCES.endpoints],
    // --concurrent-endpoint-syncs defaults to 5.
    workers: 5,
    keysFor,
    reconcile: (key, cache) => reconcile(key, cache),
  };
}

export function keysFor(event: CacheEvent, cache: Cache): string[] {
  const o = event.object;
  if (event.resource === 'services') return [keyOf(o)];
  if (event.resource === 'pods') return [...new Set([...servicesOfPod(o, cache), ...(event.oldObject ? servicesOfPod(event.oldObject, cache) : [])])];
  // An Endpoints object deleted or edited by someone else: its Service (if any) writes it back.
  if (event.resource === 'endpoints' && event.type !== 'ADDED') return [keyOf(o)];
  return [];
}

interface Address {
  ip: string;
  nodeName?: string;
  hostname?: string;
  targetRef: { kind: 'Pod'; namespace?: string; name: string; uid?: string };
}

/** podToEndpointAddressForService: the pod IP of the Service's family (a headless Service without families: the first). */
function addressOf(svc: Readonly<KubeObject>, pod: Readonly<KubeObject>): Address | undefined {
  const spec = (svc as any).spec ?? {};
  const family: string | undefined = spec.ipFamilies?.[0] ?? (spec.clusterIP && spec.clusterIP !== 'None' ? (isIPv6(spec.clusterIP) ? 'IPv6' : 'IPv4') : undefined);
  const ip = podIPs(pod).find((a) => family === undefined || isIPv6(a) === (family === 'IPv6'));
  if (!ip) return undefined;
  const podSpec = (pod as any).spec ?? {};
  const address: Address = { ip, targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid } };
  if (podSpec.nodeName) address.nodeName = podSpec.nodeName;
  if (podSpec.hostname && podSpec.subdomain === svc.metadata.name) address.hostname = podSpec.hostname;
  return address;
}

/** The subsets of the Service's Endpoints, repacked: one per port set, addresses sorted by IP. */
export function desiredSubsets(svc: Readonly<KubeObject>, pods: readonly Readonly<KubeObject>[]): any[] {
  const publishNotReady = !!(svc as any).spec?.publishNotReadyAddresses;
  const groups = new Map<string, { ports: EndpointPort[]; addresses: Address[]; notReadyAddresses: Address[] }>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = addressOf(svc, pod);
    if (!address) continue;
    const hasPorts = ((svc as any).spec?.ports ?? []).length > 0;
    // A headless Service may have no ports: its subsets list addresses alone.
    if (!hasPorts && !isHeadless(svc)) continue;
    // RepackSubsets merges per-port subsets: an address ready on its ports lands under those ports together.
    const ports = hasPorts ? endpointPorts(svc, pod).sort((a, b) => a.name.localeCompare(b.name) || a.port - b.port) : [];
    if (hasPorts && ports.length === 0) continue;
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? { ports, addresses: [], notReadyAddresses: [] };
    (publishNotReady || isPodReady(pod) ? group.addresses : group.notReadyAddresses).push(address);
    groups.set(key, group);
  }
  const byIp = (a: Address, b: Address) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => ({
    ...(g.addresses.length > 0 ? { addresses: g.addresses.sort(byIp) } : {}),
    ...(g.notReadyAddresses.length > 0 ? { notReadyAddresses: g.notReadyAddresses.sort(byIp) } : {}),
    ...(g.ports.length > 0 ? { ports: g.ports } : {}),
  }));
}

/** truncateEndpoints: past maxCapacity, keep ready addresses first, each subset its proportional share. */
export function truncate(subsets: any[]): boolean {
  const ready = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
  const notReady = subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0);
  if (ready + notReady <= MAX_CAPACITY) return false;
  const truncateReady = ready > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - ready;
  const total = truncateReady ? ready : notReady;
  let room = max;
  for (const s of subsets) {
    const field = truncateReady ? 'addresses' : 'notReadyAddresses';
    const share = Math.min(Math.ceil(((s[field]?.length ?? 0) / total) * max), room);
    if (s[field]) s[field] = s[field].slice(0, share);
    if (truncateReady) delete s.notReadyAddresses;
    room -= s[field]?.length ?? 0;
  }
  return true;
}

export function reconcile(key: string, cache: Cache): Action[] {
  const { namespace, name } = splitKey(key);
  const svc = cache.get('services', namespace, name);
  const current = cache.get('endpoints', namespace, name);
  if (!svc) {
    // The Service went: so does its Endpoints object (the controller deletes it; it has no owner).
    return current ? [{ verb: 'delete', resource: RESOURCES.endpoints, namespace, name, uid: String(current.metadata.uid) }] : [];
  }
  const selector = serviceSelector(svc);
  if ((svc as any).spec?.type === 'ExternalName' || !selector) return [];
  const subsets = desiredSubsets(svc, cache.list('pods', namespace).filter((p) => selectsPod(selector, p)));
  const truncated = truncate(subsets);
  const labels: Record<string, string> = { ...((svc.metadata as any).labels ?? {}) };
  if (isHeadless(svc)) labels[LABEL_HEADLESS] = '';
  else delete labels[LABEL_HEADLESS];
  const annotations: Record<string, string> = { ...((current?.metadata as any)?.annotations ?? {}) };
  if (truncated) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
  else delete annotations[OVER_CAPACITY_ANNOTATION];
  const want = { subsets, labels, annotations };
  const have = { subsets: (current as any)?.subsets ?? [], labels: (current?.metadata as any)?.labels ?? {}, annotations: (current?.metadata as any)?.annotations ?? {} };
  if (current && semanticEqual(want, have)) return [];
  if (!current) {
    const object = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) }, subsets } as KubeObject;
    return [{ verb: 'create', resource: RESOURCES.endpoints, namespace, object }];
  }
  const next = clone(current) as any;
  next.metadata.labels = labels;
  next.metadata.annotations = annotations;
  next.subsets = subsets;
  return [{ verb: 'update', resource: RESOURCES.endpoints, namespace, object: next }];
}
