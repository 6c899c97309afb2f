/**
 * Strategic merge patch, the patch kubectl's client-side apply sends
 * (k8s.io/apimachinery/pkg/util/strategicpatch/patch.go). Like a merge patch, except that a
 * list whose schema says `x-kubernetes-patch-strategy: merge` merges element by element on its
 * `x-kubernetes-patch-merge-key` (containers by name, ports by containerPort), and these
 * directives are honoured:
 * - `$patch: replace` (a map or list replaced wholesale), `$patch: delete` (a map, or the list
 *   element carrying it, removed), `$patch: merge`;
 * - `$retainKeys: [...]` (keys not listed are cleared);
 * - `$setElementOrder/<list>` (the merged list follows the given order);
 * - `$deleteFromPrimitiveList/<list>` (values removed from a merged list of primitives).
 */
import type { Schema } from '../schema/types.ts';
import { cloneJson, isObject, PatchError, setKey } from './errors.ts';

const SET_ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';
const MAX_DEPTH = 100;

function fieldSchema(schema: Schema | undefined, key: string): Schema | undefined {
  return schema?.properties?.[key] ?? schema?.additionalProperties;
}

function isDirective(key: string): boolean {
  return key === '$patch' || key === '$retainKeys' || key.startsWith(SET_ORDER) || key.startsWith(DELETE_PRIMITIVE);
}

/** Applies `patch` to `original` under `schema`; returns the result (undefined: the map was deleted). */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: Schema | undefined): unknown {
  return mergeValue(original, patch, schema, 0);
}

function mergeValue(original: unknown, patch: unknown, schema: Schema | undefined, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new PatchError('patch nested too deeply', 'malformed');
  if (!isObject(patch)) return cloneJson(patch);
  return mergeMap(isObject(original) ? original : {}, patch, schema, depth);
}

function mergeMap(original: Record<string, any>, patch: Record<string, any>, schema: Schema | undefined, depth: number): unknown {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return stripDirectives(patch);
  if (directive !== undefined && directive !== 'merge') throw new PatchError(`Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`, 'malformed');
  const out: Record<string, any> = cloneJson(original);
  for (const [key, pv] of Object.entries(patch)) {
    if (isDirective(key)) continue;
    if (pv === null) {
      delete out[key];
      continue;
    }
    const merged = mergeField(out[key], pv, fieldSchema(schema, key), depth + 1);
    if (merged === undefined) delete out[key];
    else setKey(out, key, merged);
  }
  applyMapDirectives(out, patch, schema);
  return out;
}

function applyMapDirectives(out: Record<string, any>, patch: Record<string, any>, schema: Schema | undefined): void {
  for (const [key, values] of Object.entries(patch)) {
    if (key.startsWith(DELETE_PRIMITIVE) && Array.isArray(values)) {
      const field = key.slice(DELETE_PRIMITIVE.length);
      if (Array.isArray(out[field])) out[field] = out[field].filter((v: unknown) => !values.some((d) => JSON.stringify(d) === JSON.stringify(v)));
    }
  }
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER) || !Array.isArray(order)) continue;
    const field = key.slice(SET_ORDER.length);
    if (Array.isArray(out[field])) out[field] = reorder(out[field], order, fieldSchema(schema, field)?.['x-kubernetes-patch-merge-key']);
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set(patch.$retainKeys.map(String));
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
}

function mergeField(original: unknown, pv: unknown, schema: Schema | undefined, depth: number): unknown {
  if (Array.isArray(pv)) {
    if (schema?.['x-kubernetes-patch-strategy']?.split(',').includes('merge')) {
      const orig = Array.isArray(original) ? original : [];
      const key = schema['x-kubernetes-patch-merge-key'];
      return key ? mergeKeyedList(orig, pv, key, schema.items, depth) : mergePrimitiveList(orig, pv);
    }
    return stripListDirectives(pv);
  }
  return mergeValue(original, pv, schema, depth);
}

function mergePrimitiveList(orig: unknown[], patch: unknown[]): unknown[] {
  const out = [...orig];
  for (const v of patch) if (!out.some((o) => JSON.stringify(o) === JSON.stringify(v))) out.push(v);
  return out;
}

function mergeKeyedList(orig: unknown[], patch: unknown[], key: string, items: Schema | undefined, depth: number): unknown[] {
  if (patch.some((p) => isObject(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isObject(p) && p.$patch === 'replace')).map((p) => (isObject(p) ? stripDirectives(p) : p));
  }
  const out: unknown[] = cloneJson(orig);
  for (const p of patch) {
    if (!isObject(p) || !Object.hasOwn(p, key)) {
      if (isObject(p) && p.$patch === 'delete') continue;
      out.push(cloneJson(p));
      continue;
    }
    const idx = out.findIndex((o) => isObject(o) && JSON.stringify(o[key]) === JSON.stringify(p[key]));
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    const merged = mergeValue(idx >= 0 ? out[idx] : {}, p, items, depth + 1);
    if (idx >= 0) out[idx] = merged;
    else out.push(merged);
  }
  return out;
}

function reorder(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const ident = (v: unknown) => JSON.stringify(key && isObject(v) ? v[key] : v);
  const wanted = order.map((o) => JSON.stringify(key && isObject(o) ? o[key] : o));
  const ranked = list.map((v, i) => ({ v, i, rank: wanted.indexOf(ident(v)) }));
  ranked.sort((a, b) => (a.rank < 0 ? Infinity : a.rank) - (b.rank < 0 ? Infinity : b.rank) || a.i - b.i);
  return ranked.map((r) => r.v);
}

function stripDirectives(m: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(m)) if (!isDirective(k)) setKey(out, k, isObject(v) ? stripDirectives(v) : Array.isArray(v) ? stripListDirectives(v) : v);
  return out;
}

function stripListDirectives(list: unknown[]): unknown[] {
  return list.filter((v) => !(isObject(v) && v.$patch !== undefined && Object.keys(v).length === 1)).map((v) => (isObject(v) ? stripDirectives(v) : v));
}
