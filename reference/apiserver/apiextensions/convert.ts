/**
 * Conversion strategy None (the only one this server offers): a custom resource is the same
 * document in every version, only apiVersion changes — written in the CRD's storage version,
 * read back in the version the request asked for (pkg/apiserver/conversion/nop_converter.go).
 */
import type { ResourceDef } from '../resources/registry.ts';

const apiVersion = (def: ResourceDef, version: string) => `${def.group}/${version}`;

/** The object as the requested version shows it (a copy when anything changes: stored objects may be shared). */
export function servedAs<T>(def: ResourceDef, obj: T): T {
  const o = obj as any;
  if (!def.custom || !o || typeof o !== 'object' || o.apiVersion === apiVersion(def, def.version)) return obj;
  return { ...o, apiVersion: apiVersion(def, def.version) };
}

/** The object as it is written: in the storage version. */
export function storedAs<T>(def: ResourceDef, obj: T): T {
  const o = obj as any;
  if (!def.custom || !o || typeof o !== 'object') return obj;
  return { ...o, apiVersion: apiVersion(def, def.custom.storageVersion) };
}
