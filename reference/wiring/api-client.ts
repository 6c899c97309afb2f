/**
 * The controller manager's client: JSON requests and streaming watches over HTTP(S) to the API
 * server, as kube-controller-manager reaches kube-apiserver through its kubeconfig — never the
 * store. It authenticates with a bearer token (the cluster's token file names its user), or
 * with nothing when the API server runs without authentication.
 *
 * Deliberately small: list and watch for the informers, create, and one `send` for the
 * updates, patches and deletes the controllers make. A watch
 * hands each newline-delimited event to its handler as it arrives (the contract of
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go), and keeps nothing.
 */
import http from 'node:http';
import https from 'node:https';
import { ApiStatusError, type ListWatcher, type WatchOptions, type WatchStreamHandlers } from '../controllers/informer.ts';
import type { KubeObject, ResourceRef } from '../controllers/types.ts';
import { LineReader, parseJson, readAll } from './http-body.ts';
import { keepAliveAgent, MAX_REQUEST_CONNECTIONS } from './keep-alive.ts';
import { InProcessConnection, type ApiHandle } from './in-process.ts';

export interface ApiClientOptions {
  /** e.g. http://127.0.0.1:6443 */
  server: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** CAs that may sign the serving certificate (https only). */
  ca?: string | Buffer;
  userAgent?: string;
  /**
   * The API server's own entry, for a component of the reference cluster on virtual time: its
   * requests then go through the server's whole pipeline in process, not over loopback HTTP
   * (in-process.ts). `server` is kept for what it names.
   */
  inProcess?: ApiHandle;
}

export interface CreateResult {
  status: number;
  /** The Status message of a refusal. */
  message?: string;
  /** The uid of the object answered, when it is one. */
  uid?: string;
}

export function collectionPath(ref: ResourceRef, namespace?: string): string {
  const base = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  return namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${ref.resource}` : `${base}/${ref.resource}`;
}

export class ApiClient {
  private readonly url: URL;
  /** Requests' connections, at most MAX_REQUEST_CONNECTIONS; watches have their own agent, since each holds its connection. */
  private readonly agent: http.Agent;
  private readonly watchAgent: http.Agent;
  private readonly connection?: InProcessConnection;

  constructor(private readonly opts: ApiClientOptions) {
    this.url = new URL(opts.server);
    const agent = (maxSockets?: number) => (this.tls ? keepAliveAgent(true, { ...(opts.ca ? { ca: opts.ca } : {}), ...(maxSockets ? { maxSockets } : {}) }) : keepAliveAgent(false, maxSockets ? { maxSockets } : {}));
    this.agent = agent(MAX_REQUEST_CONNECTIONS);
    this.watchAgent = agent();
    if (opts.inProcess) this.connection = new InProcessConnection(opts.inProcess);
  }

  /** list and watch of one resource across all namespaces. */
  listWatcher(ref: ResourceRef): ListWatcher {
    const path = collectionPath(ref);
    return {
      list: async () => {
        const { status, body } = await this.request('GET', path);
        if (status !== 200) throw statusError(status, body, `GET ${path}`);
        return { items: (body?.items ?? []) as KubeObject[], resourceVersion: String(body?.metadata?.resourceVersion ?? '') };
      },
      watch: (options, handlers) => this.watch(`${path}?${watchQuery(options)}`, handlers),
    };
  }

  async create(ref: ResourceRef, namespace: string, object: KubeObject): Promise<CreateResult> {
    const { status, body } = await this.request('POST', collectionPath(ref, namespace), object);
    const message = body?.message;
    return typeof message === 'string' ? { status, message } : { status };
  }

  /** Any JSON request (the scheduler's binding, status patches, deletes and events). */
  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: any }> {
    return this.request(method, path, body, contentType);
  }

  /** One request (PUT, PATCH, DELETE, or the GC's GET) with a JSON body; the answer's status, Status message and object uid. */
  async send(method: string, path: string, body: unknown, contentType = 'application/json'): Promise<CreateResult> {
    const { status, body: answer } = await this.request(method, path, body, contentType);
    const result: CreateResult = { status };
    if (typeof answer?.message === 'string') result.message = answer.message;
    if (typeof answer?.metadata?.uid === 'string') result.uid = answer.metadata.uid;
    return result;
  }

  /** Ends every connection, open watches included. */
  close(): void {
    this.agent.destroy();
    this.watchAgent.destroy();
    this.connection?.close();
  }

  private get tls(): boolean {
    return this.url.protocol === 'https:';
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    if (this.opts.userAgent) headers['user-agent'] = this.opts.userAgent;
    return headers;
  }

  private request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: any }> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = text === undefined ? this.headers() : { ...this.headers(), 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) };
    if (this.connection) return this.connection.request(method, path, headers, text).then((answer) => ({ status: answer.status, body: answer.json() }));
    return new Promise((resolve, reject) => {
      const req = this.lib.request(new URL(path, this.url), { method, headers, agent: this.agent }, (res) => {
        readAll(res).then((answer) => resolve({ status: res.statusCode ?? 0, body: parseJson(answer) }), reject);
      });
      req.on('error', reject);
      req.end(text);
    });
  }

  private get lib(): typeof http | typeof https {
    return this.tls ? https : http;
  }

  private watch(path: string, handlers: WatchStreamHandlers): () => void {
    // The same lines, refusals and endings over the in-process connection.
    if (this.connection) return this.connection.watchEvents(path, this.headers(), handlers, (status, text) => statusError(status, parseJson(text), `watch ${path}`));
    let over = false;
    const end = (error?: Error): void => {
      if (over) return;
      over = true;
      handlers.onEnd(error);
    };
    const req = this.lib.request(new URL(path, this.url), { method: 'GET', headers: this.headers(), agent: this.watchAgent }, (res) => {
      if (res.statusCode !== 200) {
        readAll(res).then((text) => end(statusError(res.statusCode ?? 0, parseJson(text), `watch ${path}`)), end);
        return;
      }
      const lines = new LineReader((line) => {
        if (!over) handlers.onEvent(JSON.parse(line));
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        try {
          lines.take(chunk);
        } catch (error) {
          req.destroy();
          end(error as Error);
        }
      });
      res.on('end', () => end());
      res.on('close', () => end(res.complete ? undefined : new Error(`watch ${path}: the connection closed mid-stream`)));
    });
    req.on('error', (error) => end(error));
    req.end();
    return () => {
      over = true;
      req.destroy();
    };
  }
}

function watchQuery(options: WatchOptions): string {
  const query = new URLSearchParams({ watch: 'true', resourceVersion: options.resourceVersion, timeoutSeconds: String(options.timeoutSeconds) });
  if (options.allowWatchBookmarks) query.set('allowWatchBookmarks', 'true');
  return query.toString();
}

function statusError(status: number, body: any, what: string): ApiStatusError {
  const message = typeof body?.message === 'string' ? body.message : `HTTP ${status}`;
  return new ApiStatusError(status, typeof body?.reason === 'string' ? body.reason : undefined, `${what} answered ${status}: ${message}`);
}
