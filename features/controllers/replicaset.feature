@component:controllers
Feature: Controller Manager — the ReplicaSet controller
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller

  A ReplicaSet keeps a number of pod replicas running: it creates pods when there are too few, deletes
  pods when there are too many (unhealthy ones first), and counts as its own the pods its label
  selector matches.

  The pods these scenarios make name a scheduler no cluster runs, so on any cluster nothing but the
  scenario decides whether they are bound or ready; where a pod must be Ready, the test marks it so
  through the status subresource, standing in for its kubelet as upstream's controller integration
  tests do.

  Rule: RS-CREATE-WHEN-FEWER — with fewer matching pods than replicas, the ReplicaSet creates the difference
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: The ReplicaSet ensures the specified number of replicas is always running; when there are
      fewer pods than replicas it creates new ones.
    Quote: "当 Pod 数量 < replicas 时创建新 Pod。"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: from zero to five
      Given a cluster with the controllers running
      When ReplicaSet "rs" is created with 5 replicas and selector "app=rs"
      Then within 10 s ReplicaSet "rs" owns exactly 5 pods, each labelled "app=rs"
      And ReplicaSet "rs" reports status.replicas 5

  Rule: RS-DELETE-WHEN-MORE — with more matching pods than replicas, the ReplicaSet deletes the surplus
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: When there are more pods than replicas, the ReplicaSet deletes the extra ones.
    Quote: "当 Pod 数量 > replicas 时删除多余 Pod"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: from five to two
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 5 replicas
      When ReplicaSet "rs" is scaled to 2
      Then within 10 s ReplicaSet "rs" owns exactly 2 pods that are not marked for deletion

  Rule: RS-DELETE-UNHEALTHY-FIRST — when scaling down, unscheduled, pending and not-ready pods go before ready ones
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: When deleting surplus pods, pods in an abnormal state are deleted first.
    Quote: "（优先删除处于异常状态的 Pod）"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: the not-ready pod is the one removed
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas and selector "app=rs"
      And the test marks both of its pods Running, one Ready and one not Ready
      When ReplicaSet "rs" is scaled to 1
      Then within 10 s the not-ready pod is deleted or marked for deletion
      And the other pod is not marked for deletion

    @requires:kube.api @requires:controllers.replicaset
    Scenario: an unscheduled pod is removed before a scheduled one
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas and selector "app=rs"
      And one of its pods is bound to Node "n1" by the test
      When ReplicaSet "rs" is scaled to 1
      Then within 10 s the pod without a node is deleted or marked for deletion
      And the other pod is not marked for deletion

  Rule: RS-LABEL-SELECTOR — a ReplicaSet counts the pods its selector matches: it adopts matching orphans and releases pods that stop matching
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / ReplicaSet Controller
    Claim: The ReplicaSet uses a Label Selector to match the pods that belong to it.
    Quote: "使用 Label Selector 匹配归属的 Pod。"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: a matching orphan pod is adopted and counted
      Given a cluster with the controllers running
      And Pod "stray" exists with label "app=rs" and no owner
      When ReplicaSet "rs" is created with 3 replicas and selector "app=rs"
      Then within 10 s Pod "stray" has an ownerReference to ReplicaSet "rs" with controller true
      And ReplicaSet "rs" owns exactly 3 pods, of which "stray" is one

    @requires:kube.api @requires:controllers.replicaset
    Scenario: relabelling a pod out of the selector releases it and a replacement is made
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas and selector "app=rs"
      When one of its pods is relabelled "app=debug"
      Then within 10 s that pod has no ownerReference
      And ReplicaSet "rs" owns exactly 2 pods labelled "app=rs", one of them new
