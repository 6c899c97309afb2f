/**
 * The 403 the server core answers when authorization denies a request.
 *
 * Upstream: responsewriters.Forbidden in
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go builds
 *   User "bob" cannot get resource "pods" in API group "" in the namespace "default"
 *   User "bob" cannot list resource "nodes" in API group "" at the cluster scope
 *   User "bob" cannot get path "/healthz"
 * (resource includes "/subresource"; `&`, `<`, `>` are HTML-escaped), appends ": <reason>" when
 * the authorizer gave one, and wraps it with apierrors.NewForbidden
 * (staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go), which prefixes
 * `pods "x" is forbidden: `, `pods is forbidden: ` (no name) or `forbidden: ` (no resource).
 * The group-resource prefix is `resource.group`, without the subresource.
 */
import type { RequestAttributes } from '../pipeline.ts';

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: 'Forbidden';
  details?: { name?: string; group?: string; kind?: string };
  code: 403;
}

/** The full Status message, e.g. `pods "x" is forbidden: User "bob" cannot get resource ...`. */
export function forbiddenMessage(attrs: RequestAttributes, reason = ''): string {
  const detail = sanitize(authorizationDetail(attrs));
  const err = reason === '' ? detail : `${detail}: ${reason}`;
  const resource = attrs.resourceRequest ? attrs.resource : '';
  if (resource === '' && attrs.apiGroup === '') return `forbidden: ${err}`;
  const gr = attrs.apiGroup === '' ? resource : `${resource}.${attrs.apiGroup}`;
  if (attrs.name === '') return `${gr} is forbidden: ${err}`;
  return `${gr} "${attrs.name}" is forbidden: ${err}`;
}

/** The Status object to send with HTTP 403. */
export function forbiddenStatus(attrs: RequestAttributes, reason = ''): Status {
  const details: NonNullable<Status['details']> = {};
  if (attrs.name) details.name = attrs.name;
  if (attrs.resourceRequest && attrs.apiGroup) details.group = attrs.apiGroup;
  if (attrs.resourceRequest && attrs.resource) details.kind = attrs.resource;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: forbiddenMessage(attrs, reason),
    reason: 'Forbidden',
    details,
    code: 403,
  };
}

function authorizationDetail(attrs: RequestAttributes): string {
  const user = JSON.stringify(attrs.user.name);
  if (!attrs.resourceRequest) return `User ${user} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const what = `User ${user} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)}`;
  if (attrs.namespace) return `${what} in the namespace ${JSON.stringify(attrs.namespace)}`;
  return `${what} at the cluster scope`;
}

/** Upstream avoids error text that looks like HTML; quotes are kept. */
function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
