/**
 * Reading `Authorization: Bearer <token>` the way upstream's bearertoken authenticator does
 * (staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go): the
 * scheme is case-insensitive, the value is split on single spaces, and an empty token counts
 * as no credentials at all.
 */
import type { Credentials } from '../pipeline.ts';

/** Upstream's default error when a bearer token is present but no token authenticator knows it. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

export function bearerToken(creds: Credentials): string | undefined {
  const raw = headerValue(creds.headers, 'authorization');
  if (raw === undefined) return undefined;
  const auth = raw.trim();
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token.length === 0 ? undefined : token;
}

/** Node lower-cases incoming header names, but injected test credentials may not. */
function headerValue(headers: Credentials['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
