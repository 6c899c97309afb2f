/**
 * A small HTTP(S) load generator: a fixed list of requests run by `concurrency` workers over
 * keep-alive connections (one per worker), each request timed. The same generator drives the
 * reference server and the bare node:http peer, so its own cost is in both figures alike.
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';

export interface Op {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The status that counts as success. */
  expect: number;
}

export interface LoadResult {
  ops: number;
  elapsed_ms: number;
  ops_per_s: number;
  latencies_ms: number[];
  failures: number;
  /** The first failure's status and body, to say what went wrong. */
  firstFailure?: string;
}

export interface TlsClient {
  ca: string;
  cert: string;
  key: string;
}

/** HTTPS with the client certificate, or plain HTTP when there is no TLS to speak. */
export function keepAliveAgent(tls: TlsClient | undefined, sockets: number): http.Agent {
  if (!tls) return new http.Agent({ keepAlive: true, maxSockets: sockets });
  return new https.Agent({ keepAlive: true, maxSockets: sockets, ca: tls.ca, cert: tls.cert, key: tls.key });
}

export function requestFor(url: URL): typeof http.request {
  return url.protocol === 'https:' ? https.request : http.request;
}

export async function runLoad(server: string, agent: http.Agent, ops: Op[], concurrency: number): Promise<LoadResult> {
  const url = new URL(server);
  const latencies_ms: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let next = 0;
  const worker = async () => {
    while (next < ops.length) {
      const op = ops[next++]!;
      const start = performance.now();
      const { status, body } = await send(url, agent, op);
      latencies_ms.push(performance.now() - start);
      if (status !== op.expect) {
        failures++;
        firstFailure ??= `${op.method} ${op.path}: ${status} ${body.slice(0, 300)}`;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed_ms = performance.now() - start;
  return { ops: ops.length, elapsed_ms, ops_per_s: (ops.length / elapsed_ms) * 1000, latencies_ms, failures, ...(firstFailure ? { firstFailure } : {}) };
}

export function send(url: URL, agent: http.Agent, op: Pick<Op, 'method' | 'path' | 'body'>): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (op.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(op.body));
    }
    const req = requestFor(url)({ host: url.hostname, port: url.port, method: op.method, path: op.path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(op.body);
  });
}
