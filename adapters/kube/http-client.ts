/**
 * A small Kubernetes REST client over node:http(s), shared by every target that exposes the
 * API (the reference over loopback, any cluster by kubeconfig). Deliberately thin: steps
 * assert on raw status codes and Status bodies, which a typed client would hide.
 */
import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
import { LineReader, parseJson, readAll } from '../../reference/wiring/http-body.ts';
import { keepAliveAgent } from '../../reference/wiring/keep-alive.ts';
import type { Identity, KubeRawStream, KubeRequest, KubeResponse, KubeWatch, KubeWatchEvent } from '../../contract/contract.ts';

export interface Endpoint {
  server: string;
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  token?: string;
  insecureSkipTlsVerify?: boolean;
}

export class KubeHttpClient {
  private readonly url: URL;
  private readonly agent: http.Agent;

  constructor(private readonly endpoint: Endpoint) {
    this.url = new URL(endpoint.server);
    this.agent = this.isTls()
      ? keepAliveAgent(true, { ca: endpoint.ca, cert: endpoint.cert, key: endpoint.key, rejectUnauthorized: !endpoint.insecureSkipTlsVerify })
      : keepAliveAgent(false);
  }

  async request(req: KubeRequest): Promise<KubeResponse> {
    const { body, contentType } = encodeBody(req.body);
    // Node sends a DELETE body without Content-Length or chunking unless told its length, and the
    // server then reads those bytes as the next request: always say how long the body is.
    const length: Record<string, string> = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const headers = { ...this.baseHeaders(req.as), ...(contentType ? { 'content-type': contentType } : {}), ...length, ...req.headers };
    const res = await this.send(req.method, req.path, headers, body);
    const text = await readAll(res);
    return { status: res.statusCode ?? 0, headers: flatHeaders(res.headers), text, json: parseJson(text) };
  }

  async watch(path: string, opts: { as?: Identity; accept?: string } = {}): Promise<KubeWatch> {
    const res = await this.send('GET', path, { ...this.baseHeaders(opts.as), ...(opts.accept ? { accept: opts.accept } : {}) });
    return new StreamingWatch(res);
  }

  /** A GET read raw as it streams: what the wire carries, headers and chunks, before any parsing. */
  async stream(path: string, opts: { as?: Identity; http2?: boolean; accept?: string } = {}): Promise<KubeRawStream> {
    const headers = { ...this.baseHeaders(opts.as), ...(opts.accept ? { accept: opts.accept } : {}) };
    if (opts.http2) return this.streamHttp2(path, headers);
    return new RawStream(await this.send('GET', path, headers));
  }

  /** The same GET on its own HTTP/2 connection (ALPN h2 over TLS); the stream owns the session. */
  private streamHttp2(path: string, headers: Record<string, string | string[]>): Promise<KubeRawStream> {
    if (!this.isTls()) return Promise.reject(new Error(`HTTP/2 needs TLS here (h2 by ALPN), and ${this.url.origin} is plain HTTP`));
    const e = this.endpoint;
    const session = http2.connect(this.url.origin, { ca: e.ca, cert: e.cert, key: e.key, rejectUnauthorized: !e.insecureSkipTlsVerify });
    return new Promise((resolve, reject) => {
      session.once('error', reject);
      const req = session.request({ ':method': 'GET', ':path': path, ...headers });
      req.once('error', reject);
      req.once('response', (h) => resolve(new Http2RawStream(session, req, h)));
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private isTls(): boolean {
    return this.url.protocol === 'https:';
  }

  private baseHeaders(as?: Identity): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { accept: 'application/json' };
    if (this.endpoint.token) headers.authorization = `Bearer ${this.endpoint.token}`;
    if (as) {
      // Impersonation: https://kubernetes.io/docs/reference/access-authn-authz/authentication/#user-impersonation
      headers['impersonate-user'] = as.user;
      if (as.groups?.length) headers['impersonate-group'] = as.groups;
    }
    return headers;
  }

  private send(method: string, path: string, headers: Record<string, string | string[]>, body?: string): Promise<http.IncomingMessage> {
    const target = new URL(path, this.url);
    const lib = this.isTls() ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(target, { method, headers, agent: this.agent }, resolve);
      req.on('error', reject);
      req.end(body);
    });
  }
}

class StreamingWatch implements KubeWatch {
  readonly status: number;
  readonly events: KubeWatchEvent[] = [];
  error?: any;
  ended = false;
  private readonly lines = new LineReader((line: string) => this.events.push(JSON.parse(line) as KubeWatchEvent));

  constructor(private readonly res: http.IncomingMessage) {
    this.status = res.statusCode ?? 0;
    res.setEncoding('utf8');
    if (this.status !== 200) {
      void readAll(res).then((text) => {
        this.error = parseJson(text) ?? text;
        this.ended = true;
      });
      return;
    }
    res.on('data', (chunk: string) => this.lines.take(chunk));
    res.on('end', () => (this.ended = true));
    res.on('error', () => (this.ended = true));
  }

  async close(): Promise<void> {
    this.res.destroy();
    this.ended = true;
  }
}

class RawStream implements KubeRawStream {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly httpVersion: string;
  body = '';
  ended = false;

  constructor(private readonly res: http.IncomingMessage) {
    this.status = res.statusCode ?? 0;
    this.headers = flatHeaders(res.headers);
    this.httpVersion = res.httpVersion;
    // A binary body (a protobuf watch) is kept byte for byte: one latin1 character per byte.
    res.setEncoding(/protobuf/.test(this.headers['content-type'] ?? '') ? 'latin1' : 'utf8');
    res.on('data', (chunk: string) => (this.body += chunk));
    res.on('end', () => (this.ended = true));
    res.on('error', () => (this.ended = true));
  }

  async close(): Promise<void> {
    this.res.destroy();
  }
}

/** A raw response read from one HTTP/2 stream; closing it closes its session. */
class Http2RawStream implements KubeRawStream {
  readonly status: number;
  readonly headers: Record<string, string> = {};
  readonly httpVersion = '2.0';
  body = '';
  ended = false;

  constructor(private readonly session: http2.ClientHttp2Session, stream: http2.ClientHttp2Stream, headers: http2.IncomingHttpHeaders) {
    this.status = Number(headers[':status'] ?? 0);
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith(':') && value !== undefined) this.headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (this.body += chunk));
    stream.on('end', () => (this.ended = true));
    stream.on('error', () => (this.ended = true));
  }

  async close(): Promise<void> {
    this.session.destroy();
  }
}

function encodeBody(body: unknown): { body?: string; contentType?: string } {
  if (body === undefined) return {};
  if (typeof body === 'string') return { body, contentType: 'application/json' };
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
