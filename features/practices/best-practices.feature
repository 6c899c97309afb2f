@component:practices
Feature: Best practices
  Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践

  Five practices. Monitoring and backup schedules are operator advice; separating masters by
  taint, restore drills, PodDisruptionBudgets and priorities rest on mechanisms that scenarios
  can check.

  Rule: PRACTICE-MONITOR-CONTROL-PLANE — the API server exposes its request count, errors and latency, and its etcd latency, as Prometheus metrics under upstream's names
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
    Claim: Monitor the API server's request latency and error rate (apiserver_request_duration_seconds),
      etcd's leader changes and proposal commit latency, and the scheduler's latency and number of
      Pending Pods. Monitoring needs the numbers to be there: kube-apiserver serves GET /metrics in the
      Prometheus text format with apiserver_request_total (by verb, resource and code — the error rate),
      apiserver_request_duration_seconds (a histogram — the latency) and etcd_request_duration_seconds (its
      calls to etcd) (staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go,
      staging/src/k8s.io/apiserver/pkg/storage/etcd3/metrics/metrics.go). The scenarios check the API
      server's part; etcd's own leader-change and proposal counters and the scheduler's are not scraped yet.
    Quote: "监控 API Server 的请求延迟、错误率（`apiserver_request_duration_seconds`）。"

    @requires:kube.api @requires:kube.metrics
    Scenario: a create and a failed get show up in apiserver_request_total by verb, resource and code
      Given the API server's metrics are scraped as "before"
      When the client creates ConfigMap "m1"
      And the client gets ConfigMap "missing"
      And the API server's metrics are scraped as "after"
      Then the scrape is in the Prometheus text format, with "apiserver_request_total" a counter and "apiserver_request_duration_seconds" a histogram
      And from "before" to "after" apiserver_request_total with verb "POST", resource "configmaps" and code "201" grew by at least 1
      And from "before" to "after" apiserver_request_total with verb "GET", resource "configmaps" and code "404" grew by at least 1

    @requires:kube.api @requires:kube.metrics
    Scenario: a create is timed in apiserver_request_duration_seconds and its store write in etcd_request_duration_seconds
      Given the API server's metrics are scraped as "before"
      When the client creates ConfigMap "m1"
      And the API server's metrics are scraped as "after"
      Then from "before" to "after" apiserver_request_duration_seconds_count with verb "POST" and resource "configmaps" grew by at least 1
      And from "before" to "after" etcd_request_duration_seconds_count with operation "create" and a type naming "configmaps" grew by at least 1
      And every apiserver_request_duration_seconds histogram in "after" has buckets that never decrease and end at its count

  Rule: PRACTICE-MASTER-TAINT — tainted master nodes run no business Pods
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
    Claim: Separate masters from workers: master nodes carry a taint so business Pods are not
      scheduled there, keeping workload from disturbing the control plane. (kubeadm's taint is
      node-role.kubernetes.io/control-plane:NoSchedule.)
    Quote: "Master 节点不运行业务 Pod（通过 Taint 机制）。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: twenty business pods all avoid the tainted master
      Given a cluster with node "m1" tainted "node-role.kubernetes.io/control-plane:NoSchedule" and worker nodes "w1", "w2"
      When I create 20 pods with no tolerations
      Then within 20 seconds all 20 pods are bound to "w1" or "w2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: with only the tainted master available a business pod stays Pending; a tolerating pod lands
      Given a cluster with only node "m1" tainted "node-role.kubernetes.io/control-plane:NoSchedule"
      When I create pod "biz" with no tolerations
      And I create pod "sys" tolerating "node-role.kubernetes.io/control-plane" with effect "NoSchedule"
      Then within 10 seconds pod "sys" is bound to node "m1"
      And pod "biz" has condition "PodScheduled" with status "False" and a message containing "untolerated taint"

  @untestable
  Rule: PRACTICE-ETCD-BACKUP-SCHEDULE — snapshot etcd at least daily, keep 7 days, store off-cluster
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
    Claim: Take an etcd snapshot at least daily, keep seven days, and store backups outside the cluster.
    Quote: "至少每日一次快照，保留 7 天。" / "备份存储在独立于集群的存储位置。"
    Untestable: a retention policy for operators; nothing in the cluster enforces or reveals it.

  Rule: PRACTICE-ETCD-RESTORE-DRILL — a snapshot restored into a fresh store brings the cluster state back
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / etcd (was OVERVIEW-ETCD-LOSS-IS-STATE-LOSS; seed 003 makes the same claim there)
    Claim: Rehearse the restore procedure regularly; a restore drill proves the backup brings back
      the cluster's objects.
    Quote: "定期演练恢复流程。"

    # The drill as an operator runs it: save a snapshot of the API server's store, keep working,
    # restore the snapshot into a fresh store (real etcd: `etcdctl snapshot restore` on 3.4,
    # `etcdutl` from 3.5, and a new etcd on the restored data dir). The objects are checked in the
    # restored store, where an API server pointed at it would read them.
    @requires:kube.api @requires:kube.storage @requires:kv.snapshot
    Scenario: ConfigMaps created before the snapshot are in the restored store with their data; one created after is not
      Given a ConfigMap "before-1" exists with data "color=blue"
      And a ConfigMap "before-2" exists with data "size=large"
      And a snapshot is saved
      And a ConfigMap "after-1" exists with data "late=yes"
      When the snapshot is restored into a fresh store
      Then the fresh store holds ConfigMap "before-1" of the scenario's namespace with data "color=blue"
      And the fresh store holds ConfigMap "before-2" of the scenario's namespace with data "size=large"
      And the fresh store holds no ConfigMap "after-1" of the scenario's namespace

    @requires:kv @requires:kv.snapshot
    Scenario: on the store alone, the drill brings back what was written before the snapshot and nothing written after
      Given a store
      And keys "/drill/a" and "/drill/b" are put
      And a snapshot is saved
      And key "/drill/late" is put with value "late"
      And key "/drill/a" is put with value "changed after the snapshot"
      When the snapshot is restored into a fresh store
      Then the fresh store holds keys "/drill/a" and "/drill/b"
      And the fresh store has no key "/drill/late"

  Rule: PRACTICE-PDB-MIN-AVAILABLE — a PodDisruptionBudget keeps minAvailable Pods during a drain
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
    Claim: During node maintenance (drain) a PDB guarantees a minimum number of available Pods;
      e.g. minAvailable 2 keeps at least 2 Pods running. Upstream the Eviction API refuses an
      eviction that would break the budget with 429 Too Many Requests.
    Quote: "在节点维护（drain）时，PDB 保证最少可用 Pod 数量。" / "示例：`minAvailable: 2` 确保滚动维护时至少 2 个 Pod 运行。"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.disruption @requires:cluster.scheduler @requires:kubelet
    Scenario: with 3 ready replicas and minAvailable 2, the first eviction is allowed and the second refused
      Given a cluster with the controllers running and a kubelet on node "n1"
      And the web Deployment with 3 ready replicas
      And a PodDisruptionBudget "web" with minAvailable 2 selecting "app=web"
      And within 10 seconds PodDisruptionBudget "web" has status.disruptionsAllowed 1
      When I evict one pod labelled "app=web"
      Then the eviction is answered 201
      When I immediately evict another pod labelled "app=web"
      Then the eviction is answered 429 with a message containing "disruption budget"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.disruption @requires:cluster.scheduler @requires:kubelet @requires:cluster.nodes
    Scenario: draining a node never leaves fewer than 2 ready web pods
      Given a cluster with the controllers running and kubelets on nodes "n1", "n2" and "n3"
      And the web Deployment with 3 ready replicas, all on node "n1"
      And a PodDisruptionBudget "web" with minAvailable 2 selecting "app=web"
      When node "n1" is drained as kubectl drain does it, within 120 s
      Then at every moment of the drain at least 2 pods labelled "app=web" were Ready
      And at the end no pod labelled "app=web" is on node "n1"

  Rule: PRACTICE-PRIORITY-PREEMPTION — a high-priority Pod preempts lower-priority Pods when resources are short
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
    Claim: Give critical system components (CoreDNS, Ingress controller) high priority, so that under
      resource pressure they are placed, preempting lower-priority Pods, instead of being left out.
    Quote: "关键系统组件（如 CoreDNS、Ingress Controller）设置高优先级。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a system-cluster-critical pod preempts a low-priority pod on a full node
      Given a cluster with one node "n1" with allocatable cpu "1"
      And PriorityClass "low" with value 100
      And a running pod "filler" with priorityClassName "low" requesting cpu "900m" on node "n1"
      When I create pod "dns" in namespace "kube-system" with priorityClassName "system-cluster-critical" requesting cpu "500m"
      Then within 30 seconds pod "filler" is deleted
      And pod "dns" has status.nominatedNodeName "n1" or spec.nodeName "n1"
      And within 30 seconds pod "dns" is bound to node "n1"

  Rule: PRACTICE-PRIORITY-EVICTION-ORDER — under node pressure the kubelet evicts lower-priority Pods first
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践
    Claim: Priorities keep critical components from being evicted when resources run short:
      among Pods exceeding their requests, the kubelet's node-pressure eviction removes lower
      priority first.
    Quote: "避免资源紧张时关键组件被驱逐。"

    Upstream (pkg/kubelet/eviction): when memory.available (the machine's memory minus its working
    set) falls below a hard threshold (--eviction-hard), the node reports MemoryPressure=True and
    the kubelet evicts one pod per 10 s period, in the order of rankMemoryPressure — pods above
    their memory requests first, then lower priority first, then the larger usage above requests —
    skipping critical pods (priority ≥ system-cluster-critical's 2000000000), which it never evicts.
    The evicted pod ends Failed with reason Evicted and a message that starts "The node was low on
    resource: memory.". The pods below take their memory with `kubespec/alloc:SIZE`; the pressure
    comes from processes outside any pod.

    Soft thresholds (helpers.go thresholdsMet, thresholdsFirstObservedAt, thresholdsMetGracePeriod;
    eviction_manager.go synchronize): --eviction-soft acts only once it has been met without a break
    for its --eviction-soft-grace-period, though MemoryPressure is True as soon as it is met; the
    pod it evicts gets min(--eviction-max-pod-grace-period, its terminationGracePeriodSeconds)
    between SIGTERM and SIGKILL, where a hard threshold gives 1 s (2 s after kuberuntime's
    minimum). --eviction-minimum-reclaim keeps a threshold that drove eviction acting until
    memory.available is above it by that much, so the kubelet evicts past the edge, lowest rank first.

    @requires:kube.api @requires:kubelet @requires:kubelet.eviction
    Scenario: memory pressure evicts the low-priority pod and spares the critical one
      Given a cluster with node "n1" of memory "1Gi" whose kubelet evicts at memory.available below "100Mi"
      And PriorityClass "low" with value 100
      And a running pod "dns" with priorityClassName "system-cluster-critical" requesting memory "64Mi" whose container allocates "400Mi"
      And a running pod "batch" with priorityClassName "low" requesting memory "64Mi" whose container allocates "200Mi"
      And within 30 seconds node "n1" exists with condition "MemoryPressure" status "False"
      When processes outside the pods on node "n1" take "400Mi" of memory
      Then within 30 seconds node "n1" exists with condition "MemoryPressure" status "True"
      And within 30 seconds pod "batch" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory."
      And 60 seconds later pod "dns" still has phase "Running"

    @requires:kube.api @requires:kubelet @requires:kubelet.eviction
    Scenario: between two ordinary priorities the lower goes first, though the higher is older and uses more
      Given a cluster with node "n1" of memory "1Gi" whose kubelet evicts at memory.available below "100Mi"
      And PriorityClasses "low" with value 100 and "high" with value 1000
      And a running pod "web" with priorityClassName "high" requesting memory "64Mi" whose container allocates "400Mi"
      And a running pod "batch" with priorityClassName "low" requesting memory "64Mi" whose container allocates "200Mi"
      When processes outside the pods on node "n1" take "400Mi" of memory
      Then within 30 seconds pod "batch" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory."
      And 60 seconds later pod "web" still has phase "Running"

    @requires:kube.api @requires:kubelet @requires:kubelet.eviction
    Scenario: a critical pod above its requests is skipped and a pod within its requests is evicted instead
      Given a cluster with node "n1" of memory "1Gi" whose kubelet evicts at memory.available below "100Mi"
      And PriorityClass "low" with value 100
      And a running pod "dns" with priorityClassName "system-cluster-critical" requesting memory "64Mi" whose container allocates "400Mi"
      And a running pod "batch" with priorityClassName "low" requesting memory "256Mi" whose container allocates "200Mi"
      When processes outside the pods on node "n1" take "400Mi" of memory
      Then within 30 seconds pod "batch" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory."
      And 60 seconds later pod "dns" still has phase "Running"

    # Memory dips below the soft threshold twice, 40 s each time, with a recovery between: the grace
    # period (1 min) starts again after the break, so nothing is evicted, though the node reports
    # MemoryPressure from the first pass that sees the dip.
    @requires:kube.api @requires:kubelet @requires:kubelet.eviction @requires:kubelet.eviction.soft
    Scenario: memory below a soft threshold for less than its grace period evicts nothing, though the node reports MemoryPressure
      Given a cluster with node "n1" of memory "1Gi" whose kubelet soft-evicts at memory.available below "300Mi" held for "1m", with eviction-max-pod-grace-period 20
      And PriorityClass "low" with value 100
      And a running pod "batch" with priorityClassName "low" requesting memory "64Mi" whose container allocates "200Mi"
      And within 30 seconds node "n1" exists with condition "MemoryPressure" status "False"
      When processes outside the pods on node "n1" take "600Mi" of memory
      Then within 15 seconds node "n1" exists with condition "MemoryPressure" status "True"
      When 40 seconds pass
      And processes outside the pods on node "n1" take "100Mi" of memory
      And 20 seconds pass
      And processes outside the pods on node "n1" take "600Mi" of memory
      And 40 seconds pass
      And processes outside the pods on node "n1" take "100Mi" of memory
      Then 120 seconds later pod "batch" still has phase "Running"

    @requires:kube.api @requires:kubelet @requires:kubelet.eviction @requires:kubelet.eviction.soft
    Scenario: memory held below a soft threshold past its grace period evicts the lowest-ranked pod, and no sooner
      Given a cluster with node "n1" of memory "1Gi" whose kubelet soft-evicts at memory.available below "300Mi" held for "1m", with eviction-max-pod-grace-period 20
      And PriorityClasses "low" with value 100 and "high" with value 1000
      And a running pod "web" with priorityClassName "high" requesting memory "64Mi" whose container allocates "100Mi"
      And a running pod "batch" with priorityClassName "low" requesting memory "64Mi" whose container allocates "200Mi"
      When processes outside the pods on node "n1" take "500Mi" of memory
      Then 50 seconds later pod "batch" still has phase "Running"
      And within 30 seconds pod "batch" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory. Threshold quantity: 300Mi"
      And 120 seconds later pod "web" still has phase "Running"

    # The pod's second container ignores SIGTERM, so it runs until the SIGKILL at the end of the
    # grace period the kubelet gave: 20 s (the max) for a pod asking 120 s, 5 s for one asking 5 s.
    @requires:kube.api @requires:kubelet @requires:kubelet.eviction @requires:kubelet.eviction.soft
    Scenario Outline: a soft eviction gives the pod the lesser of its terminationGracePeriodSeconds and the kubelet's evictionMaxPodGracePeriod
      Given a cluster with node "n1" of memory "1Gi" whose kubelet soft-evicts at memory.available below "300Mi" held for "30s", with eviction-max-pod-grace-period 20
      And PriorityClass "low" with value 100
      And a running pod "batch" with priorityClassName "low", terminationGracePeriodSeconds <pod grace>, a container "app" allocating "200Mi" and a container "sidecar" that ignores SIGTERM
      When processes outside the pods on node "n1" take "600Mi" of memory
      Then within 60 seconds pod "batch" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory."
      And within 150 seconds container "sidecar" of pod "batch" is killed <grace> seconds after the pod was evicted

      Examples:
        | pod grace | grace |
        | 120       | 20    |
        | 5         | 5     |

    # 560Mi outside and 400Mi in pods leave 64Mi, below 100Mi. Evicting "a" (150Mi) leaves 214Mi:
    # above the threshold but not above it plus the minimum reclaim (300Mi), so "b" goes too;
    # then 364Mi, and "web" stays.
    @requires:kube.api @requires:kubelet @requires:kubelet.eviction @requires:kubelet.eviction.soft
    Scenario: with a minimum reclaim the kubelet keeps evicting, lowest priority first, until memory is that far above the threshold
      Given a cluster with node "n1" of memory "1Gi" whose kubelet evicts at memory.available below "100Mi" with minimum reclaim "200Mi"
      And PriorityClasses "low" with value 100 and "high" with value 1000
      And PriorityClass "mid" with value 500
      And a running pod "web" with priorityClassName "high" requesting memory "64Mi" whose container allocates "100Mi"
      And a running pod "a" with priorityClassName "low" requesting memory "64Mi" whose container allocates "150Mi"
      And a running pod "b" with priorityClassName "mid" requesting memory "64Mi" whose container allocates "150Mi"
      When processes outside the pods on node "n1" take "560Mi" of memory
      Then within 30 seconds pod "a" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory."
      And within 30 seconds pod "b" has phase "Failed" with reason "Evicted" and a message starting "The node was low on resource: memory."
      And 120 seconds later pod "web" still has phase "Running"
