@component:controllers
Feature: Controller Manager — the Node controller
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller

  The node (lifecycle) controller watches node health. The notes give its timeline — Ready turns
  Unknown after 40 s without heartbeats, and after `--pod-eviction-timeout` (5 min) every pod is
  evicted and rescheduled — and a table of node conditions. Upstream has moved on: the grace period is
  50 s since v1.32, heartbeats are Lease renewals as well as NodeStatus updates, and eviction is
  taint-based (the flag was removed in v1.27): a NoExecute taint, tolerated by every pod for 300 s by
  default, so DaemonSet pods and pods with their own tolerations stay.

  Upstream also rate-limits the NoExecute tainting per zone and stops it when every zone is down
  (NODE-EVICTION-ZONES): a one-node cluster whose node goes silent gets Ready=Unknown but no NoExecute
  taint. So the scenarios that expect a lost node to be tainted NoExecute keep a second node healthy.

  The scenarios use nodes registered through the API with no kubelet behind them: the test is their
  kubelet, renewing their Leases in kube-node-lease or writing their status, so it decides when
  heartbeats stop; and a virtual clock. Pods "bound to a node by the test" go through the binding
  subresource, as the scheduler's binding would.

  @erratum
  Rule: NODE-HEARTBEAT — a node is healthy while its kubelet keeps renewing its Lease, even if NodeStatus is not rewritten
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: The Node controller monitors each node's health through the NodeStatus reported by the kubelet.
    Quote: "监控每个 Node 的健康状态（通过 kubelet 上报的 NodeStatus）。"
    Upstream: since v1.17 (KEP-589, node heartbeats) the kubelet's heartbeat is the renewal of its Lease in
      namespace kube-node-lease, every 10 s; NodeStatus is rewritten only on change or every 5 min
      (nodeStatusReportFrequency). The node lifecycle controller counts either as a sign of life
      (tryUpdateNodeHealth in pkg/controller/nodelifecycle/node_lifecycle_controller.go).

    @requires:kube.api @requires:controllers.nodelifecycle @requires:clock.virtual
    Scenario: lease renewals alone keep a node Ready
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      When the test renews the Lease "n1" in Namespace "kube-node-lease" every 10 s of virtual time for 3 minutes, and never updates the node's status
      Then Node "n1" has condition Ready=True
      And Node "n1" has no taint "node.kubernetes.io/unreachable"

  @erratum
  Rule: NODE-READY-UNKNOWN — a node silent for longer than the grace period (50 s) has its Ready condition set to Unknown
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager (was OVERVIEW-NODE-CONTROLLER; seed 003 makes the same claim there)
    Claim: When no heartbeat arrives for 40 s (default), the node's Ready condition becomes Unknown and
      the node is marked NodeNotReady.
    Quote: "当 Node 的 Ready 条件变为 Unknown（默认 40 秒未收到心跳）时，标记为 NodeNotReady。"
    Upstream: the default --node-monitor-grace-period is 50 s since v1.32 (kubernetes/kubernetes#126287;
      pkg/controller/nodelifecycle/config/v1alpha1/defaults.go; it was 40 s before). The controller then
      sets every condition to Unknown with reason "NodeStatusUnknown" and message "Kubelet stopped posting
      node status.", records a "NodeNotReady" event, and taints the node node.kubernetes.io/unreachable:NoExecute.

    @k8s:>=1.32
    @requires:kube.api @requires:controllers.nodelifecycle @requires:clock.virtual
    Scenario: 45 s of silence is not enough; 50 s plus a monitor period or two is
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      When Node "n1"'s last heartbeat is at virtual time T and no further heartbeat comes
      Then at T + 45 s Node "n1" still has condition Ready=True
      And by T + 60 s Node "n1" has condition Ready=Unknown with reason "NodeStatusUnknown"
      And Node "n1" has taint "node.kubernetes.io/unreachable" with effect "NoExecute"

    @k8s:<1.32
    @requires:kube.api @requires:controllers.nodelifecycle @requires:clock.virtual
    Scenario: before v1.32 the grace period was 40 s: 35 s of silence is not enough; 40 s plus a monitor period is
      A cluster older than v1.32 is judged by its own version's default (--node-monitor-grace-period
      40 s), not failed for it; on the suite's baseline this scenario is not-applicable.
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      When Node "n1"'s last heartbeat is at virtual time T and no further heartbeat comes
      Then at T + 35 s Node "n1" still has condition Ready=True
      And by T + 50 s Node "n1" has condition Ready=Unknown with reason "NodeStatusUnknown"
      And Node "n1" has taint "node.kubernetes.io/unreachable" with effect "NoExecute"

    # Needs only the API: it runs in real time on the kube target too.
    @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: a node that reports Ready=False is tainted not-ready, not unreachable
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      When the test updates Node "n1"'s status to condition Ready=False and keeps renewing its Lease
      Then within 10 s Node "n1" has taint "node.kubernetes.io/not-ready" with effect "NoExecute"

  @erratum
  Rule: NODE-EVICTION — pods on an unreachable node are evicted when their toleration of the NoExecute taint runs out (300 s by default)
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: After --pod-eviction-timeout (default 5 minutes), all pods on the node are evicted, which
      triggers rescheduling.
    Quote: "经过 --pod-eviction-timeout（默认 5 分钟）后，驱逐该节点上的所有 Pod，触发 Scheduler 重新调度。"
    Upstream: --pod-eviction-timeout was deprecated in v1.26 and removed in v1.27
      (kubernetes/kubernetes#115840); eviction is taint-based. The DefaultTolerationSeconds admission plugin
      (plugin/pkg/admission/defaulttolerationseconds) gives every pod tolerations of
      node.kubernetes.io/not-ready and node.kubernetes.io/unreachable (NoExecute) for 300 s, and the taint
      eviction controller deletes a pod when its toleration expires. Pods with their own tolerations
      (e.g. DaemonSet pods, which tolerate these taints indefinitely) are not evicted — not "all pods".
      Docs: kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions.

    @requires:kube.api @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: an ordinary pod goes 300 s after the taint, not before
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      And Pod "web" was bound to Node "n1" by the test, with the default tolerations
      When heartbeats from Node "n1" stop
      And the node lifecycle controller taints Node "n1" "node.kubernetes.io/unreachable:NoExecute", at virtual time U
      Then at U + 290 s Pod "web" is still there, not marked for deletion
      And by U + 310 s Pod "web" is deleted or marked for deletion

    @requires:kube.api @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: a pod that tolerates unreachable indefinitely is not evicted
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      And Pod "agent" was bound to Node "n1" by the test, tolerating "node.kubernetes.io/unreachable" with effect "NoExecute" and no tolerationSeconds
      When heartbeats from Node "n1" stop
      And the node lifecycle controller taints Node "n1" "node.kubernetes.io/unreachable:NoExecute", at virtual time U
      And 30 minutes of virtual time pass, Node "n2" still heartbeating
      Then Pod "agent" is still there, not marked for deletion

    @requires:kube.api @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: a node that comes back before the toleration runs out keeps its pods
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      And Pod "web" was bound to Node "n1" by the test, with the default tolerations
      When heartbeats from Node "n1" stop
      And the node lifecycle controller taints Node "n1" "node.kubernetes.io/unreachable:NoExecute", at virtual time U
      And 200 s of virtual time pass, Node "n2" still heartbeating
      And Node "n1" comes back: its kubelet reports Ready=True again
      Then within 10 s Node "n1" has no taint "node.kubernetes.io/unreachable"
      And at U + 400 s Pod "web" is still there, not marked for deletion

  @erratum
  Rule: NODE-EVICTION-ZONES — lost nodes are tainted for eviction at a rate limited per zone, and not at all when every zone is down
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: After --pod-eviction-timeout (default 5 minutes), all pods on the node are evicted, which
      triggers rescheduling.
    Quote: "经过 --pod-eviction-timeout（默认 5 分钟）后，驱逐该节点上的所有 Pod"
    Upstream: the node lifecycle controller adds the not-ready/unreachable NoExecute taints that lead to
      eviction through one rate limiter per zone (ComputeZoneState, handleDisruption, setLimiterInZone in
      pkg/controller/nodelifecycle/node_lifecycle_controller.go; docs
      kubernetes.io/docs/concepts/architecture/nodes/#rate-limits-on-eviction): --node-eviction-rate
      (0.1 nodes/s) in a Normal zone and in a zone wholly down while another is not (FullDisruption);
      in a zone where more than 2 nodes and at least --unhealthy-zone-threshold (55 %) of them are not
      Ready (PartialDisruption), --secondary-node-eviction-rate (0.01/s) if it has more than
      --large-cluster-size-threshold (50) nodes, else none. When every zone is FullDisruption the
      controller assumes its own connectivity is broken ("master disruption mode"): it taints nothing
      and takes the not-ready/unreachable NoExecute taints off every node, so nothing is evicted.

    # The zone here is the scenario's own (topology.kubernetes.io/zone): on a real cluster its
    # other nodes are in other zones and stay healthy. Upstream re-evaluates zones every 5 s but
    # taints from a 100 ms loop, so the first node to report may be tainted while its zone still
    # looks Normal; after that the zone is PartialDisruption and the rest are not: "at most one".
    @slow @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: in a small zone with 3 of its 5 nodes not Ready (60 % ≥ 55 %), tainting stops
      Given a cluster with the controllers running
      And Nodes "z1", "z2", "z3", "z4" and "z5" registered through the API in zone "kubespec-partial" with condition Ready=True, heartbeating
      When Nodes "z1", "z2" and "z3" report Ready=False, their Leases still renewed
      Then within 10 s Nodes "z1", "z2" and "z3" have taint "node.kubernetes.io/not-ready" with effect "NoSchedule"
      And for 30 s at most one of Nodes "z1", "z2" and "z3" has taint "node.kubernetes.io/not-ready" with effect "NoExecute"

    @slow @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: a zone wholly down beside a healthy one is tainted at the normal rate, one node every 10 s
      Given a cluster with the controllers running
      And Nodes "a1", "a2" and "a3" registered through the API in zone "kubespec-down" with condition Ready=True, heartbeating
      And Node "b1" registered through the API in zone "kubespec-up" with condition Ready=True, heartbeating
      When Nodes "a1", "a2" and "a3" report Ready=False, their Leases still renewed
      Then within 40 s each of Nodes "a1", "a2" and "a3" has taint "node.kubernetes.io/not-ready" with effect "NoExecute", added at least 10 s apart

    @requires:kube.api @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: when every node of the cluster is lost, none is tainted NoExecute and no pod is evicted
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with condition Ready=True and no kubelet behind it
      And Pod "web" was bound to Node "n1" by the test, with the default tolerations
      When heartbeats from Nodes "n1" and "n2" stop
      Then by T + 60 s Node "n1" has condition Ready=Unknown with reason "NodeStatusUnknown"
      And Node "n2" has condition Ready=Unknown with reason "NodeStatusUnknown"
      And within 10 s Nodes "n1" and "n2" have taint "node.kubernetes.io/unreachable" with effect "NoSchedule"
      And Nodes "n1" and "n2" have no taint "node.kubernetes.io/unreachable" with effect "NoExecute"
      And after 10 minutes of virtual time Pod "web" is still there, not marked for deletion

    @requires:kube.api @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: a lost node's NoExecute taint comes off when the last healthy node is lost too, and its pod stays
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with conditions Ready=True, heartbeating
      And Pod "web" was bound to Node "n1" by the test, with the default tolerations
      When heartbeats from Node "n1" stop
      And the node lifecycle controller taints Node "n1" "node.kubernetes.io/unreachable:NoExecute", at virtual time U
      And heartbeats from Node "n2" stop too
      Then within 70 s Node "n1" has no taint "node.kubernetes.io/unreachable" with effect "NoExecute"
      And at U + 400 s Pod "web" is still there, not marked for deletion

  Rule: NODE-RESCHEDULE — pods evicted from a lost node are replaced by their controllers and scheduled on healthy nodes
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: Evicting the pods triggers the Scheduler to reschedule them.
    Quote: "触发 Scheduler 重新调度"

    @requires:kube.api @requires:controllers.replicaset @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:cluster.scheduler @requires:cluster.nodes @requires:kubelet @requires:clock.virtual
    Scenario: a ReplicaSet's pods move off a node that went silent
      Given a cluster with the controllers running and kubelets on nodes "n1" and "n2"
      And ReplicaSet "rs" exists with 2 replicas, both on Node "n1"
      When Node "n1" is stopped
      And 7 minutes of virtual time pass
      Then ReplicaSet "rs" owns 2 pods that are not marked for deletion, both on Node "n2"

  Rule: NODE-COND-READY — Ready=True means the kubelet is healthy and its heartbeats are current; such a node takes pods
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: Node condition Ready means the kubelet's heartbeat is normal.
    Quote: "Ready | kubelet 心跳正常"

    @requires:kube.api @requires:controllers.nodelifecycle @requires:cluster.scheduler @requires:kubelet
    Scenario: a heartbeating Ready node carries no not-ready or unreachable taint and receives pods
      Given a cluster with the controllers running and a kubelet on node "n1"
      Then after 2 minutes Node "n1" still has condition Ready=True
      And Node "n1" has no taint with key "node.kubernetes.io/not-ready" or "node.kubernetes.io/unreachable"
      And a pod created requesting 100m CPU is on Node "n1" within 10 s

  Rule: NODE-COND-MEMORY-PRESSURE — MemoryPressure=True means the node is short of memory; new pods are kept off it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: Node condition MemoryPressure means the node is low on memory.
    Quote: "MemoryPressure | 节点内存不足"

    @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: the condition becomes a NoSchedule taint
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True and MemoryPressure=True, heartbeating
      Then within 10 s Node "n1" has taint "node.kubernetes.io/memory-pressure" with effect "NoSchedule"

    @requires:kube.api @requires:controllers.nodelifecycle @requires:cluster.scheduler
    Scenario: the scheduler keeps a BestEffort pod off the node under memory pressure
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True and MemoryPressure=True, heartbeating
      Then within 10 s Node "n1" has taint "node.kubernetes.io/memory-pressure" with effect "NoSchedule"
      And a BestEffort pod created with no tolerations of its own is still Pending after 10 s

  Rule: NODE-COND-DISK-PRESSURE — DiskPressure=True means the node is short of disk; new pods are kept off it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: Node condition DiskPressure means the node is low on disk.
    Quote: "DiskPressure | 节点磁盘不足"

    @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: the condition becomes a NoSchedule taint
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True and DiskPressure=True, heartbeating
      Then within 10 s Node "n1" has taint "node.kubernetes.io/disk-pressure" with effect "NoSchedule"

  Rule: NODE-COND-PID-PRESSURE — PIDPressure=True means the node runs too many processes; new pods are kept off it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: Node condition PIDPressure means the node has too many processes.
    Quote: "PIDPressure | 节点进程数过多"

    @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: the condition becomes a NoSchedule taint
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True and PIDPressure=True, heartbeating
      Then within 10 s Node "n1" has taint "node.kubernetes.io/pid-pressure" with effect "NoSchedule"

  Rule: NODE-COND-NETWORK-UNAVAILABLE — NetworkUnavailable=True means the node's network is not set up; new pods are kept off it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Node Controller
    Claim: Node condition NetworkUnavailable means the network plugin is not ready.
    Quote: "NetworkUnavailable | 网络插件未就绪"

    @requires:kube.api @requires:controllers.nodelifecycle
    Scenario: the condition becomes a NoSchedule taint, removed again when it clears
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True and NetworkUnavailable=True, heartbeating
      Then within 10 s Node "n1" has taint "node.kubernetes.io/network-unavailable" with effect "NoSchedule"
      When Node "n1"'s condition NetworkUnavailable is set to False
      Then within 10 s Node "n1" has no taint "node.kubernetes.io/network-unavailable"
