/**
 * A custom resource against its CRD's openAPIV3Schema (a structural schema): pruning of unknown
 * fields, then validation with upstream's field errors.
 *
 * Pruning follows staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/
 * algorithm.go: an object keeps only the fields its `properties` name (or any field, through
 * `additionalProperties`), unless `x-kubernetes-preserve-unknown-fields: true`; apiVersion, kind
 * and metadata at the root are never pruned. A null where the schema does not say `nullable` is
 * dropped, as the CRD docs say ("null values for fields that either don't specify the nullable
 * flag, or give it a false value, will be pruned").
 *
 * Validation messages are kube-openapi's (k8s.io/kube-openapi/pkg/validation/errors/schema.go:
 * "%s in body must be of type %s: %q", "should be less than or equal to", "should match '%s'", …)
 * turned into field errors the way kubeOpenAPIResultToFieldErrors does (staging/src/k8s.io/
 * apiextensions-apiserver/pkg/apiserver/validation/validation.go): required → Required, enum →
 * NotSupported, maxLength → TooLong, maxItems → TooMany, type → Invalid, the rest → Invalid.
 */
import type { FieldError } from '../status.ts';

/** apiextensions.k8s.io/v1 JSONSchemaProps, the subset this server acts on. */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  default?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

const ROOT_KEPT = new Set(['apiVersion', 'kind', 'metadata']);
/** A bound on hostile input: deeper than this is not walked. */
const MAX_DEPTH = 64;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** Drops unknown fields (in place, on a copy the caller owns); returns their paths. */
export function prune(value: unknown, schema: JSONSchemaProps | undefined): string[] {
  const unknown: string[] = [];
  if (!isObject(value) || !schema) return unknown;
  pruneObject(value, schema, '', unknown, true, 0);
  return unknown;
}

function pruneValue(v: unknown, s: JSONSchemaProps, path: string, unknown: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(v) && s.items) v.forEach((item, i) => pruneValue(item, s.items!, `${path}[${i}]`, unknown, depth + 1));
  else if (isObject(v)) pruneObject(v, s, path, unknown, false, depth);
}

function pruneObject(o: Record<string, unknown>, s: JSONSchemaProps, path: string, unknown: string[], root: boolean, depth: number): void {
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
  for (const key of Object.keys(o)) {
    if (root && ROOT_KEPT.has(key)) continue;
    const child = s.properties?.[key] ?? additional;
    if (child) {
      if (o[key] === null && !child.nullable) delete o[key];
      else pruneValue(o[key], child, join(path, key), unknown, depth + 1);
    } else if (!preserve && s.additionalProperties !== true) {
      unknown.push(join(path, key));
      delete o[key];
    }
  }
}

/** Field errors for a pruned custom resource (metadata, apiVersion and kind are checked elsewhere). */
export function validate(value: unknown, schema: JSONSchemaProps | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!schema || !isObject(value)) return errs;
  const rootProps = { ...schema, properties: { ...(schema.properties ?? {}) } };
  for (const k of ROOT_KEPT) delete rootProps.properties[k];
  visit(value, rootProps, '', errs, 0);
  return errs;
}

/** kube-openapi names a value's JSON type this way in "must be of type" errors. */
function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(v: unknown, s: JSONSchemaProps): boolean {
  if (s['x-kubernetes-int-or-string']) return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
  switch (s.type) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

function visit(v: unknown, s: JSONSchemaProps, path: string, errs: FieldError[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  const name = path || '.';
  if (v === null) {
    if (!s.nullable && s.type) errs.push({ type: 'Invalid', field: name, value: null, detail: `${name} in body must be of type ${s.type}: "null"` });
    return;
  }
  if (!typeMatches(v, s)) {
    const want = s['x-kubernetes-int-or-string'] ? 'integer,string' : s.type;
    errs.push({ type: 'Invalid', field: name, value: v, detail: `${name} in body must be of type ${want}: ${JSON.stringify(typeName(v))}` });
    return;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errs.push({ type: 'NotSupported', field: name, value: v, detail: `supported values: ${s.enum.map((e) => JSON.stringify(e)).join(', ')}` });
  }
  if (typeof v === 'number') checkNumber(v, s, name, errs);
  if (typeof v === 'string') checkString(v, s, name, errs);
  if (Array.isArray(v)) checkArray(v, s, path, errs, depth);
  if (isObject(v)) checkObject(v, s, path, errs, depth);
}

function checkNumber(v: number, s: JSONSchemaProps, name: string, errs: FieldError[]): void {
  if (s.maximum !== undefined && (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)) {
    errs.push({ type: 'Invalid', field: name, value: v, detail: `${name} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}` });
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)) {
    errs.push({ type: 'Invalid', field: name, value: v, detail: `${name} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}` });
  }
}

function checkString(v: string, s: JSONSchemaProps, name: string, errs: FieldError[]): void {
  const length = [...v].length;
  if (s.maxLength !== undefined && length > s.maxLength) errs.push({ type: 'TooLong', field: name, value: v, detail: `may not be more than ${s.maxLength} bytes` });
  if (s.minLength !== undefined && length < s.minLength) errs.push({ type: 'Invalid', field: name, value: v, detail: `${name} in body should be at least ${s.minLength} chars long` });
  if (s.pattern !== undefined && !matches(s.pattern, v)) errs.push({ type: 'Invalid', field: name, value: v, detail: `${name} in body should match '${s.pattern}'` });
}

/** A pattern the CRD's validation accepted; one JavaScript cannot compile matches nothing. */
function matches(pattern: string, v: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(v);
  } catch {
    return false;
  }
}

function checkArray(v: unknown[], s: JSONSchemaProps, path: string, errs: FieldError[], depth: number): void {
  const name = path || '.';
  if (s.maxItems !== undefined && v.length > s.maxItems) errs.push({ type: 'TooMany', field: name, value: v.length, detail: `must have at most ${s.maxItems} items` });
  if (s.minItems !== undefined && v.length < s.minItems) errs.push({ type: 'Invalid', field: name, value: v, detail: `${name} in body should have at least ${s.minItems} items` });
  if (s.items) v.forEach((item, i) => visit(item, s.items!, `${path}[${i}]`, errs, depth + 1));
}

function checkObject(v: Record<string, unknown>, s: JSONSchemaProps, path: string, errs: FieldError[], depth: number): void {
  for (const key of s.required ?? []) {
    if (v[key] === undefined) errs.push({ type: 'Required', field: join(path, key) });
  }
  const additional = isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
  for (const [key, child] of Object.entries(v)) {
    const cs = s.properties?.[key] ?? additional;
    if (cs) visit(child, cs, join(path, key), errs, depth + 1);
  }
}
