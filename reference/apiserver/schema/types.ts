/**
 * The reference's schemas, written directly in the OpenAPI v3 subset Kubernetes publishes, so one
 * value serves validation, pruning, strategic-merge metadata and the /openapi/v3 documents.
 * Extensions are the ones kube-openapi emits (x-kubernetes-patch-merge-key, -patch-strategy,
 * -list-type, -list-map-keys, -int-or-string, -preserve-unknown-fields).
 */

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
  items?: Schema;
  required?: string[];
  enum?: string[];
  anyOf?: Schema[];
  default?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'map' | 'set';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
}

export const str = (description?: string): Schema => (description ? { type: 'string', description } : { type: 'string' });
export const int = (): Schema => ({ type: 'integer', format: 'int32' });
export const int64 = (): Schema => ({ type: 'integer', format: 'int64' });
export const num = (): Schema => ({ type: 'number', format: 'double' });
export const bool = (): Schema => ({ type: 'boolean' });
/** metav1.Time: RFC 3339 in a string. */
export const time = (): Schema => ({ type: 'string', format: 'date-time' });
export const strs = (): Schema => ({ type: 'array', items: str() });

/** An object with known fields; anything else is an unknown field. */
export function obj(properties: Record<string, Schema>, required?: string[]): Schema {
  const s: Schema = { type: 'object', properties };
  if (required && required.length > 0) s.required = required;
  return s;
}

/** An object we do not model field by field: any content is kept. */
export function free(description?: string): Schema {
  const s: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  if (description) s.description = description;
  return s;
}

/** A partly modelled object: the listed fields are typed, other fields are kept as they are. */
export function open(properties: Record<string, Schema>, required?: string[]): Schema {
  return { ...obj(properties, required), 'x-kubernetes-preserve-unknown-fields': true };
}

export const arr = (items: Schema): Schema => ({ type: 'array', items });
export const mapOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });
export const strMap = (): Schema => mapOf(str());

/** A list merged element-by-element on `key` by strategic merge patch (e.g. containers by name). */
export function mergeList(items: Schema, key: string, mapKeys: string[] = [key]): Schema {
  return {
    type: 'array',
    items,
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': mapKeys,
  };
}

/** A list of strings merged as a set (e.g. metadata.finalizers). */
export function setList(): Schema {
  return { type: 'array', items: str(), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' };
}

/** intstr.IntOrString. */
export function intOrString(): Schema {
  return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
}

/** resource.Quantity: a string on the wire, though clients send bare numbers too. */
export function quantity(): Schema {
  return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
}

export function withDescription(s: Schema, description: string): Schema {
  return { ...s, description };
}
