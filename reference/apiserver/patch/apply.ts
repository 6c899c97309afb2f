/**
 * Server-side apply, simplified (upstream: sigs.k8s.io/structured-merge-diff behind
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager). The applied configuration
 * is merged into the live object the way strategic merge merges (keyed lists by merge key),
 * and each applier's fields are remembered in metadata.managedFields as FieldsV1
 * (`f:<field>`, `k:{"name":"x"}`, `v:<value>`, `.` for a list element itself). Re-applying
 * without a field this manager applied before removes it, unless another Apply manager owns it.
 * Conflicts between managers are not detected: every apply behaves as if forced.
 */
import type { Schema } from '../schema/types.ts';
import { cloneJson, isObject, setKey } from './errors.ts';
import { applyStrategicMergePatch } from './strategic-merge.ts';

/** Fields apply never manages: identity and server-owned metadata. */
const UNMANAGED_META = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds']);
const UNMANAGED_TOP = new Set(['apiVersion', 'kind']);

type Path = string[];

function childSchema(schema: Schema | undefined, key: string): Schema | undefined {
  return schema?.properties?.[key] ?? schema?.additionalProperties;
}

function listKey(schema: Schema | undefined): string | undefined {
  return schema?.['x-kubernetes-patch-merge-key'];
}

function isSetList(schema: Schema | undefined): boolean {
  return schema?.['x-kubernetes-list-type'] === 'set';
}

/** The leaf paths of an applied configuration, in FieldsV1 segment form. */
export function fieldPaths(value: unknown, schema: Schema | undefined, prefix: Path = [], top = true): Path[] {
  if (!isObject(value)) return [prefix];
  const out: Path[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (top && UNMANAGED_TOP.has(k)) continue;
    if (prefix.length === 1 && prefix[0] === 'f:metadata' && UNMANAGED_META.has(k)) continue;
    const s = childSchema(schema, k);
    const here = [...prefix, `f:${k}`];
    if (Array.isArray(v)) out.push(...listPaths(v, s, here));
    else if (isObject(v) && Object.keys(v).length > 0) out.push(...fieldPaths(v, s, here, false));
    else out.push(here);
  }
  return out;
}

function listPaths(list: unknown[], schema: Schema | undefined, here: Path): Path[] {
  const key = listKey(schema);
  if (key) {
    return list.flatMap((item) => {
      if (!isObject(item) || item[key] === undefined) return [here];
      const seg = `k:${JSON.stringify({ [key]: item[key] })}`;
      return [[...here, seg, '.'], ...fieldPaths(item, schema?.items, [...here, seg], false)];
    });
  }
  if (isSetList(schema)) return list.map((v) => [...here, `v:${JSON.stringify(v)}`]);
  return [here];
}

export function toFieldsV1(paths: Path[]): Record<string, unknown> {
  const root: Record<string, any> = {};
  for (const p of paths) {
    let cur = root;
    for (const seg of p) {
      if (!isObject(cur[seg])) setKey(cur, seg, {});
      cur = cur[seg];
    }
  }
  return root;
}

export function fromFieldsV1(tree: unknown, prefix: Path = []): Path[] {
  if (!isObject(tree) || Object.keys(tree).length === 0) return prefix.length > 0 ? [prefix] : [];
  return Object.entries(tree).flatMap(([seg, sub]) => fromFieldsV1(sub, [...prefix, seg]));
}

function removePath(obj: any, path: Path): void {
  if (path.length === 0 || path[path.length - 1] === '.') {
    if (path.length > 1) removePath(obj, path.slice(0, -1));
    return;
  }
  let cur = obj;
  for (const seg of path.slice(0, -1)) {
    cur = step(cur, seg);
    if (cur === undefined) return;
  }
  const last = path[path.length - 1]!;
  if (last.startsWith('f:') && isObject(cur)) delete cur[last.slice(2)];
  else if (Array.isArray(cur)) {
    const i = cur.findIndex((el) => matchesSegment(el, last));
    if (i >= 0) cur.splice(i, 1);
  }
}

function step(cur: unknown, seg: string): any {
  if (seg.startsWith('f:')) return isObject(cur) ? cur[seg.slice(2)] : undefined;
  if (Array.isArray(cur)) return cur.find((el) => matchesSegment(el, seg));
  return undefined;
}

function matchesSegment(el: unknown, seg: string): boolean {
  try {
    if (seg.startsWith('v:')) return JSON.stringify(el) === JSON.stringify(JSON.parse(seg.slice(2)));
    if (seg.startsWith('k:') && isObject(el)) {
      const keys = JSON.parse(seg.slice(2)) as Record<string, unknown>;
      return Object.entries(keys).every(([k, v]) => JSON.stringify(el[k]) === JSON.stringify(v));
    }
  } catch {
    return false;
  }
  return false;
}

export interface ApplyInput {
  live: any | undefined;
  applied: any;
  manager: string;
  schema: Schema;
  apiVersion: string;
  time: string;
}

/** The object after applying: merged, stale fields of this manager removed, managedFields updated. */
export function serverSideApply(input: ApplyInput): any {
  const { live, applied, manager, schema } = input;
  const base = live ? cloneJson(live) : {};
  const entries: any[] = Array.isArray(base.metadata?.managedFields) ? base.metadata.managedFields : [];
  const mine = entries.find((e) => e?.manager === manager && e?.operation === 'Apply');
  const newPaths = fieldPaths(applied, schema);
  const newKeys = new Set(newPaths.map((p) => JSON.stringify(p)));
  const othersKeys = new Set(entries.filter((e) => e !== mine && e?.operation === 'Apply').flatMap((e) => fromFieldsV1(e.fieldsV1).map((p) => JSON.stringify(p))));
  const merged: any = applyStrategicMergePatch(base, stripNulls(applied), schema);
  for (const old of mine ? fromFieldsV1(mine.fieldsV1) : []) {
    const k = JSON.stringify(old);
    if (!newKeys.has(k) && !othersKeys.has(k)) removePath(merged, old);
  }
  const entry = { manager, operation: 'Apply', apiVersion: input.apiVersion, time: input.time, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(newPaths) };
  merged.metadata = isObject(merged.metadata) ? merged.metadata : {};
  merged.metadata.managedFields = [...entries.filter((e) => e !== mine), entry];
  return merged;
}

function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && !k.startsWith('$')) setKey(out, k, stripNulls(x));
  return out;
}
