/**
 * The `kube` facet of one reference session, with the full request pipeline on: the cluster runs
 * with `secure` (authentication, RBAC, admission with webhooks), and this file gives the steps
 * what a real cluster's admin has —
 * - a default identity: a static token in `system:masters`, over the plain-HTTP port;
 * - other credentials (`kube.authn`): any bearer token, no credentials at all, or a client
 *   certificate signed by a per-worker CA, sent to a second, TLS listener on the same handler
 *   (kube-apiserver serves certificate and token users on one HTTPS port; splitting them keeps
 *   the default client on cheap plain HTTP);
 * - the request trace (`kube.audit`);
 * - for a scenario that requires `kubectl`, a kubeconfig with the admin token and the TLS
 *   listener: kubectl (client-go) sends no bearer token over plain HTTP, so it would be anonymous.
 *
 * Before the scenario starts it creates the scenario's namespace, as the kube target does, and
 * waits for the cluster's serviceaccounts controller to give it its `default` ServiceAccount,
 * which the ServiceAccount admission plugin requires of every pod — unless the store the cluster
 * started over holds both already (the reference's warm store, warm-store.ts). The default RBAC
 * policy is the API server's own (reference/apiserver/bootstrap-policy.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Identity, KubeCredentials, KubeFacet, KubeRawStream, KubeRequest, KubeResponse, RequestTraceEntry } from '../../contract/contract.ts';
import { KubeHttpClient } from '../kube/http-client.ts';
import type { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { SERVICE_ACCOUNT_CONTROLLER } from '../../reference/controllers/serviceaccount/index.ts';
import { listen, type Listening } from '../../reference/apiserver/host/listen.ts';
import { createCa, issueClientCert, issueServerCert, type CertAndKey } from '../../reference/apiserver/pki/host/index.ts';

export const ADMIN: Identity = { user: 'kubespec-admin', groups: ['system:masters', 'system:authenticated'] };

/** The --token-auth-file line of the scenario's admin. */
export function adminTokenCsv(token: string): string {
  return `${token},${ADMIN.user},${ADMIN.user}-uid,"system:masters"\n`;
}

export interface KubeSession {
  readonly kube: KubeFacet;
  /** The HTTPS listener client certificates go to, and the CA that signs them (a node's kubelet with a certificate). */
  tls(): Promise<{ url: string; ca: CertAndKey }>;
  close(): Promise<void>;
}

export async function openKubeSession(cluster: ReferenceCluster, namespace: string, adminToken: string, opts: { kubectl: boolean; server?: string; namespaceExists?: boolean }): Promise<KubeSession> {
  // `server`: a load balancer in front of several API servers (HA topologies).
  const client = new KubeHttpClient({ server: opts.server ?? cluster.url, token: adminToken });
  const credentialed = new CredentialedRequests(cluster);
  let kubeconfig: { dir: string; path: string } | undefined;
  try {
    // `namespaceExists`: the store the cluster started over holds it, settled (warm-store.ts).
    if (!opts.namespaceExists) await createNamespace(client, cluster, namespace);
    if (opts.kubectl) kubeconfig = writeKubeconfig(await credentialed.tlsUrl(), (await workerPki()).ca.certPem, adminToken, namespace);
  } catch (error) {
    // A setup that fails half way stops what it started: an open client or listener would keep
    // the run's process alive after its last scenario.
    client.close();
    await credentialed.close();
    throw error;
  }
  const kube: KubeFacet = {
    namespace,
    identity: ADMIN,
    request: (req) => client.request(req),
    watch: (path, opts) => client.watch(path, opts),
    stream: (path, o) => (o?.http2 ? credentialed.adminHttp2Stream(path, adminToken) : client.stream(path, o?.accept ? { accept: o.accept } : {})),
    compact: () => cluster.backend.compact(cluster.backend.currentRevision()),
    storageGet: async (key) => (await cluster.backend.get(key))?.value,
    storageKeys: async (prefix) => (await cluster.backend.range(prefix)).kvs.map((kv) => kv.key),
    storeClientLog: async () => cluster.storeClients.entries().map((r) => ({ ...r })),
    requestWithCredentials: (creds, req) => credentialed.request(creds, req),
    traces: async () => cluster.api.traces.map(traceEntry),
    configureTokenWebhook: async ({ url, caBundle }) => cluster.security?.tokenWebhook.configure({ url, caBundlePem: Buffer.from(caBundle, 'base64').toString('utf8') }),
    configureOidc: async ({ caBundle, ...flags }) => cluster.security?.oidc.configure({ ...flags, caBundlePem: Buffer.from(caBundle, 'base64').toString('utf8') }),
    ...(kubeconfig ? { kubeconfigPath: kubeconfig.path } : {}),
  };
  return {
    kube,
    tls: async () => ({ url: await credentialed.tlsUrl(), ca: (await workerPki()).ca }),
    async close() {
      client.close();
      await credentialed.close();
      if (kubeconfig) rmSync(kubeconfig.dir, { recursive: true, force: true });
    },
  };
}

function traceEntry(t: ReferenceCluster['api']['traces'][number]): RequestTraceEntry {
  const entry: RequestTraceEntry = { id: t.id, method: t.method, path: t.path, code: t.code, stages: t.stages.map((s) => ({ ...s })) };
  if (t.query) entry.query = t.query;
  if (t.user !== undefined) entry.user = t.user;
  if (t.objectName !== undefined) entry.objectName = t.objectName;
  if (t.annotations) entry.annotations = { ...t.annotations };
  return entry;
}

/** Requests made with credentials other than the admin token; certificate users go to the TLS listener. */
class CredentialedRequests {
  private tls?: Promise<Listening>;
  constructor(private readonly cluster: ReferenceCluster) {}

  async request(creds: KubeCredentials, req: KubeRequest): Promise<KubeResponse> {
    const client = await this.clientFor(creds);
    try {
      return await client.request(req);
    } finally {
      client.close();
    }
  }

  async close(): Promise<void> {
    if (this.tls) await (await this.tls).close();
  }

  /** A GET as the admin over HTTP/2: plain HTTP has no h2 here, so it goes to the TLS listener. */
  async adminHttp2Stream(path: string, token: string): Promise<KubeRawStream> {
    const client = new KubeHttpClient({ server: await this.tlsUrl(), ca: (await workerPki()).ca.certPem, token });
    try {
      return await client.stream(path, { http2: true });
    } finally {
      client.close(); // the HTTP/2 stream owns its own session
    }
  }

  /** The TLS listener's URL, started on first use. */
  async tlsUrl(): Promise<string> {
    this.tls ??= workerPki().then((pki) => listen(this.cluster.api.handler, { tls: { cert: pki.server.certPem, key: pki.server.keyPem, ca: pki.ca.certPem } }));
    return (await this.tls).url;
  }

  private async clientFor(creds: KubeCredentials): Promise<KubeHttpClient> {
    if (creds.clientCert) {
      const server = await this.tlsUrl();
      const cert = await clientCert(creds.clientCert.cn, creds.clientCert.o ?? [], creds.clientCert.untrusted === true);
      return new KubeHttpClient({ server, ca: (await workerPki()).ca.certPem, cert: cert.certPem, key: cert.keyPem });
    }
    if (creds.token !== undefined) return new KubeHttpClient({ server: this.cluster.url, token: creds.token });
    if (creds.anonymous) return new KubeHttpClient({ server: this.cluster.url });
    throw new Error(`no credentials given: ${JSON.stringify(creds)}`);
  }
}

// ---- one CA per worker process: openssl is slow enough that sessions share it ------------------

let pki: Promise<{ ca: CertAndKey; server: CertAndKey }> | undefined;
const clientCerts = new Map<string, Promise<CertAndKey>>();

/** The worker's CA: it signs the suite's client certificates, and is the clusters' CSR signing CA. */
export async function workerCa(): Promise<CertAndKey> {
  return (await workerPki()).ca;
}

function workerPki(): Promise<{ ca: CertAndKey; server: CertAndKey }> {
  pki ??= (async () => {
    const ca = await createCa({ commonName: 'kubespec-reference-ca' });
    return { ca, server: await issueServerCert(ca) };
  })();
  return pki;
}

let untrustedCa: Promise<CertAndKey> | undefined;

/** A client certificate from the cluster's CA, or (untrusted) from a CA the cluster has never heard of. */
function clientCert(cn: string, o: string[], untrusted: boolean): Promise<CertAndKey> {
  const key = JSON.stringify([cn, o, untrusted]);
  let cert = clientCerts.get(key);
  if (!cert) {
    untrustedCa ??= untrusted ? createCa({ commonName: 'not-the-cluster-ca' }) : undefined;
    const issuer = untrusted ? untrustedCa! : workerPki().then(({ ca }) => ca);
    // Valid from before the virtual clock's start (2026-01-01) to a year past the wall clock:
    // the API server checks the dates at its own clock, which is virtual in the suite.
    const validity = { notBefore: new Date(Date.UTC(2025, 0, 1)), notAfter: new Date(Date.now() + 365 * 86_400_000) };
    cert = issuer.then((ca) => issueClientCert(ca, { commonName: cn, organizations: o, validity }));
    clientCerts.set(key, cert);
  }
  return cert;
}

// ---- the scenario's namespace -----------------------------------------------------------------

/** Creates the scenario's namespace and waits for the serviceaccounts controller's `default` in it. */
export async function createNamespace(client: KubeHttpClient, cluster: ReferenceCluster, namespace: string): Promise<void> {
  const path = '/api/v1/namespaces';
  const res = await client.request({ method: 'POST', path, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  if (res.status !== 201) throw new Error(`reference session setup: POST ${path} answered ${res.status} ${res.text.slice(0, 300)}`);
  // The namespace's write queued it for the controller; settled() is when its create is done.
  await cluster.controllers.settled();
  if (!cluster.controllers.names.includes(SERVICE_ACCOUNT_CONTROLLER)) return;
  const sa = await client.request({ method: 'GET', path: `/api/v1/namespaces/${namespace}/serviceaccounts/default` });
  if (sa.status !== 200) throw new Error(`reference session setup: the serviceaccounts controller made no "default" in ${namespace}: ${sa.status} ${sa.text.slice(0, 300)}`);
}

/** A kubeconfig for kubectl: the TLS port, its CA, and the admin token. */
function writeKubeconfig(server: string, caPem: string, token: string, namespace: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kubespec-kubeconfig-'));
  const path = join(dir, 'config');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'reference', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: ADMIN.user, user: { token } }],
    contexts: [{ name: 'reference', context: { cluster: 'reference', user: ADMIN.user, namespace } }],
    'current-context': 'reference',
    preferences: {},
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return { dir, path };
}
