@component:scheduler
Feature: Scheduler — the scheduling framework
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass / 调度框架（Scheduling Framework）

  The notes' info box: since 1.19 the scheduling framework splits a scheduling cycle into extension
  points where plugins hook in. Two corrections from upstream: the framework first shipped (alpha) in
  1.15 and was declared GA in 1.19; and the list of extension points omits several (PreEnqueue, PreScore,
  NormalizeScore, PreBind and Reserve's Unreserve). From outside a cluster, extension points are seen
  through what their default plugins do: the queue order, the per-filter reasons of an unschedulable
  pod, preemption as the PostFilter step, and the bind call.

  @untestable @erratum
  Rule: FRAMEWORK-VERSION — the scheduling framework shipped alpha in 1.15 and became GA in 1.19
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass / 调度框架（Scheduling Framework）
    Claim: Kubernetes 1.19+ introduced the Scheduling Framework.
    Quote: "Kubernetes 1.19+ 引入 Scheduling Framework"
    Upstream: KEP-624 (kubernetes/enhancements keps/sig-scheduling/624-scheduling-framework/kep.yaml) marks
      it stable in v1.19; its first extension points shipped alpha in v1.15, and the framework has been
      the scheduler's only structure since v1.16 (kubernetes/kubernetes#95037 "Graduate scheduler framework to GA").
    Untestable: release history; no scenario against one running target can observe when a feature was introduced.

  @erratum
  Rule: FRAMEWORK-EXTENSION-POINTS — a scheduling cycle runs its extension points in a fixed order, each through plugins
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass / 调度框架（Scheduling Framework）
    Claim: The framework splits scheduling into extension points — QueueSort, PreFilter, Filter, PostFilter,
      Score, Reserve, Permit, Bind, PostBind — and plugins can hook in at any of them.
    Quote: "将调度过程拆分为多个扩展点（QueueSort、PreFilter、Filter、PostFilter、Score、Reserve、Permit、Bind、PostBind）"
    Upstream: the list is incomplete. The docs page "Scheduling Framework"
      (kubernetes.io/docs/concepts/scheduling-eviction/scheduling-framework/) and the interfaces in
      pkg/scheduler/framework/interface.go also define PreEnqueue, PreScore, NormalizeScore (part of
      Score), Unreserve (part of Reserve) and PreBind, in the order PreEnqueue → QueueSort → PreFilter →
      Filter → PostFilter → PreScore → Score → NormalizeScore → Reserve → Permit → PreBind → Bind → PostBind.

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: an unschedulable pod's message counts the Filter plugins' reasons, one per node
      Given a cluster with nodes "n1", "n2" and "n3", each with 1 CPU and 8Gi memory
      And Node "n1" has taint "maintenance=true:NoSchedule"
      And Node "n2" has label "disk=hdd"
      When Pod "picky" is created with nodeSelector "disk=ssd" requesting 2 CPU
      Then after 10 s Pod "picky" is still Pending
      And its PodScheduled condition message starts "0/3 nodes are available:"
      And that message mentions "untolerated taint" and "didn't match Pod's node affinity/selector"

    @requires:kube.api @requires:kube.audit @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: PostFilter (preemption) runs only for a pod that Filter found no node for
      Given a cluster with nodes "n1" and "n2", each with 2 CPU and 8Gi memory
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "urgent" is created with priorityClassName "high-{ns}" requesting 1 CPU
      Then within 10 s Pod "urgent" is on Node "n2"
      And Pod "batch" is not marked for deletion

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes @requires:scheduler.recorder-profile
    Scenario: a plugin registered through the framework is called at each extension point, in upstream's order
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pod "traced" is created with schedulerName "kubespec-recorder" labelled "kubespec.io/recorder-reject=true" requesting 100m CPU
      And after 5 s Pod "traced" is still Pending
      And the label "kubespec.io/recorder-reject" is removed from Pod "traced"
      Then within 10 s Pod "traced" is bound to a node
      And Pod "traced" has annotation "scheduler.kubespec.io/extension-points" "PreFilter,Filter,PostFilter; PreFilter,Filter,PreScore,Score,NormalizeScore,Reserve,Permit,PreBind,Bind"
      And within 10 s Pod "traced" has an Event "PostBind" with message "extension points: PreFilter,Filter,PostFilter; PreFilter,Filter,PreScore,Score,NormalizeScore,Reserve,Permit,PreBind,Bind,PostBind"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: QueueSort pops higher-priority pods first
      Given a cluster with node "n1" with 1 CPU and 8Gi memory, cordoned
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And Pod "early-low" with priorityClassName "low-{ns}" requesting 800m CPU was created first
      And Pod "late-high" with priorityClassName "high-{ns}" requesting 800m CPU was created second
      And 20 s pass, so that neither pod is still in scheduling backoff
      When Node "n1" is uncordoned
      Then within 10 s Pod "late-high" is on Node "n1"
      And Pod "early-low" is still Pending
