@component:kubelet
Feature: kubelet — the node agent
  Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet

  Both seeds describe the kubelet the same way: one instance on every node, the bridge between
  the control plane and the node. It learns its Pods from the API server, runs their PodSpecs
  through a container runtime, reports their status, restarts failed containers — and leaves
  alone every container Kubernetes did not create. Seed 003 also names Docker as a runtime the
  kubelet calls; that is an erratum, recorded with the runtimes in features/runtime/cri.feature
  (CRI-DOCKER-NOT-DIRECT).

  The scenarios create their pods with spec.nodeName set to the scenario's node (the first node
  its Given names), so no scheduler is needed: binding by spec.nodeName is what a scheduler's
  Binding does too, and the kubelet cannot tell the two apart.

  Rule: KUBELET-EVERY-NODE — every node runs one kubelet, which registers the node
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: Each node runs exactly one kubelet instance; the kubelet is the node's agent.
    Quote: "每个节点都会运行一个 kubelet 实例"

    @requires:kube.api @requires:kubelet @requires:clock.virtual
    Scenario: adding a node brings up a kubelet that registers it and renews its lease
      Given a cluster with node "n1"
      When I add node "n2"
      Then within 30 seconds node "n2" exists with condition "Ready" status "True"
      And within 30 seconds lease "kube-node-lease/n2" has holderIdentity "n2"
      And node "n2" reports a kubeletVersion in status.nodeInfo
      When 60 seconds pass
      Then lease "kube-node-lease/n2" was renewed within the last 10 seconds

  Rule: KUBELET-WATCH-ASSIGNED — the kubelet watches the API server for Pods bound to its own node and runs only those
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / Pod 生命周期管理
    Claim: The kubelet gets its PodSpecs from the API server by watching Pods assigned to its node
      (spec.nodeName equal to its node name); it does not run Pods bound elsewhere or unbound.
    Quote: "kubelet 监听 API Server 中分配到本节点的 Pod"

    @requires:kube.api @requires:kube.audit @requires:kubelet
    Scenario: the kubelet's pod watch is filtered by its node name
      Given a cluster with node "n1"
      Then the audit trail has a watch request from user "system:node:n1" on "/api/v1/pods" with fieldSelector "spec.nodeName=n1"

    @requires:kube.api @requires:kubelet @requires:cri
    Scenario: a pod bound to n2 is run by n2's runtime only; an unbound pod is run by none
      Given a cluster with nodes "n1" and "n2" and no scheduler
      When I create pod "a" with spec.nodeName "n2" and one container "app" running "sleep 3600"
      And I create pod "b" with no spec.nodeName and one container "app" running "sleep 3600"
      Then within 30 seconds the runtime of node "n2" has a ready sandbox for pod "a"
      And the runtime of node "n1" has no sandbox for pod "a"
      And no node's runtime has a sandbox for pod "b"

  Rule: KUBELET-RUNS-PODSPEC — the kubelet makes the Pod run as its PodSpec describes
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: The kubelet ensures the containers described in the PodSpec run on the node (image,
      command, environment as specified) and keeps watching that they run and are healthy.
    Quote: "使 Pod 按照定义（PodSpec）运行" / "持续监控并确保容器运行且健康"

    @requires:kube.api @requires:kubelet @requires:cri
    Scenario: the runtime container matches the PodSpec
      Given a cluster with node "n1"
      When I create the pod:
        """yaml
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          nodeName: n1
          containers:
          - name: app
            image: busybox
            command: ["sleep", "3600"]
            env: [{name: GREETING, value: hello}]
        """
      Then within 30 seconds the runtime of node "n1" has a running container "app" for pod "web"
      And that runtime container has image "busybox", command "sleep 3600" and env "GREETING=hello"
      And that runtime container has label "io.kubernetes.pod.name" = "web" and "io.kubernetes.container.name" = "app"

    @requires:kube.api @requires:kubelet @requires:cri
    Scenario: init containers run to completion, in order, before the app container starts
      # A PodSpec with initContainers describes a sequence: each must exit 0 before the next
      # starts, and the app containers start only after the last one (upstream's kubelet reports
      # them waiting with reason PodInitializing meanwhile, and the Pod Pending, not Initialized).
      Given a cluster with node "n1"
      When I create the pod:
        """yaml
        apiVersion: v1
        kind: Pod
        metadata: {name: staged}
        spec:
          nodeName: n1
          initContainers:
          - {name: fetch, image: busybox, command: ["sh", "-c", "sleep 10"]}
          - {name: migrate, image: busybox, command: ["sh", "-c", "sleep 10"]}
          containers:
          - {name: app, image: busybox, command: ["sleep", "3600"]}
        """
      And 5 seconds pass
      Then container "fetch" of pod "staged" is running
      And container "app" of pod "staged" is waiting with reason "PodInitializing"
      And pod "staged" has phase "Pending"
      And pod "staged" has condition "Initialized" with status "False"
      And within 30 seconds container "fetch" of pod "staged" is terminated with exitCode 0
      And container "app" of pod "staged" is waiting with reason "PodInitializing"
      And within 30 seconds container "migrate" of pod "staged" is terminated with exitCode 0
      And within 30 seconds container "app" of pod "staged" has restartCount 0 and is running

  Rule: KUBELET-REPORTS-STATUS — the kubelet reports Pod status to the API server
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: The kubelet reports the state of each Pod's containers to the API server as it changes.
    Quote: "实时汇报 Pod 状态"

    @requires:kube.api @requires:kube.audit @requires:kubelet
    Scenario: a container's exit code reaches the API through the status subresource
      Given a cluster with node "n1"
      When I create pod "job" with restartPolicy "Never" and one container "app" running "sh -c 'sleep 1; exit 7'"
      Then within 30 seconds container "app" of pod "job" is terminated with exitCode 7
      And the audit trail has a "PATCH" or "PUT" of the status of pod "job" by user "system:node:n1"

  Rule: KUBELET-RESTARTS-FAILED — the kubelet restarts failed containers on its own
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: When a container exits abnormally the kubelet restarts it (per the Pod's restartPolicy,
      whose default is Always), without any control-plane action.
    Quote: "自动重启异常容器"

    @requires:kube.api @requires:kubelet @requires:cri
    Scenario: killing the container process in the runtime leads to a restart in the same pod
      Given a cluster with node "n1"
      And a running pod "web" on node "n1" with one container "app" running "sleep 3600" and no restartPolicy set
      When the process of container "app" of pod "web" is killed in the runtime
      Then within 30 seconds container "app" of pod "web" has restartCount 1 and is running
      And pod "web" has the same metadata.uid as before
      And pod "web" has spec.restartPolicy "Always"

  Rule: KUBELET-ONLY-K8S-CONTAINERS — the kubelet manages only containers created by Kubernetes
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: Containers started on the node outside Kubernetes are not managed by the kubelet: it
      neither reports them as Pods nor stops, restarts or garbage-collects them. (The kubelet
      recognises its own sandboxes and containers by the io.kubernetes.pod.* labels it sets —
      pkg/kubelet/types/labels.go.)
    Quote: "kubelet 只管理由 Kubernetes 创建的容器" / "不负责管理节点上非 Kubernetes 管理的容器"

    @requires:kube.api @requires:kubelet @requires:cri @requires:clock.virtual
    Scenario: a sandbox created directly in the runtime survives and is not reported
      Given a cluster with node "n1"
      When I create a pod sandbox "outsider" with one container "x" running "sleep 3600" directly in the runtime of node "n1", without Kubernetes labels
      And 300 seconds pass
      Then the runtime of node "n1" still has a running container "x" in sandbox "outsider"
      And the API has no pod named "outsider" in any namespace

  Rule: KUBELET-NODE-IDENTITY — a kubelet may write only its own Node and Lease and the status of pods bound to it
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kubelet
    Claim: The kubelet reports its node's and its pods' state to the API server. Upstream it does so
      as the user system:node:<name> in group system:nodes, and kube-apiserver limits what that user
      may write: the Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go, run before
      RBAC with --authorization-mode=Node,RBAC) and the NodeRestriction admission plugin
      (plugin/pkg/admission/noderestriction/admission.go) let it write its own Node and Lease and
      the status of pods whose spec.nodeName is itself, nothing of another node's.
    Quote: "实时汇报 Pod 状态"

    @requires:kube.api @requires:kube.rbac @requires:kubelet
    Scenario: n1's kubelet identity may write the status of its own pod, not of n2's, nor n2's Node or Lease
      Given a cluster with nodes "n1" and "n2" and no scheduler
      When I create pod "mine" with spec.nodeName "n1" and one container "app" running "sleep 3600"
      And I create pod "theirs" with spec.nodeName "n2" and one container "app" running "sleep 3600"
      Then "system:node:n1" may write the status of pod "mine"
      And "system:node:n1" may not write the status of pod "theirs"
      And the refusal says "node \"n1\" can only update pod status for pods with spec.nodeName set to itself"
      And "system:node:n1" may not update node "n2"
      And the refusal says "node \"n1\" is not allowed to modify node \"n2\""
      And "system:node:n1" may not update lease "kube-node-lease/n2"
      And the refusal says "can only access node lease with the same name as the requesting node"
