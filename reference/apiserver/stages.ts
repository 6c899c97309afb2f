/**
 * The first two pipeline stages, authentication and authorization, each recorded in the
 * request's trace (000 § API Server / 请求处理链).
 */
import { withAuthenticatedGroup } from './authn/union.ts';
import { forbiddenStatus } from './authz/forbidden.ts';
import type { RequestAttributes, UserInfo } from './pipeline.ts';
import type { RequestInfo } from './request-info.ts';
import { ApiError, errors } from './status.ts';
import type { ApiRequest, Env } from './types.ts';
import type { TraceRecorder } from './trace.ts';

/** Who a server without authenticators treats every caller as: a cluster admin. */
export const DEFAULT_USER: UserInfo = { name: 'system:admin', groups: ['system:masters', 'system:authenticated'] };
export const ANONYMOUS_USER: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/**
 * Tries each authenticator in order (upstream's union authenticator): the first that
 * recognises the credentials decides; a rejection is 401 at once; nobody recognising them is
 * anonymous when enabled, else 401. An authenticated user also gets `system:authenticated`, as
 * kube-apiserver wraps its authenticators in group.NewAuthenticatedGroupAdder
 * (pkg/kubeapiserver/authenticator/config.go, New).
 */
export async function authenticate(env: Env, req: ApiRequest, trace: TraceRecorder): Promise<UserInfo> {
  if (env.authenticators.length === 0) {
    trace.pass('authentication', 'no authenticators configured: system:admin');
    return DEFAULT_USER;
  }
  const creds = req.clientCert ? { headers: req.headers, clientCert: req.clientCert } : { headers: req.headers };
  for (const a of env.authenticators) {
    const result = await a.authenticate(creds);
    if (result.kind === 'authenticated') {
      trace.pass('authentication', `${a.name}: ${result.user.name}`);
      return withAuthenticatedGroup(result.user);
    }
    if (result.kind === 'rejected') {
      trace.reject('authentication', `${a.name}: ${result.reason}`);
      throw errors.unauthorized();
    }
  }
  if (env.anonymous) {
    trace.pass('authentication', 'anonymous');
    return ANONYMOUS_USER;
  }
  trace.reject('authentication', 'no credentials');
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

export async function authorize(env: Env, attrs: RequestAttributes, trace: TraceRecorder): Promise<void> {
  if (!env.authorizer) {
    trace.pass('authorization', 'no authorizer configured: allowed');
    return;
  }
  const decision = await env.authorizer.authorize(attrs);
  if (decision.allowed) {
    trace.pass('authorization', decision.reason || 'allowed');
    return;
  }
  trace.reject('authorization', decision.reason || 'denied');
  const status = forbiddenStatus(attrs, decision.reason);
  throw new ApiError(403, 'Forbidden', status.message, status.details);
}
