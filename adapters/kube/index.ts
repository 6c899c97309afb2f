/**
 * The `kube` target: any Kubernetes cluster given by a kubeconfig. Each scenario gets its own
 * namespace, removed afterwards; waits are real-time polls within budgets; requests back off on
 * 429/5xx. Capabilities are only what the public API offers: no compaction, no virtual time, no
 * view of the store — scenarios needing those are reported not-applicable here.
 */
import https from 'node:https';
import fs from 'node:fs';
import type { Capability } from '../../contract/capabilities.ts';
import type { DnsFacet, KubeFacet, Session, Target } from '../../contract/contract.ts';
import { createPollingWaiter, pollUntil } from '../polling-waiter.ts';
import { KubeHttpClient, type Endpoint } from './http-client.ts';
import { withBackoff } from './retry.ts';

// A conformant cluster runs kube-controller-manager's serviceaccounts controller.
/** Upstream's e2e framework allows two minutes; a healthy cluster needs well under a second. */
const DEFAULT_SA_BUDGET_MS = 120_000;

// PodSecurity admission is on by default in every supported Kubernetes (GA and default-on since 1.25).
// A conformant cluster also runs kube-controller-manager with these controllers on (its
// --controllers default, `*`).
const CAPABILITIES: Capability[] = [
  'kube.api', 'kube.watch', 'kube.rbac', 'kubectl', 'controllers.serviceaccount', 'kube.podsecurity', 'kube.metrics',
  'controllers.replicaset', 'controllers.deployment', 'controllers.garbagecollector', 'controllers.nodelifecycle', 'controllers.tainteviction',
  'controllers.job', 'controllers.ttlafterfinished', 'controllers.disruption',
  'kube.admission.quota',
  // A working cluster schedules pods onto its nodes and runs them (kube-scheduler, kubelets).
  'cluster.workloads',
  'controllers.endpointslice', 'controllers.endpoint', 'controllers.namespace', 'controllers.clusterrole-aggregation',
  // kube-controller-manager's --leader-elect defaults to true (kubeadm and kind keep it).
  'controllers.leader-elect',
  // pod-garbage-collector-controller is on by default (--controllers `*`).
  'controllers.podgc',
];

export interface KubeTargetOptions {
  kubeconfigPath: string;
  /**
   * The cluster DNS server, HOST:PORT (`run --dns-server`): kube-dns's ClusterIP when the suite runs
   * inside the cluster, a forwarded port, or `kubespec serve --dns-port`. Given, the target declares
   * cluster.dns; the suite cannot find a DNS server it can reach on its own.
   */
  dnsServer?: string;
}

/**
 * client-node's KubeConfig, loaded when a kubeconfig is read: importing client-node costs some
 * 600 ms, which every cucumber process of every target paid at start (the suite's bundle hoists
 * a module's imports of packages to its top, however lazily the module itself is reached).
 */
async function kubeConfigOf(kubeconfigPath: string): Promise<import('@kubernetes/client-node').KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigPath);
  return config;
}

export async function createKubeTarget(opts: KubeTargetOptions): Promise<Target> {
  let endpoint: Endpoint | undefined;
  let sessions = 0;
  const https2 = await httpsServer(opts.kubeconfigPath);
  return {
    name: 'kube',
    // HTTP/2 is negotiated by ALPN over TLS: a plain-HTTP server (serve --insecure-http) has none.
    capabilities: new Set<Capability>([...CAPABILITIES, ...(https2 ? ['kube.http2' as const] : []), ...(opts.dnsServer ? ['cluster.dns' as const] : []), ...webhookCapabilities()]),
    knownDeviations: new Map(),
    async start() {
      endpoint = await endpointFrom(opts.kubeconfigPath);
      await assertReachable(endpoint);
    },
    /** The cluster's own word: GET /version's gitVersion (e.g. v1.31.2 → kubernetes 1.31.2). */
    async versions(): Promise<Record<string, string>> {
      if (!endpoint) return {};
      const client = new KubeHttpClient(endpoint);
      try {
        const res = await client.request({ method: 'GET', path: '/version' });
        const git = (res.json as { gitVersion?: string } | undefined)?.gitVersion;
        return git ? { kubernetes: git.replace(/^v/, '') } : {};
      } finally {
        client.close();
      }
    },
    async openSession(ctx) {
      if (!endpoint) throw new Error('the kube target was not started');
      const namespace = `ks-${ctx.seed.toString(16)}-${process.pid.toString(36)}-${++sessions}`;
      const dns = opts.dnsServer ? dnsFacet(opts.dnsServer) : undefined;
      return { ...(await openSession(endpoint, namespace, ctx.seed, opts.kubeconfigPath)), ...(dns ? { dns } : {}) };
    },
    async stop() {},
  };
}

/** HOST:PORT or [IPv6]:PORT, port 53 when left out. A bad value fails the scenario that asks, naming it. */
function dnsFacet(text: string): DnsFacet {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(text.trim());
  return {
    clusterDomain: 'cluster.local',
    async server() {
      if (!m) throw new Error(`--dns-server must be HOST:PORT, got "${text}"`);
      return { host: (m[1] ?? m[2])!, port: Number(m[3] ?? 53) };
    },
  };
}

/**
 * Whether the cluster can call webhooks the suite hosts is something only the person running the
 * suite knows: KUBESPEC_WEBHOOK_HOST (steps/support/webhook-server.ts) names an address of this
 * machine the API server can reach (127.0.0.1 for a `kubespec serve` on this machine). Unset, a
 * cluster in containers or elsewhere could not reach the loopback webhook, so it is not claimed.
 */
function webhookCapabilities(): Capability[] {
  return process.env.KUBESPEC_WEBHOOK_HOST ? ['kube.crd.conversion-webhook'] : [];
}

async function httpsServer(kubeconfigPath: string): Promise<boolean> {
  try {
    const config = await kubeConfigOf(kubeconfigPath);
    return config.getCurrentCluster()?.server.startsWith('https://') ?? false;
  } catch {
    return false; // start() reports the unreadable kubeconfig
  }
}

/** Read the kubeconfig's current context with client-node, which knows every way to give credentials. */
export async function endpointFrom(kubeconfigPath: string): Promise<Endpoint> {
  if (!fs.existsSync(kubeconfigPath)) throw new Error(`no kubeconfig at ${kubeconfigPath}: pass --kubeconfig PATH or set KUBECONFIG`);
  const config = await kubeConfigOf(kubeconfigPath);
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error(`the kubeconfig ${kubeconfigPath} has no current cluster: set current-context`);
  const tls: https.RequestOptions = { headers: {} };
  await config.applyToHTTPSOptions(tls);
  const authorization = (tls.headers as Record<string, string> | undefined)?.Authorization;
  return {
    server: cluster.server,
    ca: tls.ca as string | Buffer | undefined,
    cert: tls.cert as string | Buffer | undefined,
    key: tls.key as string | Buffer | undefined,
    token: authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined,
    insecureSkipTlsVerify: cluster.skipTLSVerify,
  };
}

export async function assertReachable(endpoint: Endpoint): Promise<void> {
  const client = new KubeHttpClient(endpoint);
  try {
    const res = await client.request({ method: 'GET', path: '/version' });
    if (res.status !== 200) throw new Error(`GET /version answered ${res.status}: ${res.text.slice(0, 300)}`);
  } catch (error) {
    throw new Error(`cannot reach the cluster at ${endpoint.server}: ${(error as Error).message}`);
  } finally {
    client.close();
  }
}

async function openSession(endpoint: Endpoint, namespace: string, seed: number, kubeconfigPath: string): Promise<Session> {
  const client = new KubeHttpClient(endpoint);
  const request: KubeFacet['request'] = (req) => withBackoff((r) => client.request(r), req);
  let created: Awaited<ReturnType<KubeFacet['request']>> | undefined;
  try {
    created = await request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
    if (created.status !== 201) throw new Error(`could not create namespace ${namespace}: ${created.status} ${created.text.slice(0, 300)}`);
    // Until the serviceaccounts controller has made `default`, ServiceAccount admission refuses
    // every pod in the namespace; wait for it, as the Kubernetes e2e framework does
    // (test/e2e/framework: WaitForDefaultServiceAccountInNamespace).
    await pollUntil(`ServiceAccount ${namespace}/default`, async () =>
      (await request({ method: 'GET', path: `/api/v1/namespaces/${namespace}/serviceaccounts/default` })).status === 200, DEFAULT_SA_BUDGET_MS);
  } catch (error) {
    // A failed setup removes what it made and closes its connections, so the run can end.
    if (created?.status === 201) await request({ method: 'DELETE', path: `/api/v1/namespaces/${namespace}` }).catch(() => undefined);
    client.close();
    throw error;
  }
  return {
    seed,
    waiter: createPollingWaiter(),
    kube: { namespace, request, watch: (path, o) => client.watch(path, o), stream: (path, o) => client.stream(path, o), kubeconfigPath },
    describe: () => ({ server: endpoint.server, namespace }),
    async close() {
      // Namespace deletion finishes in the background on a real cluster; nothing waits for it.
      await request({ method: 'DELETE', path: `/api/v1/namespaces/${namespace}` });
      client.close();
    },
  };
}
