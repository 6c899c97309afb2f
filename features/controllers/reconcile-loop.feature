@component:controllers
Feature: Controller Manager — the reconcile loop
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 控制循环（Reconcile Loop）原理

  The controller manager is one process holding many controllers, each continuously reconciling one
  kind of resource. Every controller runs the same declarative loop: observe the current state, diff it
  against the desired state, act if they differ, otherwise wait for the next event. The philosophy —
  say *what*, not *how* — is recorded as untestable; its consequences are the rules below.

  The tip at the end of the section (how controllers avoid duplicate work) is two claims: the work
  queue merges repeated keys, which is right; and controllers skip an event whose resourceVersion they
  have already recorded, which is not how upstream works.

  Rule: CTRL-ONE-PER-KIND — the controller manager is one process running a set of controllers, one per resource kind
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager (was OVERVIEW-KCM-ONE-PROCESS; seed 003 makes the same claim there)
    Claim: The Controller Manager is a process bundling a set of controllers, each continuously
      reconciling one resource type.
    Quote: "Controller Manager 是一组控制器（Controller）的集合进程，每个控制器负责一种资源类型的持续协调。"

    One process is visible from outside: one leader Lease (kube-system/kube-controller-manager,
    upstream's --leader-elect-resource-name default) covers every controller's work, and
    `--controllers` (`*`, `foo`, `-foo`) turns single controllers off without stopping the rest.

    @requires:kube.api @requires:controllers.leader-elect @requires:controllers.deployment @requires:controllers.replicaset @requires:controllers.job @requires:controllers.serviceaccount
    Scenario: one controller-manager lease covers the work of several controllers
      When I create Deployment "web", Job "once" and Namespace "team-a-{ns}"
      Then within 20 seconds a ReplicaSet for Deployment "web", a Pod for Job "once" and ServiceAccount "default" in Namespace "team-a-{ns}" exist
      And kube-system has exactly one Lease for the controller manager, "kube-controller-manager", and it is held

    @requires:kube.api @requires:controllers.flags @requires:controllers.leader-elect
    Scenario: controllers are independent — disabling one leaves the others working
      Given the controller manager restarted with controllers "*,-serviceaccount"
      When I create Deployment "web", Job "once" and Namespace "team-b-{ns}"
      Then within 20 seconds a ReplicaSet for Deployment "web" and a Pod for Job "once" exist
      And after 10 seconds Namespace "team-b-{ns}" still has no ServiceAccount "default"
      And kube-system has exactly one Lease for the controller manager, "kube-controller-manager", and it is held

  Rule: CTRL-RECONCILE-CONVERGES — when actual state drifts from desired state, the controller acts until they match
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 控制循环（Reconcile Loop）原理
    Claim: Every controller observes the current state, diffs it against the desired state and, if they
      differ, acts to converge.
    Quote: "Observe: 观察当前状态 → Diff: 比较期望状态与实际状态 → 存在差异? 是 → Act: 执行操作收敛差异"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: a pod deleted from under a ReplicaSet is replaced
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 3 replicas
      When 2 of its pods are deleted
      Then within 10 s ReplicaSet "rs" owns exactly 3 pods
      And 2 of them have uids never seen before

    @requires:kube.api @requires:controllers.replicaset @requires:controllers.stoppable
    Scenario: the controller reconciles from current state, not from the event sequence
      Given a cluster whose controller manager is stopped
      And ReplicaSet "rs" with 3 replicas was created and then scaled to 5 and then to 2
      When the controller manager starts
      Then within 10 s ReplicaSet "rs" owns exactly 2 pods
      And at no time did it own more than 2 pods

  Rule: CTRL-WAIT-WHEN-CONVERGED — when desired and actual state match, the controller does nothing
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 控制循环（Reconcile Loop）原理
    Claim: If there is no difference, the controller waits for the next event.
    Quote: "存在差异? 否 → Wait: 等待下一次事件触发"

    @requires:kube.api @requires:kube.audit @requires:controllers.replicaset @requires:clock.virtual
    Scenario: a converged ReplicaSet causes no writes for ten minutes
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 3 replicas
      And the request trace is recording
      When 10 minutes of virtual time pass
      Then the request trace holds no create, update, patch or delete by the controller manager in the scenario's namespace

    @requires:kube.api @requires:kube.audit @requires:controllers.deployment @requires:controllers.replicaset @requires:kubelet @requires:cluster.scheduler @requires:clock.virtual
    Scenario: a converged Deployment causes no writes for ten minutes
      Given a cluster with the controllers running
      And a cluster with node "worker-1"
      And Deployment "app" exists with 3 replicas, all available
      And the request trace is recording
      When 10 minutes of virtual time pass
      Then the request trace holds no create, update, patch or delete by the controller manager in the scenario's namespace

  @untestable
  Rule: CTRL-DECLARATIVE — users declare what they want, not how to get there; the system converges by itself
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 控制循环（Reconcile Loop）原理
    Claim: Kubernetes' core philosophy: do not tell the system how (imperative), tell it what (declarative),
      and it converges to the desired state by itself.
    Quote: "不要告诉系统“怎么做”（命令式），而是告诉它“要什么”（声明式），系统自行收敛到期望状态。"
    Untestable: a design philosophy; its observable consequence is CTRL-RECONCILE-CONVERGES.

  Rule: CTRL-QUEUE-DEDUP — events for one object that arrive while it waits are merged into one piece of work
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / 控制器如何避免重复处理？
    Claim: The controller's work queue de-duplicates and merges work for the same resource.
    Quote: "控制器的 Worker Queue 会对同一资源进行去重合并。"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: a burst of changes to one ReplicaSet produces exactly the pods it needs, no more
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 1 replica
      When ReplicaSet "rs" is scaled to 2, 3, 4 and 5 within 50 ms
      Then within 10 s ReplicaSet "rs" owns exactly 5 pods
      And exactly 4 pods were created for it in total

  @erratum
  Rule: CTRL-DEDUP-RESOURCEVERSION — controllers ignore resync updates whose old and new resourceVersion are equal; they do not skip later events by a recorded version
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / 控制器如何避免重复处理？
    Claim: The Informer keeps a locally cached resourceVersion; after handling an event the controller
      records the current version, and skips the next event if its version is the same.
    Quote: "Informer 维护一个本地缓存的 resourceVersion，控制器在处理完一个事件后将当前版本记录下来。下次事件如果版本相同则跳过。"
    Upstream: neither the informer nor the controller records a "processed" version. A periodic resync
      (or re-list) delivers update notifications whose old and new objects are identical, and the update
      handlers drop those by comparing the two: "Periodic resync will send update events for all known
      pods. Two different versions of the same pod will always have different RVs." (updatePod in
      pkg/controller/replicaset/replica_set.go, and likewise in the daemonset, statefulset, job and endpoint
      controllers). Reconciliation is level-based: the queue carries only object keys and each sync reads
      current state from the cache, so processing a key twice is harmless.

    @requires:kube.api @requires:kube.audit @requires:controllers.replicaset @requires:clock.virtual
    Scenario: resyncs of unchanged objects cause no writes
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 3 replicas, all marked Ready by the test
      And the request trace is recording
      When 1 hour of virtual time passes
      Then the request trace holds no write by the controller manager to ReplicaSet "rs" or its pods

    @requires:kube.api @requires:controllers.replicaset
    Scenario: a change that returns an object to a state seen before is still acted on
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas
      When ReplicaSet "rs" is scaled to 3
      And within 10 s it owns 3 pods
      And ReplicaSet "rs" is scaled back to 2
      Then within 10 s ReplicaSet "rs" owns exactly 2 pods
