/**
 * X.509 client certificate authentication.
 *
 * The TLS layer (server core) verifies the chain against the cluster CA and hands over the
 * subject; this authenticator only maps it to a user, as upstream's CommonNameUserConversion
 * does (staging/src/k8s.io/apiserver/pkg/authentication/request/x509/x509.go): the user name
 * is the subject's CommonName and the groups are its Organization values. A certificate with
 * an empty CN carries no identity, so it counts as "no credentials" rather than a rejection.
 * A certificate that was presented but does not verify is an error, as upstream's
 * Authenticator.AuthenticateRequest returns `verifying certificate ... failed: ...`: the union
 * then answers 401 and never falls back to anonymous.
 *
 * Upstream verifies the chain in this authenticator at the server's current time (x509.go,
 * Verify with VerifyOptions.CurrentTime unset): a certificate past its notAfter (or before its
 * notBefore) is `x509: certificate has expired or is not yet valid`. Here the TLS layer checks
 * the chain, and this authenticator checks the leaf's dates against the server's clock, which
 * on the reference target is the virtual one (the TLS layer only knows the wall clock, so a
 * certificate it finds out of date is passed on when the CA did sign it: see
 * CHAIN_VERIFIED_OUT_OF_DATE).
 */
import { NO_FAULTS, type Faults } from '../../faults.ts';
import type { Authenticator, AuthnResult, Credentials } from '../pipeline.ts';
import { rfc3339 } from '../../timestamps.ts';

export const X509_AUTHENTICATOR_NAME = 'x509';

/**
 * Set on a TLS socket by the listener when the client's certificate failed the TLS layer's check
 * only for its dates (at the wall clock) and the CA's signature on it verified: the x509
 * authenticator then judges the dates at the server's clock.
 */
export const CHAIN_VERIFIED_OUT_OF_DATE = Symbol.for('kubespec.x509.chainVerifiedOutOfDate');

/**
 * `faults`: fault models to inject (reference/faults.ts); default none. `now_ms`: the server's
 * clock, against which a certificate's dates are checked (none: dates are not checked here).
 */
export function x509Authenticator(faults: Faults = NO_FAULTS, now_ms?: () => number): Authenticator {
  return {
    name: X509_AUTHENTICATOR_NAME,
    authenticate(creds: Credentials): AuthnResult {
      if (creds.clientCertError) return { kind: 'rejected', reason: `verifying certificate failed: ${creds.clientCertError}` };
      const cert = creds.clientCert;
      if (!cert || cert.subjectCN.length === 0) return { kind: 'no-credentials' };
      const outOfDate = now_ms ? dateError(cert, now_ms()) : undefined;
      if (outOfDate) return { kind: 'rejected', reason: `verifying certificate CN=${cert.subjectCN} failed: ${outOfDate}` };
      return {
        kind: 'authenticated',
        method: X509_AUTHENTICATOR_NAME,
        // Fault x509-ignores-organization: the certificate's O values are not made groups.
        user: { name: cert.subjectCN, groups: faults.has('x509-ignores-organization') ? [] : [...cert.subjectO] },
      };
    },
  };
}

/** Go's x509.CertificateInvalidError text for an Expired certificate (crypto/x509/verify.go). */
function dateError(cert: NonNullable<Credentials['clientCert']>, now_ms: number): string | undefined {
  const at = rfc3339;
  if (cert.notAfter_ms !== undefined && now_ms > cert.notAfter_ms) return `x509: certificate has expired or is not yet valid: current time ${at(now_ms)} is after ${at(cert.notAfter_ms)}`;
  if (cert.notBefore_ms !== undefined && now_ms < cert.notBefore_ms) return `x509: certificate has expired or is not yet valid: current time ${at(now_ms)} is before ${at(cert.notBefore_ms)}`;
  return undefined;
}
