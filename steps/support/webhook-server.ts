/**
 * A test admission webhook server: one HTTPS server per worker process, on loopback, answering
 * AdmissionReview v1 requests for the hooks scenarios register. A scenario registers a hook by
 * name with its behaviour (admit, add a label, add a container, deny) and points a
 * Mutating/ValidatingWebhookConfiguration at `hook.url` with `caBundle` — the same objects a
 * real cluster would be given, so the target's own webhook dispatcher is what is tested.
 *
 * Upstream requires webhook URLs to be https (admissionregistration validation), so the server
 * serves TLS with a self-signed certificate made once by the openssl CLI. For a cluster that
 * cannot reach this machine's loopback, set KUBESPEC_WEBHOOK_HOST to an address it can reach.
 *
 * Wire format: https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/
 * ("Request" and "Response": the response echoes request.uid; a patch is a base64 JSONPatch
 * with patchType "JSONPatch").
 *
 * Also here: per-scenario cleanup of cluster-scoped objects the steps create, run while the
 * scenario's session is still open (see the import of hooks.ts below).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface JsonPatchOp {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

/** What a hook does with one request. */
export interface HookBehaviour {
  /** Patch to return (mutating hooks only); none = admit unchanged. */
  patch?(object: any): JsonPatchOp[];
  /** Refuse with this message. */
  deny?: string;
  /** Answer only once this settles: keeps the request in flight on the API server meanwhile. */
  hold?: () => Promise<void>;
  /** Any other review (a CRD's ConversionReview): the whole answer document for the review's request. */
  review?: (request: any) => unknown;
  /** A TokenReview service instead of an admission webhook: who a token is, or undefined for "not authenticated". */
  tokenReview?: (token: string) => { username: string; uid?: string; groups?: string[] } | undefined;
}

/** One AdmissionReview request as the hook received it. */
export interface AdmissionRecord {
  uid: string;
  operation: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  namespace?: string;
  name?: string;
  object?: any;
  oldObject?: any;
  userInfo?: { username?: string; groups?: string[] };
}

export interface RegisteredHook {
  readonly url: string;
  readonly records: AdmissionRecord[];
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class WebhookServer {
  private readonly hooks = new Map<string, { behaviour: HookBehaviour; records: AdmissionRecord[] }>();
  /** JSON documents answered to GET by path (an OIDC issuer's discovery document and key set). */
  private readonly documents = new Map<string, unknown>();

  private constructor(
    server: Server,
    readonly baseUrl: string,
    /** The serving certificate, base64 PEM, for clientConfig.caBundle. */
    readonly caBundle: string,
  ) {
    server.on('request', (req, res) => this.handle(req, res));
  }

  static async start(host: string): Promise<WebhookServer> {
    const { certPem, keyPem } = await selfSignedCert(host);
    const server = createServer({ cert: certPem, key: keyPem });
    const listenHost = host === '127.0.0.1' || host === 'localhost' ? '127.0.0.1' : '0.0.0.0';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, listenHost, () => resolve());
    });
    server.unref();
    const port = (server.address() as AddressInfo).port;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    return new WebhookServer(server, `https://${urlHost}:${port}`, Buffer.from(certPem).toString('base64'));
  }

  /** Register a hook under a unique id (the scenario's namespace keeps ids apart). */
  register(id: string, behaviour: HookBehaviour): RegisteredHook {
    const records: AdmissionRecord[] = [];
    this.hooks.set(id, { behaviour, records });
    return { url: `${this.baseUrl}/hooks/${encodeURIComponent(id)}`, records };
  }

  unregister(id: string): void {
    this.hooks.delete(id);
  }

  /** Answer GET `path` with this JSON until withdrawn; the URL it is served at. */
  publish(path: string, document: unknown): string {
    this.documents.set(path, document);
    return `${this.baseUrl}${path}`;
  }

  withdraw(path: string): void {
    this.documents.delete(path);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      const doc = req.method === 'GET' ? this.documents.get(new URL(req.url ?? '/', 'https://hooks.invalid').pathname) : undefined;
      if (doc !== undefined) {
        const text = JSON.stringify(doc);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
        return;
      }
      const id = decodeURIComponent(new URL(req.url ?? '/', 'https://hooks.invalid').pathname.replace(/^\/hooks\//, ''));
      const hook = this.hooks.get(id);
      if (!hook || req.method !== 'POST' || size > MAX_BODY_BYTES) {
        res.writeHead(404).end();
        return;
      }
      let review: any;
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (hook.behaviour.tokenReview) {
        hook.records.push(structuredClone(review) as AdmissionRecord);
        const user = hook.behaviour.tokenReview(String(review?.spec?.token ?? ''));
        const status = user ? { authenticated: true, user } : { authenticated: false };
        const tokenBody = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(tokenBody) }).end(tokenBody);
        return;
      }
      const request = review?.request ?? {};
      if (hook.behaviour.review) {
        hook.records.push(structuredClone(review) as AdmissionRecord);
        const reviewBody = JSON.stringify(hook.behaviour.review(request));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reviewBody) }).end(reviewBody);
        return;
      }
      hook.records.push(structuredClone(request) as AdmissionRecord);
      const body = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: answer(request, hook.behaviour) });
      const send = () => void res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      if (hook.behaviour.hold) void hook.behaviour.hold().then(send, send);
      else send();
    });
  }
}

function answer(request: any, behaviour: HookBehaviour): Record<string, unknown> {
  if (behaviour.deny !== undefined) {
    return { uid: request.uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: behaviour.deny } };
  }
  const ops = behaviour.patch?.(request.object) ?? [];
  if (ops.length === 0) return { uid: request.uid, allowed: true };
  return { uid: request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') };
}

/** A self-signed serving certificate for the host (EC P-256: quick, and Go and Node accept it). */
async function selfSignedCert(host: string): Promise<{ certPem: string; keyPem: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'kubespec-webhook-'));
  try {
    const san = /^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`;
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '30',
      '-subj', '/CN=kubespec-webhook', '-addext', `subjectAltName=${san}`,
    ]);
    return { certPem: await readFile(join(dir, 'cert.pem'), 'utf8'), keyPem: await readFile(join(dir, 'key.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let shared: Promise<WebhookServer> | undefined;

/** The worker's webhook server, started on first use. */
export function webhookServer(): Promise<WebhookServer> {
  shared ??= WebhookServer.start(process.env.KUBESPEC_WEBHOOK_HOST ?? '127.0.0.1');
  return shared;
}
