/**
 * The API server core: one request in, one answer out, with the pipeline's first stages
 * (authentication, authorization) and the per-request trace. No sockets here; server.ts adapts
 * node's http objects to it.
 */
import { AdmissionDenied, isPromise } from './pipeline.ts';
import { headerValue, negotiateOutput } from './negotiation.ts';
import { parseRequestInfo } from './request-info.ts';
import { route } from './router.ts';
import { attributesOf, authenticate, authorize } from './stages.ts';
import { impersonate } from './impersonation.ts';
import { ApiError, errors } from './status.ts';
import { TraceRecorder } from './trace.ts';
import { protobufAnswer } from './protobuf/respond.ts';
import { reportedVerb } from './metrics/metrics.ts';
import type { Answer, ApiRequest, Call, Env } from './types.ts';
import { reply } from './types.ts';

export interface CoreResult {
  answer: Answer;
  /** Headers every answer carries (Warning lines, for dropped unknown fields). */
  headers: Record<string, string>;
}

/** Anything thrown that is not a Status is a bug in the server, answered 500 and reported. */
export function errorAnswer(e: unknown, onInternalError?: (e: unknown) => void): Answer {
  if (e instanceof ApiError) return reply(e.code, e.toStatus());
  if (e instanceof AdmissionDenied) return reply(e.code, new ApiError(e.code, e.reason, e.message).toStatus());
  onInternalError?.(e);
  return reply(500, errors.internal((e as Error)?.message ?? String(e)).toStatus());
}

/**
 * A request target as its path and query. The common target (unreserved characters and '/'
 * only, no dot segment, printable ASCII in the query) is split by hand: WHATWG URL parsing
 * would change nothing in it and cost a measurable share of a request. Anything else goes
 * through URL, which normalises dot segments, percent-encodes, and so on.
 */
export function parseUrl(raw: string): { pathname: string; searchParams: URLSearchParams } {
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q + 1);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && PLAIN_QUERY.test(query)) return { pathname: path, searchParams: new URLSearchParams(query) };
  try {
    return new URL(raw.startsWith('/') ? raw : `/${raw}`, 'http://apiserver.invalid');
  } catch {
    throw errors.badRequest(`malformed request URL ${JSON.stringify(raw)}`);
  }
}

const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~/]*$/;
const DOT_SEGMENT = /\/\.\.?(\/|$)/;
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/;

async function pipeline(env: Env, req: ApiRequest, trace: TraceRecorder, call: Partial<Call>): Promise<Answer> {
  const url = parseUrl(req.url);
  call.path = url.pathname;
  call.query = url.searchParams;
  // Plain-text endpoints answer whatever the Accept header says, as kube-apiserver's do (a
  // Prometheus scraper asks for text/plain or OpenMetrics, a load balancer for anything).
  const output = PLAIN_TEXT_PATHS.test(url.pathname) ? PLAIN_TEXT_OUTPUT : negotiateOutput(headerValue(req.headers, 'accept'));
  if (req.body.length > env.maxBodyBytes) throw errors.tooLarge(`limit is ${env.maxBodyBytes}`);
  // The stages answer plainly when they need not wait (nearly always): awaited only when they must.
  const authenticating = authenticate(env, req, trace);
  const requester = isPromise(authenticating) ? await authenticating : authenticating;
  const impersonating = impersonate(env, req, requester, trace);
  const user = isPromise(impersonating) ? await impersonating : impersonating;
  trace.user = user.name;
  const info = parseRequestInfo(call.method!, url.pathname, url.searchParams);
  call.info = info;
  call.output = output;
  // The max-in-flight filter sits between impersonation and authorization (DefaultBuildHandlerChain).
  const seat = env.maxInFlight.admit(info, url.searchParams, user.groups);
  if ('refused' in seat) return seat.refused;
  try {
    const authorizing = authorize(env, attributesOf(user, info), trace);
    if (isPromise(authorizing)) await authorizing;
    const full: Call = { req, method: call.method!, path: url.pathname, query: url.searchParams, info, user, trace, warnings: call.warnings!, output };
    return await route(env, full);
  } finally {
    seat.release();
  }
}

const PLAIN_TEXT_PATHS = /^\/(metrics|healthz|livez|readyz)(\/|$)/;
const PLAIN_TEXT_OUTPUT = { preferred: 'json', jsonOk: true } as const;

let nextTraceId = 0;

export async function handleRequest(env: Env, req: ApiRequest, onInternalError?: (e: unknown) => void): Promise<CoreResult> {
  const trace = new TraceRecorder();
  const start_ms = env.clock.now_ms();
  const method = (req.method || 'GET').toUpperCase();
  const call: Partial<Call> = { method, path: req.url, warnings: [] };
  let answer: Answer;
  try {
    answer = await pipeline(env, req, trace, call);
  } catch (e) {
    answer = errorAnswer(e, onInternalError);
  }
  const code = answer.kind === 'reply' ? answer.status : answer.status;
  // Audit's objectRef.name: for a create, the name of the object the server stored (which may
  // have come from generateName), as upstream's audit LogRequestObject/LogResponseObject fill it.
  if (answer.kind === 'reply' && method === 'POST' && answer.status === 201) trace.objectName = createdName(answer.body);
  trace.finish(env.traces, ++nextTraceId, method, call.path ?? req.url, code, call.query?.toString());
  const verb = reportedVerb(method, call.info, headerValue(req.headers, 'content-type'));
  env.metrics.request(verb, call.info, code, (env.clock.now_ms() - start_ms) / 1000, call.query?.get('dryRun') === 'All');
  const headers: Record<string, string> = {};
  // Every answer, refusals included, may be kept by no shared cache: upstream's handler chain sets
  // it unless the handler did (WithCacheControl, k8s.io/apiserver/pkg/endpoints/filters/cachecontrol.go:
  // "all servers are protected by authn/authz").
  if (!answer.headers?.['cache-control']) headers['cache-control'] = 'no-cache, private';
  if (call.warnings!.length > 0) headers.warning = call.warnings!.map((w) => `299 - ${JSON.stringify(w)}`).join(', ');
  return { answer: protobufAnswer(answer, call.output), headers };
}

function createdName(body: unknown): string | undefined {
  const name = (body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  return typeof name === 'string' ? name : undefined;
}
