/**
 * createApiServer: the reference kube-apiserver as a node http request handler. The core
 * (core.ts) decides every answer; this file reads bodies (bounded), writes replies and watch
 * streams, and assembles the server's environment from its options.
 */
import { kubernetesTypeDocs } from './discovery/host/kubernetes-types.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';
import { ApiServerMetrics } from './metrics/metrics.ts';
import { DEFAULT_MAX_MUTATING_IN_FLIGHT, DEFAULT_MAX_READ_ONLY_IN_FLIGHT, MaxInFlight } from './inflight/max-in-flight.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Backend } from '../store/backend.ts';
import { bootstrapCluster } from './bootstrap.ts';
import { handleRequest } from './core.ts';
import { DEFAULT_GIT_VERSION } from './discovery/version.ts';
import type { Authenticator, Authorizer, MutatingPlugin, RequestTrace, ValidatingPlugin } from './pipeline.ts';
import type { RuleResolver } from './authz/rbac.ts';
import { WatchCacheWindows } from './watch/cache-window.ts';
import { ObjectStore } from './storage/object-store.ts';
import { CHAIN_VERIFIED_OUT_OF_DATE } from './authn/x509.ts';
import type { Answer, ApiRequest, Clock, Env, NodeConnection, Timers } from './types.ts';
import type { WebhookCaller } from './admission/webhook/types.ts';

/** Upstream's default request body limit (--max-request-body-bytes = 3 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface ApiServerOptions {
  backend: Backend;
  clock: Clock;
  /** Tried in order; none configured = every request is system:admin in system:masters. */
  authenticators?: Authenticator[];
  /** None configured = every request is allowed. */
  authorizer?: Authorizer;
  /** With an RBAC authorizer: what RBAC's escalation checks read (authz/rbac.ts ruleResolver). */
  ruleResolver?: RuleResolver;
  /** Serves the TokenRequest API (serviceaccounts/token) with these tokens. */
  serviceAccountTokens?: Env['serviceAccountTokens'];
  mutating?: MutatingPlugin[];
  /** The transport to CRD conversion webhooks (admission/host/webhookclient.ts); none: a Webhook conversion fails. */
  conversionWebhook?: WebhookCaller;
  validating?: ValidatingPlugin[];
  /** With authenticators configured: requests no authenticator recognises are system:anonymous (else 401). */
  anonymous?: boolean;
  maxBodyBytes?: number;
  /** metadata.uid for new objects; default: UUIDs from `random`. */
  uid?: () => string;
  /** Randomness for generateName suffixes (and default uids); default: a fixed-seed generator. */
  random?: () => number;
  /** Watch timeouts and bookmarks need timers; without them watches end only when the client leaves. */
  timers?: Timers;
  /** The kubelets, for pods/log. */
  nodes?: NodeConnection;
  bookmarkInterval_ms?: number;
  /** What /version reports; kubectl's dispatcher picks its bundled version from it. */
  gitVersion?: string;
  /** Create default, kube-system, kube-public, kube-node-lease and the `kubernetes` service (default true). */
  bootstrap?: boolean;
  /** Called with any non-Status error (a 500): a bug to report. */
  onInternalError?: (e: unknown) => void;
  /** --max-mutating-requests-inflight / --max-requests-inflight (default 200 / 400). */
  maxMutatingInFlight?: number;
  maxReadOnlyInFlight?: number;
  /** Fault models to inject (reference/faults.ts, `kubespec selftest`); default none. */
  faults?: Faults;
}

export interface ApiServer {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * The core without HTTP, for in-process callers and tests. The objects an answer carries may
   * be the store's shared ones, deep-frozen (storage/codec.ts sharedObject), as an informer's
   * cache hands out objects to read, not to change: copy one before changing it.
   */
  handle(req: ApiRequest): Promise<{ status: number; /** Headers besides the answer's own (Warning). */ headers: Record<string, string>; answer: Answer }>;
  /** The last requests' pipeline traces, oldest first (a bounded ring). */
  readonly traces: readonly RequestTrace[];
  /** Resolves once the bootstrap objects exist. */
  readonly ready: Promise<void>;
}

/** mulberry32: a small deterministic generator, so the core never needs Math.random. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX_DIGITS = '0123456789abcdef';

/** Version 4 UUIDs from `random`: 32 draws, one hex digit each (the 13th and 17th then fixed by RFC 4122). */
export function uuidFrom(random: () => number): () => string {
  return () => {
    let s = '';
    for (let i = 0; i < 32; i++) {
      const digit = Math.floor(random() * 16);
      if (i === 8 || i === 12 || i === 16 || i === 20) s += '-';
      s += i === 12 ? '4' : i === 16 ? HEX_DIGITS[(digit & 0x3) | 0x8] : HEX_DIGITS[digit];
    }
    return s;
  };
}

function mutex(): Env['allocationLock'] {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const result = tail.then(fn, fn);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

function buildEnv(opts: ApiServerOptions): Env {
  const random = opts.random ?? seededRandom(0x5eed);
  const env: Env = {
    backend: opts.backend,
    store: new ObjectStore(opts.backend),
    clock: opts.clock,
    uid: opts.uid ?? uuidFrom(random),
    random,
    authenticators: opts.authenticators ?? [],
    // Fault anonymous-always-on (reference/faults.ts): --anonymous-auth=false is ignored.
    anonymous: (opts.anonymous ?? false) || (opts.faults?.has('anonymous-always-on') ?? false),
    mutating: opts.mutating ?? [],
    validating: opts.validating ?? [],
    bookmarkInterval_ms: opts.bookmarkInterval_ms ?? 60_000,
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    gitVersion: opts.gitVersion ?? DEFAULT_GIT_VERSION,
    typeDocs: kubernetesTypeDocs,
    allocationLock: mutex(),
    traces: [],
    metrics: new ApiServerMetrics(),
    faults: opts.faults ?? NO_FAULTS,
    maxInFlight: new MaxInFlight({
      // Fault inflight-limit-ignored: no request is ever turned away with 429.
      mutating: opts.faults?.has('inflight-limit-ignored') ? Number.MAX_SAFE_INTEGER : (opts.maxMutatingInFlight ?? DEFAULT_MAX_MUTATING_IN_FLIGHT),
      readOnly: opts.faults?.has('inflight-limit-ignored') ? Number.MAX_SAFE_INTEGER : (opts.maxReadOnlyInFlight ?? DEFAULT_MAX_READ_ONLY_IN_FLIGHT),
    }),
  };
  env.store.timing = { now_ms: () => env.clock.now_ms(), record: (op, type, s) => env.metrics.storeCall(op, type, s) };
  if (opts.authorizer) env.authorizer = opts.authorizer;
  if (opts.ruleResolver) env.ruleResolver = opts.ruleResolver;
  if (opts.serviceAccountTokens) env.serviceAccountTokens = opts.serviceAccountTokens;
  if (opts.timers) env.timers = opts.timers;
  if (opts.nodes) env.nodes = opts.nodes;
  // Every write feeds its resource's watch cache window, at the server's (injected) time.
  const windows = (env.watchCache = new WatchCacheWindows());
  env.store.onWrite = (resource, revision) => windows.record(resource, revision, env.clock.now_ms());
  if (opts.conversionWebhook) env.store.conversion = { call: opts.conversionWebhook, newUid: env.uid };
  return env;
}

type ClientCert = NonNullable<ApiRequest['clientCert']>;

/** What a TLS connection proved about its client: a verified certificate, or why the one it presented failed. */
interface Peer {
  cert?: ClientCert;
  error?: string;
}

const NO_PEER: Peer = Object.freeze({});

/**
 * The client certificate of each TLS connection, read once: a connection's peer certificate
 * cannot change after the handshake, and getPeerCertificate() builds a fresh object from the
 * native certificate on every call (about a tenth of a create's cost).
 */
const peerOfSocket = new WeakMap<object, Peer>();

function peerOf(req: IncomingMessage): Peer {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.encrypted || typeof socket.getPeerCertificate !== 'function') return NO_PEER;
  let peer = peerOfSocket.get(socket);
  if (peer === undefined) {
    peer = readPeer(socket as TLSSocket);
    peerOfSocket.set(socket, peer);
  }
  return peer;
}

/**
 * The listener asks for a certificate without requiring a valid one (so token users share the
 * port); node leaves the verdict in socket.authorized / authorizationError. A certificate that
 * was presented but did not verify is kept as an error: authentication must answer 401, not
 * treat the request as carrying no credentials.
 */
function readPeer(socket: TLSSocket): Peer {
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return NO_PEER;
  const outOfDate = (socket as unknown as Record<symbol, unknown>)[CHAIN_VERIFIED_OUT_OF_DATE] === true;
  if (!socket.authorized && !outOfDate) {
    const why = socket.authorizationError as unknown;
    return Object.freeze({ error: String(why instanceof Error ? why.message : (why ?? 'certificate did not verify')) });
  }
  if (!cert.subject) return NO_PEER;
  // Node gives a repeated subject attribute (several O values) as an array.
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined>;
  const cn = subject.CN;
  const o = subject.O;
  const subjectO = Object.freeze(o === undefined ? [] : Array.isArray(o) ? [...o] : [o]) as string[];
  // Shared by every request on the connection: frozen, so no stage can change it for the next.
  const dates = { notBefore_ms: Date.parse(cert.valid_from), notAfter_ms: Date.parse(cert.valid_to) };
  return Object.freeze({ cert: Object.freeze({ subjectCN: Array.isArray(cn) ? (cn[0] ?? '') : (cn ?? ''), subjectO, ...dates }) });
}

const CRLF = Buffer.from('\r\n', 'latin1');
let lastLine: string | undefined;
let lastChunk: Buffer = CRLF;

/**
 * A line as one HTTP/1.1 chunk (RFC 9112 § 7.1: size in hex, CRLF, data, CRLF), framed once and
 * shared: the watchers of an event all send the same line, one after another.
 */
function chunkOf(line: string): Buffer {
  if (line !== lastLine) {
    const data = Buffer.from(line, 'utf8');
    lastChunk = Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`, 'latin1'), data, CRLF]);
    lastLine = line;
  }
  return lastChunk;
}

/**
 * How a watch stream's events reach the client: ready-made HTTP/1.1 chunks written to the
 * connection, gathered per tick — every event a watcher gets in one turn of the event loop (a
 * transaction's several events, a burst of writes) goes out as one socket write, one TLS record,
 * rather than one each. Through res.write every line would be framed again per watcher and held
 * back until the next tick (node corks a response's socket per write). The gathered chunks are
 * written in a microtask, so a store write's fan-out reaches every socket before the writer's
 * own reply goes out. The response still ends through res.end() (the last, empty chunk), after
 * whatever is still gathered.
 */
function streamSink(res: ServerResponse, req: IncomingMessage): { write: (line: string | Uint8Array) => void; end: () => void } {
  const socket = res.socket;
  // Only where node itself frames the body in chunks (not for HEAD, nor an HTTP/1.0 client).
  const chunked = (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
  if (!socket || !chunked || req.method === 'HEAD') return { write: (line) => void res.write(line), end: () => res.end() };
  const sink = new GatheringSink(socket);
  return {
    write: (line) => sink.add(typeof line === 'string' ? chunkOf(line) : binaryChunk(line)),
    end: () => {
      sink.flush();
      res.end();
    },
  };
}

/**
 * One watch connection's chunks of the current turn. The sinks with something gathered are
 * flushed together by one microtask: a write fanned out to a hundred watchers queued a
 * microtask each before (node's queueMicrotask also makes an async resource and a bound function
 * per call), the largest share of the garbage a write made, and the young-generation collections
 * it caused are what delays a watcher's event most.
 */
class GatheringSink {
  private first: Buffer | undefined;
  private more: Buffer[] | undefined;

  constructor(private readonly socket: Socket) {}

  add(chunk: Buffer): void {
    if (this.first === undefined) {
      this.first = chunk;
      if (toFlush.length === 0) queueMicrotask(flushSinks);
      toFlush.push(this);
    } else (this.more ??= []).push(chunk);
  }

  flush(): void {
    const first = this.first;
    if (first === undefined) return;
    const data = this.more ? Buffer.concat([first, ...this.more]) : first;
    this.first = this.more = undefined;
    const socket = this.socket;
    if (!socket.destroyed && socket.writable) socket.write(data);
  }
}

let toFlush: GatheringSink[] = [];

function flushSinks(): void {
  const sinks = toFlush;
  toFlush = [];
  // One connection's failure must not strand what the others gathered; it still surfaces.
  let failure: { error: unknown } | undefined;
  for (const sink of sinks) {
    try {
      sink.flush();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** A protobuf frame as one chunk (not shared: each watcher's frames are few and made for it). */
function binaryChunk(data: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`, 'latin1'), data, CRLF]);
}

/**
 * A reply body on the wire: text as it is, bytes (a protobuf envelope) as they are, an object as
 * JSON with a trailing newline, as upstream's JSON serializer writes it (json.Encoder.Encode in
 * k8s.io/apimachinery/pkg/runtime/serializer/json/json.go).
 */
export function bodyBytes(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return JSON.stringify(body) + '\n';
}

function writeAnswer(res: ServerResponse, req: IncomingMessage, answer: Answer, extra: Record<string, string>): void {
  if (answer.kind === 'stream') {
    // HTTP/2 has no chunked transfer coding (RFC 9113 § 8.2.2 forbids the header): the events are
    // DATA frames of one stream, written through the response.
    const h2 = req.httpVersionMajor === 2;
    res.writeHead(200, h2 ? { ...answer.headers, ...extra } : { ...answer.headers, ...extra, 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    // The initial events (a list, or a replay of history) are gathered like any others: one write.
    const stop = answer.start(streamSink(res, req));
    res.on('close', stop);
    return;
  }
  const text = bodyBytes(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers, ...extra, 'content-length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * Replies finished during one turn of the event loop, written one after another at its end
 * (setImmediate runs after the poll phase has handed over every request that arrived). Written
 * as each finished, a reply to a client that is waiting for it makes the kernel wake the client
 * then and there (on loopback the writer's send runs the receiver's side too), so the replies of
 * a busy turn each pay a wake-up — measured as the largest single cost of a create under load,
 * more than the core's work. Written together, the first write wakes the client and the rest
 * find it awake, and it reads them in one go. A turn's writes keep their order; a reply never
 * goes out before the watch events of its own write, which are flushed in a microtask.
 */
let turnReplies: (() => void)[] = [];

function afterTurn(write: () => void): void {
  if (turnReplies.length === 0) setImmediate(writeTurnReplies);
  turnReplies.push(write);
}

function writeTurnReplies(): void {
  const writes = turnReplies;
  turnReplies = [];
  for (const write of writes) write();
}

/** A request the core failed on (a bug, reported): 500, or the end of whatever was written. */
function failReply(opts: ApiServerOptions, res: ServerResponse, e: unknown): void {
  opts.onInternalError?.(e);
  if (!res.headersSent) res.writeHead(500);
  res.end();
}

export function createApiServer(opts: ApiServerOptions): ApiServer {
  const env = buildEnv(opts);
  const ready = opts.bootstrap === false ? Promise.resolve() : bootstrapCluster(env);
  let started = false;
  void ready.then(
    () => (started = true),
    () => (started = true),
  );
  const handle = async (req: ApiRequest) => {
    if (!started) await ready.catch(() => undefined);
    const { answer, headers } = await handleRequest(env, req, opts.onInternalError);
    return { status: answer.status, headers, answer };
  };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      // Keep one byte past the limit so the core can tell "too large" without holding the rest.
      if (size <= env.maxBodyBytes) chunks.push(c.subarray(0, env.maxBodyBytes + 1 - size));
      size += c.length;
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const apiReq: ApiRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
      const peer = peerOf(req);
      if (peer.cert) apiReq.clientCert = peer.cert;
      if (peer.error) apiReq.clientCertError = peer.error;
      // Callbacks here are anonymous arrows and the failure path a module function: tsx compiles
      // with esbuild's keepNames, which names every closure bound to a name (`const fail = …`)
      // through Object.defineProperty when it is made — per request, measurable on a create.
      handle(apiReq).then(({ answer, headers }) => {
        // A watch starts streaming at once; a reply waits for the end of the loop's turn.
        if (answer.kind === 'stream') return writeAnswer(res, req, answer, headers);
        afterTurn(() => {
          try {
            writeAnswer(res, req, answer, headers);
          } catch (e) {
            failReply(opts, res, e);
          }
        });
      }).catch((e: unknown) => failReply(opts, res, e));
    });
  };
  return { handler, handle, traces: env.traces, ready };
}
