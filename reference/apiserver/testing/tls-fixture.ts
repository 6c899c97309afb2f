/**
 * A TLS API server whose only authenticator records the credentials it is shown and trusts a
 * client certificate the CA signed (CN → user, O → groups): for tests of what the TLS layer
 * hands to authentication.
 */
import { LocalBackend } from '../../store/local.ts';
import { createApiServer, type ApiServer } from '../server.ts';
import type { Authenticator, Credentials } from '../pipeline.ts';
import { createCa, issueClientCert, issueServerCert, type CertAndKey } from '../pki/host/index.ts';
import { listen, type Listening } from '../host/listen.ts';

export interface TlsFixture {
  api: ApiServer;
  https: Listening;
  ca: CertAndKey;
  /** A client certificate for CN alice, O dev and ops. */
  client: CertAndKey;
  /** Every Credentials authentication saw, in order. */
  seen: Credentials[];
}

export async function tlsServerRecordingCredentials(clock: { now_ms(): number }): Promise<TlsFixture> {
  const ca = await createCa();
  const serving = await issueServerCert(ca);
  const client = await issueClientCert(ca, { commonName: 'alice', organizations: ['dev', 'ops'] });
  const seen: Credentials[] = [];
  const recorder: Authenticator = {
    name: 'x509-test',
    async authenticate(creds) {
      seen.push(creds);
      return creds.clientCert
        ? { kind: 'authenticated', user: { name: creds.clientCert.subjectCN, groups: [...creds.clientCert.subjectO] }, method: 'x509' }
        : { kind: 'no-credentials' };
    },
  };
  const api = createApiServer({ backend: new LocalBackend(), clock, authenticators: [recorder] });
  const https = await listen(api.handler, { tls: { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem } });
  return { api, https, ca, client, seen };
}
