/**
 * One HTTP(S) request from the API server to a server of someone else's (an admission or
 * conversion webhook, an OIDC issuer): trust the given CA bundle instead of the system roots
 * when there is one, refuse a response body over `maxBytes`, and give up after `timeout_ms`
 * with Go's "context deadline exceeded", which is what upstream reports for such a timeout.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpExchange {
  method: 'GET' | 'POST';
  url: string;
  /** Sent as JSON. */
  body?: string;
  caBundlePem?: string;
  timeout_ms: number;
  maxBytes: number;
}

export function exchange(x: HttpExchange): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(x.url);
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!send) return reject(new Error(`unsupported protocol scheme "${url.protocol.replace(':', '')}"`));
    const body = x.body === undefined ? undefined : Buffer.from(x.body);
    const headers = body ? { 'content-type': 'application/json', accept: 'application/json', 'content-length': body.length } : { accept: 'application/json' };
    const req = send(url, { method: x.method, headers, ...(x.caBundlePem ? { ca: x.caBundlePem } : {}) });
    const timer = setTimeout(() => req.destroy(new Error('context deadline exceeded')), x.timeout_ms);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > x.maxBytes) return req.destroy(new Error(`response body larger than ${x.maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}
