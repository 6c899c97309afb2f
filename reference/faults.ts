/**
 * Fault models: named, documented wrong variants of the reference — each the kind of mistake a
 * real implementation ships. `kubespec run --target reference --fault <name>` runs the suite
 * against one; `kubespec selftest` runs it against every one and fails if a fault goes uncaught
 * (a suite that cannot fail proves nothing). docs/faults.md is the gallery.
 *
 * How a fault reaches a core: the reference adapter reads the run's fault names once and passes
 * them down as a `Faults` set through the options each core already takes (ApiServerOptions,
 * RaftBackendOptions → SimBugs → RaftBugs, SecurityOptions, ...). A core consults only the set
 * it was given: no core reads a global or the environment, and without faults every seam is the
 * reference's own behaviour.
 */

/** The component a fault breaks; selftest runs only the features that component's Rules live in. */
export interface FaultModel {
  component: string;
  /** What goes wrong, and the real-world mistake it stands for. */
  description: string;
  /** The feature files whose scenarios should catch it (globs under features/). */
  features: readonly string[];
}

const RAFT = ['features/etcd/raft-roles.feature', 'features/etcd/consistency.feature', 'features/etcd/write-flow.feature', 'features/etcd/cluster-size.feature', 'features/ha/etcd-topology-and-load-balancing.feature'];
const STORE = ['features/etcd/mvcc-watch.feature', 'features/etcd/key-layout.feature', 'features/etcd/backup-restore.feature', 'features/etcd/consistency.feature'];
const WATCH = ['features/apiserver/watch.feature', 'features/apiserver/watch-stream.feature', 'features/apiserver/informer.feature', 'features/apiserver/storage-interaction.feature'];
const LIST = ['features/apiserver/list.feature', 'features/apiserver/watch.feature', 'features/apiserver/storage-interaction.feature'];
const PIPELINE = ['features/apiserver/pipeline.feature', 'features/apiserver/single-entry.feature'];
const RBAC = ['features/apiserver/rbac.feature', 'features/apiserver/pipeline.feature', 'features/practices/pitfalls.feature'];
const STORAGE = ['features/apiserver/storage-interaction.feature', 'features/apiserver/pipeline.feature', 'features/apiserver/single-entry.feature'];
const PROBES = ['features/kubelet/probes.feature'];
const PROXY = ['features/proxy/service.feature', 'features/proxy/iptables-vs-ipvs.feature'];
const LEADER = ['features/ha/control-plane-ha.feature'];
const DNS = ['features/dns/service-discovery.feature'];

export const FAULTS = {
  // ---- Raft (reference/raft, reference/sim) -------------------------------------------------
  'commit-without-majority': {
    component: 'raft',
    description: 'The leader counts an entry committed as soon as it is in its own log, without waiting for a majority of voters to hold it (§5.3).',
    features: RAFT,
  },
  'vote-for-stale-log': {
    component: 'raft',
    description: 'A member grants its vote without the §5.4.1 up-to-date check, so a candidate missing committed entries can win and overwrite them.',
    features: RAFT,
  },
  'two-leaders-one-term': {
    component: 'raft',
    description: 'A member votes for every candidate that asks in a term instead of once per term (§5.2), so two candidates can both reach a majority in the same term.',
    features: RAFT,
  },
  'stale-leader-read': {
    component: 'raft',
    description: 'A member that believes it leads answers reads from its own state machine without a ReadIndex round, so a deposed leader serves stale data.',
    features: RAFT,
  },
  'leader-never-steps-down': {
    component: 'raft',
    description: 'No CheckQuorum: a leader cut off in a minority keeps leading (and accepting proposals that can never commit) instead of stepping down.',
    features: RAFT,
  },
  'commit-older-term': {
    component: 'raft',
    description: 'A new leader commits an entry of an older term by counting its replicas (the Figure 8 bug): an entry that can still be overwritten is reported committed.',
    features: RAFT,
  },
  'no-pre-vote': {
    component: 'raft',
    description: 'No PreVote (etcd 3.4\'s default): a member cut off from the others bumps its term at every election timeout, and when it rejoins its higher term forces a healthy leader to step down.',
    features: RAFT,
  },
  // ---- MVCC store (reference/store) ---------------------------------------------------------
  'compaction-keeps-history': {
    component: 'store',
    description: 'Compaction moves the compacted revision but reads at older revisions still answer instead of failing with "required revision has been compacted".',
    features: STORE,
  },
  'watch-misses-compaction': {
    component: 'store',
    description: 'A store watch that starts below the compact revision is not cancelled (etcd cancels it with ErrCompacted); it silently replays only what is kept, hiding the gap.',
    features: STORE,
  },
  'delete-missing-bumps-revision': {
    component: 'store',
    description: 'Deleting a key that does not exist still takes a new revision, as if every delete were a change.',
    features: STORE,
  },
  // ---- API server: watch and lists (reference/apiserver/watch, handlers/read.ts) ------------
  'watch-never-410': {
    component: 'apiserver/watch',
    description: 'A watch from a compacted resourceVersion silently starts from the oldest revision kept instead of answering 410 Expired, so informers never relist and miss changes.',
    features: WATCH,
  },
  'watch-drops-deletes': {
    component: 'apiserver/watch',
    description: 'The watch stream never sends DELETED events, so caches keep objects that are gone.',
    features: WATCH,
  },
  'selector-negation-ignored': {
    component: 'apiserver/lists',
    description: 'Label selector terms with `!=`, `notin` and `!key` are dropped, so a list or watch returns objects the selector excludes.',
    features: LIST,
  },
  'continue-ignored': {
    component: 'apiserver/lists',
    description: 'The continue token is ignored: every page of a paged list is the first page again.',
    features: LIST,
  },
  'list-ignores-limit': {
    component: 'apiserver/lists',
    description: 'limit is ignored: a list returns every object in one page and no continue token.',
    features: LIST,
  },
  'field-selector-ignored': {
    component: 'apiserver/lists',
    description: 'A field selector is validated but not applied: a list returns objects whose fields do not match.',
    features: LIST,
  },
  'list-resourceversion-ignored': {
    component: 'apiserver/lists',
    description: 'A list at an exact resourceVersion (resourceVersionMatch=Exact) is served from the latest revision instead of that one.',
    features: LIST,
  },
  'watch-no-initial-events': {
    component: 'apiserver/watch',
    description: 'A watch with no resourceVersion, or from "0", does not first deliver the current objects as ADDED events.',
    features: WATCH,
  },
  'watch-no-bookmarks': {
    component: 'apiserver/watch',
    description: 'A watch that allows bookmarks never gets one, so a quiet watch cannot resume from a recent resourceVersion.',
    features: WATCH,
  },
  // ---- API server: storage writes (handlers/guaranteed-update.ts) ---------------------------
  'resourceversion-unchecked': {
    component: 'apiserver/storage',
    description: 'An update carrying a stale metadata.resourceVersion is applied instead of failing 409 Conflict: lost updates between concurrent writers.',
    features: STORAGE,
  },
  // ---- API server: authentication, authorization, admission ---------------------------------
  'rbac-allows-all': {
    component: 'apiserver/authz',
    description: 'The authorizer allows every request from an authenticated user: RBAC configured but not enforced.',
    features: RBAC,
  },
  'rbac-escalation-allowed': {
    component: 'apiserver/authz',
    description: 'Writes of Roles and bindings skip the escalation check: anyone who may create a RoleBinding can grant himself any role.',
    features: RBAC,
  },
  'rbac-rolebinding-cluster-wide': {
    component: 'apiserver/authz',
    description: 'A RoleBinding grants its rules in every namespace, not only its own.',
    features: RBAC,
  },
  'x509-ignores-organization': {
    component: 'apiserver/authn',
    description: 'A client certificate authenticates its Common Name but its Organizations are not made the user\'s groups.',
    features: PIPELINE,
  },
  'rbac-group-subjects-ignored': {
    component: 'apiserver/authz',
    description: 'Bindings whose subject is a Group never match: only User and ServiceAccount subjects are checked.',
    features: RBAC,
  },
  'schema-validation-skipped': {
    component: 'apiserver/admission',
    description: 'Object validation is skipped: an object missing required fields reaches validating admission and the store.',
    features: PIPELINE,
  },
  'inflight-limit-ignored': {
    component: 'apiserver/flowcontrol',
    description: '--max-mutating-requests-inflight / --max-requests-inflight are ignored: a client over its share is never answered 429.',
    features: PIPELINE,
  },
  'replicaset-deletes-ready-first': {
    component: 'controllers',
    description: 'Scaling a ReplicaSet down deletes its ready, long-running pods first instead of unscheduled, pending and not-ready ones (ActivePodsWithRanks reversed).',
    features: ['features/controllers/replicaset.feature', 'features/controllers/deployment.feature'],
  },
  'job-backoff-off-by-one': {
    component: 'controllers',
    description: 'The Job controller fails a Job once backoffLimit pods have failed instead of backoffLimit + 1: the limit counts retries, not attempts, and one retry is lost.',
    features: ['features/controllers/job.feature'],
  },
  'noexecute-never-evicts': {
    component: 'controllers',
    description: 'A NoExecute taint is treated like NoSchedule: pods already running on the node that do not tolerate it are never evicted.',
    features: ['features/controllers/node.feature', 'features/scheduler/taints.feature'],
  },
  'tolerationseconds-ignored': {
    component: 'controllers',
    description: 'A toleration\'s tolerationSeconds is ignored: a pod that tolerates a NoExecute taint for a while stays bound forever.',
    features: ['features/controllers/node.feature', 'features/scheduler/taints.feature'],
  },
  'serviceaccount-controller-idle': {
    component: 'controllers',
    description: 'The controller manager runs without the ServiceAccount controller: a new namespace never gets its `default` ServiceAccount.',
    features: ['features/overview/controller-manager.feature', 'features/apiserver/pipeline.feature'],
  },
  'admission-order-swapped': {
    component: 'apiserver/admission',
    description: 'Validating admission runs before mutating admission, so validators check an object that mutators then change.',
    features: PIPELINE,
  },
  'anonymous-always-on': {
    component: 'apiserver/authn',
    description: '--anonymous-auth=false is ignored: a request without credentials is system:anonymous instead of 401 Unauthorized.',
    features: ['features/apiserver/pipeline.feature', 'features/apiserver/rbac.feature', 'features/apiserver/single-entry.feature'],
  },
  'podsecurity-not-enforced': {
    component: 'apiserver/admission',
    description: 'The PodSecurity admission plugin never rejects: the enforce level of a namespace is read but not applied.',
    features: ['features/apiserver/pod-security.feature'],
  },
  // ---- kube-scheduler (reference/scheduler, reference/wiring/scheduler.ts) --------------------
  'noschedule-taint-ignored': {
    component: 'scheduler',
    description: 'TaintToleration filters only on NoExecute taints and forgets NoSchedule, so new intolerant pods land on a NoSchedule node.',
    features: ['features/scheduler/taints.feature', 'features/scheduler/filter-score-bind.feature'],
  },
  'scores-not-normalized': {
    component: 'scheduler',
    description: 'The framework adds the plugins\' raw Score results without running NormalizeScore, so a reversed score (TaintToleration: untolerated PreferNoSchedule taints) counts the wrong way round and raw ranges swamp the weights.',
    features: ['features/scheduler/taints.feature', 'features/scheduler/filter-score-bind.feature', 'features/scheduler/affinity.feature'],
  },
  'preempts-equal-priority': {
    component: 'scheduler',
    description: 'DefaultPreemption picks victims of priority lower than or equal to the preemptor\'s (<= for <), so a pod evicts its peers of the same class.',
    features: ['features/scheduler/priority-preemption.feature'],
  },
  'binds-without-subresource': {
    component: 'scheduler',
    description: 'The scheduler binds by patching the pod\'s spec.nodeName instead of POSTing to pods/binding (which the API server refuses, as spec.nodeName is immutable once set through an update), so no pod is ever bound.',
    // Every scheduling scenario fails slowly with it (each waits out its timeout): the binding Rule's file only.
    features: ['features/scheduler/filter-score-bind.feature'],
  },
  // ---- kubelet (reference/kubelet) ----------------------------------------------------------
  'readiness-ignored': {
    component: 'kubelet',
    description: 'The kubelet reports a running container ready whatever its readiness probe says, so a Pod failing its readiness probe stays Ready (and in its Services\' endpoints).',
    features: PROBES,
  },
  'crashloop-no-backoff': {
    component: 'kubelet',
    description: 'A container that exits is restarted at once every time: no CrashLoopBackOff (10 s doubling to 300 s).',
    features: ['features/kubelet/pod-lifecycle.feature', 'features/kubelet/node-agent.feature'],
  },
  'success-threshold-ignored': {
    component: 'kubelet',
    description: 'A probe result flips to success after one success whatever successThreshold says.',
    features: PROBES,
  },
  'init-containers-not-waited': {
    component: 'kubelet',
    description: 'App containers start without waiting for the init containers to finish (each must exit 0, in order, first).',
    features: ['features/kubelet/node-agent.feature', 'features/kubelet/pod-lifecycle.feature'],
  },
  'startup-not-gating': {
    component: 'kubelet',
    description: 'Liveness and readiness probes run while the startup probe has not yet succeeded, so a slow starter is killed by its liveness probe.',
    features: PROBES,
  },
  'probe-3xx-fails': {
    component: 'kubelet',
    description: 'An httpGet probe counts only 2xx as success, so a probe answered with a redirect (3xx) fails.',
    features: PROBES,
  },
  'liveness-never-restarts': {
    component: 'kubelet',
    description: 'A failed liveness probe is reported (Unhealthy) but the container is never killed and restarted.',
    features: PROBES,
  },
  // ---- kube-proxy (reference/proxy) ---------------------------------------------------------
  'proxy-includes-not-ready': {
    component: 'proxy',
    description: 'kube-proxy programs every endpoint of a slice, ready or not, so traffic reaches Pods failing their readiness probe and terminating ones while ready ones exist.',
    features: PROXY,
  },
  'iptables-probability-not-cumulative': {
    component: 'proxy',
    description: 'iptables mode gives every KUBE-SVC rule probability 1/n instead of 1/(n-i), so later endpoints get more than their share and the last one most.',
    features: PROXY,
  },
  'iptables-first-endpoint-only': {
    component: 'proxy',
    description: 'iptables mode jumps to the first endpoint\'s KUBE-SEP chain unconditionally: every connection goes to one backend.',
    features: PROXY,
  },
  'iptables-affinity-not-sticky': {
    component: 'proxy',
    description: 'iptables mode writes the -m recent --set rules but no --rcheck rules: sessionAffinity ClientIP is ignored.',
    features: PROXY,
  },
  'iptables-no-reject': {
    component: 'proxy',
    description: 'A Service without endpoints gets no REJECT rule in iptables mode, so connections to it hang (or leave the node) instead of being refused at once.',
    features: PROXY,
  },
  'ipvs-persistence-ignored': {
    component: 'proxy',
    description: 'IPVS mode creates virtual servers without persistence: sessionAffinity ClientIP is ignored.',
    features: PROXY,
  },
  'nft-map-first-port-only': {
    component: 'proxy',
    description: 'nftables mode adds only the first port of a multi-port Service to the service-ips verdict map, so the other ports are not forwarded.',
    features: PROXY,
  },
  // ---- leader election (reference/leaderelection) -------------------------------------------
  'lease-taken-before-expiry': {
    component: 'leaderelection',
    description: 'A standby takes over a Lease held by another instance without waiting for it to expire (no observedTime + leaseDuration check): two leaders at once.',
    features: LEADER,
  },
  'leader-ignores-renew-deadline': {
    component: 'leaderelection',
    description: 'A leader that cannot renew keeps leading past the renew deadline, so it still acts when a standby takes the expired Lease over: two leaders at once.',
    features: LEADER,
  },
  // ---- cluster DNS (reference/dns) -----------------------------------------------------------
  'dns-headless-as-clusterip': {
    component: 'dns',
    description: 'A headless Service (clusterIP None) is answered like a ClusterIP one, from its ClusterIPs — it has none, so its name resolves to nothing instead of its endpoints.',
    features: DNS,
  },
  'dns-nxdomain-for-missing-type': {
    component: 'dns',
    description: 'A name that exists but has no record of the asked type (AAAA of an IPv4 Service) is answered NXDOMAIN instead of NODATA, so a resolver asking AAAA first concludes the Service does not exist.',
    features: DNS,
  },
  'dns-includes-not-ready': {
    component: 'dns',
    description: 'A headless Service answers every endpoint of its slices, ready or not, so clients are sent to Pods failing their readiness probe.',
    features: DNS,
  },
  'dns-srv-target-port': {
    component: 'dns',
    description: 'The SRV record of a ClusterIP Service\'s named port carries the targetPort (the Pods\' port) instead of the Service port the ClusterIP listens on.',
    features: DNS,
  },
} as const satisfies Record<string, FaultModel>;

export type FaultName = keyof typeof FAULTS;

/** The faults one reference run injects; empty for the reference as it should be. */
export type Faults = ReadonlySet<FaultName>;

export const NO_FAULTS: Faults = new Set();

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** `a,b` → the set; throws on a name not in the registry. */
export function parseFaults(text: string | undefined): Faults {
  const names = (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const n of names) if (!isFaultName(n)) throw new Error(`unknown fault "${n}" (see docs/faults.md or kubespec selftest --list)`);
  return new Set(names as FaultName[]);
}
