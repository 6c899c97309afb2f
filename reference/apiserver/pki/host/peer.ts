/**
 * The verified client certificate of a TLS connection, in the shape the authenticators take
 * (pipeline.ts Credentials.clientCert). Only a certificate the server's CA verified counts
 * (socket.authorized), as upstream's x509 authenticator verifies the chain before reading the
 * subject. Node gives a repeated subject attribute (several O values) as an array.
 */
import type { TLSSocket } from 'node:tls';
import type { Credentials } from '../../pipeline.ts';

export function verifiedClientCert(socket: TLSSocket): Credentials['clientCert'] | undefined {
  if (!socket.authorized) return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.subject) return undefined;
  const cn = cert.subject.CN as string | string[] | undefined;
  const o = cert.subject.O as string | string[] | undefined;
  return {
    subjectCN: Array.isArray(cn) ? (cn[0] ?? '') : (cn ?? ''),
    subjectO: o === undefined ? [] : Array.isArray(o) ? o : [o],
  };
}
