/**
 * `kubespec serve`: the reference cluster for people and real clients — kubectl, client-go,
 * @kubernetes/client-node — on a real clock, over HTTPS with a CA it makes, with the whole
 * security pipeline (x509 + tokens + anonymous, RBAC, admission), until SIGINT/SIGTERM.
 *
 * The cluster itself brings what a fresh control plane has: the default RBAC policy (the API
 * server's bootstrap, reference/apiserver/bootstrap-policy.ts) and a `default` ServiceAccount in
 * every namespace (the serviceaccounts controller, reference/controllers/serviceaccount/).
 * With --nodes N it runs N kubelets (reference/kubelet/, one per node, each with the fake CRI
 * runtime): each registers its Node, renews its Lease in kube-node-lease every 10 s and runs
 * the pods bound to it, so `kubectl get pods`, `describe pod` and `logs` show them running.
 * With --insecure-http it also
 * binds cluster-admin to system:unauthenticated (kubespec:insecure-anonymous-admin).
 *
 * --retention D sets how much history stays readable before auto-compaction (default 5m, as
 * etcd's periodic mode with --auto-compaction-retention=5m).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { createCa, issueClientCert, issueServerCert, writeKubeconfig, type CertAndKey } from '../reference/apiserver/pki/host/index.ts';
import { clusterRoleBinding, groups } from '../reference/apiserver/bootstrap-policy.ts';
import type { ApiServer } from '../reference/apiserver/server.ts';
import type { Backend } from '../reference/store/backend.ts';
import type { RaftBackend } from '../reference/wiring/raft-backend.ts';
import { DataDirError, lockDataDir, preparePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type DataDirLock } from '../reference/store/host/datadir.ts';
import { DurableBackend } from '../reference/store/host/durable.ts';
import { LocalBackend } from '../reference/store/local.ts';
import { RetentionCompactor, tickRetention } from '../reference/store/retention.ts';
import { ReferenceCluster } from '../reference/wiring/cluster.ts';
import { RealTimeScheduler } from '../reference/wiring/realtime.ts';
import { EXIT_OK, UsageError } from './usage.ts';
import { componentsLine, parseDuration_ms, startedComponentsOf } from './serve-banner.ts';
import { randomBytes } from 'node:crypto';
import type { TlsOptions } from '../reference/apiserver/host/listen.ts';
import type { OidcOptions } from '../reference/apiserver/authn/oidc.ts';
import type { OidcFlags } from '../contract/contract.ts';
// The HA plane and the cloud (wiring/serve-ha.ts, wiring/cloud.ts: msw and its interceptors) are
// loaded only with --ha / --cloud: an idle plain serve does not carry them (issue 4: ≤ 150 MiB).
const loadCloudWiring = () => import('../reference/wiring/cloud.ts');

export const ADMIN_USER = 'kubespec-admin';
export const ADMIN_GROUP = 'system:masters';
export const DEFAULT_RETENTION_MS = 5 * 60 * 1000;
/** The kubelet renews its Lease every 10 s (a quarter of the 40 s lease duration). */
export const LEASE_RENEW_MS = 10_000;
const MAX_NODES = 1000;

export interface ServeFlags {
  port?: string;
  nodes?: string;
  kubeconfig?: string;
  'insecure-http'?: boolean;
  'data-dir'?: string;
  retention?: string;
  ha?: boolean;
  cloud?: boolean;
  /** kube-apiserver's --anonymous-auth: 'true' (default) or 'false'. */
  'anonymous-auth'?: string;
  'proxy-mode'?: string;
  'oidc-issuer-url'?: string;
  'oidc-client-id'?: string;
  'oidc-username-claim'?: string;
  'oidc-username-prefix'?: string;
  'oidc-groups-claim'?: string;
  'oidc-groups-prefix'?: string;
  'oidc-ca-file'?: string;
  /** The cluster DNS's port (UDP and TCP); unset: no cluster DNS. */
  'dns-port'?: string;
}

export interface ServeConfig {
  /** 0: any free port. */
  port: number;
  host: string;
  nodes: number;
  kubeconfigPath: string;
  insecureHttp: boolean;
  dataDir?: string;
  /** Requests without credentials are system:anonymous (else 401). */
  anonymous: boolean;
  retention_ms: number;
  leaseRenew_ms: number;
  /** --ha: three API servers behind an L4 balancer, three elected controller managers (reference/wiring/serve-ha.ts). */
  ha: boolean;
  /** --cloud: a simulated cloud and an elected cloud-controller-manager. */
  cloud: boolean;
  /** kube-proxy's --proxy-mode on every node (reference/wiring/proxy.ts). */
  proxyMode: 'iptables' | 'ipvs' | 'nftables';
  /** kube-apiserver's --oidc-* flags (reference/apiserver/authn/oidc.ts); caFile is read at start. */
  oidc?: OidcFlags & { caFile?: string };
  /** --dns-port: the cluster DNS (CoreDNS's kubernetes plugin, reference/wiring/dns.ts) on this port, 0 any free one; unset: none. */
  dnsPort?: number;
}

/** Flags to a config (env only says where the user was: KUBESPEC_CWD); a bad value is a UsageError (exit 2). */
export function parseServeFlags(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ServeConfig {
  // bin/kubespec.mjs moves to the project root; KUBESPEC_CWD (if the launcher sets it) is where the user was.
  const base = env.KUBESPEC_CWD ?? process.cwd();
  const config: ServeConfig = {
    port: integerFlag('--port', flags.port ?? '6443', 0, 65535, 'e.g. --port 6443, or --port 0 for any free port'),
    host: '127.0.0.1',
    nodes: integerFlag('--nodes', flags.nodes ?? '1', 0, MAX_NODES, 'e.g. --nodes 3 registers node-1..node-3'),
    kubeconfigPath: resolve(base, nonEmpty('--kubeconfig', flags.kubeconfig ?? 'kubeconfig.kubespec')),
    insecureHttp: flags['insecure-http'] ?? false,
    anonymous: booleanFlag('--anonymous-auth', flags['anonymous-auth'] ?? 'true'),
    retention_ms: retentionFlag(flags.retention),
    leaseRenew_ms: LEASE_RENEW_MS,
    ha: flags.ha ?? false,
    cloud: flags.cloud ?? false,
    proxyMode: proxyModeFlag(flags['proxy-mode'] ?? 'iptables'),
  };
  if (config.insecureHttp && !config.anonymous) {
    throw new UsageError('--insecure-http needs anonymous authentication: over plain HTTP no request carries credentials', 'drop --anonymous-auth=false, or serve HTTPS');
  }
  if (flags['data-dir'] !== undefined) config.dataDir = resolve(base, nonEmpty('--data-dir', flags['data-dir']));
  if (config.ha && config.dataDir !== undefined) {
    throw new UsageError('--ha keeps its store in three Raft members in memory (one per machine); it cannot use --data-dir', 'drop --data-dir to run HA, or drop --ha to keep the store on disk');
  }
  const oidc = oidcFlags(flags, base);
  if (oidc) config.oidc = oidc;
  if (flags['dns-port'] !== undefined) config.dnsPort = integerFlag('--dns-port', flags['dns-port'], 0, 65535, 'e.g. --dns-port 5353, or --dns-port 0 for any free port (53 needs root)');
  return config;
}

/**
 * The --oidc-* flags, checked as kube-apiserver checks them (pkg/kubeapiserver/options/authentication.go,
 * Validate): the issuer URL and the client ID go together, and the issuer is https. The other
 * flags mean nothing without an issuer.
 */
function oidcFlags(flags: ServeFlags, base: string): ServeConfig['oidc'] {
  const issuerUrl = flags['oidc-issuer-url'] ?? '';
  const clientId = flags['oidc-client-id'] ?? '';
  if (issuerUrl === '' && clientId === '') return undefined;
  if (issuerUrl === '' || clientId === '') throw new UsageError('oidc-issuer-url and oidc-client-id must be specified together', 'e.g. --oidc-issuer-url https://idp.example.com --oidc-client-id kubernetes');
  let scheme: string;
  try {
    scheme = new URL(issuerUrl).protocol;
  } catch {
    throw new UsageError(`--oidc-issuer-url is not a URL: "${issuerUrl}"`, 'e.g. --oidc-issuer-url https://idp.example.com');
  }
  if (scheme !== 'https:') throw new UsageError(`--oidc-issuer-url must use https scheme, got "${issuerUrl}"`, 'e.g. --oidc-issuer-url https://idp.example.com');
  const optional = (name: keyof ServeFlags) => (typeof flags[name] === 'string' && flags[name] !== '' ? (flags[name] as string) : undefined);
  const picked = {
    usernameClaim: optional('oidc-username-claim'),
    usernamePrefix: optional('oidc-username-prefix'),
    groupsClaim: optional('oidc-groups-claim'),
    groupsPrefix: optional('oidc-groups-prefix'),
    caFile: flags['oidc-ca-file'] !== undefined ? resolve(base, nonEmpty('--oidc-ca-file', flags['oidc-ca-file'])) : undefined,
  };
  return { issuerUrl, clientId, ...Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) };
}

/** --retention: a duration with a unit, at least 1 ms, at most what a timer can wait (2^31-1 ms). */
function retentionFlag(text: string | undefined): number {
  if (text === undefined) return DEFAULT_RETENTION_MS;
  const ms = parseDuration_ms(text);
  if (ms === undefined || ms < 1 || ms > 2 ** 31 - 1) throw new UsageError(`--retention must be a duration from 1ms to 596h, got "${text}"`, 'e.g. --retention 5m (also 90s, 500ms, 1h)');
  return ms;
}

function booleanFlag(name: string, text: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  throw new UsageError(`${name} must be true or false, got "${text}"`, `e.g. ${name}=false`);
}

function integerFlag(name: string, text: string, min: number, max: number, hint: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got "${text}"`, hint);
  }
  return value;
}

function proxyModeFlag(text: string): ServeConfig['proxyMode'] {
  if (text === 'iptables' || text === 'ipvs' || text === 'nftables') return text;
  throw new UsageError(`--proxy-mode must be iptables, ipvs or nftables, got "${text}"`, 'e.g. --proxy-mode nftables');
}

function nonEmpty(name: string, text: string): string {
  if (text.trim() === '') throw new UsageError(`${name} needs a path`, `e.g. ${name} ./kubespec`);
  return text;
}

/** The command: start, say how to connect, run until SIGINT/SIGTERM, stop cleanly. */
export async function serve(flags: ServeFlags): Promise<number> {
  const config = parseServeFlags(flags);
  // The handlers go in before anything starts: "listening" is printed before startServe returns,
  // and a SIGTERM sent on seeing it must stop serve cleanly, not kill it half-way.
  const stopSignal = new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });
  const running = await startServe(config, (line) => console.log(`kubespec serve: ${line}`)).catch((error: unknown) => {
    // A data dir in use or open to others is a configuration error: exit 2 with the fix.
    if (error instanceof DataDirError) throw new UsageError(error.message, error.hint);
    throw error;
  });
  const signal = await stopSignal;
  console.log(`kubespec serve: ${signal}: stopping`);
  await running.stop();
  console.log('kubespec serve: stopped');
  return EXIT_OK;
}

export interface RunningServe {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly cluster: ReferenceCluster;
  readonly backend: Backend;
  /** Compactions done by retention so far (for tests and the log). */
  readonly compactions: number;
  stop(): Promise<void>;
}

/** Starts everything serve runs; `log` gets the human-readable lines. */
export async function startServe(config: ServeConfig, log: (line: string) => void = () => {}): Promise<RunningServe> {
  const lock = config.dataDir ? await claimDataDir(config.dataDir, log) : undefined;
  try {
    return await startLocked(config, log, lock);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/** The data dir is ours alone (lock) and private (0700) before anything in it is read or written. */
async function claimDataDir(dataDir: string, log: (line: string) => void): Promise<DataDirLock> {
  if (await preparePrivateDir(dataDir)) log(`created data dir ${dataDir} (mode 700)`);
  const lock = await lockDataDir(dataDir);
  if (lock.tookOverFrom) log(`took over the lock of ${dataDir} from process ${lock.tookOverFrom.pid}, which is gone (locked since ${lock.tookOverFrom.since})`);
  return lock;
}

async function startLocked(config: ServeConfig, log: (line: string) => void, lock: DataDirLock | undefined): Promise<RunningServe> {
  const clock = new RealTimeScheduler();
  const store = config.ha ? await openReplicatedStore(log) : await openStore(config.dataDir, log);
  let pki: Pki | undefined;
  let cluster: ReferenceCluster;
  try {
    pki = config.insecureHttp ? undefined : await loadOrCreatePki(config.dataDir);
    cluster = await startCluster(config, clock, store, pki, log);
  } catch (error) {
    await store.close();
    throw error;
  }
  const admin = adminCaller(cluster.api);
  if (config.insecureHttp) await ensureObjects(admin, [insecureAnonymousAdmin()]);
  // --cloud: the kubelets run as with --cloud-provider=external, registering their Node with the
  // uninitialized taint that the cloud-controller-manager's node controller removes.
  const registerWithTaints = config.cloud ? [(await loadCloudWiring()).uninitializedTaint()] : undefined;
  for (const name of nodeNames(config.nodes)) await cluster.addKubelet(name, { leaseRenew_ms: config.leaseRenew_ms, ...(registerWithTaints ? { registerWithTaints } : {}) });
  if (config.cloud) await ensureObjects(admin, (await loadCloudWiring()).ccmRbacObjects().map((object) => ({ collection: `/apis/rbac.authorization.k8s.io/v1/${object.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}`, object })));
  const ha = config.ha || config.cloud
    ? await (await import('../reference/wiring/serve-ha.ts')).startServeHa({ cluster, clock, ...(store.raft ? { raft: store.raft } : {}), ...(pki ? { tls: serveTls(pki) } : {}), ha: config.ha, ...(config.cloud ? { ccmToken } : {}), nodes: nodeNames(config.nodes), seed: Date.now() >>> 0, log })
    : undefined;
  const url = ha?.url ?? cluster.url;
  // kube-proxy on every node, watching Services and EndpointSlices as system:kube-proxy.
  for (let i = 1; i <= config.nodes; i++) await cluster.proxies.start(`node-${i}`, { mode: config.proxyMode });
  // The cluster DNS, watching Services, EndpointSlices and Namespaces as kube-system/coredns.
  if (config.dnsPort !== undefined) {
    const { host, port } = (await cluster.startDns({ host: config.host, port: config.dnsPort })).address;
    log(`cluster DNS on ${host}:${port} (UDP and TCP), zone cluster.local: dig @${host} -p ${port} kubernetes.default.svc.cluster.local`);
  }
  const retention = startRetention(clock, store, config.retention_ms, log);
  await writeServeKubeconfig(config, url, pki);
  announce(config, url, log);
  const extra = [...(config.ha ? ['kube-apiserver on m1..m3 behind an L4 balancer over a three-member Raft store (one member per machine), with leader-elected controller managers and schedulers (--ha)'] : []), ...(config.cloud ? ['cloud-controller-manager (--cloud)'] : []), ...(config.dnsPort !== undefined ? ['cluster DNS (CoreDNS kubernetes plugin, --dns-port)'] : [])];
  log(componentsLine(startedComponentsOf(cluster, { extra, ...(config.nodes > 0 ? { proxyMode: `${config.proxyMode}, one per node` } : {}) })));
  let stopped: Promise<void> | undefined;
  return {
    url,
    kubeconfigPath: config.kubeconfigPath,
    cluster,
    backend: store.backend,
    get compactions() {
      return retention.compactions();
    },
    stop: () =>
      (stopped ??= (async () => {
        retention.stop();
        await ha?.stop();
        clock.cancelAll();
        await cluster.stop();
        await store.close();
        await lock?.release();
      })()),
  };
}

/** --cloud: the cloud-controller-manager's token, in the token file for its user. */
const ccmToken = randomBytes(32).toString('base64url');

function serveTls(pki: Pki): TlsOptions {
  return { cert: pki.server.certPem, key: pki.server.keyPem, ca: pki.ca.certPem };
}

async function startCluster(config: ServeConfig, clock: RealTimeScheduler, store: Store, pki: Pki | undefined, log: (line: string) => void): Promise<ReferenceCluster> {
  const ccmUser = config.cloud ? (await loadCloudWiring()).CCM_USER : undefined;
  return ReferenceCluster.start({
    seed: Date.now() >>> 0,
    clock,
    backend: store.backend,
    port: config.port,
    host: config.host,
    ...(pki ? { tls: { cert: pki.server.certPem, key: pki.server.keyPem, ca: pki.ca.certPem } } : {}),
    // --cluster-signing-cert-file: the CSR signer signs with the CA client certificates are verified against.
    ...(pki ? { clusterSigningCa: async () => pki.ca } : {}),
    // Anonymous requests are on unless --anonymous-auth=false, as kube-apiserver's default; RBAC decides what they may do.
    secure: { anonymous: config.anonymous, ...(ccmUser ? { tokenCsv: `${ccmToken},${ccmUser},${ccmUser}\n` } : {}), ...(config.oidc ? { oidc: await oidcOptions(config.oidc) } : {}) },
    // Real time: the first HTTP probe may wait for msw to load; an idle serve never loads it.
    lazyHttpInterceptor: true,
    log,
  });
}

async function oidcOptions({ caFile, ...flags }: NonNullable<ServeConfig['oidc']>): Promise<OidcOptions> {
  return { ...flags, ...(caFile ? { caBundlePem: await readFile(caFile, 'utf8') } : {}) };
}

function announce(config: ServeConfig, url: string, log: (line: string) => void): void {
  log(`listening on ${url}`);
  if (config.insecureHttp) {
    log(`kubeconfig: ${config.kubeconfigPath} (plain HTTP, no credentials: requests are system:anonymous, which serve binds to cluster-admin as kubespec:insecure-anonymous-admin)`);
  } else {
    log(`kubeconfig: ${config.kubeconfigPath} (user ${ADMIN_USER}, group ${ADMIN_GROUP}, client certificate)`);
  }
  log(`try: kubectl --kubeconfig ${config.kubeconfigPath} get pods`);
  const nodes = config.nodes === 0 ? 'no nodes' : `${config.nodes === 1 ? 'node node-1' : `nodes node-1..node-${config.nodes}`} (a kubelet with the fake runtime each; leases renewed every ${config.leaseRenew_ms / 1000} s; kube-proxy in ${config.proxyMode} mode)`;
  log(`${nodes}; history kept ${config.retention_ms / 1000} s; ${config.dataDir ? `data in ${config.dataDir}` : 'in memory only'}; Ctrl-C to stop`);
}

// ---------------------------------------------------------------------------------------------
// Store: in memory, or durable under --data-dir.

interface Store {
  backend: Backend;
  /** --ha: the store is a Raft cluster of three members, one per machine. */
  raft?: RaftBackend;
  /** After a compaction: keep the WAL short by folding it into a snapshot. */
  afterCompaction(): Promise<void>;
  close(): Promise<void>;
}

async function openStore(dataDir: string | undefined, log: (line: string) => void): Promise<Store> {
  if (!dataDir) {
    const backend = new LocalBackend();
    return { backend, afterCompaction: async () => {}, close: async () => {} };
  }
  const dir = join(dataDir, 'store');
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const backend = await openDurable(dir, log);
  return {
    backend,
    afterCompaction: async () => void (await backend.saveSnapshot()),
    async close() {
      // A snapshot on the way out makes the next start a load instead of a replay.
      await backend.saveSnapshot();
      await backend.close();
    },
  };
}

/**
 * --ha: three Raft members (the reference Raft, etcd's defaults: 100 ms heartbeat, 1 s election
 * timeout) replicating the store, in memory, kept in step with the wall clock. Each machine of
 * serve-ha.ts hosts one (kubeadm's stacked topology), so killing a machine kills its member.
 */
async function openReplicatedStore(log: (line: string) => void): Promise<Store> {
  const { RaftBackend } = await import('../reference/wiring/raft-backend.ts');
  const { driveRaftInRealTime } = await import('../reference/wiring/raft-realtime.ts');
  const raft = new RaftBackend({ seed: Date.now() >>> 0, members: 3, drivenByCallers: false });
  // Its own scheduler, with timers that keep the process alive: during start-up, before serve
  // listens, a request waiting on the driver is all there is to wait for.
  const driver = driveRaftInRealTime(raft, new RealTimeScheduler({ ref: true }), { onError: (error) => log(`raft: ${(error as Error).message}`) });
  // The first request would elect a leader anyway; electing now keeps the first kubectl call quick.
  await raft.run(() => raft.sim.leader() !== undefined, 10_000);
  log(`store: a Raft cluster of ${raft.sim.ids.length} members (${raft.sim.ids.join(', ')}), leader ${raft.sim.leader() ?? 'none yet'}`);
  return {
    backend: raft,
    raft,
    afterCompaction: async () => {},
    close: async () => driver.stop(),
  };
}

/**
 * A torn last record is a write that was never acknowledged (the process died mid-append):
 * dropping it loses nothing anyone was told about, as etcd's WAL repair does. Bytes that are
 * wrong in the middle are something else, and serve refuses to guess.
 */
async function openDurable(dir: string, log: (line: string) => void): Promise<DurableBackend> {
  const first = await DurableBackend.open(dir);
  if (!first.tornTail) {
    if (first.replayedRecords > 0) log(`recovered ${dir}: replayed ${first.replayedRecords} WAL records`);
    return first.backend;
  }
  if (first.tornTail.kind !== 'torn') {
    throw new Error(`${dir}: the WAL is damaged at offset ${first.tornTail.offset} (${first.tornTail.reason}); not starting`);
  }
  await first.backend.close();
  const repaired = await DurableBackend.open(dir, { repair: true });
  log(`recovered ${dir}: dropped an unacknowledged torn WAL tail (${first.tornTail.droppedBytes} bytes), replayed ${repaired.replayedRecords} records`);
  return repaired.backend;
}

function startRetention(clock: RealTimeScheduler, store: Store, retention_ms: number, log: (line: string) => void) {
  const compactor = new RetentionCompactor({ retention_ms, clock });
  let compactions = 0;
  let busy = false;
  const stop = clock.every(compactor.sampleInterval_ms, () => {
    if (busy) return;
    busy = true;
    tickRetention(compactor, store.backend)
      .then(async (revision) => {
        if (revision === undefined) return;
        compactions++;
        await store.afterCompaction();
      })
      .catch((e) => log(`compaction failed: ${(e as Error).message}`))
      .finally(() => (busy = false));
  });
  return { stop, compactions: () => compactions };
}

// ---------------------------------------------------------------------------------------------
// PKI and kubeconfig.

interface Pki {
  ca: CertAndKey;
  server: CertAndKey;
  admin: CertAndKey;
}

/** In memory without --data-dir; under D/pki with it, so a restart keeps the kubeconfig valid. */
async function loadOrCreatePki(dataDir: string | undefined): Promise<Pki> {
  const dir = dataDir ? join(dataDir, 'pki') : undefined;
  if (dir && existsSync(join(dir, 'admin.key'))) {
    const read = async (name: string): Promise<CertAndKey> => ({
      certPem: await readFile(join(dir, `${name}.crt`), 'utf8'),
      keyPem: await readFile(join(dir, `${name}.key`), 'utf8'),
    });
    return { ca: await read('ca'), server: await read('apiserver'), admin: await read('admin') };
  }
  const ca = await createCa({ commonName: 'kubespec-serve-ca' });
  const [server, admin] = await Promise.all([
    issueServerCert(ca),
    issueClientCert(ca, { commonName: ADMIN_USER, organizations: [ADMIN_GROUP] }),
  ]);
  if (dir) {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // admin.key last: its presence says the set is complete. Every file 0600, as etcd's.
    for (const [name, pair] of [['ca', ca], ['apiserver', server], ['admin', admin]] as const) {
      await writeFile(join(dir, `${name}.crt`), pair.certPem, { mode: PRIVATE_FILE_MODE });
      await writeFile(join(dir, `${name}.key`), pair.keyPem, { mode: PRIVATE_FILE_MODE });
    }
  }
  return { ca, server, admin };
}

async function writeServeKubeconfig(config: ServeConfig, url: string, pki: Pki | undefined): Promise<void> {
  await mkdir(resolve(config.kubeconfigPath, '..'), { recursive: true });
  if (pki) {
    await writeKubeconfig({ path: config.kubeconfigPath, server: url, caPem: pki.ca.certPem, user: ADMIN_USER, clientCertPem: pki.admin.certPem, clientKeyPem: pki.admin.keyPem });
    return;
  }
  // Plain HTTP: no CA to trust and no credentials; the user entry is empty (kubectl accepts it).
  // insecure-skip-tls-verify means nothing over http, but @kubernetes/client-node refuses an
  // http:// server without it ("HTTP protocol is not allowed when skipTLSVerify is not set").
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubespec', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'anonymous', user: {} }],
    contexts: [{ name: 'anonymous@kubespec', context: { cluster: 'kubespec', user: 'anonymous' } }],
    'current-context': 'anonymous@kubespec',
    preferences: {},
  };
  await writeFile(config.kubeconfigPath, stringify(kubeconfig), { mode: 0o600 });
}

// ---------------------------------------------------------------------------------------------
// Objects serve creates through the API, in process, as an admin.

type AdminCall = (method: string, url: string, body?: unknown, contentType?: string) => Promise<{ status: number; body: any }>;

/** Requests into the API server's core, authenticated as a system:masters certificate would be. */
function adminCaller(api: ApiServer): AdminCall {
  return async (method, url, body, contentType = 'application/json') => {
    const { status, answer } = await api.handle({
      method,
      url,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
      clientCert: { subjectCN: 'kubespec-serve', subjectO: [ADMIN_GROUP] },
    });
    return { status, body: answer.kind === 'reply' ? answer.body : undefined };
  };
}

interface Ensure {
  collection: string;
  object: any;
}

/** Creates each object unless it exists (a restart with --data-dir finds them). */
async function ensureObjects(admin: AdminCall, objects: Ensure[]): Promise<void> {
  for (const { collection, object } of objects) {
    const res = await admin('POST', collection, object);
    if (res.status !== 201 && res.status !== 409) {
      throw new Error(`could not create ${object.kind} ${object.metadata.name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
}

/**
 * Plain HTTP has no way to present a certificate: whoever can reach the port is admin, and the
 * binding says so. Not part of upstream's policy, so it carries none of its bootstrap markers.
 */
function insecureAnonymousAdmin(): Ensure {
  const object = clusterRoleBinding('cluster-admin', groups('system:unauthenticated'), 'kubespec:insecure-anonymous-admin');
  object.metadata = { name: object.metadata.name };
  return { collection: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', object };
}

/** metav1.MicroTime's wire form: RFC 3339 with six fractional digits. */
export function microTime(now_ms: number): string {
  return new Date(now_ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function nodeNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `node-${i + 1}`);
}
