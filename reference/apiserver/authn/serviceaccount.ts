/**
 * ServiceAccount tokens: minting (the TokenRequest path, and the kubelet's projected token)
 * and authenticating them.
 *
 * Claims follow upstream's pkg/serviceaccount/claims.go: `iss`, `sub =
 * system:serviceaccount:<ns>:<name>`, `aud`, `iat`, `nbf`, `exp`, and the private
 * `kubernetes.io` claim {namespace, serviceaccount{name,uid}, pod?}. Verification follows
 * pkg/serviceaccount/jwt.go: a token whose issuer is not ours is "not mine" (no-credentials, so
 * another authenticator may try it); after that every failure is a rejection. The validator then
 * checks time with go-jose's one-minute leeway, and that the ServiceAccount (and bound pod) still
 * exists with the UID the token names — deleting the ServiceAccount revokes its tokens.
 */
import type { Authenticator, AuthnResult, Credentials } from '../pipeline.ts';
import { bearerToken } from './bearer.ts';
import { decodeJwt, signJwt, verifyJwtSignature, type DecodedJwt, type SigningKey } from './jwt.ts';
import { serviceAccountGroups, serviceAccountUsername } from './users.ts';
import { rfc3339 } from '../handlers/prepare.ts';

export const SERVICE_ACCOUNT_AUTHENTICATOR_NAME = 'serviceaccount';
/** go-jose jwt.DefaultLeeway: exp/nbf are checked with one minute of tolerance. */
export const JWT_LEEWAY_MS = 60_000;
/** TokenRequest's default lifetime (authentication/v1 TokenRequestSpec.expirationSeconds). */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

/** What the lookups return: the plain Kubernetes object (only metadata is read), or undefined. */
export interface ObjectWithMeta {
  metadata?: { uid?: string; deletionTimestamp?: string };
}

export interface ServiceAccountTokenOptions {
  /** kube-apiserver `--service-account-issuer`; also the default audience. */
  issuer: string;
  /** kube-apiserver `--api-audiences`; defaults to [issuer] as upstream does. */
  audiences?: string[];
  key: SigningKey;
  clock: { now_ms(): number };
  getServiceAccount(namespace: string, name: string): Promise<ObjectWithMeta | undefined> | ObjectWithMeta | undefined;
  /** Needed only to verify pod-bound tokens. */
  getPod?(namespace: string, name: string): Promise<ObjectWithMeta | undefined> | ObjectWithMeta | undefined;
}

export interface MintRequest {
  namespace: string;
  name: string;
  /** The ServiceAccount's metadata.uid; verification insists it still matches. */
  uid: string;
  audiences?: string[];
  expirationSeconds?: number;
  /** Bind the token to a pod: deleting the pod invalidates it. */
  boundPod?: { name: string; uid: string };
}

export interface MintedToken {
  token: string;
  /** RFC 3339, as TokenRequestStatus.expirationTimestamp. */
  expirationTimestamp: string;
}

interface KubernetesClaim {
  namespace?: string;
  serviceaccount?: { name?: string; uid?: string };
  pod?: { name?: string; uid?: string };
}

export interface ServiceAccountTokens {
  authenticator: Authenticator;
  mintToken(req: MintRequest): MintedToken;
}

export function serviceAccountTokens(opts: ServiceAccountTokenOptions): ServiceAccountTokens {
  const audiences = opts.audiences ?? [opts.issuer];
  return {
    mintToken: (req) => mint(opts, audiences, req),
    authenticator: {
      name: SERVICE_ACCOUNT_AUTHENTICATOR_NAME,
      authenticate: (creds) => authenticate(opts, audiences, creds),
    },
  };
}

function mint(opts: ServiceAccountTokenOptions, defaultAudiences: string[], req: MintRequest): MintedToken {
  const now_s = Math.floor(opts.clock.now_ms() / 1000);
  const exp_s = now_s + (req.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS);
  const kubernetes: KubernetesClaim = {
    namespace: req.namespace,
    serviceaccount: { name: req.name, uid: req.uid },
    ...(req.boundPod ? { pod: { name: req.boundPod.name, uid: req.boundPod.uid } } : {}),
  };
  const payload = {
    aud: req.audiences ?? defaultAudiences,
    exp: exp_s,
    iat: now_s,
    iss: opts.issuer,
    nbf: now_s,
    sub: serviceAccountUsername(req.namespace, req.name),
    'kubernetes.io': kubernetes,
  };
  return { token: signJwt(payload, opts.key), expirationTimestamp: rfc3339(exp_s * 1000) };
}

/** What a token that is not one of this issuer's gets, at once (no promise: most requests carry none). */
function authenticate(opts: ServiceAccountTokenOptions, audiences: string[], creds: Credentials): AuthnResult | Promise<AuthnResult> {
  const token = bearerToken(creds);
  if (token === undefined) return NO_CREDENTIALS;
  const jwt = decodeJwt(token);
  if (!jwt || jwt.payload['iss'] !== opts.issuer) return NO_CREDENTIALS;
  return authenticateJwt(opts, audiences, jwt);
}

const NO_CREDENTIALS: AuthnResult = Object.freeze({ kind: 'no-credentials' });

async function authenticateJwt(opts: ServiceAccountTokenOptions, audiences: string[], jwt: DecodedJwt): Promise<AuthnResult> {
  if (!verifyJwtSignature(jwt, opts.key)) return { kind: 'rejected', reason: 'invalid signature' };
  const problem = checkAudience(jwt, audiences) ?? checkTime(jwt, opts.clock.now_ms());
  if (problem) return { kind: 'rejected', reason: problem };
  const claim = (jwt.payload['kubernetes.io'] ?? {}) as KubernetesClaim;
  const namespace = claim.namespace ?? '';
  const name = claim.serviceaccount?.name ?? '';
  const stale = await checkStillExists(opts, namespace, name, claim);
  if (stale) return { kind: 'rejected', reason: stale };
  return {
    kind: 'authenticated',
    method: SERVICE_ACCOUNT_AUTHENTICATOR_NAME,
    user: {
      name: serviceAccountUsername(namespace, name),
      uid: claim.serviceaccount?.uid ?? '',
      groups: serviceAccountGroups(namespace),
    },
  };
}

/** jwt.go: the token's audiences must intersect the API server's. */
function checkAudience(jwt: DecodedJwt, audiences: string[]): string | undefined {
  const raw = jwt.payload['aud'];
  const tokenAuds = raw === undefined ? audiences : Array.isArray(raw) ? raw.map(String) : [String(raw)];
  if (tokenAuds.some((a) => audiences.includes(a))) return undefined;
  return `token audiences ${goQuoteList(tokenAuds)} is invalid for the target audiences ${goQuoteList(audiences)}`;
}

/** claims.go Validate: the messages upstream returns for exp and nbf. */
function checkTime(jwt: DecodedJwt, now_ms: number): string | undefined {
  const exp = jwt.payload['exp'];
  const nbf = jwt.payload['nbf'];
  if (typeof exp === 'number' && now_ms - JWT_LEEWAY_MS > exp * 1000) return 'service account token has expired';
  if (typeof nbf === 'number' && now_ms + JWT_LEEWAY_MS < nbf * 1000) return 'service account token is not valid yet';
  return undefined;
}

async function checkStillExists(
  opts: ServiceAccountTokenOptions,
  namespace: string,
  name: string,
  claim: KubernetesClaim,
): Promise<string | undefined> {
  const sa = await opts.getServiceAccount(namespace, name);
  if (!sa) return `serviceaccount "${name}" not found`;
  if (sa.metadata?.deletionTimestamp) return `service account ${namespace}/${name} has been deleted`;
  const saUid = sa.metadata?.uid ?? '';
  const claimUid = claim.serviceaccount?.uid ?? '';
  if (saUid !== claimUid) return `service account UID (${saUid}) does not match claim (${claimUid})`;
  if (!claim.pod) return undefined;
  const pod = opts.getPod ? await opts.getPod(namespace, claim.pod.name ?? '') : undefined;
  if (!pod || pod.metadata?.deletionTimestamp) return 'service account token has been invalidated';
  const podUid = pod.metadata?.uid ?? '';
  if (podUid !== (claim.pod.uid ?? '')) return `pod UID (${podUid}) does not match service account pod ref claim (${claim.pod.uid ?? ''})`;
  return undefined;
}

/** Go's %q applied to a []string: `["a" "b"]`. */
function goQuoteList(items: readonly string[]): string {
  return `[${items.map((i) => JSON.stringify(i)).join(' ')}]`;
}
