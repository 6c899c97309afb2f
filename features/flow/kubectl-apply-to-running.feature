@component:flow
Feature: Request flow — from `kubectl apply` to a Running Pod
  Source: 000_1662d8c5cea2447f.txt § 请求流转全过程

  The notes follow one `kubectl apply -f deployment.yaml` (replicas 3) through every component:
  kubectl validates and POSTs; the API server authenticates, authorizes, admits, writes to etcd
  and answers 201; the Deployment controller creates a ReplicaSet; the ReplicaSet controller
  creates three unbound Pods; the scheduler filters, scores and binds each; the kubelet of the
  chosen node creates the sandbox and containers through CRI; and reports the Pod Running.
  Each stage is a Rule. The scenarios share one manifest:

  ```yaml
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: default}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: app, image: busybox, command: ["sleep", "3600"]}]
  ```

  which the steps call "the web Deployment manifest".

  @pending
  Rule: FLOW-KUBECTL-PARSE — kubectl parses the YAML locally and sends nothing when it is malformed
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: kubectl parses the YAML on the client; a document that does not parse is rejected before
      any request reaches the API server.
    Quote: "**kubectl 阶段**：kubectl 做本地 YAML 解析与校验，然后通过 REST API 发送给 API Server。"

    @requires:kubectl @requires:kube.api @requires:kube.audit
    Scenario: malformed YAML fails in kubectl and the API server sees no write
      Given kubectl pointed at the cluster with a fresh cache directory
      When I run "kubectl apply -f -" with the input:
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web
        """
      Then kubectl exits with a non-zero code and prints an error mentioning "yaml"
      And the audit trail has no "create", "update" or "patch" request

  @erratum @pending
  Rule: FLOW-KUBECTL-VALIDATE — schema validation happens on the server (fieldValidation=Strict); kubectl validates locally only as a fallback
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: kubectl validates the YAML locally before sending it.
    Quote: "kubectl->>kubectl: 本地 YAML 校验"
    Upstream: kubectl's --validate (default "strict") "will perform server side validation if
      ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable
      client-side validation if not" (kubectl flag help, staging/src/k8s.io/kubectl, AddValidateFlags).
      Against a current API server an unknown field is sent in the POST with ?fieldValidation=Strict
      and rejected by the server.

    @requires:kubectl @requires:kube.api @requires:kube.audit
    Scenario: an unknown field is rejected by the API server, not by kubectl
      Given kubectl pointed at the cluster with a fresh cache directory
      When I run "kubectl apply -f -" with the web Deployment manifest plus the field "spec.replicaz: 3"
      Then the audit trail has a "create" request for "deployments" with query parameter "fieldValidation=Strict"
      And that request was answered 400 with a message containing "unknown field \"spec.replicaz\""
      And kubectl exits with a non-zero code

  @pending
  Rule: FLOW-POST-DEPLOYMENT — kubectl creates the Deployment with POST /apis/apps/v1/namespaces/{ns}/deployments
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: kubectl sends the new Deployment to the API server as a POST on the namespaced
      deployments collection of group apps, version v1.
    Quote: "kubectl->>API: POST /apis/apps/v1/namespaces/{ns}/deployments"

    @requires:kubectl @requires:kube.api @requires:kube.audit
    Scenario: applying a new Deployment sends one POST to the apps/v1 collection
      Given kubectl pointed at the cluster with a fresh cache directory
      When I run "kubectl apply -f -" with the web Deployment manifest
      Then the audit trail has exactly one "POST" to "/apis/apps/v1/namespaces/default/deployments"
      And that POST carries query parameter "fieldManager=kubectl-client-side-apply"
      And kubectl prints "deployment.apps/web created"

  @pending
  Rule: FLOW-ADMISSION-BEFORE-PERSIST — the object is persisted only after authentication, authorization and admission pass
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The API server runs the full authentication → authorization → admission chain and only
      then persists the object to etcd; a request stopped at any stage writes nothing.
    Quote: "**API Server 阶段**：经过完整的认证→授权→准入链后，将对象持久化到 etcd。"

    @requires:kube.api @requires:kube.audit @requires:kube.storage
    Scenario: the stages of a successful create run in order before the etcd write
      When I create the web Deployment as user "alice" who may create deployments
      Then the request trace of that create lists, in order, "authentication, authorization, mutating admission, validating admission, storage write"

    @requires:kube.api @requires:kube.rbac @requires:kube.storage
    Scenario: a create denied by authorization leaves no key in the store
      Given user "mallory" has no RBAC permission in namespace "default"
      When I create the web Deployment as user "mallory"
      Then the answer is 403 Forbidden
      And the store has no key "/registry/deployments/default/web"

    @requires:kube.api @requires:kube.admission @requires:kube.storage
    Scenario: a create rejected by a validating webhook leaves no key in the store
      Given a validating admission webhook that denies every Deployment with message "no deployments today"
      When I create the web Deployment
      Then the answer is 400 or 403 with a message containing "no deployments today"
      And the store has no key "/registry/deployments/default/web"

  @pending
  Rule: FLOW-201-AFTER-WRITE — the API server answers 201 Created once the object is written to etcd
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: After etcd acknowledges the write, the API server returns 201 Created and kubectl reports
      the Deployment created; the returned object is what was stored.
    Quote: "Note over API: 返回 201 Created 给 kubectl"

    @requires:kube.api @requires:kube.storage
    Scenario: the 201 answer's resourceVersion is the revision at which the key was stored
      When I create the web Deployment
      Then the answer is 201 Created
      And the store key "/registry/deployments/default/web" exists with modRevision equal to the answer's metadata.resourceVersion

  @pending
  Rule: FLOW-DEPLOYMENT-CREATES-RS — the Deployment controller sees the new Deployment by watch and creates its ReplicaSet
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The Deployment controller watches Deployments, sees the change and creates the matching
      ReplicaSet through the API server.
    Quote: "**Deployment Controller 阶段**：Watch 到 Deployment 变更，创建对应的 ReplicaSet。"

    @requires:kube.api @requires:cluster.controllers @requires:kube.audit
    Scenario: one ReplicaSet owned by the Deployment, created by the controller manager
      When I create the web Deployment
      Then within 10 seconds there is exactly one ReplicaSet with an ownerReference to Deployment "web" with controller true
      And that ReplicaSet has spec.replicas 3, label "pod-template-hash" and a name starting with "web-"
      And the audit trail shows that ReplicaSet was created by user "system:serviceaccount:kube-system:deployment-controller" or "system:kube-controller-manager"

  @pending
  Rule: FLOW-RS-CREATES-UNBOUND-PODS — the ReplicaSet controller creates `replicas` Pods with no node
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The ReplicaSet controller sees the new ReplicaSet by watch and creates the requested
      number of Pods; at that point spec.nodeName is empty — the Pods are not bound to any node.
    Quote: "RSC->>API: 创建 Pod (spec.nodeName 为空)"

    @requires:kube.api @requires:cluster.controllers @requires:kube.watch
    Scenario: with no scheduler, three pods exist and none has a node
      Given a cluster with node "n1" and no scheduler
      When I create the web Deployment
      Then within 10 seconds there are exactly 3 pods labelled "app=web"
      And every pod labelled "app=web" has an empty spec.nodeName and an ownerReference to the web ReplicaSet
      And every ADDED event for those pods on a pod watch had an empty spec.nodeName

  @pending
  Rule: FLOW-SCHEDULER-BINDS — the scheduler watches unscheduled Pods, filters and scores nodes, and binds
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The scheduler watches for Pods with no node, runs Filter then Score for each, and writes
      the result by binding the Pod (Pod.spec.nodeName is set through the binding subresource).
    Quote: "**Scheduler 阶段**：Watch 到未调度的 Pod，执行 Filter + Score 两阶段调度，将结果写入 `Pod.spec.nodeName`。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.controllers @requires:kube.audit
    Scenario: each pod is bound with one POST to its binding subresource
      Given a cluster with nodes "n1" and "n2"
      When I create the web Deployment
      Then within 10 seconds every pod labelled "app=web" has spec.nodeName "n1" or "n2"
      And the audit trail has exactly 3 "create" requests on subresource "pods/binding", one per pod, by user "system:kube-scheduler"
      And every pod labelled "app=web" has condition "PodScheduled" with status "True"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.controllers
    Scenario: a node filtered out (cordoned) never receives a pod
      Given a cluster with nodes "n1" and "n2"
      And node "n2" is cordoned
      When I create the web Deployment
      Then within 10 seconds every pod labelled "app=web" has spec.nodeName "n1"

  @pending
  Rule: FLOW-KUBELET-CRI-ORDER — the kubelet creates the sandbox first, then creates and starts each container
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: The kubelet of the chosen node sees the Pod by watch and, through CRI, calls
      RunPodSandbox (the pause container), then CreateContainer, then StartContainer.
    Quote: "KL->>CRI: RunPodSandbox (创建 pause 容器)" / "KL->>CRI: CreateContainer (创建业务容器)" / "KL->>CRI: StartContainer (启动业务容器)"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.controllers @requires:kubelet @requires:cri
    Scenario: for each pod the CRI calls come in sandbox, create, start order
      Given a cluster with node "n1" whose CRI calls are recorded
      When I create the web Deployment
      Then within 30 seconds every pod labelled "app=web" has phase "Running"
      And for each of those pods the recorded CRI calls of node "n1" contain "RunPodSandbox" before "CreateContainer" before "StartContainer"
      And the sandbox id passed to CreateContainer is the one RunPodSandbox returned for that pod

  @pending
  Rule: FLOW-STATUS-RUNNING — the kubelet reports the Pod Running to the API server, which stores it
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The kubelet reports the Pod's status (phase Running) to the API server, which writes it
      to etcd; this completes the flow.
    Quote: "**状态更新**：kubelet 将 Pod 状态上报给 API Server，完成整个流程。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.controllers @requires:kubelet @requires:kube.storage
    Scenario: the stored pods are Running and the Deployment reports 3 available replicas
      Given a cluster with nodes "n1" and "n2"
      When I create the web Deployment
      Then within 30 seconds every pod labelled "app=web" has phase "Running"
      And the store value of each of those pods has status.phase "Running"
      And within 10 seconds Deployment "web" has status.availableReplicas 3

  @untestable
  Rule: FLOW-DURATION — the whole flow takes from a few seconds to tens of seconds
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The whole process takes a few seconds to a few tens of seconds, depending on image size,
      node resources and network speed.
    Quote: "整个过程大约需要几秒到几十秒"
    Untestable: an order-of-magnitude estimate that depends on images, hardware and network; no fixed bound follows from it.

  @pending
  Rule: FLOW-STAGE-TIMESTAMPS — the timestamps of each stage can be read back to find the slow one
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: `kubectl describe pod` shows a timestamp for each stage (conditions and events), so the
      bottleneck can be located.
    Quote: "可以通过 `kubectl describe pod` 查看每个阶段的时间戳，定位瓶颈所在。"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:kubectl
    Scenario: a running pod carries stage timestamps in non-decreasing order
      Given a cluster with node "n1"
      And a running pod "web" on node "n1"
      Then pod "web" has lastTransitionTime on conditions "PodScheduled", "Initialized", "ContainersReady" and "Ready"
      And the events of pod "web" with reasons "Scheduled", "Created" and "Started" have non-decreasing timestamps in that order
      And "kubectl describe pod web" prints a "Conditions:" section and an "Events:" section listing "Scheduled" and "Started"

  Rule: FLOW-APPLY-MERGES — re-applying a changed manifest patches the live object: lists such as containers are merged by name, not replaced
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程; § 控制平面 / Controller Manager / 声明式控制循环
    Claim: `kubectl apply` is declarative: it says what is wanted, not how to get there. Applying a
      changed manifest to an object that exists sends the difference as a strategic merge patch
      (`PATCH`, `application/strategic-merge-patch+json`), which merges lists that carry a merge key —
      a pod template's containers by `name` — element by element
      (k8s.io/apimachinery/pkg/util/strategicpatch; `patchMergeKey:"name"` on PodSpec.Containers). A field
      another client set on one container (here with `kubectl set env`) survives a re-apply that changes
      a different container.
    Quote: "不要告诉系统"怎么做"（命令式），而是告诉它"要什么"（声明式），系统自行收敛到期望状态。"

    @requires:kubectl @requires:kube.api
    Scenario: a re-apply that changes one container keeps what kubectl set env added to the other
      When I run "kubectl apply -n {ns} -f -" with the input:
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: 1
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - {name: app, image: "busybox:1.36", command: ["sleep", "3600"]}
              - {name: sidecar, image: "busybox:1.36", command: ["sleep", "3600"]}
        """
      Then kubectl exits with code 0
      When I run "kubectl set env -n {ns} deployment/web -c sidecar MODE=debug"
      Then kubectl exits with code 0
      When I run "kubectl apply -n {ns} -f -" with the input:
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: 1
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - {name: app, image: "busybox:1.37", command: ["sleep", "3600"]}
              - {name: sidecar, image: "busybox:1.36", command: ["sleep", "3600"]}
        """
      Then kubectl exits with code 0
      And Deployment "web" has containers "app" and "sidecar", in that order
      And container "app" of Deployment "web" has image "busybox:1.37" and command "sleep 3600"
      And container "sidecar" of Deployment "web" has env "MODE=debug"
