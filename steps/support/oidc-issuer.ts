/**
 * A test OpenID Connect issuer, hosted on the worker's webhook server (webhook-server.ts) as the
 * admission webhooks and the TokenReview service are: its discovery document at
 * `{issuer}/.well-known/openid-configuration` names its key set (`jwks_uri`), and it signs ID
 * tokens with RS256 (OpenID Connect Discovery 1.0 §4; Core 1.0 §2 for the ID token claims).
 *
 * A second key, never published, signs the tokens a forger would present.
 */
import { generateKeyPair, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { webhookServer } from './webhook-server.ts';

interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface TestIssuer {
  readonly url: string;
  /** base64 PEM of the CA that signs the issuer's serving certificate. */
  readonly caBundle: string;
  /** An RS256 ID token with these claims, signed by the issuer's key or by the unpublished one. */
  sign(claims: Record<string, unknown>, by?: 'issuer' | 'forger'): string;
  close(): void;
}

let keys: Promise<{ issuer: KeyPair; forger: KeyPair }> | undefined;

/**
 * RSA keys are slow to make: one pair each per worker, made off the event loop (a synchronous
 * generation stalls every connection of the worker's clusters for a second under load).
 */
function workerKeys(): Promise<{ issuer: KeyPair; forger: KeyPair }> {
  const rsa = () => promisify(generateKeyPair)('rsa', { modulusLength: 2048 }) as Promise<KeyPair>;
  keys ??= Promise.all([rsa(), rsa()]).then(([issuer, forger]) => ({ issuer, forger }));
  return keys;
}

export async function startIssuer(id: string): Promise<TestIssuer> {
  const server = await webhookServer();
  const { issuer, forger } = await workerKeys();
  const base = `/issuers/${id.replace(/[^a-z0-9-]/gi, "-")}`;
  const url = `${server.baseUrl}${base}`;
  const jwksUri = server.publish(`${base}/keys`, { keys: [{ ...issuer.publicKey.export({ format: 'jwk' }), kid: 'issuer-key', use: 'sig', alg: 'RS256' }] });
  server.publish(`${base}/.well-known/openid-configuration`, { issuer: url, jwks_uri: jwksUri, id_token_signing_alg_values_supported: ['RS256'], response_types_supported: ['id_token'], subject_types_supported: ['public'] });
  return {
    url,
    caBundle: server.caBundle,
    sign(claims, by = 'issuer') {
      // The forger claims the issuer's kid: only the signature can give it away.
      const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'issuer-key' })}.${b64(claims)}`;
      const key = by === 'issuer' ? issuer.privateKey : forger.privateKey;
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    },
    close() {
      server.withdraw(`${base}/keys`);
      server.withdraw(`${base}/.well-known/openid-configuration`);
    },
  };
}
