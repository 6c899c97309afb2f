/**
 * The WebhookCaller over real HTTP(S): POST the AdmissionReview (or ConversionReview) as JSON
 * through host/http-exchange.ts, which trusts the webhook's caBundle and gives up after
 * timeout_ms with Go's "context deadline exceeded", as upstream reports a webhook timeout.
 */
import { exchange } from '../../host/http-exchange.ts';
import type { WebhookCall, WebhookCaller, WebhookHttpResponse } from '../webhook/types.ts';

/** A response larger than this is refused: an AdmissionReview is small, and this bounds memory. */
export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export function httpWebhookCaller(): WebhookCaller {
  return (call) => post(call);
}

function post(call: WebhookCall): Promise<WebhookHttpResponse> {
  return exchange({ method: 'POST', url: call.url, body: call.body, timeout_ms: call.timeout_ms, maxBytes: MAX_RESPONSE_BYTES, ...(call.caBundlePem ? { caBundlePem: call.caBundlePem } : {}) });
}
