/**
 * RFC 6902 JSON Patch over RFC 6901 JSON Pointers: what a mutating webhook returns
 * (`patchType: JSONPatch`, base64 in `response.patch`). Upstream applies it with
 * github.com/evanphx/json-patch; the operations and their failure cases follow the RFC.
 * The input document is not modified; the patched copy is returned.
 */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test' | string;
  path: string;
  value?: unknown;
  from?: string;
}

export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

export function applyJsonPatch(doc: unknown, ops: readonly PatchOperation[]): unknown {
  let out = structuredClone(doc);
  for (const op of ops) out = applyOne(out, op);
  return out;
}

function applyOne(doc: unknown, op: PatchOperation): unknown {
  switch (op.op) {
    case 'add':
      return add(doc, op.path, structuredClone(op.value));
    case 'remove':
      return remove(doc, op.path).doc;
    case 'replace':
      get(doc, op.path);
      return add(remove(doc, op.path).doc, op.path, structuredClone(op.value));
    case 'move': {
      const taken = remove(doc, from(op));
      return add(taken.doc, op.path, taken.value);
    }
    case 'copy':
      return add(doc, op.path, structuredClone(get(doc, from(op))));
    case 'test':
      if (JSON.stringify(canonical(get(doc, op.path))) !== JSON.stringify(canonical(op.value))) {
        throw new JsonPatchError(`testing value ${op.path} failed`);
      }
      return doc;
    default:
      throw new JsonPatchError(`Unexpected kind: ${op.op}`);
  }
}

function from(op: PatchOperation): string {
  if (op.from === undefined) throw new JsonPatchError(`operation ${op.op} has no "from"`);
  return op.from;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer: ${pointer}`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(doc: unknown, pointer: string): unknown {
  let cur: any = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, token, false)];
    else if (isObj(cur) && Object.prototype.hasOwnProperty.call(cur, token)) cur = cur[token];
    else throw new JsonPatchError(`path ${pointer} does not exist`);
  }
  return cur;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const parent = get(doc, toPointer(tokens.slice(0, -1)));
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : arrayIndex(parent, last, true), 0, value);
  else if (isObj(parent)) parent[last] = value;
  else throw new JsonPatchError(`path ${pointer}: parent is not a container`);
  return doc;
}

function remove(doc: unknown, pointer: string): { doc: unknown; value: unknown } {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return { doc: null, value: doc };
  const parent = get(doc, toPointer(tokens.slice(0, -1)));
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) {
    const [value] = parent.splice(arrayIndex(parent, last, false), 1);
    return { doc, value };
  }
  if (isObj(parent) && Object.prototype.hasOwnProperty.call(parent, last)) {
    const value = parent[last];
    delete parent[last];
    return { doc, value };
  }
  throw new JsonPatchError(`path ${pointer} does not exist`);
}

function arrayIndex(arr: unknown[], token: string, forInsert: boolean): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchError(`invalid array index: ${token}`);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new JsonPatchError(`array index out of bounds: ${token}`);
  return i;
}

function toPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Key order does not matter for `test`. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}
