@component:scheduler
Feature: Scheduler — taints and tolerations
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration

  A taint is a repelling mark on a node, written `key=value:effect`; a toleration on a pod lets it onto a
  node with a matching taint. The three effects are one rule each, split where the notes make two
  claims (new pods vs pods already running). The warning box about control-plane nodes names the
  wrong effect: kubeadm taints them NoSchedule, not NoExecute.

  Scenarios use nodes registered through the API; a pod "on" a node is one bound to it, and an evicted
  pod is one the control plane has marked for deletion.

  Rule: TAINT-FORMAT — a taint is key, optional value and effect; a toleration matches it by key, value (or Exists) and effect
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: A Taint is a repelling mark on a Node written key=value:effect; a Toleration on a Pod allows it
      onto a node with the corresponding taint.
    Quote: "Taint：施加在 Node 上的排斥标记，格式 key=value:effect。"

    @requires:kubectl @requires:kube.api @requires:cluster.nodes
    Scenario: kubectl taint writes key, value and effect into spec.taints
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      When "kubectl taint nodes n1 dedicated=gpu:NoSchedule" is run
      Then Node "n1" has exactly one taint, with key "dedicated", value "gpu" and effect "NoSchedule"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario Outline: a toleration <matches> taint "dedicated=gpu:NoSchedule"
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      When Pod "p" is created with toleration <toleration>
      Then after 10 s Pod "p" is <outcome>

      Examples:
        | matches        | toleration                                            | outcome    |
        | matching       | key "dedicated" operator Equal value "gpu" effect "NoSchedule" | on Node "n1" |
        | matching       | key "dedicated" operator Exists                        | on Node "n1" |
        | not matching   | key "dedicated" operator Equal value "tpu" effect "NoSchedule" | Pending    |
        | not matching   | key "dedicated" operator Equal value "gpu" effect "NoExecute"  | Pending    |
        | matching       | key "dedicated" value "gpu" effect "NoSchedule" and no operator | on Node "n1" |
        | not matching   | key "dedicated" value "tpu" effect "NoSchedule" and no operator | Pending    |
        | matching       | key "dedicated" value "gpu" effect "NoSchedule" and an empty operator | on Node "n1" |
        | not matching   | key "dedicated" value "tpu" effect "NoSchedule" and an empty operator | Pending    |

  Rule: TAINT-NOSCHEDULE-NEW — NoSchedule keeps new, intolerant pods off the node
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: NoSchedule: new pods are not allowed to be scheduled onto the node.
    Quote: "NoSchedule | 不允许新 Pod 调度到该节点"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the only node is tainted — an intolerant pod stays Pending, a tolerant one is placed
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      When Pod "plain" is created requesting 100m CPU
      And Pod "tolerant" is created tolerating "dedicated=gpu:NoSchedule"
      Then within 10 s Pod "tolerant" is on Node "n1"
      And Pod "plain" is still Pending with reason "Unschedulable"
      And Pod "plain" has condition PodScheduled=False with reason "Unschedulable" and a message containing "node(s) had untolerated taint {dedicated: gpu}"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod kept off the tainted node is placed as soon as an untainted node joins
      # TaintToleration registers for Node add and taint-update events (taint_toleration.go
      # EventsToRegister), so a new node moves the rejected pod back to the active queue at once,
      # not after the 5-minute flush of unschedulable pods (scheduling_queue.go).
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      When Pod "web" is created requesting 100m CPU
      Then after 10 s Pod "web" is still Pending
      When Node "n2" with 4 CPU and 8Gi memory joins the cluster
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a tolerated NoSchedule taint costs the node nothing in scoring — the tolerant pod takes the emptier tainted node
      # TaintToleration's Score counts only the PreferNoSchedule taints the pod does not tolerate
      # (taint_toleration.go countIntolerableTaintsPreferNoSchedule), so the resource scores decide.
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      And pods requesting a total of 2 CPU and 4Gi memory are on Node "n2"
      When Pod "web" is created requesting 100m CPU tolerating "dedicated=gpu:NoSchedule"
      Then within 10 s Pod "web" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: evicting pods cannot remove a taint — a high-priority pod that does not tolerate it preempts nobody
      # The taint's rejection is UnschedulableAndUnresolvable, and preemption skips such nodes as
      # "Preemption is not helpful for scheduling" (framework/preemption/preemption.go
      # nodesWherePreemptionMightHelp); the message is upstream's FitError text.
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU tolerating "dedicated=gpu:NoSchedule" is on Node "n1"
      When Pod "urgent" is created with priorityClassName "high-{ns}" requesting 1 CPU
      Then after 10 s Pod "urgent" is still Pending
      And Pod "batch" is not marked for deletion
      And Pod "urgent" has condition PodScheduled=False with reason "Unschedulable" and a message containing "0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."

  Rule: TAINT-NOSCHEDULE-KEEPS-RUNNING — adding a NoSchedule taint leaves pods already on the node alone
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: NoSchedule does not affect pods already running on the node.
    Quote: "（已运行的不受影响）"

    # The node has a kubelet behind it, heartbeating through its Lease as a real node does: with the
    # node lifecycle controller running, a node that stopped heartbeating would be tainted
    # unreachable:NoExecute and its pods evicted, which is not the claim.
    @requires:kube.api @requires:kubelet @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: an intolerant pod already running on the node is not evicted
      Given a cluster with the controllers running
      And Node "n1" with a kubelet behind it, heartbeating
      And Pod "old" is running on Node "n1" with no tolerations of its own
      When Node "n1" is given taint "dedicated=gpu:NoSchedule"
      And 10 minutes of virtual time pass
      Then Pod "old" is still on Node "n1" and not marked for deletion
      And Node "n1" has condition Ready=True

  Rule: TAINT-PREFERNOSCHEDULE — PreferNoSchedule steers pods away when possible but does not forbid the node
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: PreferNoSchedule: try not to schedule there, but it is not enforced.
    Quote: "PreferNoSchedule | 尽量不调度，但非强制"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: with an untainted alternative, the tainted node is avoided
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "spare=true:PreferNoSchedule"
      When Pod "web" is created requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: when the tainted node is the only feasible one, the pod goes there
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "spare=true:PreferNoSchedule"
      And Node "n2" has taint "maintenance=true:NoSchedule"
      When Pod "web" is created requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: PreferNoSchedule is weighed against the other scores — an empty tainted node loses to a half-full untainted one
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "spare=true:PreferNoSchedule"
      And pods requesting a total of 2 CPU and 4Gi memory are on Node "n2"
      When Pod "web" is created requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario Outline: a pod that tolerates the PreferNoSchedule taint (naming its effect or no effect) is not steered away; a toleration of another effect does not count
      # TaintToleration scores only the PreferNoSchedule taints a pod does not tolerate, counting
      # only its tolerations with effect PreferNoSchedule or none (plugins/tainttoleration).
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "spare=true:PreferNoSchedule"
      And pods requesting a total of 2 CPU and 4Gi memory are on Node "n2"
      When Pod "web" is created requesting 100m CPU <toleration>
      Then within 10 s Pod "web" is on Node "<node>"

      Examples:
        | toleration                                                     | node |
        | tolerating "spare=true:PreferNoSchedule"                        | n1   |
        | with toleration key "spare" operator Exists                     | n1   |
        | with toleration key "spare" operator Exists effect "NoSchedule" | n2   |

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the steering is relative to the most tainted feasible node — one taint where another node has two costs half, and a preferred node affinity outweighs it
      # TaintToleration's NormalizeScore (helper.DefaultNormalizeScore, reversed): 100 − 100 × count / max
      # over the feasible nodes, weight 3: n1 50 × 3 + NodeAffinity 100 × 2 = 350 beats n2's 100 × 3 = 300.
      # Without n3 the count on n1 would be the maximum and n1 would lose (0 + 200 against 300).
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      And Node "n1" has label "disk=ssd"
      And Node "n1" has taint "spare=true:PreferNoSchedule"
      And Node "n3" has taint "spare=true:PreferNoSchedule"
      And Node "n3" has taint "old=true:PreferNoSchedule"
      When Pod "web" is created requesting 100m CPU with preferred node affinity "disk In (ssd)" of weight 1
      Then within 10 s Pod "web" is on Node "n1"

  Rule: TAINT-TOLERATION-WILDCARDS — a toleration with no key and operator Exists tolerates every taint; one with no effect matches every effect
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: A toleration lets a pod onto a node with the corresponding taint. Upstream (v1 Toleration.ToleratesTaint in
      staging/src/k8s.io/api/core/v1/toleration.go): an empty key with operator Exists matches every key and value, and
      an empty effect matches every effect.
    Quote: "Toleration：Pod 上的容忍，允许 Pod 调度到带有对应 Taint 的节点。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario Outline: a toleration <which> lets the pod onto a node tainted with NoSchedule and NoExecute, or not
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      And Node "n1" has taint "maintenance=true:NoExecute"
      When Pod "p" is created <toleration>
      Then after 10 s Pod "p" is <outcome>

      Examples:
        | which                                         | toleration                                                                                                  | outcome      |
        | with no key and operator Exists               | with toleration operator Exists and no key                                                                  | on Node "n1" |
        | with no effect, one per taint                 | with toleration key "dedicated" operator Equal value "gpu" and toleration key "maintenance" operator Exists | on Node "n1" |
        | naming one effect only, for one of two taints | with toleration key "dedicated" operator Equal value "gpu" effect "NoSchedule"                              | Pending      |

  Rule: TAINT-TOLERATION-SECONDS-NOEXECUTE — the API refuses tolerationSeconds on a toleration whose effect is not NoExecute
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: tolerationSeconds bounds how long a pod stays on a node after a NoExecute taint appears, so it means nothing
      for another effect; upstream's validation (pkg/apis/core/validation/validation.go validateTolerations) refuses it:
      "effect must be 'NoExecute' when `tolerationSeconds` is set".
    Quote: "NoExecute | 新 Pod 不调度，已运行且无 Toleration 的 Pod 会被驱逐"

    @requires:kube.api
    Scenario: a NoSchedule toleration with tolerationSeconds is refused with 422
      When Pod "p" is created with toleration key "dedicated" operator Exists effect "NoSchedule" and tolerationSeconds 60
      Then the response status is 422 with reason "Invalid"
      And the response message contains "effect must be 'NoExecute' when `tolerationSeconds` is set"

  Rule: TAINT-NOEXECUTE-NO-NEW — NoExecute keeps new, intolerant pods off the node
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: NoExecute: new pods are not scheduled to the node.
    Quote: "NoExecute | 新 Pod 不调度"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: an intolerant pod avoids the NoExecute node
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "quarantine=true:NoExecute"
      When Pod "web" is created requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n2"

  Rule: TAINT-NOEXECUTE-EVICTS — NoExecute evicts running pods that do not tolerate it, and keeps those that do
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: NoExecute: running pods without a matching toleration are evicted.
    Quote: "已运行且无 Toleration 的 Pod 会被驱逐"

    # The eviction half (the taint eviction controller); TAINT-NOEXECUTE-NO-NEW is the scheduling half.
    @requires:kube.api @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: the intolerant pod is evicted, the tolerant one stays
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True, heartbeating
      And Pod "plain" was bound to Node "n1" by the test, with the default tolerations
      And Pod "tolerant" was bound to Node "n1" by the test, tolerating "quarantine=true:NoExecute"
      When the test taints Node "n1" "quarantine=true:NoExecute"
      Then within 10 s of virtual time Pod "plain" is deleted or marked for deletion
      And after 10 minutes of virtual time Pod "tolerant" is still there, not marked for deletion

    @requires:kube.api @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: tolerationSeconds bounds how long a tolerant pod may stay
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Pod "brief" was bound to Node "n1" by the test, tolerating "quarantine=true:NoExecute" for 60 s
      When the test taints Node "n1" "quarantine=true:NoExecute"
      Then at U + 50 s Pod "brief" is still there, not marked for deletion
      And by U + 70 s Pod "brief" is deleted or marked for deletion

    @requires:kube.api @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: removing the taint before tolerationSeconds runs out cancels the eviction
      Given a cluster with the controllers running
      And Node "n1" registered through the API with conditions Ready=True, heartbeating
      And Pod "brief" was bound to Node "n1" by the test, tolerating "quarantine=true:NoExecute" for 60 s
      When the test taints Node "n1" "quarantine=true:NoExecute"
      And 30 s of virtual time pass
      And the test removes the taint "quarantine" from Node "n1"
      Then at U + 120 s Pod "brief" is still there, not marked for deletion

  @erratum
  Rule: TAINT-CONTROL-PLANE — control-plane nodes are tainted node-role.kubernetes.io/control-plane:NoSchedule
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration / Master 节点的 Taint
    Claim: Production master nodes usually carry the taint node-role.kubernetes.io/control-plane:NoExecute,
      keeping workload pods from consuming control-plane resources.
    Quote: "生产集群的 Master 节点通常带有 node-role.kubernetes.io/control-plane:NoExecute Taint"
    Upstream: kubeadm taints control-plane nodes with effect NoSchedule (ControlPlaneTaint in
      cmd/kubeadm/app/constants/constants.go; docs "kubeadm init", Control plane node isolation). With
      NoSchedule, pods already on the node (static control-plane pods, DaemonSets) are not evicted,
      which a NoExecute taint would do to every pod without a toleration.

    @requires:kube.api @requires:cluster.nodes
    Scenario: every node labelled as control plane carries the taint with effect NoSchedule, and none with NoExecute
      When the nodes labelled "node-role.kubernetes.io/control-plane" are listed
      Then each of them has a taint with key "node-role.kubernetes.io/control-plane" and effect "NoSchedule"
      And none of them has a taint with key "node-role.kubernetes.io/control-plane" and effect "NoExecute"

    @requires:kube.api @requires:kubelet @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: the control-plane taint does not evict pods already on the node
      Given a cluster with the controllers running
      And Node "cp1" with a kubelet behind it, heartbeating
      And Node "cp1" has taint "node-role.kubernetes.io/control-plane:NoSchedule"
      When Pod "static-like" is created with spec.nodeName "cp1" and no tolerations of its own
      And 10 minutes of virtual time pass
      Then Pod "static-like" is still on Node "cp1" and not marked for deletion
      And Pod "static-like" is Running
      And Node "cp1" has condition Ready=True

  Rule: TAINT-CONTROL-PLANE-TOLERATION — a pod that tolerates the control-plane taint may be scheduled onto control-plane nodes
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration / Master 节点的 Taint
    Claim: To run e.g. monitoring components on a master, add the corresponding toleration.
    Quote: "如果需要在 Master 运行监控组件，需添加对应 Toleration。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a monitoring pod with the toleration and a control-plane nodeSelector lands on the control plane
      Given a cluster with node "cp1" with 4 CPU and 8Gi memory
      And Node "cp1" has label "node-role.kubernetes.io/control-plane="
      And Node "cp1" has taint "node-role.kubernetes.io/control-plane:NoSchedule"
      When Pod "node-exporter" is created with nodeSelector "node-role.kubernetes.io/control-plane=" and toleration key "node-role.kubernetes.io/control-plane" operator Exists effect "NoSchedule"
      Then within 10 s Pod "node-exporter" is on Node "cp1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: without the toleration a pod stays off the control plane, and the message names the taint, which has no value
      # Filter's reason is "node(s) had untolerated taint {key: value}" with the taint's value, empty here
      # (taint_toleration.go Filter).
      Given a cluster with only node "cp1" tainted "node-role.kubernetes.io/control-plane:NoSchedule"
      When Pod "web" is created requesting 100m CPU
      Then after 10 s Pod "web" is still Pending
      And Pod "web" has condition PodScheduled=False with reason "Unschedulable" and a message containing "1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"

  Rule: TAINT-CORDON — kubectl cordon marks the node unschedulable, which keeps new pods off it and gives it the taint node.kubernetes.io/unschedulable:NoSchedule
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / Taint / Toleration
    Claim: NoSchedule keeps new pods off a node. Upstream, `kubectl cordon` sets spec.unschedulable; the scheduler's
      NodeUnschedulable filter then refuses the node (pkg/scheduler/framework/plugins/nodeunschedulable), and the node
      lifecycle controller (TaintNodesByCondition, pkg/controller/nodelifecycle) adds the taint
      node.kubernetes.io/unschedulable:NoSchedule, so only pods tolerating it (DaemonSets) still land there.
    Quote: "NoSchedule | 不允许新 Pod 调度到该节点"

    @requires:kubectl @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod created after kubectl cordon stays off the node until kubectl uncordon
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      When "kubectl cordon n1" is run
      And Pod "late" is created requesting 100m CPU
      Then after 10 s Pod "late" is still Pending
      And Pod "late" has condition PodScheduled=False with reason "Unschedulable" and a message containing "1 node(s) were unschedulable"
      When "kubectl uncordon n1" is run
      Then within 20 s Pod "late" is on Node "n1"

    @requires:kubectl @requires:kube.api @requires:cluster.nodes @requires:controllers.nodelifecycle
    Scenario: kubectl cordon leads to the taint node.kubernetes.io/unschedulable:NoSchedule
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      When "kubectl cordon n1" is run
      Then within 10 s Node "n1" has spec.unschedulable true and a taint "node.kubernetes.io/unschedulable:NoSchedule"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod that tolerates node.kubernetes.io/unschedulable:NoSchedule still lands on a cordoned node
      # NodeUnschedulable lets a pod through when it tolerates the unschedulable taint, as DaemonSet
      # pods do (pkg/scheduler/framework/plugins/nodeunschedulable: TolerationsTolerateTaint).
      Given a cluster with node "n1" with 4 CPU and 8Gi memory, cordoned
      When Pod "agent" is created requesting 100m CPU and tolerating "node.kubernetes.io/unschedulable:NoSchedule"
      Then within 10 s Pod "agent" is on Node "n1"
