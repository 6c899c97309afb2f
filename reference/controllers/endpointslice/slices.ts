/**
 * Placing a Service's endpoints into EndpointSlices, after the reconciler of
 * staging/src/k8s.io/endpointslice/reconciler.go (reconcileByAddressType, reconcileByPortMapping):
 *
 * - endpoints are grouped by the port set their pod resolves (pods whose named targetPort
 *   resolves differently land in different slices); a slice whose ports no pod has any more is
 *   deleted;
 * - an existing slice keeps the endpoints still wanted (updated in place when their conditions
 *   changed) and is deleted when none is left;
 * - what remains goes first into slices being updated anyway, then into the unchanged slice
 *   closest to full that can take it all (getSliceToFill), then into new slices of at most
 *   maxEndpointsPerSlice (--max-endpoints-per-slice, default 100);
 * - a Service with no endpoints of an address type keeps one empty "placeholder" slice.
 *
 * Pure: slices in, creates/updates/deletes out.
 */
import { clone, controllerRef, semanticEqual } from '../shared/objects.ts';
import type { KubeObject } from '../types.ts';
import { isHeadless, LABEL_HEADLESS, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, portsKey, type AddressType, type EndpointPort } from './pods.ts';

/** The ports and endpoints one slice should list. */
export interface DesiredGroup {
  ports: EndpointPort[];
  /** By endpoint key (endpointKey). */
  endpoints: Map<string, any>;
}

export interface SlicePlan {
  create: KubeObject[];
  update: KubeObject[];
  delete: Readonly<KubeObject>[];
}

/** hashEndpoint in endpointslice/util: sorted addresses, hostname and the target's namespace/name. */
export function endpointKey(ep: any): string {
  const ref = ep.targetRef ?? {};
  return JSON.stringify([[...(ep.addresses ?? [])].sort(), ep.hostname ?? '', ref.namespace ?? '', ref.name ?? '']);
}

/** setEndpointSliceLabels: the Service's own labels (reserved keys aside), the headless mark, the Service's name and the manager. */
export function sliceLabels(svc: Readonly<KubeObject>, controllerName: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries<string>((svc.metadata as any).labels ?? {})) {
    if (k !== LABEL_SERVICE_NAME && k !== LABEL_MANAGED_BY && k !== LABEL_HEADLESS) labels[k] = v;
  }
  if (isHeadless(svc)) labels[LABEL_HEADLESS] = '';
  labels[LABEL_SERVICE_NAME] = svc.metadata.name;
  labels[LABEL_MANAGED_BY] = controllerName;
  return labels;
}

/** newEndpointSlice: generateName "<service>-", the Service as controlling owner. */
export function newSlice(svc: Readonly<KubeObject>, ports: EndpointPort[], type: AddressType, controllerName: string): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: '',
      generateName: `${svc.metadata.name}-`,
      namespace: svc.metadata.namespace,
      labels: sliceLabels(svc, controllerName),
      ownerReferences: [controllerRef(svc, 'v1', 'Service')],
    } as any,
    addressType: type,
    ports,
    endpoints: [],
  };
}

const sameJson = semanticEqual;
const endpointsOf = (s: Readonly<KubeObject>): any[] => ((s as any).endpoints ?? []) as any[];

/** Whether a slice is the empty placeholder (placeholderSliceCompare: no ports, no endpoints). */
function isPlaceholder(s: Readonly<KubeObject>): boolean {
  return endpointsOf(s).length === 0 && ((s as any).ports ?? []).length === 0;
}

/** One address type: the existing slices (owned by the Service, of that type) and the desired groups. */
export function planSlices(svc: Readonly<KubeObject>, type: AddressType, existing: readonly Readonly<KubeObject>[], desired: Map<string, DesiredGroup>, maxPerSlice: number, controllerName: string): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const labels = sliceLabels(svc, controllerName);
  const byPorts = new Map<string, Readonly<KubeObject>[]>();
  for (const slice of existing) {
    const key = portsKey((slice as any).ports ?? []);
    if (!desired.has(key)) plan.delete.push(slice);
    else byPorts.set(key, [...(byPorts.get(key) ?? []), slice]);
  }
  for (const [key, group] of desired) {
    const part = planPortGroup(svc, type, byPorts.get(key) ?? [], group, labels, maxPerSlice, controllerName);
    plan.create.push(...part.create);
    plan.update.push(...part.update);
    plan.delete.push(...part.delete);
  }
  if (existing.length === plan.delete.length && plan.create.length === 0) {
    // Nothing would be left: keep (or make) the placeholder.
    if (plan.delete.length === 1 && isPlaceholder(plan.delete[0]!) && sameJson((plan.delete[0]!.metadata as any).labels, labels)) plan.delete = [];
    else plan.create.push(newSlice(svc, [], type, controllerName));
  }
  return plan;
}

function planPortGroup(svc: Readonly<KubeObject>, type: AddressType, existing: readonly Readonly<KubeObject>[], group: DesiredGroup, labels: Record<string, string>, maxPerSlice: number, controllerName: string): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const remaining = new Map(group.endpoints);
  const unchanged: Readonly<KubeObject>[] = [];
  for (const slice of existing) {
    const kept: any[] = [];
    let changed = false;
    for (const ep of endpointsOf(slice)) {
      const key = endpointKey(ep);
      const want = remaining.get(key);
      if (!want) continue;
      kept.push(want);
      if (!sameJson(want, ep)) changed = true;
      remaining.delete(key);
    }
    if (changed || kept.length !== endpointsOf(slice).length) {
      if (kept.length === 0) plan.delete.push(slice);
      else plan.update.push({ ...clone(slice), metadata: { ...clone(slice.metadata), labels }, endpoints: kept } as KubeObject);
    } else if (!sameJson((slice.metadata as any).labels, labels)) {
      plan.update.push({ ...clone(slice), metadata: { ...clone(slice.metadata), labels } } as KubeObject);
    } else {
      unchanged.push(slice);
    }
  }
  // Fill the slices being written anyway, fullest first.
  for (const slice of [...plan.update].sort((a, b) => endpointsOf(b).length - endpointsOf(a).length)) fill(slice, remaining, maxPerSlice);
  if (remaining.size > 0 && remaining.size < maxPerSlice) {
    const target = sliceToFill(unchanged, remaining.size, maxPerSlice);
    if (target) {
      const copy = clone(target) as KubeObject;
      fill(copy, remaining, maxPerSlice);
      plan.update.push(copy);
    }
  }
  while (remaining.size > 0) {
    const slice = newSlice(svc, group.ports, type, controllerName);
    fill(slice, remaining, maxPerSlice);
    plan.create.push(slice);
  }
  return plan;
}

/** Moves endpoints from `remaining` into the slice until it holds maxPerSlice. */
function fill(slice: KubeObject, remaining: Map<string, any>, maxPerSlice: number): void {
  const eps = endpointsOf(slice);
  for (const [key, ep] of remaining) {
    if (eps.length >= maxPerSlice) break;
    eps.push(ep);
    remaining.delete(key);
  }
  (slice as any).endpoints = eps;
}

/** getSliceToFill: the slice that ends closest to full once `count` endpoints are added, if any fits them all. */
function sliceToFill(slices: readonly Readonly<KubeObject>[], count: number, maxPerSlice: number): Readonly<KubeObject> | undefined {
  let best: Readonly<KubeObject> | undefined;
  let bestRoom = maxPerSlice;
  for (const s of slices) {
    const room = maxPerSlice - (count + endpointsOf(s).length);
    if (room >= 0 && room < bestRoom) {
      best = s;
      bestRoom = room;
      if (room === 0) break;
    }
  }
  return best;
}
