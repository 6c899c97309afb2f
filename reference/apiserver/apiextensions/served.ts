/**
 * Which custom resources this server serves right now: read from the stored CRDs on each
 * request that needs them (a path no built-in matches, discovery, OpenAPI), so every API server
 * over the same store serves a CRD as soon as its write is committed. Upstream keeps an informer
 * of CRDs (customresource_handler.go crdHandler); reading the few CRD keys is this server's
 * equivalent, and the defs are rebuilt only when a CRD key changed.
 */
import { decodeObject } from '../storage/codec.ts';
import { findResource, type ResourceDef } from '../resources/registry.ts';
import type { Env } from '../types.ts';
import { resourceDefsOf } from './crd.ts';

export const CRDS = findResource('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;

const cache = new WeakMap<Env, { fingerprint: string; crds: any[]; defs: ResourceDef[] }>();

/** Every stored CRD, decoded. */
export async function storedCrds(env: Env): Promise<any[]> {
  return (await load(env)).crds;
}

/** The resources of every established CRD, one per served version. */
export async function customResourceDefs(env: Env): Promise<ResourceDef[]> {
  return (await load(env)).defs;
}

async function load(env: Env): Promise<{ crds: any[]; defs: ResourceDef[] }> {
  const page = await env.backend.range(env.store.prefix(CRDS, ''));
  const fingerprint = page.kvs.map((kv) => `${kv.key}@${kv.modRevision}`).join(',');
  const hit = cache.get(env);
  if (hit && hit.fingerprint === fingerprint) return hit;
  const crds = page.kvs.map((kv) => decodeObject(kv));
  const entry = { fingerprint, crds, defs: crds.flatMap(resourceDefsOf) };
  cache.set(env, entry);
  return entry;
}

/** A custom resource by group, version and plural; undefined when no established CRD serves it. */
export async function findCustomResource(env: Env, group: string, version: string, resource: string): Promise<ResourceDef | undefined> {
  if (!group.includes('.')) return undefined;
  return (await customResourceDefs(env)).find((d) => d.group === group && d.version === version && d.resource === resource);
}

/** Built-ins and custom resources together, for discovery and OpenAPI. */
export async function allResourceDefs(env: Env, builtins: readonly ResourceDef[]): Promise<ResourceDef[]> {
  return [...builtins, ...(await customResourceDefs(env))];
}
