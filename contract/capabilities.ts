/**
 * The capability vocabulary. A scenario names what it needs with `@requires:<capability>`;
 * a target declares what it offers. A scenario whose needs a target does not declare is
 * reported not-applicable, naming the missing capability — never silently skipped.
 *
 * `kubespec claims --check` rejects any `@requires:` tag that is not a key here.
 */
export const CAPABILITIES = {
  // Key-value store (etcd's contract).
  'kv': 'a key-value store with one global revision: put, get, range, delete, compare-and-swap txn',
  'kv.watch': 'watch a key or prefix from any retained revision: replay, then live events',
  'kv.compaction': 'compact history up to a revision; reads and watches below it fail as compacted',
  'kv.snapshot': 'save a consistent snapshot and restore it into a fresh member',
  'kv.members': 'a replicated store whose members can be listed, killed and restarted; its leader is visible',
  'kv.members.5': 'the replicated store can be started with five members',
  'raft.observe': 'Raft internals are observable: per-member role, term, log, commit index, message counts',
  'net.partition': 'members can be cut off from each other and healed',
  'disk.latency': "a member's disk can be made slow: every sync of its write-ahead log takes a chosen time",
  'kv.fault-schedules': 'seeded fault schedules (crashes, partitions, message loss, duplication, reordering) can be run against a fresh replicated store with concurrent clients, and the client history handed back',
  'clock.virtual': 'time is virtual: the control API advances it instantly',
  // Kubernetes API.
  'kube.api': 'the Kubernetes REST API over HTTP(S): get, list, watch, create, update, patch, delete',
  'kube.watch': 'watch over the API with resourceVersion, chunked newline-delimited events',
  'kube.compaction': 'the control API can compact the API server\'s backing store so old resourceVersions expire',
  'kube.rbac': 'RBAC authorization is enforced and requests can be made as other users and service accounts',
  'kube.authn': 'authentication can be exercised: client certificates, bearer tokens, anonymous requests',
  'kube.authn.anonymous': 'anonymous authentication is on (kube-apiserver\'s default): a request without credentials is system:anonymous',
  'kube.authn.anonymous-off': 'the API server can run with anonymous authentication off (--anonymous-auth=false): a request without credentials is 401',
  'kube.admission': 'admission webhooks can be registered and are called',
  'kube.admission.quota': 'the ResourceQuota admission plugin runs: a create past a namespace\'s ResourceQuota object count is refused (on by default upstream)',
  'kube.audit': 'the request pipeline is observable: a per-request trace of the stages passed',
  'kube.storage': 'the keys the API server writes in its store are readable (/registry/...)',
  'kube.storage.clients': 'the backing store\'s client log is readable: each request it served, with the identity of the client that made it (etcd: its client certificate)',
  'kube.podsecurity': 'Pod Security admission runs: pod-security.kubernetes.io/enforce|warn|audit namespace labels apply the Pod Security Standards (on by default since Kubernetes 1.25)',
  'kubectl': 'the real kubectl binary can be pointed at the target',
  'kube.inflight-limit': 'the API server\'s max-in-flight limit for mutating requests is known and small enough to reach (KubeFacet.maxMutatingInFlight)',
  'kv.metrics': 'the store serves its own Prometheus metrics (etcd\'s /metrics: etcd_disk_wal_fsync_duration_seconds, etcd_server_leader_changes_seen_total, …)',
  'kube.authn.webhook': 'the API server\'s webhook token authentication can be pointed at a TokenReview service the suite hosts',
  'kubelet.cert-rotation': 'a kubelet can be started with a client certificate of a given lifetime from the cluster CA and rotateCertificates on or off (NodesFacet.startKubeletWithClientCertificate)',
  'controllers.csrapproving': 'the CSR approving controller runs: a node\'s request for its own kubelet client certificate is approved when a SubjectAccessReview allows certificatesigningrequests/selfnodeclient',
  'controllers.csrsigning': 'the CSR signing controller runs: approved kubernetes.io/kube-apiserver-client-kubelet requests are signed with the cluster CA',
  'kube.authn.oidc': 'the API server\'s OIDC token authentication (--oidc-issuer-url, --oidc-client-id, …) can be pointed at an issuer the suite hosts',
  'kube.metrics': 'GET /metrics on the API server answers its Prometheus metrics (apiserver_request_total, apiserver_request_duration_seconds, etcd_request_duration_seconds)',
  'kube.http2': 'the API is served over HTTP/2 too (TLS with ALPN h2), and a watch can be read as one HTTP/2 stream',
  'kube.crd.conversion-webhook': 'the API server can reach a CRD conversion webhook the suite hosts (steps/support/webhook-server.ts; KUBESPEC_WEBHOOK_HOST for a remote cluster)',
  // Cluster behaviour.
  'cluster.controllers': 'the controller manager runs: deployment, replicaset, job, ttl-after-finished, node (incl. taint-based eviction), endpointslice, serviceaccount, namespace, garbage-collector and clusterrole-aggregation controllers',
  // One capability per controller as the reference grows them, so a target that runs only some
  // is not credited with the rest.
  'controllers.serviceaccount': 'the serviceaccounts controller runs: every namespace gets (and keeps) a `default` ServiceAccount',
  'controllers.deployment': 'the Deployment controller runs: ReplicaSets per pod template, rolling update and Recreate, revisions and history, Available/Progressing conditions',
  'controllers.garbagecollector': 'the garbage collector runs: dependents of a deleted owner are deleted (Background, Foreground) or orphaned (Orphan); blockOwnerDeletion holds a foreground owner',
  'controllers.nodelifecycle': 'the node lifecycle controller runs: a node silent past the grace period goes Ready=Unknown; conditions map to not-ready/unreachable NoExecute and pressure NoSchedule taints',
  'controllers.tainteviction': 'the taint eviction controller runs: pods on a NoExecute-tainted node are deleted when their tolerations run out (DefaultTolerationSeconds admission gives 300 s)',
  'controllers.replicaset': 'the ReplicaSet controller runs: replicas kept, pods adopted and released by selector, surplus deleted worst first',
  'controllers.job': 'the Job controller runs: pods until spec.completions succeed (NonIndexed, Indexed, work queue), parallelism, backoffLimit and activeDeadlineSeconds, conditions Complete/Failed',
  'controllers.ttlafterfinished': 'the TTL-after-finished controller runs: a finished Job with ttlSecondsAfterFinished is deleted (with its pods) that long after it finished',
  'controllers.disruption': 'the disruption controller runs: PodDisruptionBudget status (currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed, DisruptionAllowed), which the Eviction API spends',
  'controllers.endpointslice': 'the EndpointSlice controller runs: every Service with a selector gets EndpointSlices (managed-by endpointslice-controller.k8s.io, at most 100 endpoints each) listing its pods with ready/serving/terminating conditions',
  'controllers.endpoint': 'the legacy Endpoints controller runs: every Service with a selector gets an Endpoints object of its name, ready pods under addresses and the others under notReadyAddresses',
  'controllers.namespace': 'the namespace controller runs: a deleted namespace is Terminating (finalizer `kubernetes`) until everything in it is deleted, then it goes',
  'controllers.clusterrole-aggregation': 'the clusterrole-aggregation controller runs: a ClusterRole with an aggregationRule holds the union of the rules of the ClusterRoles its selectors match, kept current (admin, edit and view are built this way)',
  'controllers.leader-elect': 'kube-controller-manager runs with --leader-elect (upstream\'s default): its one process holds the Lease kube-system/kube-controller-manager while its controllers run',
  'controllers.flags': 'the controller manager can be restarted through the control API with another --controllers list (`*`, `foo`, `-foo`)',
  'controllers.podgc': 'the pod garbage collector runs: pods bound to a node that no longer exists are marked Failed (DisruptionTarget, DeletionByPodGC) and force-deleted after a 40 s quarantine; terminated pods beyond --terminated-pod-gc-threshold and terminating unscheduled pods are force-deleted',
  'controllers.stoppable': 'the controller manager can be stopped and started again through the control API (a fresh process: new lists and watches)',
  'cluster.scheduler': 'the scheduler runs and binds pods',
  // What any working cluster offers without a control API: the steps use a node it already has.
  'cluster.workloads': 'workloads run end to end on the nodes the cluster has: a pod created through the API is bound by the scheduler to a Ready node and run there by its kubelet to Running (on the reference, the scenario starts a node with a kubelet)',
  'cluster.nodes': 'nodes can be added, stopped (heartbeats cease) and restarted through the control API',
  'scheduler.recorder-profile': 'the scheduler runs a profile "kubespec-recorder" with an out-of-tree plugin at every extension point that writes down where it was called (annotation scheduler.kubespec.io/extension-points, Event PostBind) — reference-only, for the claims about the framework itself',
  'cluster.ha': 'several API servers, schedulers and controller managers run with leader election',
  'cluster.cloud': 'a cloud-controller-manager runs against a (simulated or real) cloud provider',
  'cluster.without-cloud': 'a scenario can have a cluster with no cloud provider integrated: no cloud-controller-manager, kubelets without --cloud-provider=external',
  // Node.
  'kubelet': 'kubelets run pods through a container runtime and report status',
  'kubelet.probes': 'probe outcomes can be driven: a container can be made to fail liveness/readiness/startup',
  'cri': 'a CRI runtime service and image service can be called directly',
  'cri.grpc': 'the CRI runtime is reached over its gRPC socket (runtime.v1 on the wire), not only through a client library',
  'cri.containerd': 'the node\'s runtime is containerd and its own client (`ctr`) can be run on the node: containerd\'s namespaces, containers and image tags as containerd sees them',
  'cri.events': 'the runtime serves CRI\'s GetContainerEvents stream of container lifecycle events (containerd from 1.7; 1.6 answers UNIMPLEMENTED)',
  'kubelet.runtime-endpoint': 'a kubelet can be started against another CRI endpoint (--container-runtime-endpoint): a second runtime on the machine, or any gRPC socket',
  'kubelet.eviction': 'the kubelet evicts pods under node pressure (--eviction-hard memory.available), and memory can be taken on a node outside any pod',
  'kubelet.eviction.soft': 'the kubelet takes --eviction-soft with its grace period, --eviction-max-pod-grace-period and --eviction-minimum-reclaim for memory.available, and scenarios wait out grace periods of minutes on a virtual clock',
  'cri.images.retag': 'an image tag on a node can be moved to a rebuilt image (new content and digest) while earlier content stays pullable by digest; images pulled by digest resolve by digest',
  'kubelet.probes.grpc': 'the kubelet runs grpc probes (the gRPC health protocol) against containers that serve it',
  // Service proxy.
  'proxy.rules': 'kube-proxy programs rules that can be read back (iptables chains, nft sets, IPVS virtual servers)',
  'proxy.iptables': 'kube-proxy in iptables mode',
  'proxy.ipvs': 'kube-proxy in IPVS mode (needs the kernel ip_vs modules)',
  'proxy.nftables': 'kube-proxy in nftables mode',
  'proxy.traffic': 'connections to a Service IP are really forwarded and can be counted per backend',
  'proxy.dataplane': 'new connections can be sent through a node\'s proxy rules and the chosen backend read back (the reference evaluates the rules it generated in a model of the kernel\'s tables; a real node sends packets)',
  // Service discovery.
  'cluster.dns': 'a cluster DNS server (CoreDNS with its kubernetes plugin, or kube-dns) answers for Services and Pods under the cluster domain, and the suite can send it queries over UDP (DnsFacet.server)',
} as const;

export type Capability = keyof typeof CAPABILITIES;

export function isCapability(name: string): name is Capability {
  return Object.hasOwn(CAPABILITIES, name);
}
