/**
 * Key material for ServiceAccount tokens, generated once at start-up. This is the only
 * randomness the token path needs, so it lives here in host/ and the core receives the key.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { SigningKey } from '../jwt.ts';

/** An RS256 key pair (what kube-apiserver's `--service-account-signing-key-file` usually holds). */
export function generateRs256Key(modulusLength = 2048): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  return { alg: 'RS256', privateKey, publicKey };
}

/** An HS256 secret: cheaper, for tests that mint many tokens. */
export function generateHs256Key(): SigningKey {
  return { alg: 'HS256', secret: randomBytes(32) };
}
