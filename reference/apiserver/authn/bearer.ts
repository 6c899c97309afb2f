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
  // parts := strings.Split(auth, " "); parts[0] the scheme, parts[1] the token — read in place,
  // without the array (every token authenticator of the union asks, on every request).
  const space = auth.indexOf(' ');
  if (space !== BEARER.length || auth.slice(0, space).toLowerCase() !== BEARER) return undefined;
  const end = auth.indexOf(' ', space + 1);
  const token = end < 0 ? auth.slice(space + 1) : auth.slice(space + 1, end);
  return token.length === 0 ? undefined : token;
}

const BEARER = 'bearer';

/**
 * Node lower-cases incoming header names, but injected test credentials may not: the exact
 * name is looked up first (every authenticator of the union asks, on every request), and only
 * without it are the names compared case-insensitively.
 */
function headerValue(headers: Credentials['headers'], name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) return Array.isArray(direct) ? direct[0] : direct;
  for (const key in headers) {
    if (key.toLowerCase() !== name) continue;
    const value = headers[key];
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
