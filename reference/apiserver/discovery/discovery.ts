/**
 * Legacy discovery documents (staging/src/k8s.io/apiserver/pkg/endpoints/discovery): /api
 * (APIVersions), /apis (APIGroupList), /apis/<group> (APIGroup) and /api/v1, /apis/<g>/<v>
 * (APIResourceList, subresources listed as `pods/status`). kubectl asks for aggregated
 * discovery first and accepts these plain documents.
 */
import { apiVersionOf, groupVersions, RESOURCES, type ResourceDef } from '../resources/registry.ts';

function resourceEntries(def: ResourceDef): unknown[] {
  const main: Record<string, unknown> = {
    name: def.resource,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: def.verbs,
  };
  if (def.shortNames.length > 0) main.shortNames = def.shortNames;
  if (def.categories.length > 0) main.categories = def.categories;
  const subs = def.subresources.map((s) => {
    const e: Record<string, unknown> = { name: `${def.resource}/${s.name}`, singularName: '', namespaced: def.namespaced, kind: s.kind, verbs: s.verbs };
    if (s.group !== undefined) e.group = s.group;
    if (s.version !== undefined) e.version = s.version;
    return e;
  });
  return [main, ...subs];
}

export function apiResourceList(group: string, version: string, all: readonly ResourceDef[] = RESOURCES): unknown | undefined {
  const defs = all.filter((r) => r.group === group && r.version === version);
  if (defs.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources: defs.flatMap(resourceEntries) };
}

export function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(group: string, all: readonly ResourceDef[]): Record<string, unknown> | undefined {
  const versions = groupVersions(all)
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: apiVersionOf(gv), version: gv.version }));
  if (versions.length === 0) return undefined;
  return { name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(all: readonly ResourceDef[] = RESOURCES): unknown {
  const groups = [...new Set(groupVersions(all).map((gv) => gv.group).filter((g) => g !== ''))];
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => apiGroup(g, all)) };
}

export function apiGroupDocument(group: string, all: readonly ResourceDef[] = RESOURCES): unknown | undefined {
  const g = apiGroup(group, all);
  return g && group !== '' ? { kind: 'APIGroup', apiVersion: 'v1', ...g } : undefined;
}
