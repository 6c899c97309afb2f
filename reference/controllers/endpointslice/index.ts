/**
 * The EndpointSlice controller (pkg/controller/endpointslice/endpointslice_controller.go, with
 * the reconciler of staging/src/k8s.io/endpointslice): for every Service with a selector, keeps
 * EndpointSlices listing the Pods it selects.
 *
 * - Handlers: a Service change makes it dirty; a Pod change makes dirty every Service in its
 *   namespace whose selector matches it now or matched it before (getPodServiceMemberships); a
 *   Node change the Services of the pods on it (their zone); a change to a slice this controller
 *   manages, its Service (someone edited or deleted it).
 * - Sync: a Service that is gone needs nothing (its slices carry it as owner: the garbage
 *   collector removes them); ExternalName Services and Services without a selector get no
 *   slices from this controller (anyone may write theirs). Otherwise the pods it selects that
 *   should be endpoints (ShouldPodBeInEndpoints with terminating pods included) become one
 *   endpoint per pod per address type (pods.ts), placed into slices (slices.ts). A pod whose
 *   node is not in the cache is left out unless the Service publishes not-ready addresses.
 * - Slices it manages carry `endpointslice.kubernetes.io/managed-by:
 *   endpointslice-controller.k8s.io`; slices with another manager are not touched.
 * - Expectations (the endpointSliceTracker's purpose upstream): after asking for creates or
 *   deletes it does not act on the Service again until its cache has seen them, so a slice is
 *   never created twice.
 */
import { Expectations } from '../expectations.ts';
import { keyOf, splitKey } from '../shared/objects.ts';
import { RESOURCES, type Action, type Cache, type CacheEvent, type ControllerDef, type KubeObject, type SyncResult } from '../types.ts';
import { addressTypes, endpointPorts, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, podToEndpoint, portsKey, selectsPod, serviceSelector, shouldPodBeInEndpoints, type AddressType } from './pods.ts';
import { endpointKey, planSlices, type DesiredGroup } from './slices.ts';

export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller';
/** The managed-by value (controllerName in endpointslice_controller.go). */
export const ENDPOINTSLICE_MANAGER = 'endpointslice-controller.k8s.io';
/** --max-endpoints-per-slice's default (pkg/controller/endpointslice/config/v1alpha1/defaults.go). */
export const MAX_ENDPOINTS_PER_SLICE = 100;

export interface EndpointSliceOptions {
  maxEndpointsPerSlice?: number;
}

export function endpointSliceController(opts: EndpointSliceOptions = {}): ControllerDef {
  const expectations = new Expectations();
  const max = opts.maxEndpointsPerSlice ?? MAX_ENDPOINTS_PER_SLICE;
  return {
    name: ENDPOINTSLICE_CONTROLLER,
    aliases: ['endpointslice'],
    capability: 'controllers.endpointslice',
    watches: [RESOURCES.services, RESOURCES.pods, RESOURCES.nodes, RESOURCES.endpointslices],
    // --concurrent-service-endpoint-syncs defaults to 5.
    workers: 5,
    keysFor: (event, cache) => keysFor(event, cache, expectations),
    reconcile: (key, cache, ctx) => reconcile(key, cache, ctx.now_ms(), expectations, max),
    onActionFailed(action) {
      if (action.verb === 'create' && action.key) expectations.creationObserved(action.key);
      if (action.verb === 'delete' && action.key) expectations.deletionObserved(action.key);
    },
  };
}

/** The Service a managed slice belongs to, by its labels (ServiceControllerKey). */
function serviceKeyOfSlice(slice: Readonly<KubeObject>): string | undefined {
  const labels = (slice.metadata as any).labels ?? {};
  if (labels[LABEL_MANAGED_BY] !== ENDPOINTSLICE_MANAGER || !labels[LABEL_SERVICE_NAME]) return undefined;
  return `${slice.metadata.namespace}/${labels[LABEL_SERVICE_NAME]}`;
}

/** Services in the pod's namespace whose selector matches it. */
export function servicesOfPod(pod: Readonly<KubeObject>, cache: Cache): string[] {
  return cache.list('services', pod.metadata.namespace ?? '').filter((svc) => {
    const sel = serviceSelector(svc);
    return sel !== undefined && selectsPod(sel, pod);
  }).map(keyOf);
}

export function keysFor(event: CacheEvent, cache: Cache, expectations: Expectations): string[] {
  const o = event.object;
  switch (event.resource) {
    case 'services':
      if (event.type === 'DELETED') expectations.delete(keyOf(o));
      return [keyOf(o)];
    case 'pods':
      return [...new Set([...servicesOfPod(o, cache), ...(event.oldObject ? servicesOfPod(event.oldObject, cache) : [])])];
    case 'nodes': {
      const labelsChanged = JSON.stringify((o.metadata as any).labels) !== JSON.stringify((event.oldObject?.metadata as any)?.labels);
      if (event.type === 'MODIFIED' && !labelsChanged) return [];
      return [...new Set(cache.byIndex('pods', 'node', o.metadata.name).flatMap((pod) => servicesOfPod(pod, cache)))];
    }
    case 'endpointslices': {
      const key = serviceKeyOfSlice(o);
      if (!key) return [];
      if (event.type === 'ADDED') expectations.creationObserved(key);
      if (event.type === 'DELETED') expectations.deletionObserved(key);
      return [key];
    }
    default:
      return [];
  }
}

/** The endpoints the Service should have, of one address type, grouped by port set. */
export function desiredEndpoints(svc: Readonly<KubeObject>, pods: readonly Readonly<KubeObject>[], cache: Cache, type: AddressType): Map<string, DesiredGroup> {
  const groups = new Map<string, DesiredGroup>();
  const publishNotReady = !!(svc as any).spec?.publishNotReadyAddresses;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const nodeName = (pod as any).spec?.nodeName ?? '';
    const node = nodeName ? cache.get('nodes', '', nodeName) : undefined;
    // The reconciler skips a pod whose node it cannot find, unless not-ready addresses are published.
    if (!node && !publishNotReady) continue;
    const ep = podToEndpoint(pod, node, svc, type);
    if (ep.addresses.length === 0) continue;
    const ports = endpointPorts(svc, pod);
    const key = portsKey(ports);
    const group = groups.get(key) ?? { ports, endpoints: new Map() };
    group.endpoints.set(endpointKey(ep), ep);
    groups.set(key, group);
  }
  return groups;
}

const ownedBy = (slice: Readonly<KubeObject>, svc: Readonly<KubeObject>) =>
  ((slice.metadata as any).ownerReferences ?? []).some((r: any) => r.uid === svc.metadata.uid && r.kind === 'Service' && r.apiVersion === 'v1');

export function reconcile(key: string, cache: Cache, now_ms: number, expectations: Expectations, maxPerSlice = MAX_ENDPOINTS_PER_SLICE): SyncResult {
  const { namespace, name } = splitKey(key);
  const svc = cache.get('services', namespace, name);
  if (!svc) {
    expectations.delete(key);
    return { actions: [] };
  }
  const selector = serviceSelector(svc);
  if ((svc as any).spec?.type === 'ExternalName' || !selector) return { actions: [] };
  if (!expectations.satisfied(key, now_ms)) return { actions: [] };
  const pods = cache.list('pods', namespace).filter((p) => selectsPod(selector, p));
  const managed = cache.list('endpointslices', namespace).filter((s) => serviceKeyOfSlice(s) === key);
  const types = addressTypes(svc);
  const actions: Action[] = [];
  // Slices of another Service of the same name (deleted and re-created), or of a family the Service no longer has, go.
  const stale = managed.filter((s) => !ownedBy(s, svc) || !types.includes((s as any).addressType));
  actions.push(...stale.map((s) => deleteSlice(s, key)));
  for (const type of types) {
    const existing = managed.filter((s) => ownedBy(s, svc) && (s as any).addressType === type);
    const plan = planSlices(svc, type, existing, desiredEndpoints(svc, pods, cache, type), maxPerSlice, ENDPOINTSLICE_MANAGER);
    actions.push(...plan.create.map((object): Action => ({ verb: 'create', resource: RESOURCES.endpointslices, namespace, object, key })));
    actions.push(...plan.update.map((object): Action => ({ verb: 'update', resource: RESOURCES.endpointslices, namespace, object })));
    actions.push(...plan.delete.map((s) => deleteSlice(s, key)));
  }
  const creates = actions.filter((a) => a.verb === 'create').length;
  const deletes = actions.filter((a) => a.verb === 'delete').length;
  if (creates + deletes > 0) expectations.expect(key, creates, deletes, now_ms);
  return { actions };
}

function deleteSlice(slice: Readonly<KubeObject>, key: string): Action {
  return { verb: 'delete', resource: RESOURCES.endpointslices, namespace: slice.metadata.namespace ?? '', name: slice.metadata.name, uid: String(slice.metadata.uid), key };
}
