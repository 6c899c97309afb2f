/**
 * Small readings of objects every workload controller shares: owner references, pod phase and
 * readiness (pkg/api/v1/pod/util.go IsPodReady, IsPodAvailable), and RFC 3339 times.
 */
import type { KubeObject } from '../types.ts';
import { sortedJson } from '../../json-value.ts';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export function ownerReferences(o: Readonly<KubeObject>): OwnerReference[] {
  const refs = (o.metadata as any).ownerReferences;
  return Array.isArray(refs) ? refs : [];
}

/** metav1.GetControllerOf: the one ownerReference with controller=true. */
export function controllerOf(o: Readonly<KubeObject>): OwnerReference | undefined {
  return ownerReferences(o).find((r) => r.controller === true);
}

/** The reference a controller puts on what it makes (metav1.NewControllerRef). */
export function controllerRef(owner: Readonly<KubeObject>, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name, uid: String(owner.metadata.uid), controller: true, blockOwnerDeletion: true };
}

export function isBeingDeleted(o: Readonly<KubeObject>): boolean {
  return !!(o.metadata as any).deletionTimestamp;
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Readonly<KubeObject>): boolean {
  const phase = (pod as any).status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isBeingDeleted(pod);
}

function readyCondition(pod: Readonly<KubeObject>): any {
  return ((pod as any).status?.conditions ?? []).find((c: any) => c.type === 'Ready');
}

export function isPodReady(pod: Readonly<KubeObject>): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(pod: Readonly<KubeObject>, minReadySeconds: number, now_ms: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = parseTime(readyCondition(pod)?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 <= now_ms;
}

export function restartCount(pod: Readonly<KubeObject>): number {
  return ((pod as any).status?.containerStatuses ?? []).reduce((n: number, c: any) => n + (c.restartCount ?? 0), 0);
}

export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** RFC 3339 with second precision, as metav1.Time marshals. */
export { rfc3339 } from '../../timestamps.ts';

export function clone<T>(o: T): T {
  return structuredClone(o) as T;
}

export function keyOf(o: { metadata: { namespace?: string; name: string } }): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Deep equality that ignores key order (what apiequality.Semantic.DeepEqual gives for JSON objects), so a server that stores keys in another order does not make a controller write forever. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], other[i])) return false;
    return true;
  }
  // Walked in place, without key arrays: controllers compare whole objects on every sync.
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k) || x[k] === undefined) continue;
    defined++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !semanticEqual(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k) && y[k] !== undefined) defined--;
  return defined === 0;
}

/**
 * A text equal for two JSON values exactly when semanticEqual is: keys sorted, undefined members
 * left out (as JSON.stringify leaves them). For a set of values compared many times over.
 */
export function semanticKey(v: unknown): string {
  return sortedJson(v);
}
