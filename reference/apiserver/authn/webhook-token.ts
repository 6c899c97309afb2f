/**
 * Webhook token authentication (--authentication-token-webhook-config-file): the API server
 * sends the bearer token to a remote service as a TokenReview and trusts its answer
 * (staging/src/k8s.io/apiserver/plugin/pkg/authenticator/token/webhook/webhook.go;
 * https://kubernetes.io/docs/reference/access-authn-authz/authentication/#webhook-token-authentication).
 *
 * - Request: POST `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":…}}`.
 * - `status.authenticated: true` → the user is `status.user` (username, uid, groups).
 * - `authenticated: false` is no opinion here: the union of authenticators goes on to the next
 *   one (upstream's union tries every token authenticator before it fails the request).
 * - An unreachable service or a bad answer rejects the request (401), as upstream's
 *   authenticator returns an error.
 *
 * Pure: the HTTP call is injected (the admission webhooks' caller, admission/host/webhookclient.ts).
 * The service is configured while the server runs: `configure()` stands in for the flag.
 */
import type { Authenticator, AuthnResult, Credentials } from '../pipeline.ts';
import type { WebhookCaller } from '../admission/webhook/types.ts';
import { bearerToken } from './bearer.ts';

export const WEBHOOK_TOKEN_AUTHENTICATOR_NAME = 'webhook-token';

/** Upstream's default --authentication-token-webhook-... request timeout (webhook.go: 10 s). */
const DEFAULT_TIMEOUT_MS = 10_000;

export interface TokenWebhookConfig {
  url: string;
  caBundlePem?: string;
  timeout_ms?: number;
}

export interface WebhookTokenAuthenticator extends Authenticator {
  configure(config: TokenWebhookConfig | undefined): void;
}

export function webhookTokenAuthenticator(call: WebhookCaller): WebhookTokenAuthenticator {
  let config: TokenWebhookConfig | undefined;
  return {
    name: WEBHOOK_TOKEN_AUTHENTICATOR_NAME,
    configure(next) {
      config = next;
    },
    authenticate(creds: Credentials): AuthnResult | Promise<AuthnResult> {
      const token = bearerToken(creds);
      // No webhook configured (most servers), or no token: answered at once.
      if (token === undefined || !config) return { kind: 'no-credentials' };
      return review(call, config, token);
    },
  };
}

/** Asks the configured webhook (a TokenReview) about the token. */
async function review(call: WebhookCaller, config: TokenWebhookConfig, token: string): Promise<AuthnResult> {
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
  let res;
  try {
    res = await call({ url: config.url, body, timeout_ms: config.timeout_ms ?? DEFAULT_TIMEOUT_MS, ...(config.caBundlePem ? { caBundlePem: config.caBundlePem } : {}) });
  } catch (error) {
    return { kind: 'rejected', reason: `webhook token authentication failed: ${(error as Error).message}` };
  }
  return resultOf(res.status, res.body);
}

function resultOf(status: number, text: string): AuthnResult {
  if (status < 200 || status >= 300) return { kind: 'rejected', reason: `webhook token authentication: the service answered HTTP ${status}` };
  let review: any;
  try {
    review = JSON.parse(text);
  } catch {
    return { kind: 'rejected', reason: 'webhook token authentication: the answer is not a TokenReview' };
  }
  const s = review?.status;
  if (s?.authenticated !== true) return { kind: 'no-credentials' };
  const username = s.user?.username;
  if (typeof username !== 'string' || username === '') return { kind: 'rejected', reason: 'webhook token authentication: authenticated with no username' };
  const groups = Array.isArray(s.user?.groups) ? s.user.groups.filter((g: unknown): g is string => typeof g === 'string') : [];
  return {
    kind: 'authenticated',
    method: WEBHOOK_TOKEN_AUTHENTICATOR_NAME,
    user: { name: username, ...(typeof s.user?.uid === 'string' ? { uid: s.user.uid } : {}), groups },
  };
}
