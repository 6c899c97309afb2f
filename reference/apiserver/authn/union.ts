/**
 * The union authenticator: tries each authenticator in order, as upstream's union does
 * (staging/src/k8s.io/apiserver/pkg/authentication/request/union/union.go):
 * - the first that authenticates wins;
 * - a rejection does not stop the chain (another authenticator may still know the
 *   credential), but if nobody authenticates, the collected rejections fail the request (401);
 * - anonymous, when enabled, is consulted only when there was nothing to reject (upstream:
 *   union.NewFailOnError(union, anonymous) in pkg/kubeapiserver/authenticator/config.go).
 *
 * Authenticated users get `system:authenticated` added unless they are anonymous or already
 * carry system:authenticated / system:unauthenticated
 * (staging/src/k8s.io/apiserver/pkg/authentication/group/authenticated_group_adder.go).
 */
import { isPromise, type Authenticator, type AuthnResult, type Credentials, type UserInfo } from '../pipeline.ts';
import { anonymousAuthenticator } from './anonymous.ts';
import { bearerToken, INVALID_BEARER_TOKEN } from './bearer.ts';
import { ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER } from './users.ts';

export const UNION_AUTHENTICATOR_NAME = 'union';

export interface UnionOptions {
  /** kube-apiserver `--anonymous-auth`: unrecognised requests become system:anonymous. */
  anonymous?: boolean;
}

export function unionAuthenticator(authenticators: readonly Authenticator[], opts: UnionOptions = {}): Authenticator {
  const anonymous = opts.anonymous ? anonymousAuthenticator() : undefined;
  /**
   * Asks authenticators from `from` on, in order; waits only for one that answers with a
   * promise (a webhook, OIDC, a ServiceAccount token), so a request authenticated by a
   * certificate or a static token is answered without a promise per authenticator.
   */
  const askFrom = (from: number, creds: Credentials, reasons: string[]): AuthnResult | Promise<AuthnResult> => {
    for (let i = from; i < authenticators.length; i++) {
      const answer = authenticators[i]!.authenticate(creds);
      if (isPromise(answer)) return answer.then((result) => decided(result, reasons) ?? askFrom(i + 1, creds, reasons));
      const done = decided(answer, reasons);
      if (done) return done;
    }
    // bearertoken.go: a token was sent but no token authenticator took it → "invalid bearer token".
    if (reasons.length === 0 && bearerToken(creds) !== undefined) reasons.push(INVALID_BEARER_TOKEN);
    if (reasons.length > 0) return { kind: 'rejected', reason: aggregate(reasons) };
    if (anonymous) return anonymous.authenticate(creds);
    return { kind: 'no-credentials' };
  };
  return {
    name: UNION_AUTHENTICATOR_NAME,
    authenticate: (creds) => askFrom(0, creds, []),
  };
}

/** The union's answer if this authenticator's decides it (the first that authenticates wins); a rejection is kept. */
function decided(result: AuthnResult, reasons: string[]): AuthnResult | undefined {
  if (result.kind === 'authenticated') return { ...result, user: withAuthenticatedGroup(result.user) };
  if (result.kind === 'rejected') reasons.push(result.reason);
  return undefined;
}

export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS_USER) return user;
  if (user.groups.some((g) => g === ALL_AUTHENTICATED_GROUP || g === ALL_UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED_GROUP] };
}

/** utilerrors.NewAggregate prints one error as itself and several as `[a, b]`. */
function aggregate(reasons: readonly string[]): string {
  const unique = [...new Set(reasons)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/**
 * The 401 answer when authentication fails (a rejection, or no credentials with anonymous
 * auth off): upstream's staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go sends apierrors.NewUnauthorized("Unauthorized"),
 * whatever the reason, so a probe learns nothing about which check failed.
 */
export function unauthorizedStatus() {
  return {
    kind: 'Status' as const,
    apiVersion: 'v1' as const,
    metadata: {},
    status: 'Failure' as const,
    message: 'Unauthorized',
    reason: 'Unauthorized' as const,
    code: 401 as const,
  };
}
