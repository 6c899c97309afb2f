/**
 * From an authorized request to its answer: the non-resource paths (version, health,
 * discovery, OpenAPI) and the resource handlers.
 */
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './discovery/discovery.ts';
import { customOpenApiDocument, openApiDocument, openApiIndexWith } from './discovery/openapi.ts';
import { versionInfo } from './discovery/version.ts';
import { handleResource } from './handlers/resource.ts';
import { headerValue } from './negotiation.ts';
import { groupVersions, RESOURCES } from './resources/registry.ts';
import { allResourceDefs, customResourceDefs } from './apiextensions/served.ts';
import { aggregatedDiscovery, AGGREGATED_V2, wantsAggregated } from './discovery/aggregated.ts';
import { ApiError, errors } from './status.ts';
import type { Answer, Call, Env } from './types.ts';
import { reply } from './types.ts';

const HEALTH_PATHS = ['/healthz', '/livez', '/readyz'];

function health(path: string, query: URLSearchParams): Answer {
  const verbose = query.has('verbose');
  const base = HEALTH_PATHS.find((p) => path === p || path.startsWith(`${p}/`))!;
  const body = verbose ? `[+]ping ok\n[+]etcd ok\n${base.slice(1)} check passed\n` : 'ok';
  return reply(200, body, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
}

function found(doc: unknown | undefined, path: string): Answer {
  if (doc === undefined) throw errors.pathNotFound(path);
  return reply(200, doc);
}

/** Discovery covers the custom resources established CRDs serve (apiextensions/served.ts). */
async function discovery(env: Env, call: Call): Promise<Answer> {
  const parts = call.path.split('/').filter(Boolean);
  if (parts.length === 1 && wantsAggregated(headerValue(call.req.headers, 'accept'))) {
    const defs = parts[0] === 'api' ? RESOURCES : await allResourceDefs(env, RESOURCES);
    return reply(200, aggregatedDiscovery(parts[0] === 'api', defs), { 'content-type': AGGREGATED_V2, vary: 'Accept' });
  }
  if (parts[0] === 'api') {
    if (parts.length === 1) return reply(200, apiVersions(headerValue(call.req.headers, 'host') || '127.0.0.1'));
    if (parts.length === 2) return found(apiResourceList('', parts[1]!), call.path);
  }
  if (parts[0] === 'apis') {
    const all = await allResourceDefs(env, RESOURCES);
    if (parts.length === 1) return reply(200, apiGroupList(all));
    if (parts.length === 2) return found(apiGroupDocument(parts[1]!, all), call.path);
    if (parts.length === 3) return found(apiResourceList(parts[1]!, parts[2]!, all), call.path);
  }
  throw errors.pathNotFound(call.path);
}

async function openapi(env: Env, call: Call): Promise<Answer> {
  const rest = call.path.replace(/^\/openapi\/v3\/?/, '');
  const custom = await customResourceDefs(env);
  if (rest === '') return reply(200, openApiIndexWith(env.gitVersion, env.typeDocs(), custom));
  const key = (g: { group: string; version: string }) => (g.group ? `apis/${g.group}/${g.version}` : `api/${g.version}`);
  const wanted = rest.replace(/\/$/, '');
  const gv = groupVersions().find((g) => key(g) === wanted);
  if (gv) return found(openApiDocument(gv.group, gv.version, env.gitVersion, env.typeDocs()), call.path);
  const defs = custom.filter((d) => key(d) === wanted);
  return found(defs.length > 0 ? customOpenApiDocument(defs, env.gitVersion) : undefined, call.path);
}

function rootPaths(): Answer {
  const paths = ['/api', '/api/v1', '/apis', ...groupVersions().filter((g) => g.group).map((g) => `/apis/${g.group}/${g.version}`), '/healthz', '/livez', '/metrics', '/openapi/v3', '/readyz', '/version'];
  return reply(200, { paths });
}

async function nonResource(env: Env, call: Call): Promise<Answer> {
  const { path } = call;
  if (call.method !== 'GET' && call.method !== 'HEAD') {
    throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  }
  if (path === '/') return rootPaths();
  if (path === '/version' || path === '/version/') return reply(200, versionInfo(env.gitVersion));
  if (HEALTH_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return health(path, call.query);
  if (path === '/openapi/v3' || path.startsWith('/openapi/v3/')) return openapi(env, call);
  if (path === '/api' || path === '/apis' || path.startsWith('/api/') || path.startsWith('/apis/')) return discovery(env, call);
  throw errors.pathNotFound(path);
}

export async function route(env: Env, call: Call): Promise<Answer> {
  if (call.info.isResourceRequest && call.info.resource) return handleResource(env, call);
  // Prometheus text format 0.0.4, as kube-apiserver's /metrics (legacyregistry) answers it,
  // whatever the scraper's Accept header asks for.
  if (call.path === '/metrics' && call.method === 'GET') return reply(200, env.metrics.render(), { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  if (!call.output.jsonOk) throw errors.notAcceptable(['application/json']);
  return nonResource(env, call);
}
