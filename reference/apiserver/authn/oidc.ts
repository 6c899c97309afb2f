/**
 * OpenID Connect token authentication (kube-apiserver's --oidc-* flags): a bearer token that is
 * an ID token from the configured issuer, signed with one of the issuer's keys, issued to the
 * configured client and not expired, authenticates as the user its claims name.
 *
 * Upstream: staging/src/k8s.io/apiserver/plugin/pkg/authenticator/token/oidc/oidc.go (with
 * github.com/coreos/go-oidc doing discovery, JWKS and the iss/aud/exp checks), fed by the flags
 * in pkg/kubeapiserver/options/authentication.go (ToAuthenticationConfig). What is kept:
 * - A token whose (unverified) `iss` is not the issuer URL is no opinion: another token
 *   authenticator may know it (oidc.go AuthenticateToken: hasCorrectIssuer → false, nil).
 * - Keys come from the issuer's discovery document ({issuer}/.well-known/openid-configuration,
 *   whose `issuer` must equal the configured URL) and its `jwks_uri`; an unknown `kid` makes the
 *   key set refresh once (go-oidc remote key set). Only RS256 is accepted, the default of
 *   oidc.go's SupportedSigningAlgs when none is configured.
 * - `aud` (a string or a list) must contain --oidc-client-id; `exp` must not have passed
 *   (go-oidc verify.go: expired when now is after exp, no leeway); `nbf` gets go-oidc's 5 minute leeway.
 * - Username: the --oidc-username-claim claim (default "sub"), a string. With no
 *   --oidc-username-prefix, a claim other than "email" is prefixed with `<issuer URL>#` and
 *   "email" is not (authentication.go, kubernetes/kubernetes#31380); the prefix "-" means none.
 *   With the "email" claim, `email_verified: false` rejects (oidc.go getUsername).
 * - Groups: the --oidc-groups-claim claim, a string or a list of strings (oidc.go getGroups,
 *   kubernetes/kubernetes#33290), each prefixed with --oidc-groups-prefix.
 * - Every failure of a token from this issuer is a rejection (401), never a 5xx.
 *
 * Pure: the clock and the HTTPS GET are injected (wiring: authn/host/oidc-fetch.ts).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { OidcFlags } from '../../../contract/contract.ts';
import type { Authenticator, AuthnResult, Credentials } from '../pipeline.ts';
import { bearerToken } from './bearer.ts';
import { decodeJwt, type DecodedJwt } from './jwt.ts';
import { rfc3339 } from '../../timestamps.ts';

export const OIDC_AUTHENTICATOR_NAME = 'oidc';

/** go-oidc verify.go: allowed clock skew for nbf. */
const NBF_LEEWAY_MS = 5 * 60_000;

/** The --oidc-* flags, as the target contract names them (one list for the suite, serve and the core). */
export interface OidcOptions extends OidcFlags {
  /** --oidc-ca-file's content (PEM): the CA that signs the issuer's serving certificate. */
  caBundlePem?: string;
}

/** An HTTP GET of a JSON document from the issuer. */
export type OidcFetch = (url: string, caBundlePem: string | undefined) => Promise<{ status: number; body: string }>;

export interface OidcAuthenticator extends Authenticator {
  /** Stands in for the flags (undefined: off), so a running server can be pointed at an issuer. */
  configure(options: OidcOptions | undefined): void;
}

/** The username prefix the flags amount to (pkg/kubeapiserver/options/authentication.go). */
export function effectiveUsernamePrefix(opts: Pick<OidcOptions, 'issuerUrl' | 'usernameClaim' | 'usernamePrefix'>): string {
  const claim = opts.usernameClaim ?? 'sub';
  if (opts.usernamePrefix === '-') return '';
  if (opts.usernamePrefix === undefined || opts.usernamePrefix === '') return claim === 'email' ? '' : `${opts.issuerUrl}#`;
  return opts.usernamePrefix;
}

class Rejected extends Error {}

export function oidcAuthenticator(deps: { now_ms: () => number; fetch: OidcFetch }): OidcAuthenticator {
  let options: OidcOptions | undefined;
  let keys: Map<string | undefined, KeyObject[]> | undefined;

  async function loadKeys(opts: OidcOptions): Promise<Map<string | undefined, KeyObject[]>> {
    const discovery = await getJson(deps.fetch, `${opts.issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`, opts.caBundlePem);
    if (discovery['issuer'] !== opts.issuerUrl) throw new Rejected(`oidc: issuer did not match the issuer returned by provider, expected "${opts.issuerUrl}" got "${String(discovery['issuer'])}"`);
    if (typeof discovery['jwks_uri'] !== 'string') throw new Rejected('oidc: discovery document has no jwks_uri');
    return keySet(await getJson(deps.fetch, discovery['jwks_uri'], opts.caBundlePem));
  }

  async function verifySignature(opts: OidcOptions, jwt: DecodedJwt): Promise<void> {
    if (jwt.header['alg'] !== 'RS256') throw new Rejected(`oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "${String(jwt.header['alg'])}"`);
    const kid = typeof jwt.header['kid'] === 'string' ? jwt.header['kid'] : undefined;
    const candidates = (set: Map<string | undefined, KeyObject[]>) => (kid === undefined ? [...set.values()].flat() : set.get(kid) ?? []);
    keys ??= await loadKeys(opts);
    // An unknown kid may be a key the issuer rotated in since: fetch the key set once more.
    if (candidates(keys).length === 0) keys = await loadKeys(opts);
    const ok = candidates(keys).some((publicKey) => verify('sha256', Buffer.from(jwt.signingInput), publicKey, jwt.signature));
    if (!ok) throw new Rejected('oidc: verify token: failed to verify signature: failed to verify id token signature');
  }

  async function check(opts: OidcOptions, jwt: DecodedJwt): Promise<AuthnResult> {
    await verifySignature(opts, jwt);
    checkTimes(jwt.payload, deps.now_ms());
    checkAudience(jwt.payload, opts.clientId);
    const user = { name: username(jwt.payload, opts), groups: groups(jwt.payload, opts) };
    return { kind: 'authenticated', method: OIDC_AUTHENTICATOR_NAME, user };
  }

  /** check, with its failures as the rejection they are. */
  async function checked(opts: OidcOptions, jwt: DecodedJwt): Promise<AuthnResult> {
    try {
      return await check(opts, jwt);
    } catch (error) {
      return { kind: 'rejected', reason: error instanceof Rejected ? error.message : `oidc: ${(error as Error).message}` };
    }
  }

  return {
    name: OIDC_AUTHENTICATOR_NAME,
    configure(next) {
      options = next;
      keys = undefined;
    },
    authenticate(creds: Credentials): AuthnResult | Promise<AuthnResult> {
      const token = bearerToken(creds);
      const opts = options;
      // Not configured, or not this issuer's token: answered at once, as most requests are.
      if (token === undefined || !opts) return { kind: 'no-credentials' };
      const jwt = decodeJwt(token);
      if (!jwt || jwt.payload['iss'] !== opts.issuerUrl) return { kind: 'no-credentials' };
      return checked(opts, jwt);
    },
  };
}

async function getJson(fetch: OidcFetch, url: string, ca: string | undefined): Promise<Record<string, unknown>> {
  const res = await fetch(url, ca);
  if (res.status !== 200) throw new Rejected(`oidc: GET ${url}: HTTP ${res.status}`);
  try {
    const doc = JSON.parse(res.body);
    if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) return doc;
  } catch {
    // fall through
  }
  throw new Rejected(`oidc: GET ${url}: not a JSON object`);
}

/** RSA keys of a JWK Set (RFC 7517) by kid; keys of other types or uses are skipped. */
function keySet(jwks: Record<string, unknown>): Map<string | undefined, KeyObject[]> {
  const set = new Map<string | undefined, KeyObject[]>();
  for (const jwk of Array.isArray(jwks['keys']) ? jwks['keys'] : []) {
    if (jwk?.kty !== 'RSA' || (jwk.use !== undefined && jwk.use !== 'sig')) continue;
    let key: KeyObject;
    try {
      key = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' });
    } catch {
      continue;
    }
    const kid = typeof jwk.kid === 'string' ? jwk.kid : undefined;
    set.set(kid, [...(set.get(kid) ?? []), key]);
  }
  return set;
}

function checkTimes(claims: Record<string, unknown>, now_ms: number): void {
  const exp = claims['exp'];
  if (typeof exp !== 'number') throw new Rejected('oidc: verify token: oidc: malformed jwt: token has no exp');
  if (now_ms > exp * 1000) throw new Rejected(`oidc: verify token: oidc: token is expired (Token Expiry: ${rfc3339(exp * 1000)})`);
  const nbf = claims['nbf'];
  if (typeof nbf === 'number' && now_ms + NBF_LEEWAY_MS < nbf * 1000) throw new Rejected(`oidc: verify token: oidc: current time is before the nbf (not before) time`);
}

function checkAudience(claims: Record<string, unknown>, clientId: string): void {
  const aud = claims['aud'];
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(clientId)) throw new Rejected(`oidc: verify token: oidc: expected audience "${clientId}" got ${JSON.stringify(audiences)}`);
}

function username(claims: Record<string, unknown>, opts: OidcOptions): string {
  const claim = opts.usernameClaim ?? 'sub';
  const value = claims[claim];
  if (typeof value !== 'string') throw new Rejected(`oidc: parse username claims "${claim}": claim not present or not a string`);
  if (claim === 'email' && 'email_verified' in claims && claims['email_verified'] !== true) throw new Rejected('oidc: email not verified');
  return effectiveUsernamePrefix(opts) + value;
}

function groups(claims: Record<string, unknown>, opts: OidcOptions): string[] {
  if (!opts.groupsClaim || !(opts.groupsClaim in claims)) return [];
  const value = claims[opts.groupsClaim];
  const list = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((g) => typeof g === 'string') ? (value as string[]) : undefined;
  if (!list) throw new Rejected(`oidc: parse groups claim "${opts.groupsClaim}": not a string or a list of strings`);
  return list.map((g) => (opts.groupsPrefix ?? '') + g);
}
