/**
 * The WebhookCaller over real HTTP(S): POST the AdmissionReview as JSON, trust the webhook's
 * caBundle (instead of the system roots) when one is given, and give up after timeout_ms with
 * Go's "context deadline exceeded", which is what upstream reports for a webhook timeout.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { WebhookCall, WebhookCaller, WebhookHttpResponse } from '../webhook/types.ts';

/** A response larger than this is refused: an AdmissionReview is small, and this bounds memory. */
export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export function httpWebhookCaller(): WebhookCaller {
  return (call) => post(call);
}

function post(call: WebhookCall): Promise<WebhookHttpResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(call.url);
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!send) return reject(new Error(`unsupported protocol scheme "${url.protocol.replace(':', '')}"`));
    const body = Buffer.from(call.body);
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': body.length },
      ...(call.caBundlePem ? { ca: call.caBundlePem } : {}),
    });
    const timer = setTimeout(() => req.destroy(new Error('context deadline exceeded')), call.timeout_ms);
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
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}
