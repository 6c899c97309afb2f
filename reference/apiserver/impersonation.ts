/**
 * User impersonation (staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go):
 * `Impersonate-User`, `Impersonate-Group` and `Impersonate-Uid` headers make a request act as
 * someone else, if the authenticated caller may `impersonate` each of them — users, groups,
 * uids, or a service account (resource serviceaccounts in its namespace). The impersonated
 * user gets system:authenticated (and, for a service account, system:serviceaccounts and
 * system:serviceaccounts:<namespace>) as upstream adds them.
 */
import { forbiddenStatus } from './authz/forbidden.ts';
import { headerValue } from './negotiation.ts';
import type { RequestAttributes, UserInfo } from './pipeline.ts';
import { ApiError, errors } from './status.ts';
import type { ApiRequest, Env } from './types.ts';
import type { TraceRecorder } from './trace.ts';

const SA_PREFIX = 'system:serviceaccount:';

function allValues(headers: ApiRequest['headers'], name: string): string[] {
  const v = headers[name];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}

function attributesFor(requester: UserInfo, kind: 'users' | 'groups' | 'uids' | 'serviceaccounts', name: string, namespace = ''): RequestAttributes {
  return { user: requester, verb: 'impersonate', resourceRequest: true, apiGroup: kind === 'uids' ? 'authentication.k8s.io' : '', apiVersion: '', resource: kind, subresource: '', namespace, name, path: '' };
}

async function mayImpersonate(env: Env, attrs: RequestAttributes, trace: TraceRecorder): Promise<void> {
  if (!env.authorizer) return;
  const d = await env.authorizer.authorize(attrs);
  if (d.allowed) return;
  trace.reject('authorization', `impersonate ${attrs.resource}/${attrs.name}: ${d.reason || 'denied'}`);
  const status = forbiddenStatus(attrs, d.reason);
  throw new ApiError(403, 'Forbidden', status.message, status.details);
}

function impersonatedGroups(name: string, groups: string[]): string[] {
  const out = [...groups];
  if (name.startsWith(SA_PREFIX)) {
    const ns = name.slice(SA_PREFIX.length).split(':')[0] ?? '';
    out.push('system:serviceaccounts', `system:serviceaccounts:${ns}`);
  }
  if (name !== 'system:anonymous' && !out.includes('system:authenticated')) out.push('system:authenticated');
  return [...new Set(out)];
}

/** The user the request acts as: the caller, or whom it may impersonate. */
export function impersonate(env: Env, req: ApiRequest, requester: UserInfo, trace: TraceRecorder): UserInfo | Promise<UserInfo> {
  const name = headerValue(req.headers, 'impersonate-user').trim();
  const groups = allValues(req.headers, 'impersonate-group');
  const uid = headerValue(req.headers, 'impersonate-uid').trim();
  if (!name) {
    if (groups.length > 0 || uid) throw errors.badRequest('impersonating groups or a uid requires impersonating a user');
    // Nearly every request: answered without a promise.
    return requester;
  }
  return impersonateUser(env, requester, trace, name, groups, uid);
}

async function impersonateUser(env: Env, requester: UserInfo, trace: TraceRecorder, name: string, groups: string[], uid: string): Promise<UserInfo> {
  if (name.startsWith(SA_PREFIX)) {
    const [ns = '', sa = ''] = name.slice(SA_PREFIX.length).split(':');
    await mayImpersonate(env, attributesFor(requester, 'serviceaccounts', sa, ns), trace);
  } else {
    await mayImpersonate(env, attributesFor(requester, 'users', name), trace);
  }
  for (const g of groups) await mayImpersonate(env, attributesFor(requester, 'groups', g), trace);
  if (uid) await mayImpersonate(env, attributesFor(requester, 'uids', uid), trace);
  const user: UserInfo = { name, groups: impersonatedGroups(name, groups) };
  if (uid) user.uid = uid;
  trace.pass('authentication', `${requester.name} impersonating ${name}`);
  return user;
}
