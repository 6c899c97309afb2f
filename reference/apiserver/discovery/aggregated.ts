/**
 * Aggregated discovery (apidiscovery.k8s.io/v2, k8s.io/api/apidiscovery/v2/types.go): every
 * group, version and resource in one document, served at /api (the core group) and /apis (the
 * rest) when the client's Accept asks for `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`
 * — what kubectl ≥ 1.30 asks for first, falling back to one request per group-version
 * otherwise (staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go,
 * client-go discovery/aggregated_discovery.go). Versions are listed preferred first.
 */
import { groupVersions, type ResourceDef } from '../resources/registry.ts';

export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Whether the Accept header lists the v2 aggregated form (kubectl lists it first, JSON last). */
export function wantsAggregated(accept: string): boolean {
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim().toLowerCase());
    return params[0] === 'application/json' && params.includes('g=apidiscovery.k8s.io') && params.includes('v=v2') && params.includes('as=apigroupdiscoverylist');
  });
}

function resourceEntry(def: ResourceDef): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    resource: def.resource,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: def.verbs,
  };
  if (def.shortNames.length > 0) entry.shortNames = def.shortNames;
  if (def.categories.length > 0) entry.categories = def.categories;
  if (def.subresources.length > 0) {
    entry.subresources = def.subresources.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? def.group, version: s.version ?? def.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return entry;
}

function groupEntry(group: string, defs: readonly ResourceDef[]): Record<string, unknown> {
  const versions = groupVersions(defs)
    .filter((gv) => gv.group === group)
    .map((gv) => ({ version: gv.version, resources: defs.filter((d) => d.group === group && d.version === gv.version).map(resourceEntry), freshness: 'Current' }));
  return { metadata: group ? { name: group, creationTimestamp: null } : { creationTimestamp: null }, versions };
}

/** The document for /api (`core`: the legacy group alone) or /apis (every named group). */
export function aggregatedDiscovery(core: boolean, defs: readonly ResourceDef[]): unknown {
  const groups = core ? [''] : [...new Set(groupVersions(defs).map((gv) => gv.group).filter((g) => g !== ''))];
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items: groups.map((g) => groupEntry(g, defs)) };
}
