/**
 * The kubelet's API client: JSON over HTTP(S) to the API server with the node's bearer token
 * (a real kubelet presents a client certificate CN=system:node:<name>, O=system:nodes; the token
 * file names the same user and group, through the same authentication stage). Its pod
 * list/watch carries fieldSelector=spec.nodeName=<node>, as the kubelet's config source does
 * (pkg/kubelet/config/apiserver.go NewSourceApiserver).
 */
import http from 'node:http';
import https from 'node:https';
import { ApiStatusError, type ListWatcher } from '../controllers/informer.ts';
import type { KubeletApi } from '../kubelet/types.ts';
import { LineReader, parseJson, readAll } from './http-body.ts';
import { keepAliveAgent, KUBELET_REQUEST_CONNECTIONS } from './keep-alive.ts';
import { InProcessConnection, type ApiHandle } from './in-process.ts';
import type { Scheduler } from './virtual-clock.ts';

/** client-go retries a 429 after its Retry-After, up to 10 times (rest/request.go maxRetries). */
const MAX_RETRIES = 10;

export interface KubeletApiOptions {
  server: string;
  /** Waits out a 429's Retry-After (virtual time in the suite). */
  clock: Scheduler;
  /** The node's bearer token; or, instead, its client certificate (`clientCertificate`). */
  token?: string;
  nodeName: string;
  ca?: string | Buffer;
  /**
   * The API server's own entry, for a kubelet of the reference cluster on virtual time that
   * authenticates with its token (in-process.ts); a kubelet with a client certificate always
   * speaks TLS, where the certificate is verified.
   */
  inProcess?: ApiHandle;
}

export interface KubeletCertificateApi {
  /** Present this certificate from now on: the connections made with the old one are closed (certificate rotation). */
  useClientCertificate(pair: { certPem: string; keyPem: string }): void;
  createCsr(csr: unknown): Promise<{ status: number; body?: any }>;
  getCsr(name: string): Promise<{ status: number; body?: any }>;
}

const USER_AGENT = 'kubelet/v1.31.0 (linux/amd64) kubespec-reference';

export function kubeletApi(opts: KubeletApiOptions & { clientCertificate?: { certPem: string; keyPem: string } }): KubeletApi & KubeletCertificateApi & { close(): void } {
  const url = new URL(opts.server);
  const tls = url.protocol === 'https:';
  const newAgent = (pair?: { certPem: string; keyPem: string }, maxSockets?: number) =>
    tls ? keepAliveAgent(true, { ...(opts.ca ? { ca: opts.ca } : {}), ...(pair ? { cert: pair.certPem, key: pair.keyPem } : {}), ...(maxSockets ? { maxSockets } : {}) }) : keepAliveAgent(false, maxSockets ? { maxSockets } : {});
  // Requests share a few connections (keep-alive.ts); the pod watch holds one of its own.
  let agent: http.Agent = newAgent(opts.clientCertificate, KUBELET_REQUEST_CONNECTIONS);
  let watchAgent: http.Agent = newAgent(opts.clientCertificate);
  let connection = opts.inProcess && !opts.clientCertificate ? new InProcessConnection(opts.inProcess) : undefined;
  const lib = tls ? https : http;
  const headers = (contentType?: string): Record<string, string> => ({
    accept: 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), 'user-agent': USER_AGENT, ...(contentType ? { 'content-type': contentType } : {}),
  });
  const once = (method: string, path: string, text: string | undefined, contentType: string): Promise<{ status: number; body?: any; retryAfter_s: number }> =>
    connection
      ? connection.request(method, path, { ...headers(text === undefined ? undefined : contentType), ...(text === undefined ? {} : { 'content-length': String(Buffer.byteLength(text)) }) }, text)
        .then((a) => ({ status: a.status, body: a.json(), retryAfter_s: Number(a.headers['retry-after'] ?? 1) || 1 }))
      : new Promise((resolve, reject) => {
      const req = lib.request(new URL(path, url), { method, agent, headers: { ...headers(text === undefined ? undefined : contentType), ...(text === undefined ? {} : { 'content-length': String(Buffer.byteLength(text)) }) } }, (res) => {
        const retryAfter_s = Number(res.headers['retry-after'] ?? 1) || 1;
        readAll(res).then((answer) => resolve({ status: res.statusCode ?? 0, body: parseJson(answer), retryAfter_s }), reject);
      });
      req.on('error', reject);
      req.end(text);
    });
  const send = async (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body?: any }> => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      const res = await once(method, path, text, contentType);
      if (res.status !== 429 || attempt >= MAX_RETRIES) return { status: res.status, body: res.body };
      await new Promise<void>((done) => opts.clock.after(res.retryAfter_s * 1000, done));
    }
  };
  const selector = `fieldSelector=${encodeURIComponent(`spec.nodeName=${opts.nodeName}`)}`;
  const pods: ListWatcher = {
    list: async () => {
      const res = await send('GET', `/api/v1/pods?${selector}`);
      if (res.status !== 200) throw new ApiStatusError(res.status, res.body?.reason, `list pods answered ${res.status}: ${res.body?.message ?? ''}`);
      return { items: res.body?.items ?? [], resourceVersion: String(res.body?.metadata?.resourceVersion ?? '') };
    },
    watch: (options, handlers) => {
      let over = false;
      const end = (error?: Error) => {
        if (over) return;
        over = true;
        handlers.onEnd(error);
      };
      const q = `${selector}&watch=true&resourceVersion=${encodeURIComponent(options.resourceVersion)}&timeoutSeconds=${options.timeoutSeconds}${options.allowWatchBookmarks ? '&allowWatchBookmarks=true' : ''}`;
      if (connection) return connection.watchEvents(`/api/v1/pods?${q}`, headers(), handlers, (status, text) => new ApiStatusError(status, parseJson(text)?.reason, `watch pods answered ${status}`));
      const req = lib.request(new URL(`/api/v1/pods?${q}`, url), { method: 'GET', agent: watchAgent, headers: headers() }, (res) => {
        if (res.statusCode !== 200) {
          readAll(res).then((t) => end(new ApiStatusError(res.statusCode ?? 0, parseJson(t)?.reason, `watch pods answered ${res.statusCode}`)), end);
          return;
        }
        const lines = new LineReader((line) => !over && handlers.onEvent(JSON.parse(line)));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => lines.take(chunk));
        res.on('end', () => end());
        res.on('close', () => end(res.complete ? undefined : new Error('watch closed mid-stream')));
      });
      req.on('error', (e) => end(e));
      req.end();
      return () => {
        over = true;
        req.destroy();
      };
    },
  };
  const lease = (name: string) => `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${encodeURIComponent(name)}`;
  return {
    getNode: (name) => send('GET', `/api/v1/nodes/${encodeURIComponent(name)}`),
    createNode: (node) => send('POST', '/api/v1/nodes', node),
    patchNodeStatus: (name, status) => send('PATCH', `/api/v1/nodes/${encodeURIComponent(name)}/status`, { status }, 'application/merge-patch+json'),
    getLease: (name) => send('GET', lease(name)),
    createLease: (l) => send('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', l),
    updateLease: (l) => send('PUT', lease(l.metadata.name), l),
    pods,
    patchPodStatus: (ns, name, uid, status) => send('PATCH', `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}/status`, { metadata: { uid }, status }, 'application/merge-patch+json'),
    deletePod: (ns, name, uid) => send('DELETE', `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } }),
    createEvent: (ns, event) => send('POST', `/api/v1/namespaces/${encodeURIComponent(ns)}/events`, event),
    createCsr: (csr) => send('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', csr),
    getCsr: (name) => send('GET', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(name)}`),
    useClientCertificate(pair) {
      // As the kubelet's rotating transport does: new connections with the new certificate, the old ones closed.
      const old = [agent, watchAgent];
      agent = newAgent(pair, KUBELET_REQUEST_CONNECTIONS);
      watchAgent = newAgent(pair);
      for (const a of old) a.destroy();
      connection?.close();
      connection = undefined;
    },
    close: () => {
      agent.destroy();
      watchAgent.destroy();
      connection?.close();
    },
  };
}
