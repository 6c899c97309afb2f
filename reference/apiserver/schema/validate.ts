/**
 * Checks a decoded object against its schema the way the API server's decoder and structural
 * pruning do: wrong JSON types are decode errors (400), unknown fields are reported for
 * `fieldValidation` (Strict → 400 `strict decoding error: unknown field "spec.foo"`, Warn →
 * a warning, Ignore → dropped silently; k8s.io/apiserver handlers/rest.go, fieldValidation),
 * and missing required fields are field errors (422 "Required value").
 */
import type { FieldError } from '../status.ts';
import type { Schema } from './types.ts';

export interface SchemaCheck {
  /** The object with unknown fields and null values dropped (where the schema does not preserve them). */
  value: unknown;
  unknownFields: string[];
  typeErrors: TypeError[];
  fieldErrors: FieldError[];
}

/** A value of the wrong JSON type; `message` is worded like Go's encoding/json UnmarshalTypeError. */
export interface TypeError {
  path: string;
  message: string;
}

interface Walk {
  unknownFields: string[];
  typeErrors: TypeError[];
  fieldErrors: FieldError[];
  depth: number;
}

/** Deeper than this the object is rejected rather than walked: a bound on hostile input. */
const MAX_DEPTH = 64;

export function checkAgainstSchema(value: unknown, schema: Schema): SchemaCheck {
  const walk: Walk = { unknownFields: [], typeErrors: [], fieldErrors: [], depth: 0 };
  const pruned = visit(value, schema, '', walk);
  return { value: pruned, unknownFields: walk.unknownFields, typeErrors: walk.typeErrors, fieldErrors: walk.fieldErrors };
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function goType(s: Schema): string {
  if (s['x-kubernetes-int-or-string']) return 'intstr.IntOrString';
  switch (s.type) {
    case 'integer':
      return s.format === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return '[]' + (s.items ? goType(s.items) : 'interface {}');
    case 'object':
      return s.additionalProperties ? `map[string]${goType(s.additionalProperties)}` : 'object';
    default:
      return s.type ?? 'interface {}';
  }
}

function typeError(w: Walk, path: string, v: unknown, s: Schema): undefined {
  w.typeErrors.push({ path, message: `json: cannot unmarshal ${jsonType(v)} into Go struct field ${path || '.'} of type ${goType(s)}` });
  return undefined;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function visit(v: unknown, s: Schema, path: string, w: Walk): unknown {
  if (v === null || v === undefined) return v;
  if (w.depth > MAX_DEPTH) return typeError(w, path, v, s);
  if (s['x-kubernetes-int-or-string']) {
    return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : typeError(w, path, v, s);
  }
  switch (s.type) {
    case 'string':
      return typeof v === 'string' ? v : typeError(w, path, v, s);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) ? v : typeError(w, path, v, s);
    case 'number':
      return typeof v === 'number' ? v : typeError(w, path, v, s);
    case 'boolean':
      return typeof v === 'boolean' ? v : typeError(w, path, v, s);
    case 'array':
      return visitArray(v, s, path, w);
    case 'object':
      return visitObject(v, s, path, w);
    default:
      return v;
  }
}

function visitArray(v: unknown, s: Schema, path: string, w: Walk): unknown {
  if (!Array.isArray(v)) return typeError(w, path, v, s);
  if (!s.items) return v;
  w.depth++;
  const out = v.map((item, i) => visit(item, s.items!, `${path}[${i}]`, w));
  w.depth--;
  return out;
}

function visitObject(v: unknown, s: Schema, path: string, w: Walk): unknown {
  if (typeof v !== 'object' || Array.isArray(v) || v === null) return typeError(w, path, v, s);
  const input = v as Record<string, unknown>;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserve && !s.properties) return v;
  const out: Record<string, unknown> = {};
  w.depth++;
  for (const [key, child] of Object.entries(input)) {
    const childSchema = s.properties?.[key] ?? s.additionalProperties;
    if (childSchema) {
      const checked = visit(child, childSchema, s.properties?.[key] ? join(path, key) : `${path}[${key}]`, w);
      if (checked !== null && checked !== undefined) out[key] = checked;
    } else if (preserve) {
      out[key] = child;
    } else {
      w.unknownFields.push(join(path, key));
    }
  }
  w.depth--;
  for (const key of s.required ?? []) {
    if (input[key] === undefined || input[key] === null) w.fieldErrors.push({ type: 'Required', field: join(path, key) });
  }
  return out;
}
