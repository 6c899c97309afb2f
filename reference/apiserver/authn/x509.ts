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
 */
import { NO_FAULTS, type Faults } from '../../faults.ts';
import type { Authenticator, AuthnResult, Credentials } from '../pipeline.ts';

export const X509_AUTHENTICATOR_NAME = 'x509';

/** `faults`: fault models to inject (reference/faults.ts); default none. */
export function x509Authenticator(faults: Faults = NO_FAULTS): Authenticator {
  return {
    name: X509_AUTHENTICATOR_NAME,
    async authenticate(creds: Credentials): Promise<AuthnResult> {
      if (creds.clientCertError) return { kind: 'rejected', reason: `verifying certificate failed: ${creds.clientCertError}` };
      const cert = creds.clientCert;
      if (!cert || cert.subjectCN.length === 0) return { kind: 'no-credentials' };
      return {
        kind: 'authenticated',
        method: X509_AUTHENTICATOR_NAME,
        // Fault x509-ignores-organization: the certificate's O values are not made groups.
        user: { name: cert.subjectCN, groups: faults.has('x509-ignores-organization') ? [] : [...cert.subjectO] },
      };
    },
  };
}
