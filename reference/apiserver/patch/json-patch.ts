/**
 * JSON Patch (RFC 6902): add, remove, replace, move, copy, test over JSON Pointers (RFC 6901).
 * The API server applies it to the object's JSON form (upstream uses evanphx/json-patch).
 */
import { cloneJson, isObject, PatchError, setKey } from './errors.ts';

/** One RFC 6902 operation. */
export interface PatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

type Op = PatchOperation;

/** Every JSON Patch op needs a string path; ops that carry a value must have one. */
function parseOps(patch: unknown): Op[] {
  if (!Array.isArray(patch)) throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', 'malformed');
  return patch.map((raw, i) => {
    if (!isObject(raw) || typeof raw.op !== 'string') throw new PatchError(`invalid operation at index ${i}: missing op`, 'malformed');
    if (typeof raw.path !== 'string') throw new PatchError(`invalid operation at index ${i}: missing path`, 'malformed');
    if (['add', 'replace', 'test'].includes(raw.op) && !Object.hasOwn(raw, 'value')) throw new PatchError(`missing value for ${raw.op} operation`, 'malformed');
    if (['move', 'copy'].includes(raw.op) && typeof raw.from !== 'string') throw new PatchError(`missing from for ${raw.op} operation`, 'malformed');
    return raw as unknown as Op;
  });
}

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The container holding the pointer's last token, and that token. */
function locate(doc: any, pointer: string): { parent: any; key: string } {
  const parts = tokens(pointer);
  if (parts.length === 0) throw new PatchError('operations on the whole document are not supported');
  let cur = doc;
  for (const p of parts.slice(0, -1)) {
    cur = child(cur, p);
    if (cur === undefined) throw new PatchError(`doc is missing path: ${JSON.stringify(pointer)}`);
  }
  return { parent: cur, key: parts[parts.length - 1]! };
}

function arrayIndex(arr: unknown[], key: string, forInsert: boolean): number {
  if (key === '-' && forInsert) return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(key)) throw new PatchError(`invalid array index ${JSON.stringify(key)}`);
  const i = Number(key);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new PatchError(`array index out of bounds: ${i}`);
  return i;
}

function child(container: any, key: string): any {
  if (Array.isArray(container)) {
    if (!/^(0|[1-9][0-9]*)$/.test(key)) return undefined;
    return container[Number(key)];
  }
  return isObject(container) && Object.hasOwn(container, key) ? container[key] : undefined;
}

function get(doc: any, pointer: string): unknown {
  if (pointer === '') return doc;
  const { parent, key } = locate(doc, pointer);
  const v = child(parent, key);
  if (v === undefined) throw new PatchError(`doc is missing path: ${JSON.stringify(pointer)}`);
  return v;
}

function add(doc: any, pointer: string, value: unknown): void {
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else if (isObject(parent)) setKey(parent, key, value);
  else throw new PatchError(`doc is missing path: ${JSON.stringify(pointer)}`);
}

function remove(doc: any, pointer: string): unknown {
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, false), 1)[0];
  if (!isObject(parent) || !Object.hasOwn(parent, key)) throw new PatchError(`unable to remove nonexistent key: ${key}: missing value`);
  const v = parent[key];
  delete parent[key];
  return v;
}

function applyOp(doc: any, op: Op): void {
  switch (op.op) {
    case 'add':
      return add(doc, op.path, cloneJson(op.value));
    case 'remove':
      remove(doc, op.path);
      return;
    case 'replace':
      get(doc, op.path);
      remove(doc, op.path);
      return add(doc, op.path, cloneJson(op.value));
    case 'move': {
      const v = remove(doc, op.from!);
      return add(doc, op.path, v);
    }
    case 'copy':
      return add(doc, op.path, cloneJson(get(doc, op.from!)));
    case 'test':
      if (JSON.stringify(get(doc, op.path)) !== JSON.stringify(op.value)) throw new PatchError(`testing value ${op.path} failed: test failed`);
      return;
    default:
      // json-patch v4's Apply fails on an unknown op, and the patch handler answers any Apply error
      // with 422 (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyJSPatch).
      throw new PatchError(`Unexpected kind: ${op.op}`);
  }
}

/** Applies the patch to a copy of `doc`. Throws PatchError. */
export function applyJsonPatch(doc: unknown, patch: unknown): unknown {
  const ops = parseOps(patch);
  const out = cloneJson(doc);
  for (const op of ops) applyOp(out, op);
  return out;
}
