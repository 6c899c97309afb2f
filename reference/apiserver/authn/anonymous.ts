/**
 * The anonymous authenticator: when enabled, a request nothing else recognised becomes
 * `system:anonymous` in group `system:unauthenticated`
 * (staging/src/k8s.io/apiserver/pkg/authentication/request/anonymous/anonymous.go).
 * The union authenticator puts it last and only consults it when no other authenticator
 * rejected the request (upstream wraps it with union.NewFailOnError, so a bad token is a 401,
 * never a silent downgrade to anonymous).
 */
import type { Authenticator, AuthnResult } from '../pipeline.ts';
import { ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER } from './users.ts';

export const ANONYMOUS_AUTHENTICATOR_NAME = 'anonymous';

export function anonymousAuthenticator(): Authenticator {
  return {
    name: ANONYMOUS_AUTHENTICATOR_NAME,
    authenticate(): AuthnResult {
      return {
        kind: 'authenticated',
        method: ANONYMOUS_AUTHENTICATOR_NAME,
        user: { name: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED_GROUP] },
      };
    },
  };
}
