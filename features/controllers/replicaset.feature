@component:controllers
Feature: Controller Manager — the ReplicaSet controller
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller

  A ReplicaSet keeps a number of pod replicas running: it creates pods when there are too few, deletes
  pods when there are too many (unhealthy ones first), and counts as its own the pods its label
  selector matches.

  @pending
  Rule: RS-CREATE-WHEN-FEWER — with fewer matching pods than replicas, the ReplicaSet creates the difference
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: The ReplicaSet ensures the specified number of replicas is always running; when there are
      fewer pods than replicas it creates new ones.
    Quote: "当 Pod 数量 < replicas 时创建新 Pod。"

    @requires:kube.api @requires:cluster.controllers
    Scenario: from zero to five
      Given a cluster with the controllers running
      When ReplicaSet "rs" is created with 5 replicas and selector "app=rs"
      Then within 10 s ReplicaSet "rs" owns exactly 5 pods, each labelled "app=rs"
      And ReplicaSet "rs" reports status.replicas 5

  @pending
  Rule: RS-DELETE-WHEN-MORE — with more matching pods than replicas, the ReplicaSet deletes the surplus
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: When there are more pods than replicas, the ReplicaSet deletes the extra ones.
    Quote: "当 Pod 数量 > replicas 时删除多余 Pod"

    @requires:kube.api @requires:cluster.controllers
    Scenario: from five to two
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 5 replicas
      When ReplicaSet "rs" is scaled to 2
      Then within 10 s ReplicaSet "rs" owns exactly 2 pods that are not marked for deletion

  @pending
  Rule: RS-DELETE-UNHEALTHY-FIRST — when scaling down, unscheduled, pending and not-ready pods go before ready ones
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: When deleting surplus pods, pods in an abnormal state are deleted first.
    Quote: "（优先删除处于异常状态的 Pod）"

    @requires:kube.api @requires:cluster.controllers @requires:cluster.scheduler @requires:kubelet @requires:kubelet.probes
    Scenario: the not-ready pod is the one removed
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 3 replicas, all Running and ready
      And one of its pods, "victim", is made to fail its readiness probe until it is not ready
      When ReplicaSet "rs" is scaled to 2
      Then within 10 s Pod "victim" is marked for deletion
      And the two other pods are not

    @requires:kube.api @requires:cluster.controllers
    Scenario: an unscheduled pod is removed before a scheduled one
      Given a cluster with the controllers running and no scheduler
      And ReplicaSet "rs" exists with 2 replicas, one of whose pods was bound to Node "n1" by the test
      When ReplicaSet "rs" is scaled to 1
      Then within 10 s the pod without a node is deleted
      And the pod on Node "n1" is not marked for deletion

  @pending
  Rule: RS-LABEL-SELECTOR — a ReplicaSet counts the pods its selector matches: it adopts matching orphans and releases pods that stop matching
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: The ReplicaSet uses a Label Selector to match the pods that belong to it.
    Quote: "使用 Label Selector 匹配归属的 Pod。"

    @requires:kube.api @requires:cluster.controllers
    Scenario: a matching orphan pod is adopted and counted
      Given a cluster with the controllers running
      And Pod "stray" exists with label "app=rs" and no owner
      When ReplicaSet "rs" is created with 3 replicas and selector "app=rs"
      Then within 10 s Pod "stray" has an ownerReference to ReplicaSet "rs" with controller true
      And ReplicaSet "rs" owns exactly 3 pods, of which "stray" is one

    @requires:kube.api @requires:cluster.controllers
    Scenario: relabelling a pod out of the selector releases it and a replacement is made
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas and selector "app=rs"
      When one of its pods is relabelled "app=debug"
      Then within 10 s that pod has no ownerReference
      And ReplicaSet "rs" owns exactly 2 pods labelled "app=rs", one of them new
