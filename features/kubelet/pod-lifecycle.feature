@component:kubelet
Feature: kubelet — the Pod lifecycle and its phases
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理

  The notes draw the Pod lifecycle as a state diagram (Pending → ContainerCreating → Running →
  Succeeded | Failed, with "Failed → Running" on restart) and define the five phases in a table.
  Upstream Kubernetes differs in four places, each an @erratum below: ContainerCreating is a
  container waiting reason, not a phase; restarts happen while the Pod stays Running, and Failed
  and Succeeded are terminal; Running also covers a Pod whose containers are restarting; Failed
  needs every container terminated; and the phase Unknown is no longer set.

  The phase is computed by the kubelet from its containers' states (upstream
  pkg/kubelet/kubelet_pods.go, getPhase). The scenarios drive containers with plain shell
  commands so each one is checkable against a real kubelet as well as the reference. Pods are
  created with spec.nodeName set to the scenario's node, so no scheduler is needed.

  Rule: PHASE-PENDING-ON-CREATE — a Pod the API server accepts starts in phase Pending
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The API server creates the Pod in phase Pending; Pending means accepted, but not all
      containers created yet.
    Quote: "[*] --> Pending: API Server 创建 Pod" / "`Pending` | 已被 API Server 接受，但容器尚未全部创建"

    @requires:kube.api
    Scenario: a freshly created pod is Pending before any node runs it
      # Bound to a node no cluster has, so no kubelet ever picks it up, on any target.
      When I create the pod:
        """yaml
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          nodeName: kubespec-no-such-node
          containers:
          - {name: app, image: busybox, command: ["sleep", "3600"]}
        """
      Then the create answer is 201 with status.phase "Pending"
      And pod "web" has phase "Pending"

    @requires:kube.api @requires:cluster.scheduler
    Scenario: a pod that cannot be scheduled stays Pending with PodScheduled False
      Given a cluster with no nodes
      When I create pod "web" with one container "app" running "sleep 3600"
      Then within 10 seconds pod "web" has condition "PodScheduled" with status "False" and reason "Unschedulable"
      And pod "web" has phase "Pending"

  @erratum
  Rule: PHASE-CONTAINERCREATING-NOT-A-PHASE — ContainerCreating is a container waiting reason; the Pod stays Pending
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The diagram shows ContainerCreating as a state between Pending and Running, entered
      when the kubelet receives the Pod.
    Quote: "Pending --> ContainerCreating: kubelet 接收"
    Upstream: PodPhase has exactly five values (Pending, Running, Succeeded, Failed, Unknown —
      k8s.io/api core/v1 types.go, PodPhase); "ContainerCreating" is the reason of a container's
      Waiting state that kubectl shows in its STATUS column while the phase is still Pending
      (kubernetes/website content/en/docs/concepts/workloads/pods/pod-lifecycle.md, "Pod phase" note
      and "Container states").

    @requires:kube.api @requires:kubelet @requires:cri @requires:kube.watch @requires:clock.virtual
    Scenario: while the sandbox is being created the phase is Pending and the container waits with reason ContainerCreating
      Given a cluster with node "n1" whose runtime holds RunPodSandbox for pods until released
      And I watch the pods of the scenario
      When I create pod "web" with one container "app" running "sleep 3600"
      Then within 10 seconds container "app" of pod "web" is waiting with reason "ContainerCreating"
      And pod "web" has phase "Pending"
      When the runtime of node "n1" releases RunPodSandbox
      Then within 10 seconds pod "web" has phase "Running"
      And no pod of the scenario was ever seen with phase "ContainerCreating"

  Rule: PHASE-RUNNING-WHEN-ALL-STARTED — the Pod becomes Running once all its containers have started
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The transition to Running happens when all containers have started successfully.
    Quote: "ContainerCreating --> Running: 所有容器启动成功"

    @requires:kube.api @requires:kubelet
    Scenario: a two-container pod is Running with both containers running
      Given a cluster with node "n1"
      When I create the pod:
        """yaml
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          nodeName: n1
          containers:
          - {name: a, image: busybox, command: ["sleep", "3600"]}
          - {name: b, image: busybox, command: ["sleep", "3600"]}
        """
      Then within 30 seconds pod "web" has phase "Running"
      And container "a" of pod "web" is running
      And container "b" of pod "web" is running

    @requires:kube.api @requires:kubelet
    Scenario: a pod stays Pending while one of its containers cannot start (image missing)
      Given a cluster with node "n1"
      When I create the pod:
        """yaml
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          nodeName: n1
          containers:
          - {name: a, image: busybox, command: ["sleep", "3600"]}
          - {name: b, image: "kubespec.invalid/missing:v0"}
        """
      Then within 30 seconds container "b" of pod "web" is waiting with reason "ErrImagePull" or "ImagePullBackOff"
      And pod "web" has phase "Pending"

  Rule: PHASE-RUNNING-WHILE-PROBES-PASS — a Running Pod whose probes pass stays Running
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: Passing health checks keep the Pod in Running (the self-transition in the diagram).
    Quote: "Running --> Running: 健康检查通过"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes @requires:clock.virtual
    Scenario: two minutes of passing liveness probes change neither phase nor restart count
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has an exec liveness probe with periodSeconds 10
      When 120 seconds pass with every probe of container "app" succeeding
      Then pod "web" has phase "Running"
      And container "app" of pod "web" has restartCount 0

  @erratum
  Rule: PHASE-RUNNING-INCLUDES-RESTARTING — Running means at least one container is running, starting or restarting
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The phase table defines Running as "at least one container is running".
    Quote: "`Running` | 至少一个容器正在运行"
    Upstream: "The Pod has been bound to a node, and all of the containers have been created. At
      least one container is still running, or is in the process of starting or restarting."
      (kubernetes/website pod-lifecycle.md § Pod phase). A Pod whose only container is in
      CrashLoopBackOff runs no container at all and is still Running (kubelet getPhase counts a
      waiting container with a previous termination as stopped and, with restartPolicy Always,
      returns Running).

    @requires:kube.api @requires:kubelet @requires:clock.virtual
    Scenario: a crash-looping pod with no running container is Running
      Given a cluster with node "n1"
      When I create pod "web" with restartPolicy "Always" and one container "app" running "sh -c 'exit 1'"
      And 60 seconds pass
      Then container "app" of pod "web" is waiting with reason "CrashLoopBackOff"
      And container "app" of pod "web" has restartCount at least 2
      And pod "web" has phase "Running"

  Rule: PHASE-SUCCEEDED-ALL-EXIT-ZERO — when every container exits 0 and none will restart, the Pod is Succeeded
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: All containers terminating normally (exit 0) moves the Pod to Succeeded. Upstream adds
      "and will not be restarted": under restartPolicy Always the kubelet restarts them instead.
    Quote: "Running --> Succeeded: 所有容器正常退出(Exit 0)" / "`Succeeded` | 所有容器正常终止"

    @requires:kube.api @requires:kubelet
    Scenario Outline: two containers exiting 0 under restartPolicy <policy>
      Given a cluster with node "n1"
      When I create pod "job" with restartPolicy "<policy>" and containers "a" running "sh -c 'exit 0'" and "b" running "sh -c 'sleep 2; exit 0'"
      Then within 30 seconds pod "job" has phase "<phase>"
      # "within": the pod is Running from its start, and a restarts only once its exit has been seen.
      And within 15 seconds container "a" of pod "job" has restartCount <restarts>

      Examples:
        | policy    | phase     | restarts     |
        | Never     | Succeeded | 0            |
        | OnFailure | Succeeded | 0            |
        | Always    | Running   | at least 1   |

  Rule: PHASE-SUCCEEDED-TERMINAL — Succeeded is a final phase
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: A Succeeded Pod leaves the lifecycle; nothing restarts it.
    Quote: "Succeeded --> [*]"

    @requires:kube.api @requires:kubelet @requires:clock.virtual
    Scenario: a Succeeded pod is still Succeeded five minutes later with no restarts
      Given a cluster with node "n1"
      And pod "job" with restartPolicy "Never" whose only container "app" ran "sh -c 'exit 0'" and has phase "Succeeded"
      When 300 seconds pass
      Then pod "job" has phase "Succeeded"
      And container "app" of pod "job" has restartCount 0

  @erratum
  Rule: PHASE-FAILED-ALL-TERMINATED — Failed needs all containers terminated, at least one in failure, none restarting
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The table defines Failed as "at least one container terminated abnormally", and the
      diagram moves Running to Failed when a container exits abnormally.
    Quote: "`Failed` | 至少一个容器异常终止" / "Running --> Failed: 容器异常退出"
    Upstream: "All containers in the Pod have terminated, and at least one container has
      terminated in failure ... and is not set for automatic restarting." (kubernetes/website
      pod-lifecycle.md § Pod phase; k8s.io/api core/v1 types.go, PodFailed). While another container
      still runs, or while the failed one will be restarted, the Pod is Running.

    @requires:kube.api @requires:kubelet
    Scenario: one container failed while the other still runs — the pod is Running, then Failed when both ended
      Given a cluster with node "n1"
      When I create pod "web" with restartPolicy "Never" and containers "bad" running "sh -c 'exit 3'" and "slow" running "sh -c 'sleep 5; exit 0'"
      Then within 4 seconds container "bad" of pod "web" is terminated with exitCode 3
      And pod "web" has phase "Running"
      And within 30 seconds pod "web" has phase "Failed"

    @requires:kube.api @requires:kubelet @requires:kube.watch
    Scenario: a failing container under restartPolicy OnFailure keeps the pod Running
      Given a cluster with node "n1"
      And I watch the pods of the scenario
      When I create pod "web" with restartPolicy "OnFailure" and one container "app" running "sh -c 'exit 1'"
      Then within 30 seconds container "app" of pod "web" has restartCount at least 1
      And pod "web" has never had phase "Failed"

  @erratum
  Rule: PHASE-FAILED-TERMINAL — restarts happen inside Running; a Failed Pod never returns to Running
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The diagram has the restart policy move a Failed Pod back to Running.
    Quote: "Failed --> Running: 重启策略触发(RestartPolicy)"
    Upstream: The kubelet restarts containers inside the same Pod while its phase stays Running;
      Failed is set only when no container will be restarted, and a Pod in Failed or Succeeded is
      terminal — a controller replaces it with a new Pod (new UID) instead
      (kubernetes/website pod-lifecycle.md § "Container restart policy" and § "Pod lifetime";
      kubelet_pods.go getPhase).

    @requires:kube.api @requires:kubelet @requires:kube.watch
    Scenario: the phase sequence of a restarted container never contains Failed
      Given a cluster with node "n1"
      And I watch the pods of the scenario
      When I create pod "web" with restartPolicy "Always" and one container "app" running "sh -c 'sleep 1; exit 1'"
      Then within 40 seconds container "app" of pod "web" has restartCount at least 2
      And the phases seen for pod "web" are exactly "Pending, Running"

    @requires:kube.api @requires:kubelet @requires:clock.virtual
    Scenario: a Failed pod stays Failed and keeps its UID
      Given a cluster with node "n1"
      And pod "web" with restartPolicy "Never" whose only container "app" ran "sh -c 'exit 1'" and has phase "Failed"
      When 300 seconds pass
      Then pod "web" has phase "Failed"
      And pod "web" has the same metadata.uid as before

  @erratum
  Rule: PHASE-NO-RESTART-LIMIT — the kubelet has no restart-count limit; it backs off 10 s doubling to 300 s
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The diagram ends a Failed Pod when it exceeds a maximum number of restarts.
    Quote: "Failed --> [*]: 超过重启次数上限"
    Upstream: A Pod's restartPolicy has no retry limit; the kubelet restarts with an exponential
      back-off of 10 s, 20 s, 40 s … capped at 300 s, reset after 10 minutes of clean running
      (kubernetes/website pod-lifecycle.md § "Container restart policy"). Retry limits exist only
      on controllers such as Job (spec.backoffLimit).

    @requires:kube.api @requires:kubelet @requires:cri @requires:clock.virtual
    Scenario: a crash-looping container is still restarted after 1000 seconds, with back-off capped at 300 seconds
      Given a cluster with node "n1"
      When I create pod "web" with restartPolicy "Always" and one container "app" running "sh -c 'exit 1'"
      And 1000 seconds pass
      Then pod "web" has phase "Running"
      And container "app" of pod "web" has restartCount at least 8
      And the delays in seconds between the first 8 restarts of container "app" are about "10, 20, 40, 80, 160, 300, 300"

  @erratum
  Rule: PHASE-UNKNOWN-NOT-SET — a lost node does not put its Pods in phase Unknown
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: Unknown means the Pod's state cannot be obtained, usually because the node is unreachable.
    Quote: "`Unknown` | 无法获取 Pod 状态（通常是节点失联）"
    Upstream: PodUnknown is kept in the API but marked "Deprecated: It isn't being set since 2015
      (74da3b14b0c0f658b3bb8d2def5094686d0e9095)" (k8s.io/api core/v1 types.go). When a node stops
      reporting, the node lifecycle controller sets the Pods' Ready condition to False and taints
      the node node.kubernetes.io/unreachable; the Pods are evicted after their toleration
      (300 s by default) and pod-lifecycle.md says a policy sets their phase to Failed.

    @requires:kube.api @requires:kubelet @requires:cluster.nodes @requires:controllers.nodelifecycle @requires:controllers.tainteviction @requires:clock.virtual
    Scenario: pods of a node that stopped heartbeating have Ready False and no phase Unknown
      # A second, healthy node: with every node lost the node lifecycle controller taints nothing
      # NoExecute and evicts nothing (master disruption mode, NODE-EVICTION-ZONES).
      Given a cluster with nodes "n1" and "n2"
      And a running pod "web" on node "n1"
      When node "n1" stops sending heartbeats
      And 120 seconds pass
      Then node "n1" has condition "Ready" with status "Unknown"
      And pod "web" has condition "Ready" with status "False"
      And pod "web" does not have phase "Unknown"
      When 300 seconds pass
      Then pod "web" is marked for deletion
      And pod "web" does not have phase "Unknown"

  Rule: KUBELET-GRACEFUL-DELETE — a deleted pod's containers get SIGTERM, then SIGKILL after the grace period; the kubelet then removes the pod
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: The kubelet manages the Pod's lifecycle to its end. Upstream (pod-lifecycle.md §
      Termination of Pods): a DELETE only marks the pod (deletionTimestamp, grace period from
      terminationGracePeriodSeconds, default 30 s); the kubelet sends SIGTERM, sends SIGKILL when
      the grace period ends, and once the containers are gone deletes the pod with grace 0
      (pkg/kubelet/status/status_manager.go), which removes it from the API.
    Quote: "使 Pod 按照定义（PodSpec）运行"

    @requires:kube.api @requires:kube.watch @requires:kubelet @requires:cri @requires:clock.virtual
    Scenario: a container that ignores SIGTERM runs out its 20-second grace period, is killed, and the pod disappears
      Given a cluster with node "n1"
      And I watch the pods of the scenario
      And a running pod "web" on node "n1" with terminationGracePeriodSeconds 20 and one container "app" running "sleep 3600"
      When I delete pod "web"
      And 10 seconds pass
      Then pod "web" is still in the API, marked for deletion
      And the runtime of node "n1" has a running container "app" for pod "web"
      And within 15 seconds pod "web" is gone from the API
      And the last status seen for container "app" of pod "web" is terminated with exitCode 137
