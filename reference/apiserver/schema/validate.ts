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
  /** Whether to build the pruned copy; a check that only wants the reports walks without it. */
  prune: boolean;
  /**
   * The path to the value being visited, as steps (a property name, or a map key or index shown
   * in brackets), made into text only for a report: nearly every walk reports nothing, and
   * joining the path at every field cost more than the checks themselves.
   */
  keys: (string | number)[];
  bracketed: boolean[];
}

/** Deeper than this the object is rejected rather than walked: a bound on hostile input. */
const MAX_DEPTH = 64;

/** `prune: false` when only the reports are wanted: `value` is then the input itself. */
export function checkAgainstSchema(value: unknown, schema: Schema, prune = true): SchemaCheck {
  const walk: Walk = { unknownFields: [], typeErrors: [], fieldErrors: [], depth: 0, prune, keys: [], bracketed: [] };
  const pruned = visit(value, schema, walk);
  return { value: prune ? pruned : value, unknownFields: walk.unknownFields, typeErrors: walk.typeErrors, fieldErrors: walk.fieldErrors };
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

function typeError(w: Walk, v: unknown, s: Schema): undefined {
  const path = pathOf(w);
  w.typeErrors.push({ path, message: `json: cannot unmarshal ${jsonType(v)} into Go struct field ${path || '.'} of type ${goType(s)}` });
  return undefined;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** The walk's current path: `a.b` for properties, `a[k]` / `a[0]` for map keys and indexes. */
function pathOf(w: Walk): string {
  let path = '';
  for (let i = 0; i < w.keys.length; i++) path = w.bracketed[i] ? `${path}[${w.keys[i]}]` : join(path, w.keys[i] as string);
  return path;
}

function enter(w: Walk, key: string | number, bracketed: boolean): void {
  w.keys.push(key);
  w.bracketed.push(bracketed);
}

function leave(w: Walk): void {
  w.keys.pop();
  w.bracketed.pop();
}

function visit(v: unknown, s: Schema, w: Walk): unknown {
  if (v === null || v === undefined) return v;
  if (w.depth > MAX_DEPTH) return typeError(w, v, s);
  if (s['x-kubernetes-int-or-string']) {
    return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : typeError(w, v, s);
  }
  switch (s.type) {
    case 'string':
      return typeof v === 'string' ? v : typeError(w, v, s);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) ? v : typeError(w, v, s);
    case 'number':
      return typeof v === 'number' ? v : typeError(w, v, s);
    case 'boolean':
      return typeof v === 'boolean' ? v : typeError(w, v, s);
    case 'array':
      return visitArray(v, s, w);
    case 'object':
      return visitObject(v, s, w);
    default:
      return v;
  }
}

function visitArray(v: unknown, s: Schema, w: Walk): unknown {
  if (!Array.isArray(v)) return typeError(w, v, s);
  if (!s.items) return v;
  w.depth++;
  const out: unknown[] | undefined = w.prune ? new Array(v.length) : undefined;
  for (let i = 0; i < v.length; i++) {
    enter(w, i, true);
    const checked = visit(v[i], s.items, w);
    leave(w);
    if (out) out[i] = checked;
  }
  w.depth--;
  return out ?? v;
}

function visitObject(v: unknown, s: Schema, w: Walk): unknown {
  if (typeof v !== 'object' || Array.isArray(v) || v === null) return typeError(w, v, s);
  const input = v as Record<string, unknown>;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserve && !s.properties) return v;
  const out: Record<string, unknown> | undefined = w.prune ? {} : undefined;
  w.depth++;
  for (const key of Object.keys(input)) {
    const child = input[key];
    const property = s.properties?.[key];
    const childSchema = property ?? s.additionalProperties;
    if (childSchema) {
      enter(w, key, !property);
      const checked = visit(child, childSchema, w);
      leave(w);
      if (out && checked !== null && checked !== undefined) out[key] = checked;
    } else if (preserve) {
      if (out) out[key] = child;
    } else {
      w.unknownFields.push(join(pathOf(w), key));
    }
  }
  w.depth--;
  for (const key of s.required ?? []) {
    if (input[key] === undefined || input[key] === null) w.fieldErrors.push({ type: 'Required', field: join(pathOf(w), key) });
  }
  return out ?? v;
}
