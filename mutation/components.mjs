/**
 * What `npm run mutation -- <component>` mutates, and the features whose scenarios must kill
 * the mutants. The score is the feature suite's alone (issue 16): no unit test runs, so a
 * surviving mutant is a wrong implementation some Rule's scenario should have rejected.
 *
 * Each entry is kept small enough to finish in a few minutes on a shared 2-core machine: every
 * mutant runs its features once (the command runner cannot measure per-scenario coverage).
 */
export const COMPONENTS = {
  'scheduler-tainttoleration': {
    // reference/tolerations.ts: ToleratesTaint, which the plugin (and the taint eviction controller) match with.
    mutate: ['reference/scheduler/plugins/tainttoleration/index.ts', 'reference/tolerations.ts'],
    features: ['features/scheduler/taints.feature', 'features/scheduler/filter-score-bind.feature'],
  },
  // The scheduler (issue 16): one scheduling cycle (filter over the nodes, score the feasible
  // ones, select among the best, the unschedulable message) and the two plugins behind the
  // notes' filter and score claims: NodeResourcesFit (requests against allocatable, least
  // allocated) and NodeAffinity (nodeSelector, required and weighted preferred terms).
  // TaintToleration has its own component above. Left for later runs (each scheduler mutant
  // schedules pods in a cluster per scenario; the whole scheduler is hours on a shared machine):
  // the framework's runners and profiles, queue.ts and scheduler.ts, BalancedAllocation,
  // ImageLocality, NodeUnschedulable, InterPodAffinity, DefaultPreemption, PodTopologySpread.
  scheduler: {
    mutate: ['reference/scheduler/cycle.ts', 'reference/scheduler/plugins/noderesources/index.ts', 'reference/scheduler/plugins/nodeaffinity/index.ts'],
    // priority-preemption.feature too: the cycle hands PostFilter's nomination and victims to the
    // scheduler, and only a preemption that happens shows that. Not the eviction scenarios
    // (tolerationSeconds, NoExecute with a kubelet):
    // they are about the taint eviction controller and cost seconds each. A narrower set can
    // only lower the score.
    features: ['features/scheduler/filter-score-bind.feature', 'features/scheduler/affinity.feature', 'features/scheduler/taints.feature', 'features/scheduler/framework.feature', 'features/scheduler/priority-preemption.feature'],
    tags: 'not @requires:controllers.tainteviction and not @requires:kubelet',
  },
  'proxy-iptables': {
    mutate: ['reference/proxy/iptables/proxier.ts'],
    // kube-proxy's default mode is iptables: the Service scenarios go through this file too.
    features: ['features/proxy/iptables-vs-ipvs.feature', 'features/proxy/service.feature'],
  },
  // The Raft core. Every scenario on the replicated store goes through it, so a whole-file run
  // takes hours on a shared machine: narrow it to a line range, most important first, e.g.
  // KUBESPEC_MUTATE='reference/raft/raft.ts:230-470' npm run mutation -- raft (stryker.config.mjs).
  raft: {
    mutate: ['reference/raft/raft.ts', 'reference/raft/log.ts'],
    features: ['features/etcd/raft-roles.feature', 'features/etcd/consistency.feature', 'features/etcd/write-flow.feature', 'features/etcd/cluster-size.feature'],
  },
  // The MVCC store each member applies to (revisions, key index, watches, compaction).
  store: {
    mutate: ['reference/store/mvcc.ts', 'reference/store/key-index.ts', 'reference/store/watch-hub.ts'],
    // Not key-layout.feature: it is about the API server's keys, and its Pod row is a known deviation.
    features: ['features/etcd/mvcc-watch.feature', 'features/etcd/backup-restore.feature', 'features/etcd/consistency.feature'],
  },
  // The store's watch hub killed by the suite as a whole (issue 16): the kv features above, plus
  // the API server's watch-stream.feature. Half of watch-hub.ts is the trigger index (backend.ts
  // WatchTrigger): a store offers a change only to the watchers whose trigger value the key has
  // now or had before. Only the API server registers a trigger (watch.ts nodeNameTrigger: a pod
  // watch with fieldSelector spec.nodeName=<node>, a kubelet's), so the kv features cannot reach
  // that code, and under `store` its mutants counted as without coverage. watch-stream.feature's
  // WATCH-SELECTOR and WATCH-BOOKMARKS scenarios watch pods by spec.nodeName, and a trigger index
  // that loses or misroutes a change fails them. These features belong to the store's
  // run because the store's contract (a triggered watcher still gets every change it wants) is
  // only observable through them. `store` keeps the kv features alone, so its figures stay
  // comparable with earlier runs; score the store as a whole from both (docs/mutation.md).
  // Not watch.feature (no field selector) nor informer.feature (a controller manager a mutant).
  'store-watch-hub': {
    mutate: ['reference/store/watch-hub.ts'],
    features: ['features/etcd/mvcc-watch.feature', 'features/etcd/backup-restore.feature', 'features/etcd/consistency.feature', 'features/apiserver/watch-stream.feature'],
  },
  // The RBAC authorizer (issue 16): binding walk, subjects, and the rule matcher it relies on.
  // node.ts, escalation.ts and aggregation.ts are left for a later run.
  'apiserver-authz': {
    mutate: ['reference/apiserver/authz/rbac.ts', 'reference/apiserver/authz/rules.ts'],
    features: ['features/apiserver/rbac.feature', 'features/apiserver/pipeline.feature'],
  },
  // The API server's watch: events from the store, selector filtering, bookmarks, timeouts.
  // Not informer.feature: it reaches watch.ts too, but every scenario runs the controller manager
  // (seconds a mutant); the watch's own Rules are in these two.
  // coverageAnalysis 'all': a watch's events go out from timers and queued promises, after the
  // scenario that started them may have ended, and per-scenario coverage credited some mutants to
  // scenarios that never see them (a mutant reported surviving failed under `kubespec run`).
  // The fault seams are one `seams()` function under `Stryker disable all`; the trigger index and the
  // events.ts caches carry `Stryker disable` comments for their equivalent mutants (docs/mutation.md,
  // "apiserver-watch, 2026-12-02 (second session)"). On a loaded machine 'all' tests about one mutant
  // a minute; KUBESPEC_MUTATION_COVERAGE=perTest with KUBESPEC_MUTATE ranges is 5-10 times faster.
  'apiserver-watch': {
    coverageAnalysis: 'all',
    mutate: ['reference/apiserver/watch/watch.ts', 'reference/apiserver/watch/events.ts'],
    features: ['features/apiserver/watch.feature', 'features/apiserver/watch-stream.feature'],
  },
};
