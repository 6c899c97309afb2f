/**
 * The first two pipeline stages, authentication and authorization, each recorded in the
 * request's trace (000 § API Server / 请求处理链).
 */
import { ANONYMOUS_AUTHENTICATOR_NAME } from './authn/anonymous.ts';
import { unionAuthenticator } from './authn/union.ts';
import { forbiddenStatus } from './authz/forbidden.ts';
import { isPromise, type Authenticator, type AuthnResult, type Credentials, type Decision, type RequestAttributes, type UserInfo } from './pipeline.ts';
import type { RequestInfo } from './request-info.ts';
import { ApiError, errors } from './status.ts';
import type { ApiRequest, Env } from './types.ts';
import type { TraceRecorder } from './trace.ts';

/** Who a server without authenticators treats every caller as: a cluster admin. */
export const DEFAULT_USER: UserInfo = { name: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

/** One union per server: its authenticators and anonymous setting are fixed when the server is built. */
const unions = new WeakMap<Env, Authenticator>();

function unionOf(env: Env): Authenticator {
  let union = unions.get(env);
  if (!union) {
    union = unionAuthenticator(env.authenticators, { anonymous: env.anonymous });
    unions.set(env, union);
  }
  return union;
}

/**
 * The authentication stage: the union authenticator (authn/union.ts — the one implementation,
 * with upstream's order, fail-on-error and anonymous fallback) over the configured
 * authenticators. Any failure is upstream's bare 401 (authn/union.ts unauthorizedStatus); the
 * reason goes only to the trace. The authenticated user carries system:authenticated.
 */
/** The authentication stage; a plain return (no promise) when the union answered at once. */
export function authenticate(env: Env, req: ApiRequest, trace: TraceRecorder): UserInfo | Promise<UserInfo> {
  if (env.authenticators.length === 0) {
    trace.pass('authentication', 'no authenticators configured: system:admin');
    return DEFAULT_USER;
  }
  const creds: Credentials = { headers: req.headers };
  if (req.clientCert) creds.clientCert = req.clientCert;
  if (req.clientCertError) creds.clientCertError = req.clientCertError;
  const result = unionOf(env).authenticate(creds);
  return isPromise(result) ? result.then((r) => authenticated(r, trace)) : authenticated(result, trace);
}

function authenticated(result: AuthnResult, trace: TraceRecorder): UserInfo {
  if (result.kind === 'authenticated') {
    trace.pass('authentication', result.method === ANONYMOUS_AUTHENTICATOR_NAME ? 'anonymous' : `${result.method}: ${result.user.name}`);
    return result.user;
  }
  trace.reject('authentication', result.kind === 'rejected' ? result.reason : 'no credentials');
  throw errors.unauthorized();
}

export function attributesOf(user: UserInfo, info: RequestInfo): RequestAttributes {
  return {
    user,
    verb: info.verb,
    resourceRequest: info.isResourceRequest,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
    path: info.path,
  };
}

/** The authorization stage; a plain return (no promise) when the authorizer answered at once. */
export function authorize(env: Env, attrs: RequestAttributes, trace: TraceRecorder): void | Promise<void> {
  if (!env.authorizer) {
    trace.pass('authorization', 'no authorizer configured: allowed');
    return;
  }
  const decision = env.authorizer.authorize(attrs);
  return isPromise(decision) ? decision.then((d) => authorized(attrs, d, trace)) : authorized(attrs, decision, trace);
}

function authorized(attrs: RequestAttributes, decision: Decision, trace: TraceRecorder): void {
  if (decision.allowed) {
    trace.pass('authorization', decision.reason || 'allowed');
    return;
  }
  trace.reject('authorization', decision.reason || 'denied');
  const status = forbiddenStatus(attrs, decision.reason);
  throw new ApiError(403, 'Forbidden', status.message, status.details);
}
