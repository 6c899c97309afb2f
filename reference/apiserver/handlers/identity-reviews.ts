/**
 * The reviews that say who a caller is and what they may do, created and never stored:
 *  - TokenReview (pkg/registry/authentication/tokenreview/storage.go): runs spec.token through the
 *    server's bearer-token authenticators, as if it had come in an Authorization header; an
 *    unknown or invalid token is `authenticated: false`, never an error of the request.
 *  - SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go): the caller's own
 *    user info (`kubectl auth whoami`).
 *  - SelfSubjectRulesReview (pkg/registry/authorization/selfsubjectrulesreview/rest.go): the
 *    rules the authorizer's rule resolver finds for the caller in spec.namespace
 *    (`kubectl auth can-i --list`); `incomplete` when the authorizer cannot list its rules.
 */
import { withAuthenticatedGroup } from '../authn/union.ts';
import { ANONYMOUS_USER } from '../authn/users.ts';
import { decodeBody, headerValue } from '../negotiation.ts';
import type { UserInfo } from '../pipeline.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { schemaValidation } from './admit.ts';
import { decodeStage } from './create.ts';
import { decodeResource, requestOptions } from './decode.ts';

function decodeReview(call: ResourceCall): any {
  const opts = requestOptions(call, 'CreateOptions');
  const review = decodeStage(call, () => decodeResource(call, call.def, decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body), opts.fieldValidation));
  schemaValidation(call, call.def, { ...review, metadata: { ...review.metadata, name: review.metadata.name || 'review' } });
  call.trace.pass('storage', 'not stored: reviews are answered');
  return review;
}

/** authenticationv1.UserInfo as the reviews print it (empty fields left out). */
function userInfoOf(user: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { username: user.name };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = user.groups;
  return out;
}

async function tokenReview(env: Env, call: ResourceCall): Promise<Reply> {
  const review = decodeReview(call);
  const token: string = review.spec?.token ?? '';
  let status: Record<string, unknown> = { user: {} };
  for (const a of token ? env.authenticators : []) {
    if (a.name === 'x509' || a.name === 'anonymous') continue;
    const result = await a.authenticate({ headers: { authorization: `Bearer ${token}` } });
    if (result.kind === 'authenticated' && result.user.name !== ANONYMOUS_USER) {
      status = { authenticated: true, user: userInfoOf(withAuthenticatedGroup(result.user)) };
      if (review.spec?.audiences?.length) status.audiences = review.spec.audiences;
      break;
    }
    if (result.kind === 'rejected') {
      status = { user: {}, error: result.reason };
      break;
    }
  }
  return reply(201, { ...review, metadata: { ...review.metadata, creationTimestamp: null }, status });
}

async function selfSubjectReview(_env: Env, call: ResourceCall): Promise<Reply> {
  const review = decodeReview(call);
  return reply(201, { ...review, metadata: { ...review.metadata, creationTimestamp: null }, status: { userInfo: userInfoOf(call.user) } });
}

async function selfSubjectRulesReview(env: Env, call: ResourceCall): Promise<Reply> {
  const review = decodeReview(call);
  const namespace: string = review.spec?.namespace ?? '';
  const resolver = env.authorizer?.rulesFor;
  const found = resolver ? await resolver.call(env.authorizer, call.user, namespace) : { resourceRules: [], nonResourceRules: [], incomplete: true };
  const status: Record<string, unknown> = { resourceRules: found.resourceRules, nonResourceRules: found.nonResourceRules, incomplete: found.incomplete };
  if (found.evaluationError) status.evaluationError = found.evaluationError;
  return reply(201, { ...review, metadata: { ...review.metadata, creationTimestamp: null }, status });
}

export const IDENTITY_REVIEWS: Record<string, (env: Env, call: ResourceCall) => Promise<Reply>> = {
  tokenreviews: tokenReview,
  selfsubjectreviews: selfSubjectReview,
  selfsubjectrulesreviews: selfSubjectRulesReview,
};
