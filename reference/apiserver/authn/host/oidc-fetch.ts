/**
 * The OIDC authenticator's GET over real HTTP(S): the issuer's discovery document and key set,
 * trusting --oidc-ca-file's CA (instead of the system roots) when one is given. Upstream's
 * client gives up after 30 s (staging/src/k8s.io/apiserver/plugin/pkg/authenticator/token/oidc/oidc.go, New).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { OidcFetch } from '../oidc.ts';

const TIMEOUT_MS = 30_000;
/** A discovery document or a key set is small; this bounds memory. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export function httpOidcFetch(): OidcFetch {
  return (url, caBundlePem) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
      if (!send) return reject(new Error(`unsupported protocol scheme "${target.protocol.replace(':', '')}"`));
      const req = send(target, { method: 'GET', headers: { accept: 'application/json' }, ...(caBundlePem ? { ca: caBundlePem } : {}) });
      const timer = setTimeout(() => req.destroy(new Error('context deadline exceeded')), TIMEOUT_MS);
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) return req.destroy(new Error(`response body larger than ${MAX_RESPONSE_BYTES} bytes`));
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end();
    });
}
