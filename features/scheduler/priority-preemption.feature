@component:scheduler
Feature: Scheduler — priority and preemption
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass

  A PriorityClass gives pods a scheduling priority. When the cluster is out of room, the scheduler may
  preempt: evict lower-priority pods to make room for a higher-priority one. The notes' example YAML
  (scheduling.k8s.io/v1, value 1000000, globalDefault false) is checked as written.

  Rule: PRIO-CLASS-VALUE — a pod naming a PriorityClass gets that class's value as its spec.priority
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass
    Claim: A PriorityClass defines a pod's scheduling priority; the example class has value 1000000.
    Quote: "PriorityClass 定义 Pod 的调度优先级。"

    @requires:kube.api
    Scenario: the notes' example class is accepted and its value copied into the pod
      When PriorityClass "high-priority-{ns}" is created with apiVersion "scheduling.k8s.io/v1", value 1000000, globalDefault false and description "用于关键业务 Pod"
      And Pod "critical" is created with priorityClassName "high-priority-{ns}"
      Then the response status is 201
      And Pod "critical" has spec.priority 1000000

    @requires:kube.api
    Scenario: a pod naming a class that does not exist is refused
      When Pod "orphan" is created with priorityClassName "no-such-class-{ns}"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "no PriorityClass with name no-such-class-{ns} was found"

  Rule: PRIO-GLOBAL-DEFAULT — a class with globalDefault false is not applied to pods that name no class
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass
    Claim: globalDefault: false means the class is used only by pods that name it.
    Quote: "globalDefault: false"

    @requires:kube.api
    Scenario: a pod naming no class gets priority 0 when no class is the global default
      Given a cluster with no PriorityClass marked globalDefault
      And PriorityClass "high-priority-{ns}" exists with value 1000000 and globalDefault false
      When Pod "ordinary" is created with no priorityClassName
      Then Pod "ordinary" has spec.priority 0

  Rule: PRIO-PREEMPTION — when no node has room, the scheduler evicts lower-priority pods for a higher-priority one
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / PriorityClass
    Claim: When resources are short, low-priority pods may be preempted: the Scheduler evicts them to
      make room for the high-priority pod.
    Quote: "当集群资源不足时，低优先级 Pod 可能被抢占（Preemption）——即 Scheduler 驱逐低优先级 Pod 为高优先级 Pod 腾出空间。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a high-priority pod displaces a low-priority one on a full node
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "urgent" is created with priorityClassName "high-{ns}" requesting 1 CPU
      Then within 10 s Pod "batch" is marked for deletion
      And Pod "urgent" has status.nominatedNodeName "n1"
      And once Pod "batch" is gone, within 10 s Pod "urgent" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario Outline: the room made is kept for the preemptor — a pod of <which> priority <may> take it while the preemptor is nominated
      # Pods nominated to a node count on it when a pod of equal or lower priority is filtered
      # (schedule_one.go findNodesThatPassFilters → framework RunFilterPluginsWithNominatedPods). The
      # nomination stays while "urgent" waits (a failed retry without a new candidate leaves
      # status.nominatedNodeName as it is), so "late" (1500m) does not fit beside its 1 CPU.
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Node "n1" has label "pool=a"
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And PriorityClass "top-{ns}" exists with value 2000000 and globalDefault false
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "urgent" is created with priorityClassName "high-{ns}" requesting 1 CPU with nodeSelector "pool=a"
      Then within 10 s Pod "batch" is marked for deletion
      And Pod "urgent" has status.nominatedNodeName "n1"
      When the label "pool" is removed from Node "n1"
      And Pod "batch" is deleted
      And Pod "late" is created with priorityClassName "<class>" requesting 1500m CPU
      Then after 10 s Pod "late" is <outcome>
      And Pod "urgent" has status.nominatedNodeName "n1"

      Examples:
        | which     | may     | class     | outcome      |
        | lower     | may not | low-{ns}  | still Pending |
        | the same  | may not | high-{ns} | still Pending |
        | higher    | may     | top-{ns}  | on Node "n1" |

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a preemptor that needs all the room it made gets it — its own nomination does not count against it
      # RunFilterPluginsWithNominatedPods adds the nominated pods other than the pod itself.
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And PriorityClasses "low-{ns}" with value 10 and "high-{ns}" with value 1000000
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "urgent" is created with priorityClassName "high-{ns}" requesting 2 CPU
      Then within 10 s Pod "batch" is marked for deletion
      And Pod "urgent" has status.nominatedNodeName "n1"
      And once Pod "batch" is gone, within 10 s Pod "urgent" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod never preempts pods of equal or higher priority
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And PriorityClass "high-{ns}" with value 1000000
      And Pod "first" with priorityClassName "high-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "second" is created with priorityClassName "high-{ns}" requesting 1 CPU
      Then after 10 s Pod "second" is still Pending
      And Pod "first" is not marked for deletion

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: preemptionPolicy Never waits instead of evicting
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And PriorityClasses "low-{ns}" with value 10 and "polite-{ns}" with value 1000000 and preemptionPolicy "Never"
      And Pod "batch" with priorityClassName "low-{ns}" requesting 1500m CPU is on Node "n1"
      When Pod "patient" is created with priorityClassName "polite-{ns}" requesting 1 CPU
      Then after 10 s Pod "patient" is still Pending
      And Pod "batch" is not marked for deletion
