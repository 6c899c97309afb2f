/**
 * The OIDC authenticator's GET over real HTTP(S): the issuer's discovery document and key set,
 * trusting --oidc-ca-file's CA (instead of the system roots) when one is given. Upstream's
 * client gives up after 30 s (staging/src/k8s.io/apiserver/plugin/pkg/authenticator/token/oidc/oidc.go, New).
 */
import { exchange } from '../../host/http-exchange.ts';
import type { OidcFetch } from '../oidc.ts';

const TIMEOUT_MS = 30_000;
/** A discovery document or a key set is small; this bounds memory. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export function httpOidcFetch(): OidcFetch {
  return (url, caBundlePem) => exchange({ method: 'GET', url, timeout_ms: TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES, ...(caBundlePem ? { caBundlePem } : {}) });
}
