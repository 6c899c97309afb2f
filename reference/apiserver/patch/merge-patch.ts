/** JSON Merge Patch (RFC 7386): objects merge recursively, null deletes, anything else replaces. */
import { cloneJson, isObject, setKey } from './errors.ts';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const out: Record<string, unknown> = isObject(target) ? cloneJson(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setKey(out, k, applyMergePatch(out[k], v));
  }
  return out;
}
