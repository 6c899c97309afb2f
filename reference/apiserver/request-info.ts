/**
 * Turns a request path into what the rest of the pipeline reasons about, after
 * k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (RequestInfoFactory.NewRequestInfo):
 * /api/v1/namespaces/{ns}/{resource}/{name}/{subresource} and /apis/{group}/{version}/...,
 * with the verb derived from the HTTP method and whether a name is present.
 */
import { queryBool } from './query-params.ts';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** The path segments past /api or /apis, for discovery routing. */
  parts: string[];
}

/** Namespace subresources that are not a nested resource (requestinfo.go namespaceSubresources). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function splitPath(path: string): string[] {
  const segments: string[] = [];
  for (const p of path.split('/')) {
    if (p.length === 0) continue;
    // Only a segment with a percent sign can decode to something else (or fail to decode).
    if (!p.includes('%')) {
      segments.push(p);
      continue;
    }
    try {
      segments.push(decodeURIComponent(p));
    } catch {
      segments.push(p);
    }
  }
  return segments;
}

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const base: RequestInfo = { isResourceRequest: false, path, verb: method.toLowerCase(), apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] };
  const segments = splitPath(path);
  const prefix = segments[0];
  if (prefix !== 'api' && prefix !== 'apis') return base;
  let parts = segments.slice(1);
  base.parts = parts;
  if (prefix === 'apis') {
    if (parts.length < 3) return base;
    base.apiGroup = parts[0]!;
    parts = parts.slice(1);
  } else if (parts.length < 2) {
    return base;
  }
  base.apiVersion = parts[0]!;
  parts = parts.slice(1);
  const info: RequestInfo = { ...base, isResourceRequest: true };
  let watchPath = false;
  if (parts[0] === 'watch') {
    watchPath = true;
    parts = parts.slice(1);
  }
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  info.resource = parts[0] ?? '';
  info.name = parts[1] ?? '';
  info.subresource = parts[2] ?? '';
  if (parts.length > 3) info.isResourceRequest = false;
  info.verb = verbFor(method, info.name, watchPath || queryBool(query, 'watch'));
  if (info.resource === 'namespaces') info.namespace = info.name;
  return info;
}

function verbFor(method: string, name: string, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watch) return 'watch';
      return name ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
