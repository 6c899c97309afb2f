/**
 * Field selectors: `a=b`, `a==b`, `a!=b`, comma = AND (k8s.io/apimachinery/pkg/fields). Each
 * kind supports a fixed set of fields, as its registry's field-label conversion does upstream
 * (pkg/apis/core/v1/conversion.go); anything else is 400 "field label not supported".
 */
import { errors } from '../status.ts';

export interface FieldRequirement {
  field: string;
  equals: boolean;
  value: string;
}

const COMMON = ['metadata.name', 'metadata.namespace'];

/** Supported fields per resource, beyond metadata.name and metadata.namespace. */
const SUPPORTED: Record<string, string[]> = {
  pods: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  nodes: ['spec.unschedulable'],
  namespaces: ['status.phase'],
  secrets: ['type'],
  events: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  replicasets: ['status.replicas'],
  jobs: ['status.successful'],
};

export function parseFieldSelector(s: string, resource: string): FieldRequirement[] {
  if (s.trim() === '') return [];
  const allowed = new Set([...COMMON, ...(SUPPORTED[resource] ?? [])]);
  return s.split(',').map((term) => {
    const m = /^\s*([^=!\s]+)\s*(==|!=|=)\s*(.*?)\s*$/.exec(term);
    if (!m) throw errors.badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    const field = m[1]!;
    if (!allowed.has(field)) throw errors.badRequest(unsupportedField(field, resource));
    return { field, equals: m[2] !== '!=', value: m[3]! };
  });
}

/**
 * Upstream's two wordings: a kind with its own field-label conversion (pods, nodes, …:
 * pkg/apis/core/v1/conversion.go) says "field label not supported"; a kind with only the
 * metadata fields uses DefaultMetaV1FieldSelectorConversion
 * (k8s.io/apimachinery/pkg/runtime/conversion.go).
 */
function unsupportedField(field: string, resource: string): string {
  if (SUPPORTED[resource]) return `field label not supported: ${field}`;
  return `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/** The value a field selector compares: missing fields compare as "" (as upstream's field sets do). */
export function fieldValue(obj: any, field: string): string {
  if (field === 'source') return String(obj?.source?.component ?? '');
  let cur: any = obj;
  for (const part of field.split('.')) cur = cur && typeof cur === 'object' ? cur[part] : undefined;
  if (cur === undefined || cur === null) return field === 'spec.unschedulable' || field === 'spec.hostNetwork' ? 'false' : '';
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
}

export function matchesFields(reqs: FieldRequirement[], obj: unknown): boolean {
  return reqs.every((r) => (fieldValue(obj, r.field) === r.value) === r.equals);
}
