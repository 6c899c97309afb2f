import type { ApiServerMetrics } from './metrics/metrics.ts';
import type { MaxInFlight } from './inflight/max-in-flight.ts';
/**
 * The server core's own request/response shapes. The core never touches a socket: the HTTP
 * adapter (server.ts) turns node's IncomingMessage into an ApiRequest and writes the reply.
 */
import type { Backend } from '../store/backend.ts';
import type { Authenticator, Authorizer, MutatingPlugin, RequestTrace, UserInfo, ValidatingPlugin } from './pipeline.ts';
import type { RequestInfo } from './request-info.ts';
import type { RuleResolver } from './authz/rbac.ts';
import type { MintedToken, MintRequest } from './authn/serviceaccount.ts';
import type { ResourceDef } from './resources/registry.ts';
import type { ObjectStore } from './storage/object-store.ts';
import type { TraceRecorder } from './trace.ts';
import type { Faults } from '../faults.ts';

export interface ApiRequest {
  method: string;
  /** Path and query, e.g. /api/v1/namespaces/default/pods?limit=5 */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
  /** The verified TLS client certificate, when the connection presented one. */
  clientCert?: { subjectCN: string; subjectO: string[] };
  /** Set when the connection presented a client certificate that did not verify: an authentication error, never anonymous. */
  clientCertError?: string;
}

export interface Reply {
  kind: 'reply';
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Where a watch writes its events; the HTTP layer turns each into one chunk. */
export interface WatchSink {
  /** One event: a JSON line, or a length-prefixed protobuf frame. */
  write(line: string | Uint8Array): void;
  /**
   * One event of a JSON stream, as the object its line would be the text of — for a client in
   * this process (wiring/in-process.ts), which would only parse the line back. The object may be
   * shared with other watchers and frozen: read it or copy it. Without it, every event is a line.
   */
  writeEvent?(ev: { type: string; object: unknown }): void;
  end(): void;
}

export interface StreamReply {
  kind: 'stream';
  status: 200;
  headers: Record<string, string>;
  /** Starts the stream; returns the function that stops it (client went away). */
  start(sink: WatchSink): () => void;
}

export type Answer = Reply | StreamReply;

/** Timers for watch timeouts and bookmarks; the host supplies real ones, a simulation virtual ones. */
export interface Timers {
  after(ms: number, fn: () => void): () => void;
}

export interface Clock {
  now_ms(): number;
}

/** Everything the handlers share for the server's lifetime. */
export interface Env {
  backend: Backend;
  store: ObjectStore;
  clock: Clock;
  uid: () => string;
  random: () => number;
  authorizer?: Authorizer;
  /** The rules a user holds, for RBAC's escalation checks on role and binding writes (with `authorizer`). */
  ruleResolver?: RuleResolver;
  /** Mints ServiceAccount tokens for the TokenRequest API (serviceaccounts/token); without it that path is 404. */
  serviceAccountTokens?: { mint(req: MintRequest): MintedToken };
  authenticators: Authenticator[];
  anonymous: boolean;
  mutating: MutatingPlugin[];
  validating: ValidatingPlugin[];
  timers?: Timers;
  bookmarkInterval_ms: number;
  maxBodyBytes: number;
  gitVersion: string;
  /** Upstream's type and field documentation for the OpenAPI documents (read on first use). */
  typeDocs: () => import('./discovery/describe.ts').TypeDocs;
  /** Serialises allocations (service cluster IPs and node ports) so two creates never pick the same one. */
  allocationLock: { run<T>(fn: () => Promise<T>): Promise<T> };
  traces: RequestTrace[];
  /** Seats for requests in flight (inflight/max-in-flight.ts). */
  maxInFlight: MaxInFlight;
  /** What GET /metrics serves (metrics/metrics.ts). */
  metrics: ApiServerMetrics;
  /** Fault models this server injects (reference/faults.ts); empty for the reference itself. */
  faults: Faults;
  /** How the API server reaches a node's kubelet (pods/log); absent: no kubelets to reach. */
  nodes?: NodeConnection;
  /** The watch cache's event window per resource (watch/cache-window.ts); absent: only the store's history limits a watch. */
  watchCache?: import('./watch/cache-window.ts').WatchCacheWindows;
}

/**
 * The API server's connection to kubelets (upstream: the kubelet client to :10250, used by
 * pods/log, exec, attach, port-forward): here only a container's log.
 */
export interface NodeConnection {
  containerLogs(node: string, namespace: string, pod: string, container: string, opts: { previous: boolean; tailLines?: number; timestamps: boolean }): Promise<{ status: number; text: string }>;
}

/** One request on its way through the pipeline. */
export interface Call {
  req: ApiRequest;
  method: string;
  path: string;
  query: URLSearchParams;
  info: RequestInfo;
  user: UserInfo;
  trace: TraceRecorder;
  /** Warning headers (RFC 7234 code 299), e.g. for dropped unknown fields under fieldValidation=Warn. */
  warnings: string[];
  /** The response form the Accept header chose. */
  output: import('./negotiation.ts').Output;
}

/** A call whose path named a resource this server serves. */
export interface ResourceCall extends Call {
  def: ResourceDef;
}

export function reply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'reply', status, body, headers } : { kind: 'reply', status, body };
}
