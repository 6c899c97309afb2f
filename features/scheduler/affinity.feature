@component:scheduler
Feature: Scheduler — affinity and anti-affinity
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性

  Three kinds (node affinity: pod → node labels; pod affinity: near related pods in a topology domain;
  pod anti-affinity: away from pods of the same group), two strengths (required: a filter; preferred: a
  score), and one tip about "IgnoredDuringExecution". The tip's parenthesis — that required node
  affinity does evict — is wrong: upstream never evicts a running pod for affinity.

  Rule: AFFINITY-NODE — nodeAffinity places a pod on nodes with matching labels
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性
    Claim: nodeAffinity (Pod → Node) schedules a pod to nodes carrying given labels, e.g. GPU nodes.
    Quote: "nodeAffinity | Pod → Node | 将 Pod 调度到特定标签的节点（如 GPU 节点）"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod requiring accelerator In (a100, h100) lands on the only such node
      Given a cluster with nodes "cpu1", "cpu2" and "gpu1", each with 4 CPU and 8Gi memory
      And Node "gpu1" has label "accelerator=a100"
      When Pod "train" is created with required node affinity "accelerator In (a100, h100)"
      Then within 10 s Pod "train" is on Node "gpu1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: NotIn keeps a pod off the labelled node
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has label "zone=a"
      And Node "n2" has label "zone=b"
      When Pod "web" is created with required node affinity "zone NotIn (a)"
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a required term may name nodes (matchFields metadata.name) — requirements within a term are ANDed, terms ORed
      # component-helpers nodeaffinity: a term matches when all its matchExpressions and matchFields
      # do, the pod's required affinity when any term does; metadata.name is the one field a term may
      # select on. NodeAffinity's PreFilter intersects a term's "metadata.name In" lists and skips
      # the other operators (node_affinity.go PreFilter).
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      And Node "n1" has label "zone=a"
      When Pod "both" is created with required node affinity terms "metadata.name In (n1, n2) and metadata.name In (n2, n3)"
      Then within 10 s Pod "both" is on Node "n2"
      When Pod "either" is created with required node affinity terms "metadata.name In (n1) and metadata.name In (n2)" or "metadata.name In (n3)"
      Then within 10 s Pod "either" is on Node "n3"
      When Pod "not-n2" is created with required node affinity terms "metadata.name In (n3) and metadata.name NotIn (n2)"
      Then within 10 s Pod "not-n2" is on Node "n3"
      When Pod "by-label" is created with required node affinity terms "metadata.name In (n2) and metadata.name In (n3)" or "zone In (a)"
      Then within 10 s Pod "by-label" is on Node "n1"

  Rule: AFFINITY-POD — podAffinity places a pod in the same topology domain as the pods it selects
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性
    Claim: podAffinity (Pod → Pod) schedules related pods into the same topology domain, e.g. a log
      collector next to its application.
    Quote: "podAffinity | Pod → Pod | 将相关 Pod 调度到同一拓扑域（如日志收集器靠近应用）"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the collector joins the app's zone
      Given a cluster with nodes "a1" and "a2" labelled "topology.kubernetes.io/zone=a" and "b1" labelled "topology.kubernetes.io/zone=b", each with 4 CPU and 8Gi memory
      And Pod "app" with label "app=shop" is on Node "b1"
      When Pod "collector" is created with required pod affinity to "app=shop" on topology key "topology.kubernetes.io/zone"
      Then within 10 s Pod "collector" is on Node "b1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: with hostname as the topology key, the pod joins the very node
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      And Pod "app" with label "app=shop" is on Node "n3"
      When Pod "sidecar" is created with required pod affinity to "app=shop" on topology key "kubernetes.io/hostname"
      Then within 10 s Pod "sidecar" is on Node "n3"

  Rule: AFFINITY-POD-ANTI — podAntiAffinity keeps pods of one group on different nodes
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性
    Claim: podAntiAffinity (Pod → Pod) spreads pods of the same group across nodes for high availability.
    Quote: "podAntiAffinity | Pod → Pod | 将同组 Pod 分散到不同节点（高可用）"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: four pods of one group with required anti-affinity on hostname — three nodes take one each, the fourth waits
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      When Pods "ha-1", "ha-2", "ha-3" and "ha-4" are created labelled "app=ha" with required anti-affinity to "app=ha" on "kubernetes.io/hostname"
      Then within 10 s Pods "ha-1", "ha-2" and "ha-3" are on 3 different nodes
      And after 10 s Pod "ha-4" is still Pending
      And Pod "ha-4" has condition PodScheduled=False with reason "Unschedulable" and a message containing "didn't match pod anti-affinity rules"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: anti-affinity combines with a nodeSelector — the pod goes to the one node that satisfies both
      Given a cluster with nodes "n1" and "n2" labelled "disk=ssd" and "n3", each with 4 CPU and 8Gi memory
      And Pod "app" with label "app=shop" is on Node "n1"
      When Pod "web" is created with nodeSelector "disk=ssd" with required anti-affinity to "app=shop" on "kubernetes.io/hostname"
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes @requires:cluster.controllers
    Scenario: three replicas with required anti-affinity on hostname land on three nodes
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      When Deployment "ha" is created with 3 replicas labelled "app=ha" and required anti-affinity to "app=ha" on "kubernetes.io/hostname"
      Then within 30 s the 3 pods of Deployment "ha" are on 3 different nodes

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes @requires:cluster.controllers
    Scenario: a fourth replica has nowhere to go and stays Pending
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      When Deployment "ha" is created with 4 replicas labelled "app=ha" and required anti-affinity to "app=ha" on "kubernetes.io/hostname"
      Then within 30 s 3 pods of Deployment "ha" are bound to 3 different nodes
      And after a further 10 s exactly 1 pod of Deployment "ha" is Pending with reason "Unschedulable"

  Rule: AFFINITY-REQUIRED — a required (…DuringScheduling…) rule that no node satisfies leaves the pod unscheduled
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性
    Claim: requiredDuringSchedulingIgnoredDuringExecution is a hard requirement: if it is not met, the
      pod is not scheduled.
    Quote: "requiredDuringSchedulingIgnoredDuringExecution：硬性要求，不满足则不调度。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: no node has the label — the pod stays Pending
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pod "train" is created with required node affinity "accelerator In (a100)"
      Then after 10 s Pod "train" is still Pending
      And Pod "train" has condition PodScheduled=False with reason "Unschedulable"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a high-priority pod whose required affinity no node meets preempts nobody — evicting pods cannot change a node's labels
      # NodeAffinity's rejection is UnschedulableAndUnresolvable (node_affinity.go Filter), which
      # preemption skips as "Preemption is not helpful for scheduling" (framework/preemption).
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "train" is created with priorityClassName "high-{ns}" requesting 1 CPU with required node affinity "accelerator In (a100)"
      Then after 10 s Pod "train" is still Pending
      And Pod "batch" is not marked for deletion
      And Pod "train" has condition PodScheduled=False with reason "Unschedulable" and a message containing "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a required affinity whose terms name no node at all is refused before any node is looked at
      # node_affinity.go PreFilter: every term names nodes and their intersection is empty, so no
      # node can match — UnschedulableAndUnresolvable "pod affinity terms conflict", which FitError
      # writes once, not counted per node (framework/types.go FitError.Error, PreFilterMsg).
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pod "nowhere" is created with required node affinity terms "metadata.name In (n1) and metadata.name In (n2)" or "metadata.name In (n1, n3) and metadata.name In (n2)"
      Then after 10 s Pod "nowhere" is still Pending
      And Pod "nowhere" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/2 nodes are available: pod affinity terms conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."

  Rule: AFFINITY-PREFERRED — a preferred rule steers the choice but never blocks scheduling
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性
    Claim: preferredDuringSchedulingIgnoredDuringExecution is a soft preference: satisfied when possible.
    Quote: "preferredDuringSchedulingIgnoredDuringExecution：软性偏好，尽量满足。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the preferred node is chosen when it is feasible
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n2" has label "disk=ssd"
      When Pod "db" is created with preferred node affinity "disk In (ssd)" of weight 100
      Then within 10 s Pod "db" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the preferred node wins even when it is the busier one
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n2" has label "disk=ssd"
      And pods requesting a total of 1 CPU and 2Gi memory are on Node "n2"
      When Pod "db" is created with preferred node affinity "disk In (ssd)" of weight 100
      Then within 10 s Pod "db" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a term's weight is relative — a single term of weight 1 still steers the pod to the busier node
      # NodeAffinity's NormalizeScore scales the best node's sum to 100 (helper.DefaultNormalizeScore),
      # so with one term its weight does not matter: 100 × 2 outweighs the resource scores' difference.
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has label "disk=ssd"
      And pods requesting a total of 1 CPU and 2Gi memory are on Node "n1"
      When Pod "db" is created with preferred node affinity "disk In (ssd)" of weight 1
      Then within 10 s Pod "db" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: no node matches the preference — the pod is scheduled anyway
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pod "db" is created with preferred node affinity "disk In (nvme)" of weight 100
      Then within 10 s Pod "db" is bound to a node

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: of two preferred terms the heavier one decides, even towards the busier node
      # Each preferred term carries a weight (1–100); a node scores the sum of the weights of the
      # terms it matches (pkg/scheduler/framework/plugins/nodeaffinity, Score), so the node matching
      # the weight-80 term beats the one matching the weight-10 term.
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has label "disk=ssd"
      And Node "n2" has label "zone=a"
      And pods requesting a total of 2 CPU and 2Gi memory are on Node "n2"
      When Pod "db" is created with preferred node affinity "disk In (ssd)" of weight 10 and with preferred node affinity "zone In (a)" of weight 80
      Then within 10 s Pod "db" is on Node "n2"

  Rule: AFFINITY-IGNORED-DURING-EXECUTION — a running pod stays where it is when its node stops matching
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性 / "IgnoredDuringExecution" 的含义
    Claim: Once scheduled, a pod is not evicted even if the node later stops satisfying the affinity
      condition; this avoids churn from frequent migration.
    Quote: "Pod 一旦调度到某节点，即使该节点后来不再满足亲和性条件，也不会被驱逐 … 这是为了避免频繁迁移造成抖动。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes @requires:cluster.controllers @requires:clock.virtual
    Scenario: removing the label a preferred affinity matched does not move the pod
      Given a cluster with the controllers running and nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n2" has label "disk=ssd"
      And Pod "db" was created with preferred node affinity "disk In (ssd)" of weight 100 and is on Node "n2"
      When the label "disk" is removed from Node "n2"
      And 10 minutes of virtual time pass
      Then Pod "db" is still on Node "n2" with the same uid

  @erratum
  Rule: AFFINITY-REQUIRED-NOT-EVICTED — required node affinity is not enforced after scheduling either
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 亲和性与反亲和性 / "IgnoredDuringExecution" 的含义
    Claim: A pod is not evicted when its node stops matching — unless required node affinity
      (requiredDuringScheduling) was configured.
    Quote: "也不会被驱逐（除非配置了 requiredDuringScheduling 节点亲和）。"
    Upstream: "IgnoredDuringExecution means that if the node labels change after Kubernetes schedules the
      Pod, the Pod continues to run" (kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/,
      "Node affinity"). No controller evicts for affinity; the RequiredDuringExecution variant was never
      implemented. Required rules are only Filter checks (pkg/scheduler/framework/plugins/nodeaffinity).

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes @requires:cluster.controllers @requires:clock.virtual
    Scenario: removing the label a required affinity matched does not evict the pod
      Given a cluster with the controllers running and nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n2" has label "accelerator=a100"
      And Pod "train" was created with required node affinity "accelerator In (a100)" and is on Node "n2"
      When the label "accelerator" is removed from Node "n2"
      And 10 minutes of virtual time pass
      Then Pod "train" is still on Node "n2" with the same uid
      And Pod "train" has no deletionTimestamp
