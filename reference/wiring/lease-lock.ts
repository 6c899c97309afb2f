/**
 * client-go's LeaseLock (tools/leaderelection/resourcelock/leaselock.go) over the API server's
 * REST API: GET, POST and PUT of a coordination.k8s.io/v1 Lease. The PUT carries the
 * resourceVersion of the GET, so the API server refuses it with 409 Conflict if anyone wrote the
 * Lease in between — the optimistic concurrency the election's safety rests on.
 */
import http from 'node:http';
import https from 'node:https';
import { leaseSpecOf, recordOfLease, type LeaderElectionRecord, type LeaseLock } from '../leaderelection/record.ts';
import { parseJson, readAll } from './http-body.ts';
import { keepAliveAgent } from './keep-alive.ts';
import { InProcessConnection, type ApiHandle } from './in-process.ts';

export interface JsonClientOptions {
  server: string;
  token?: string;
  ca?: string | Buffer;
  userAgent?: string;
  /** Requests give up after this long (the leader election client's timeout is RenewDeadline). */
  timeout_ms?: number;
  /** The API server's own entry, for a reference cluster's component on virtual time (in-process.ts). */
  inProcess?: ApiHandle;
}

/** Minimal JSON over HTTP(S), one keep-alive agent. */
export class JsonClient {
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly connection?: InProcessConnection;
  /** Requests sent and not yet answered or failed. */
  inFlight = 0;
  /** POST, PUT, PATCH and DELETE requests sent. */
  writes = 0;

  constructor(private readonly opts: JsonClientOptions) {
    this.url = new URL(opts.server);
    this.agent = this.url.protocol === 'https:' ? keepAliveAgent(true, opts.ca ? { ca: opts.ca } : {}) : keepAliveAgent(false);
    if (opts.inProcess) this.connection = new InProcessConnection(opts.inProcess);
  }

  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (text !== undefined) headers['content-type'] = 'application/json';
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    if (this.opts.userAgent) headers['user-agent'] = this.opts.userAgent;
    this.inFlight++;
    if (method !== 'GET') this.writes++;
    const answer = this.connection
      ? this.connection.request(method, path, text === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(text)) }, text).then((a) => ({ status: a.status, body: a.json() }))
      : this.overHttp(method, path, headers, text);
    const done = () => void this.inFlight--;
    answer.then(done, done);
    return answer;
  }

  close(): void {
    this.agent.destroy();
    this.connection?.close();
  }

  private overHttp(method: string, path: string, headers: Record<string, string>, text: string | undefined): Promise<{ status: number; body: any }> {
    const lib = this.url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(new URL(path, this.url), { method, headers, agent: this.agent }, (res) => {
        readAll(res).then((answer) => resolve({ status: res.statusCode ?? 0, body: parseJson(answer) }), reject);
      });
      if (this.opts.timeout_ms) req.setTimeout(this.opts.timeout_ms, () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      req.end(text);
    });
  }
}

export function leasePath(namespace: string, name?: string): string {
  const base = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
}

export function httpLeaseLock(client: JsonClient, namespace: string, name: string): LeaseLock {
  const fail = (what: string, res: { status: number; body: any }) => new Error(`${what} answered ${res.status}: ${res.body?.message ?? ''}`);
  return {
    async get() {
      const res = await client.request('GET', leasePath(namespace, name));
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw fail(`GET lease ${namespace}/${name}`, res);
      return { record: recordOfLease(res.body), resourceVersion: String(res.body.metadata.resourceVersion) };
    },
    async create(record: LeaderElectionRecord) {
      const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: leaseSpecOf(record) };
      const res = await client.request('POST', leasePath(namespace), lease);
      if (res.status === 409) return false;
      if (res.status !== 201) throw fail(`POST lease ${namespace}/${name}`, res);
      return String(res.body.metadata.resourceVersion);
    },
    async update(record: LeaderElectionRecord, resourceVersion: string) {
      const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace, resourceVersion }, spec: leaseSpecOf(record) };
      const res = await client.request('PUT', leasePath(namespace, name), lease);
      if (res.status === 409) return false;
      if (res.status !== 200) throw fail(`PUT lease ${namespace}/${name}`, res);
      return String(res.body.metadata.resourceVersion);
    },
  };
}
