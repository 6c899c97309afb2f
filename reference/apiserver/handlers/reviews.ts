/**
 * SelfSubjectAccessReview and SubjectAccessReview (pkg/registry/authorization/*): created, never
 * stored; the answer is the configured Authorizer's decision for the attributes in the spec —
 * the requester's own identity for the self review (`kubectl auth can-i` sends one), the named
 * user and groups for the other.
 */
import { decodeBody, headerValue } from '../negotiation.ts';
import type { RequestAttributes, UserInfo } from '../pipeline.ts';
import { invalid } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { schemaValidation } from './admit.ts';
import { decodeStage } from './create.ts';
import { decodeResource, requestOptions } from './decode.ts';
import { IDENTITY_REVIEWS } from './identity-reviews.ts';

function attributesFromSpec(user: UserInfo, spec: any): RequestAttributes | undefined {
  const ra = spec?.resourceAttributes;
  const nra = spec?.nonResourceAttributes;
  if (ra) {
    return {
      user, verb: ra.verb ?? '', resourceRequest: true, apiGroup: ra.group ?? '', apiVersion: ra.version ?? '',
      resource: ra.resource ?? '', subresource: ra.subresource ?? '', namespace: ra.namespace ?? '', name: ra.name ?? '', path: '',
    };
  }
  if (nra) {
    return { user, verb: nra.verb ?? '', resourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path: nra.path ?? '' };
  }
  return undefined;
}

export async function accessReview(env: Env, call: ResourceCall): Promise<Reply> {
  const { def } = call;
  const identity = IDENTITY_REVIEWS[def.resource];
  if (identity) return identity(env, call);
  const opts = requestOptions(call, 'CreateOptions');
  const review = decodeStage(call, () => decodeResource(call, def, decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body), opts.fieldValidation));
  const self = def.resource === 'selfsubjectaccessreviews';
  const user: UserInfo = self ? call.user : { name: review.spec?.user ?? '', groups: review.spec?.groups ?? [], ...(review.spec?.uid ? { uid: review.spec.uid } : {}) };
  const attrs = attributesFromSpec(user, review.spec);
  if (!attrs) {
    throw invalid(def.group, def.kind, '', [{ type: 'Invalid', field: 'spec.resourceAttributes', value: null, detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' }]);
  }
  if (!self && !user.name && user.groups.length === 0) {
    throw invalid(def.group, def.kind, '', [{ type: 'Invalid', field: 'spec.user', value: '', detail: 'at least one of user or group must be specified' }]);
  }
  schemaValidation(call, def, { ...review, metadata: { ...review.metadata, name: review.metadata.name || 'review' } });
  const decision = env.authorizer ? await env.authorizer.authorize(attrs) : { allowed: true, reason: 'no authorizer configured' };
  call.trace.pass('storage', 'not stored: reviews are answered');
  const status: Record<string, unknown> = { allowed: decision.allowed };
  if (decision.reason) status.reason = decision.reason;
  return reply(201, { ...review, metadata: { ...review.metadata, creationTimestamp: null }, status });
}
