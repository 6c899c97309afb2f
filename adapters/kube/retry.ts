/**
 * How a client survives a real API server: back off on 429 and 5xx (honouring Retry-After),
 * retry a read-modify-write on 409 Conflict (client-go's retry.RetryOnConflict), and re-list on
 * 410 (see reflector.ts). Time is injected so the tests run without sleeping.
 */
import type { KubeRequest, KubeResponse } from '../../contract/contract.ts';

export interface RetryPolicy {
  attempts: number;
  initialBackoff_ms: number;
  maxBackoff_ms: number;
  sleep(ms: number): Promise<void>;
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const DEFAULT_POLICY: RetryPolicy = { attempts: 5, initialBackoff_ms: 100, maxBackoff_ms: 5_000, sleep: realSleep };

/** 429 Too Many Requests and 5xx (but not 501 Not Implemented) are worth retrying. */
export function isRetryable(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

export async function withBackoff(
  send: (req: KubeRequest) => Promise<KubeResponse>,
  req: KubeRequest,
  policy: RetryPolicy = DEFAULT_POLICY,
): Promise<KubeResponse> {
  let backoff_ms = policy.initialBackoff_ms;
  for (let attempt = 1; ; attempt++) {
    const res = await send(req);
    if (!isRetryable(res.status) || attempt >= policy.attempts) return res;
    await policy.sleep(retryAfter_ms(res) ?? backoff_ms);
    backoff_ms = Math.min(backoff_ms * 2, policy.maxBackoff_ms);
  }
}

function retryAfter_ms(res: KubeResponse): number | undefined {
  const header = res.headers['retry-after'];
  const seconds = header === undefined ? Number.NaN : Number(header);
  // Status.details.retryAfterSeconds carries the same advice in the body.
  const fromBody = res.json?.details?.retryAfterSeconds;
  if (Number.isFinite(seconds)) return seconds * 1000;
  return typeof fromBody === 'number' ? fromBody * 1000 : undefined;
}

/**
 * Read-modify-write with optimistic concurrency: `attempt` reads the object, changes it and
 * writes it with the resourceVersion it read; on 409 Conflict it runs again on fresh state.
 */
export async function retryOnConflict(attempt: () => Promise<KubeResponse>, attempts = 5): Promise<KubeResponse> {
  for (let i = 1; ; i++) {
    const res = await attempt();
    if (res.status !== 409 || res.json?.reason !== 'Conflict' || i >= attempts) return res;
  }
}
