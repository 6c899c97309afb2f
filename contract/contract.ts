/**
 * The target contract: what every implementation under test offers the steps.
 *
 * Steps never reach into an implementation; they speak to a Session's facets. A facet exists
 * only when the target declares the capabilities behind it (see capabilities.ts), and the
 * hooks make sure a scenario only runs where its `@requires:` tags are all declared.
 */
import type { Capability } from './capabilities.ts';
// The CRI v1 API as TypeScript: upstream's interface (k8s.io/cri-api), not the reference's code.
import type { CriRuntime } from './cri.ts';

export type { CriRuntime } from './cri.ts';

/** One stored key, with etcd's revision bookkeeping. */
export interface KeyValue {
  key: string;
  value: string;
  /** Revision of the store when this key was created (since its last delete). */
  createRevision: number;
  /** Revision of the last write to this key. */
  modRevision: number;
  /** Number of writes since creation; 1 after the first put. */
  version: number;
}

export type KvEventType = 'PUT' | 'DELETE';

export interface KvEvent {
  type: KvEventType;
  kv: KeyValue;
  /** The key as it was before this event, when the store keeps it. */
  prevKv?: KeyValue;
}

export interface KvWatch {
  /** Every event received so far, in order. */
  readonly events: readonly KvEvent[];
  /** Set when the store cancelled the watch, e.g. because the start revision was compacted. */
  readonly cancelled?: { reason: string; compactRevision?: number };
  cancel(): Promise<void>;
}

export interface CompareAndSwap {
  key: string;
  /** Succeeds only if the key's modRevision equals this (0 = the key must not exist). */
  expectModRevision: number;
  /** Value to put when the comparison holds; `null` deletes the key. */
  value: string | null;
}

/** Facet `kv` (+ `kv.watch`, `kv.compaction`, `kv.snapshot`). */
export interface KvFacet {
  put(key: string, value: string): Promise<{ revision: number }>;
  get(key: string, opts?: { revision?: number }): Promise<{ kv?: KeyValue; revision: number }>;
  /**
   * Keys under `prefix` in byte order, as of `revision` (0/absent: now); `limit` 0/absent means no
   * limit. `more`: the limit left keys of the range out (etcd RangeResponse.more). `fromKey`: start
   * at this key (inclusive) instead of at the prefix, still ending with the prefix — a paginated
   * list's next page (etcd: RangeRequest.key = fromKey with the prefix's range_end); ignored when it
   * sorts before the prefix.
   */
  range(prefix: string, opts?: { revision?: number; limit?: number; fromKey?: string }): Promise<{ kvs: KeyValue[]; revision: number; more: boolean }>;
  delete(key: string): Promise<{ revision: number; deleted: number }>;
  /**
   * When the comparison fails, `current` is the key as it is (absent: there is no such key) — etcd's
   * failure branch reading the key, as the API server's GuaranteedUpdate does to retry without a
   * second round trip (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go:
   * `.Else(clientv3.OpGet(key))`).
   */
  txn(cas: CompareAndSwap): Promise<{ succeeded: boolean; revision: number; current?: KeyValue }>;
  /**
   * `onEvent`, when given, is called with each event as it is delivered (after it is added to
   * `events`), so a client can react — even by writing to the store — while delivery goes on.
   */
  watch(prefix: string, fromRevision: number, opts?: { onEvent?: (event: KvEvent) => void }): Promise<KvWatch>;
  compact(revision: number): Promise<void>;
  /** Save a consistent snapshot to a file; restore builds a fresh store from it. */
  snapshotSave?(path: string): Promise<{ revision: number }>;
  snapshotRestore?(path: string): Promise<void>;
}

/** 'pre-candidate': asking for pre-votes before a real election (Raft §9.6 PreVote; etcd's StatePreCandidate). */
export type RaftRole = 'leader' | 'follower' | 'pre-candidate' | 'candidate';

export interface MemberInfo {
  id: string;
  alive: boolean;
  role?: RaftRole;
  /**
   * The member's current term, when the target can tell it. A leader's term must be the term it
   * leads (the one-leader-per-term claims are judged on it); a target that cannot confirm it
   * leaves it out rather than report a stale one.
   */
  term?: number;
}

/** Facet `kv.members` (+ `net.partition`). */
export interface MembersFacet {
  list(): Promise<MemberInfo[]>;
  /** The current leader as the live members report it; undefined during an election. */
  leader(): Promise<string | undefined>;
  kill(id: string): Promise<void>;
  restart(id: string): Promise<void>;
  partition?(groups: string[][]): Promise<void>;
  heal?(): Promise<void>;
  /** `disk.latency`: every sync of this member's stable storage (its WAL fsync) takes `latency_ms` from now on. */
  setDiskLatency?(id: string, latency_ms: number): Promise<void>;
}

/**
 * Facet `kv.metrics`: each member's own Prometheus metrics, as etcd serves them on `/metrics` of its
 * client URL (etcd_disk_wal_fsync_duration_seconds, etcd_server_leader_changes_seen_total, …) —
 * what an operator scrapes. Members that are down or do not answer are left out.
 */
export interface KvMetricsFacet {
  /** The text exposition each answering member serves, by member id (the `kv.members` ids where both exist). */
  scrape(): Promise<Map<string, string>>;
}

/** Facet `raft.observe`: the reference's Raft internals, for the claims about the protocol itself. */
export interface RaftObserver {
  role(id: string): RaftRole;
  term(id: string): number;
  commitIndex(id: string): number;
  lastLogIndex(id: string): number;
  /** Messages sent so far, by message type (e.g. 'MsgApp', 'MsgVote'), summed over members. */
  messageCounts(): Record<string, number>;
  /** A transcript of protocol steps, for the write-flow claims: e.g. 'append leader=1 index=5'. */
  trace(): readonly string[];
  /**
   * Every member seen as leader, by term, since the store started — taken at every state change
   * of every member (not sampled), so a leadership that lasted one instant is in it too.
   */
  leadersByTerm(): ReadonlyMap<number, readonly string[]>;
}

/** One client call in a recorded history: what was asked, when, and what came back. */
export interface KvHistoryOperation {
  client: number;
  input: { op: 'put'; key: string; value: string } | { op: 'get'; key: string } | { op: 'cas'; key: string; expect: string | null; value: string };
  /** put: true; get: the value (null: absent); cas: whether it swapped. Absent when the outcome is unknown. */
  output?: string | null | boolean;
  call_ms: number;
  /** Absent when the call's outcome is unknown (it timed out, its member crashed): it may or may not have taken effect. */
  return_ms?: number;
}

/** What one seeded fault schedule did to a replicated store, as its clients and members saw it. */
export interface FaultScheduleRun {
  seed: number;
  members: number;
  /** Every call the clients made that may have taken effect, certainly refused ones left out. */
  history: KvHistoryOperation[];
  /** Every member that led each term during the run, taken at every state change. */
  leadersByTerm: ReadonlyMap<number, readonly string[]>;
  /** How to replay this schedule alone, for a failure report. */
  replay: string;
}

/**
 * Facet `kv.fault-schedules`: run a fresh replicated store under one seeded fault schedule —
 * crashes, restarts, partitions, message loss, duplication and reordering — while concurrent
 * clients put, get and compare-and-swap, and hand back the history (a Jepsen-style test; a real
 * cluster could run one with its own fault injection). The steps judge the history.
 */
export interface FaultSchedulesFacet {
  run(seed: number): Promise<FaultScheduleRun>;
}

/** Facet `clock.virtual`. */
export interface ClockFacet {
  now_ms(): number;
  advance(ms: number): Promise<void>;
}

export interface Identity {
  user: string;
  groups?: string[];
}

export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with query, e.g. /api/v1/namespaces/default/pods?limit=5 */
  path: string;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Make the request as this identity (impersonation on real clusters). */
  as?: Identity;
}

export interface KubeResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, when the body is JSON. */
  json?: any;
}

export interface KubeWatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: any;
}

export interface KubeWatch {
  /** HTTP status of the watch response. */
  readonly status: number;
  /** Body of a non-200 answer (a Status), when there was one. */
  readonly error?: any;
  readonly events: readonly KubeWatchEvent[];
  readonly ended: boolean;
  close(): Promise<void>;
}

/**
 * Credentials for one request made as someone other than the scenario's default identity, by
 * authenticating (`kube.authn`) rather than impersonating. Exactly one kind is given.
 */
export interface KubeCredentials {
  /** A bearer token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** A TLS client certificate signed by the cluster's client CA: CN is the user, each O a group. */
  clientCert?: { cn: string; o?: string[]; /** Signed by a CA of the suite's own making, which the cluster does not trust. */ untrusted?: boolean };
  /** No credentials at all. */
  anonymous?: boolean;
}

/**
 * One request a client made to the backing store (`kube.storage.clients`), named by the identity
 * it connected with — on etcd the CN of its client certificate (the API server's
 * --etcd-certfile); on the reference the name of the store handle the wiring gave it.
 */
export interface StoreClientRequest {
  /** Increases with each request, so a scenario can mark "from now on". */
  id: number;
  client: string;
  op: 'get' | 'range' | 'put' | 'delete' | 'txn' | 'watch' | 'compact';
  /** The key, or the prefix of a range or watch. */
  key: string;
}

/** The pipeline stages a request can pass, in the order upstream runs them. */
export type PipelineStage =
  | 'authentication'
  | 'authorization'
  | 'mutating-admission'
  | 'schema-validation'
  | 'validating-admission'
  | 'storage';

/** One completed request as the API server saw it (`kube.audit`): an audit-log line, roughly. */
export interface RequestTraceEntry {
  /** Increases with completion order, so a scenario can mark "from now on". */
  id: number;
  method: string;
  /** The path without the query. */
  path: string;
  /** The query string without "?" (audit's requestURI carries it): tells a watch from a list. */
  query?: string;
  /** The user the request acted as (after impersonation), when authentication got that far. */
  user?: string;
  /** For a create answered 201, the name of the object it stored (audit's objectRef.name). */
  objectName?: string;
  /** The HTTP status of the answer. */
  code: number;
  /** The stages the request passed, in the order it passed them; the last may be the one that refused it. */
  stages: { stage: PipelineStage; outcome: 'passed' | 'rejected'; detail?: string }[];
  /** The audit annotations admission added (audit.k8s.io Event.annotations), e.g. pod-security.kubernetes.io/audit-violations. */
  annotations?: Record<string, string>;
}

/** A raw HTTP response read as it arrives, for claims about the wire format (chunked watch streams). */
export interface KubeRawStream {
  readonly status: number;
  /** Response headers, names lower-cased. */
  readonly headers: Record<string, string>;
  readonly httpVersion: string;
  /** The body received so far, as text; a protobuf body as latin1, one character per byte. */
  readonly body: string;
  readonly ended: boolean;
  close(): Promise<void>;
}

/** Facet `kube.api` (+ `kube.watch`, `kube.compaction`, `kube.storage`, `kube.authn`, `kube.audit`, `kubectl`). */
export interface KubeFacet {
  /** The namespace this scenario owns; created for it and removed afterwards. */
  readonly namespace: string;
  request(req: KubeRequest): Promise<KubeResponse>;
  /**
   * A watch whose events are read as JSON lines. `accept`: the Accept header instead of
   * application/json (e.g. kubectl get --watch's `application/json;as=Table;v=v1;g=meta.k8s.io`).
   */
  watch(path: string, opts?: { as?: Identity; accept?: string }): Promise<KubeWatch>;
  /** Compact the backing store at its current revision (`kube.compaction`). */
  compact?(): Promise<void>;
  /** Read a raw key of the backing store (`kube.storage`). */
  storageGet?(key: string): Promise<string | undefined>;
  /** The keys of the backing store under a prefix, read from the store itself (`kube.storage`). */
  storageKeys?(prefix: string): Promise<string[]>;
  /** Every request the backing store served, oldest first, named by the client that made it (`kube.storage.clients`). */
  storeClientLog?(): Promise<StoreClientRequest[]>;
  /** A kubeconfig file for the real kubectl (`kubectl`), acting as the default identity. */
  readonly kubeconfigPath?: string;
  /**
   * Who requests without `as` act as (the scenario's default identity, an admin), when the
   * target knows: steps use it to pick the scenario's own requests out of the request trace.
   */
  readonly identity?: Identity;
  /** Make one request authenticated with these credentials instead of the default ones (`kube.authn`). */
  requestWithCredentials?(creds: KubeCredentials, req: KubeRequest): Promise<KubeResponse>;
  /**
   * Every request the API server completed since the session opened, oldest first (`kube.audit`).
   * A real cluster may serve this from its audit log; entries of other clients may appear.
   */
  traces?(): Promise<RequestTraceEntry[]>;
  /**
   * Point the API server's webhook token authentication at a TokenReview service (`kube.authn.webhook`):
   * what --authentication-token-webhook-config-file sets on a real cluster. caBundle: base64 PEM.
   */
  configureTokenWebhook?(config: { url: string; caBundle: string }): Promise<void>;
  /**
   * Point the API server's OIDC token authentication at an issuer the suite hosts (`kube.authn.oidc`):
   * what the --oidc-* flags set on a real cluster. A prefix left out is upstream's default;
   * caBundle: base64 PEM of the CA for the issuer's serving certificate (--oidc-ca-file).
   */
  configureOidc?(config: OidcConfig): Promise<void>;
  /** The API server's --max-mutating-requests-inflight, when the target knows it (`kube.inflight-limit`). */
  readonly maxMutatingInFlight?: number;
  /**
   * A GET whose response is read raw as it streams (`kube.watch`), for the wire-format claims;
   * `http2`: over an HTTP/2 stream (TLS with ALPN h2) instead of HTTP/1.1 (`kube.http2`).
   */
  stream?(path: string, opts?: { http2?: boolean; accept?: string }): Promise<KubeRawStream>;
}

/**
 * kube-apiserver's --oidc-* flags but the CA file (pkg/kubeapiserver/options/authentication.go),
 * as the suite gives them to a target and as the reference's authenticator takes them.
 */
export interface OidcFlags {
  /** --oidc-issuer-url (https upstream). */
  issuerUrl: string;
  /** --oidc-client-id: the audience tokens must be issued to. */
  clientId: string;
  /** --oidc-username-claim, default "sub". */
  usernameClaim?: string;
  /** --oidc-username-prefix; undefined applies upstream's default rule, "-" means no prefix. */
  usernamePrefix?: string;
  /** --oidc-groups-claim; none: no groups from the token. */
  groupsClaim?: string;
  /** --oidc-groups-prefix. */
  groupsPrefix?: string;
}

/** kube-apiserver's --oidc-* flags, --oidc-ca-file's content as caBundle: base64 PEM of the CA for the issuer's serving certificate. */
export interface OidcConfig extends OidcFlags {
  caBundle: string;
}

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';

/** A new connection's first packet, as a client on or off the node sends it. */
export interface ProxyConnection {
  src: string;
  dst: string;
  port: number;
  protocol?: 'TCP' | 'UDP';
  /** Sent by a process on the node itself (nat OUTPUT) rather than arriving at it (PREROUTING). */
  fromNode?: boolean;
}

export interface ProxyConnectResult {
  outcome: 'forwarded' | 'rejected' | 'dropped' | 'no-match';
  /** "ip:port" of the backend that got the connection. */
  backend?: string;
  /** Whether the backend saw the node's address instead of the client's (SNAT). */
  masqueraded?: boolean;
}

/**
 * Facet `proxy.rules` (+ `proxy.iptables`, `proxy.ipvs`, `proxy.nftables`, `proxy.dataplane`):
 * kube-proxy on a node, read back the way an operator reads it on the node — `iptables-save`,
 * `ipvsadm -Sn`, `ipset list`, `nft list table ip kube-proxy`. A real cluster implements it over
 * a shell on the node (ssh, a privileged pod); the reference answers from its proxy's rules.
 */
export interface ProxyFacet {
  /**
   * Make sure kube-proxy runs on the node in this mode (none: the default, iptables on Linux).
   * The reference starts one; a real cluster checks the node's configured mode and fails the step
   * if it differs. A mode kube-proxy does not have must be refused as kube-proxy refuses it.
   */
  start(node: string, opts: { mode?: ProxyMode | (string & {}); ipvsScheduler?: string; kernelModules?: string[] }): Promise<void>;
  /** Running, or exited with its error. */
  status(node: string): Promise<{ running: boolean; error?: string }>;
  /** Whether the node's rules reflect every Service and EndpointSlice the API server holds now. */
  synced(node: string): Promise<boolean>;
  /** The node's address (NodePorts open on it). */
  nodeAddress(node: string): Promise<string>;
  /** `iptables-save -t TABLE` on the node. */
  iptablesSave(node: string, table: 'nat' | 'filter'): Promise<string>;
  /** `ipvsadm -Sn` on the node. */
  ipvsadmSave(node: string): Promise<string>;
  /** The members of an ipset on the node. */
  ipset(node: string, name: string): Promise<string[]>;
  /** IPv4 addresses on an interface of the node (IPVS binds ClusterIPs to kube-ipvs0). */
  interfaceAddresses(node: string, iface: string): Promise<string[]>;
  sysctl(node: string, name: string): Promise<number | undefined>;
  /** `nft list table ip kube-proxy` on the node ('' when there is no such table). */
  nftList(node: string): Promise<string>;
  /** `proxy.dataplane`: send a new connection through the node's rules and see where it went. */
  connect?(node: string, conn: ProxyConnection): Promise<ProxyConnectResult>;
  /**
   * `proxy.traffic`: real HTTP requests to dst:port from a client, through the node's rules, to
   * real backends — each on a new connection, or all on one keep-alive connection.
   */
  http?(node: string, req: { dst: string; port: number; requests: number; keepAlive: boolean }): Promise<ProxyConnectResult[]>;
}

/**
 * Facet `cluster.dns`: the cluster's DNS server (CoreDNS / kube-dns), the `nameserver` a pod's
 * resolv.conf names. Steps query it with a real resolver over UDP; a real cluster gives an address
 * the suite can reach (the kube-dns Service's ClusterIP from inside the cluster, or a forwarded port).
 */
export interface DnsFacet {
  /** Where the server answers: an IP address and a UDP port. */
  server(): Promise<{ host: string; port: number }>;
  /** The cluster domain (kubelet's --cluster-domain), e.g. cluster.local. */
  readonly clusterDomain: string;
}

/**
 * Waiting. On a virtual clock a wait drives simulated time forward until the condition holds;
 * on a real target it polls in real time. Either way the budget bounds it, and running out
 * fails the step with the description.
 */
export interface Waiter {
  until(what: string, condition: () => Promise<boolean> | boolean, budget_ms: number): Promise<void>;
}

/** One CRI call a node's runtime received, as a recording proxy in front of it would see it. */
export interface CriCallRecord {
  /** The full gRPC method, e.g. "/runtime.v1.RuntimeService/RunPodSandbox". */
  method: string;
  /** The pod (metadata.uid) the call concerns, when it names a sandbox or container of one. */
  podUid?: string;
  /** The sandbox the call names (CreateContainer: podSandboxId), or for RunPodSandbox the one it returned. */
  podSandboxId?: string;
  at_ms: number;
}

/**
 * Facet `kubelet` (+ `kubelet.probes`, `cri`): the nodes' agents and their runtimes, where a
 * scenario must reach what the API cannot. A real cluster can offer each of these: a node by
 * joining one, exec by `kubectl exec` (pods/exec), the runtime by its CRI socket on the node.
 */
/**
 * How a node and its kubelet are set up, where a scenario depends on it (`kubelet.eviction`). A
 * target that starts nodes configures them so; one whose nodes already run checks the node
 * matches and fails the step if it does not.
 */
export interface NodeConfig {
  /** The node's memory capacity, e.g. "1Gi". */
  memory?: string;
  /** The kubelet's --eviction-hard, e.g. { 'memory.available': '100Mi' }. */
  evictionHard?: Record<string, string>;
  /** `kubelet.eviction.soft`: --eviction-soft, e.g. { 'memory.available': '300Mi' }, with its --eviction-soft-grace-period ({ 'memory.available': '1m' }). */
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  /** `kubelet.eviction.soft`: --eviction-max-pod-grace-period, in seconds. */
  evictionMaxPodGracePeriod?: number;
  /** `kubelet.eviction.soft`: --eviction-minimum-reclaim, e.g. { 'memory.available': '200Mi' }. */
  evictionMinimumReclaim?: Record<string, string>;
}

/** The eviction fields of a NodeConfig, as the kubelet takes them (KubeletConfiguration's names). */
export function evictionConfigOf(config: NodeConfig): Pick<NodeConfig, 'evictionHard' | 'evictionSoft' | 'evictionSoftGracePeriod' | 'evictionMaxPodGracePeriod' | 'evictionMinimumReclaim'> {
  const { memory: _, ...eviction } = config;
  return eviction;
}

export interface NodesFacet {
  /** Node `name` exists with a kubelet behind it (the target starts one, or it is already there). */
  ensureNode(name: string, config?: NodeConfig): Promise<void>;
  /**
   * `kubelet.eviction`: processes outside any pod on the node hold `bytes` of memory from now
   * on (replacing what an earlier call held); a real cluster runs a memory hog on the node.
   */
  holdNodeMemory?(name: string, bytes: number): Promise<void>;
  /**
   * `cluster.nodes`: the node is powered off — its kubelet stops (no Lease renewal, no status
   * update, nothing more done for its pods) and stays stopped; a real cluster does this by stopping a VM.
   */
  stopNode?(name: string): Promise<void>;
  /** `kubelet.probes`: run a command in a pod's container, as `kubectl exec` does. */
  exec?(namespace: string, pod: string, container: string, command: string[]): Promise<{ exitCode: number; stdout: string }>;
  /** `cri`: the node's CRI runtime, called directly (RuntimeService and ImageService). */
  runtime?(node: string): CriRuntime;
  /** `cri`: every call the node's runtime received since the session opened. */
  criCalls?(node: string): Promise<CriCallRecord[]>;
  /** `cri`: the container's main process dies of SIGKILL on the node (as `kill -9 <pid>` there). */
  killContainerProcess?(node: string, containerId: string): Promise<void>;
  /** `cri`: RunPodSandbox on the node blocks until released (a scenario looks at the pod meanwhile). */
  holdSandboxes?(node: string): Promise<void>;
  releaseSandboxes?(node: string): Promise<void>;
  /** `cri.grpc`: the node's CRI socket, as the kubelet's --container-runtime-endpoint names it (unix:///…). */
  criEndpoint?(node: string): Promise<string>;
  /** `kubelet.runtime-endpoint`: start a second runtime of the node's kind on the machine; its endpoint. */
  startSecondRuntime?(): Promise<string>;
  /**
   * `kubelet.runtime-endpoint`: start the kubelet of node `name` with --container-runtime-endpoint
   * set to `criEndpoint`; rejects with the kubelet's own error when it exits at start.
   */
  startKubelet?(name: string, opts: { criEndpoint: string }): Promise<void>;
  /**
   * `kubelet.cert-rotation`: start the kubelet of node `name` authenticating with a client
   * certificate (CN=system:node:<name>, O=system:nodes) from the cluster's CA, valid from now for
   * `lifetime_ms`, with the kubelet's rotateCertificates as given. A real cluster does this by
   * joining a node with such a certificate and that kubelet configuration.
   */
  startKubeletWithClientCertificate?(name: string, opts: { lifetime_ms: number; rotateCertificates: boolean }): Promise<void>;
  /** `kubelet.runtime-endpoint`: a CRI client to any endpoint on the machine (as crictl --runtime-endpoint). */
  runtimeAt?(endpoint: string): CriRuntime;
  /** `cri.containerd`: the ids `ctr --namespace NS containers list --quiet` prints on the node. */
  containerdContainers?(node: string, namespace: string): Promise<string[]>;
  /** `cri.containerd`: `ctr --namespace k8s.io images tag SOURCE TARGET` on the node (CRI has no tag call). */
  tagImage?(node: string, source: string, target: string): Promise<void>;
  /**
   * `cri.images.retag`: the tag `ref` names a rebuilt image (new content, new digest) from now on
   * — pushed to the registry under the same tag and pulled again on the node, or retagged there
   * (`ctr images tag --force`). Content pulled by digest before stays reachable by its digest.
   */
  retagImage?(node: string, ref: string): Promise<void>;
}

/** One leader-elected control-plane process, as its own /healthz and /metrics report it. */
export interface ControlPlaneProcess {
  /** The instance (machine) name the scenario gave it. */
  name: string;
  /** The holderIdentity it writes into its Lease (upstream: hostname + "_" + a UUID); empty while it is down. */
  identity: string;
  alive: boolean;
  /** leader_election_master_status: it holds the Lease and acts as leader now. */
  leading: boolean;
  /**
   * Writes (POST, PUT, PATCH, DELETE) its controllers sent to the API server so far, leader
   * election's own excluded: rest_client_requests_total of its /metrics, minus the Lease's.
   */
  writes: number;
}

/**
 * Facet `cluster.ha`: several processes of each leader-elected control-plane component
 * (kube-controller-manager, kube-scheduler, cloud-controller-manager), and what an operator can
 * do to one of them on its master — kill and restart it (systemctl), freeze it (kill -STOP),
 * cut it off from the API server (a firewall rule). A real HA cluster implements it over SSH.
 */
export interface HaFacet {
  /** Run processes of `component` named `names`, each electing through Lease kube-system/<component>. */
  start(component: string, names: readonly string[]): Promise<void>;
  process(component: string, name: string): Promise<ControlPlaneProcess>;
  kill(component: string, name: string): Promise<void>;
  restart(component: string, name: string): Promise<void>;
  freeze(component: string, name: string): Promise<void>;
  thaw(component: string, name: string): Promise<void>;
  disconnect(component: string, name: string): Promise<void>;
  reconnect(component: string, name: string): Promise<void>;
  /**
   * The control plane's machines (masters, and external etcd machines), when the target can
   * kill them: what runs on each, and whether it is up. Requests through `kube` go through the
   * load balancer in front of the API servers.
   */
  machines?(): Promise<{ name: string; alive: boolean; apiServer: boolean; etcdMember?: string }[]>;
  /** Power a machine off: its API server and, if it hosts one, its etcd member stop together. */
  killMachine?(name: string): Promise<void>;
  /** One request to the API server on machine `name`, not through the load balancer. */
  requestVia?(name: string, req: KubeRequest): Promise<KubeResponse>;
  /** A watch opened on the API server on machine `name`, not through the load balancer. */
  watchVia?(name: string, path: string): Promise<KubeWatch>;
}

/** A machine in the cloud, as the provider's console shows it. */
export interface CloudMachine {
  name: string;
  zone: string;
}

/** A route in the cloud's route table for the cluster's pod network. */
export interface CloudRoute {
  destinationCIDR: string;
  targetNode: string;
}

/** A cloud load balancer, as the provider's console shows it. */
export interface CloudLoadBalancer {
  name: string;
  /** namespace/name of the Service it serves, from its description or tags. */
  service: string;
  ip: string;
  ports: { port: number; protocol: string; nodePort: number }[];
  nodes: string[];
}

/**
 * Facet `cluster.cloud`: the cloud under the cluster (simulated, or a real provider's API), as an
 * operator sees it in the provider's console: machines to start and delete, the route table,
 * load balancers. A started machine joins as a Node the way a kubelet with
 * --cloud-provider=external registers it (tainted node.cloudprovider.kubernetes.io/uninitialized).
 */
export interface CloudFacet {
  addMachine(name: string, opts?: { podCIDR?: string; zone?: string }): Promise<void>;
  /** Delete the machine in the cloud (the Node object stays until someone removes it). */
  deleteMachine(name: string): Promise<void>;
  machines(): Promise<CloudMachine[]>;
  routes(): Promise<CloudRoute[]>;
  loadBalancers(): Promise<CloudLoadBalancer[]>;
}

/**
 * Facet `controllers.stoppable`: stop the controller manager and start it again, as an operator
 * would by stopping kube-controller-manager's static pod. Starting means a fresh process: empty
 * caches, a new list and watch of everything.
 */
export interface ControllerManagerFacet {
  stop(): Promise<void>;
  /** `controllers`: kube-controller-manager's --controllers list for the new process (`controllers.flags`); default the target's own. */
  start(opts?: { controllers?: readonly string[] }): Promise<void>;
}

/** Everything one scenario sees of a target. Facets are present iff their capability is declared. */
export interface Session {
  readonly seed: number;
  readonly waiter: Waiter;
  readonly kv?: KvFacet;
  readonly members?: MembersFacet;
  readonly kvMetrics?: KvMetricsFacet;
  readonly raft?: RaftObserver;
  readonly faultSchedules?: FaultSchedulesFacet;
  readonly clock?: ClockFacet;
  readonly kube?: KubeFacet;
  readonly nodes?: NodesFacet;
  readonly ha?: HaFacet;
  readonly cloud?: CloudFacet;
  readonly controllerManager?: ControllerManagerFacet;
  readonly proxy?: ProxyFacet;
  readonly dns?: DnsFacet;
  /** Free-form facts for the failure report (member ids, ports, data dirs). */
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface ScenarioContext {
  seed: number;
  /** Scenario name and its tags, so a target can size itself (e.g. `@members:5`). */
  name: string;
  tags: readonly string[];
}

export interface Target {
  readonly name: string;
  /**
   * The contract version this target was written against (CONTRACT_VERSION of the contract it
   * imports). Plug-in targets must declare it; the CLI refuses a target whose major differs or
   * whose minor is newer than the suite's, before any scenario runs.
   */
  readonly contractVersion?: string;
  readonly capabilities: ReadonlySet<Capability>;
  /**
   * Claims this target is known to deviate from, by Rule id, with the reason. Such a
   * scenario's failure is reported as known-deviation; passing is an error (stale entry).
   * A key `<Rule id> — <scenario name>` names one scenario of a Rule (an Outline row's name has
   * its values filled in), for a target that meets the rest of the Rule.
   */
  readonly knownDeviations: ReadonlyMap<string, string>;
  /**
   * The versions of what the target runs, asked of the target itself (the kube target reads
   * /version, an etcd target asks a member), e.g. { kubernetes: '1.31.2' } or { etcd: '3.4.23' }.
   * Version-range tags on Rules (`@k8s:>=1.32`, `@etcd:<3.5`) are judged against these.
   * Called after start().
   */
  versions?(): Promise<Record<string, string>>;
  /** Once per worker process, before the first scenario. */
  start(): Promise<void>;
  /** A fresh, isolated session per scenario. */
  openSession(ctx: ScenarioContext): Promise<Session>;
  stop(): Promise<void>;
}

/** Raised by kv facets when a read or watch asks for a compacted revision. */
export class CompactedError extends Error {
  constructor(
    readonly requestedRevision: number,
    readonly compactRevision: number,
  ) {
    super(`required revision ${requestedRevision} has been compacted (compact revision ${compactRevision})`);
    this.name = 'CompactedError';
  }
}

/**
 * Why a replicated store did not carry out a request, as far as a client can tell. Kv facets raise
 * this (and only this) for a request the store did not answer with a result, so that a step can
 * tell the store's own refusal from an unrelated failure:
 * - `timeout`: the request was taken but not committed in time (etcd: "etcdserver: request timed
 *   out"; a Raft proposal a leader could not get acknowledged by a majority);
 * - `no-leader`: no member leads, or the member asked lost its leadership (etcd: "etcdserver: no
 *   leader", "etcdserver: leader changed"; a leader that stepped down under CheckQuorum);
 * - `unreachable`: the member the client spoke to is down or did not answer the connection. That
 *   says nothing about the store's protocol; a client tries another member.
 * The first two are the protocol's refusals.
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly reason: 'timeout' | 'no-leader' | 'unreachable',
    message: string,
    override readonly cause?: unknown,
  ) {
    super(`${reason}: ${message}`);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The version of this contract: major changes break targets written against an older one;
 * minor ones add optional facets or capabilities. Every report states it.
 */
export const CONTRACT_VERSION = '1.1';
