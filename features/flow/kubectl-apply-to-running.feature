@component:flow
Feature: Request flow — from `kubectl apply` to a Running Pod
  Source: 000_1662d8c5cea2447f.txt § 请求流转全过程

  The notes follow one `kubectl apply -f deployment.yaml` (replicas 3) through every component:
  kubectl validates and POSTs; the API server authenticates, authorizes, admits, writes to etcd
  and answers 201; the Deployment controller creates a ReplicaSet; the ReplicaSet controller
  creates three unbound Pods; the scheduler filters, scores and binds each; the kubelet of the
  chosen node creates the sandbox and containers through CRI; and reports the Pod Running.
  Each stage is a Rule. The scenarios about kubectl, and the one that follows the whole flow, run
  the real kubectl; those about a later stage create the same Deployment through the API. They
  share one manifest:

  ```yaml
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: app, image: busybox, command: ["sleep", "3600"]}]
  ```

  which the steps call "the web Deployment manifest", applied in the scenario's own namespace
  (`{ns}`). Two logs show the stages: the API server's request trace (`kube.audit`: each
  request's user, path, answer and the pipeline stages it passed, in completion order) and a
  node's CRI call log (`cri`: the runtime calls its kubelet made). A target without them (a
  cluster reached only through its API) runs the scenarios that need only the API: the objects,
  their owners, their nodes, their status and their events (`cluster.workloads`: the cluster
  schedules pods onto a node it has and runs them there).

  Rule: FLOW-KUBECTL-PARSE — kubectl parses the YAML locally and sends nothing when it is malformed
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: kubectl parses the YAML on the client; a document that does not parse is rejected before
      any request reaches the API server.
    Quote: "**kubectl 阶段**：kubectl 做本地 YAML 解析与校验，然后通过 REST API 发送给 API Server。"

    @requires:kubectl @requires:kube.api @requires:kube.audit
    Scenario: malformed YAML fails in kubectl and no write reaches the API server; the same apply well-formed does
      Given the request trace is recording
      When I run "kubectl apply -n {ns} -f -" with the input:
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web
        """
      Then kubectl exits with a non-zero code and prints an error mentioning "yaml"
      And the request trace holds no create, update, patch or delete made by the scenario's client
      When I run "kubectl apply -n {ns} -f -" with the web Deployment manifest
      Then kubectl exits with code 0
      And the request trace holds exactly 1 create, update, patch or delete made by the scenario's client

  @erratum
  Rule: FLOW-KUBECTL-VALIDATE — schema validation happens on the server (fieldValidation=Strict); kubectl validates locally only as a fallback
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: kubectl validates the YAML locally before sending it.
    Quote: "kubectl->>kubectl: 本地 YAML 校验"
    Upstream: kubectl's --validate (default "strict") "will perform server side validation if
      ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable
      client-side validation if not" (kubectl flag help, staging/src/k8s.io/kubectl, AddValidateFlags).
      Against a current API server an unknown field is sent in the POST with ?fieldValidation=Strict
      and rejected by the server: 400 BadRequest, "strict decoding error: unknown field
      \"spec.replicaz\"" (apimachinery's strict decoder), which kubectl prints as "Error from server
      (BadRequest)". Client-side validation would have printed "error validating data" instead.

    @requires:kubectl @requires:kube.api
    Scenario: an unknown field is refused by the API server, not by kubectl
      When I run "kubectl apply -n {ns} -f -" with the web Deployment manifest plus the field "spec.replicaz: 3"
      Then kubectl exits with a non-zero code and prints an error mentioning "Error from server (BadRequest)"
      And kubectl's error mentions "unknown field \"spec.replicaz\""
      And there is no Deployment "web"

    @requires:kubectl @requires:kube.api @requires:kube.audit
    Scenario: the POST carries fieldValidation=Strict and is answered 400
      Given the request trace is recording
      When I run "kubectl apply -n {ns} -f -" with the web Deployment manifest plus the field "spec.replicaz: 3"
      Then the request trace holds exactly one POST to "/apis/apps/v1/namespaces/{ns}/deployments" made by the scenario's client, with query parameter "fieldValidation=Strict", answered 400

  Rule: FLOW-POST-DEPLOYMENT — kubectl creates the Deployment with POST /apis/apps/v1/namespaces/{ns}/deployments
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: kubectl sends the new Deployment to the API server as a POST on the namespaced
      deployments collection of group apps, version v1.
    Quote: "kubectl->>API: POST /apis/apps/v1/namespaces/{ns}/deployments"

    @requires:kubectl @requires:kube.api @requires:kube.audit
    Scenario: applying a new Deployment sends one POST to the apps/v1 collection, and no other write
      Given the request trace is recording
      When I run "kubectl apply -n {ns} -f -" with the web Deployment manifest
      Then kubectl prints "deployment.apps/web created" and exits with code 0
      And the request trace holds exactly one POST to "/apis/apps/v1/namespaces/{ns}/deployments" made by the scenario's client, with query parameter "fieldManager=kubectl-client-side-apply", answered 201
      And the request trace holds exactly 1 create, update, patch or delete made by the scenario's client
      And Deployment "web" has spec.replicas 3 and annotation "kubectl.kubernetes.io/last-applied-configuration" naming Deployment "web"

  Rule: FLOW-ADMISSION-BEFORE-PERSIST — the object is persisted only after authentication, authorization and admission pass
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The API server runs the full authentication → authorization → admission chain and only
      then persists the object to etcd; a request stopped at any stage writes nothing.
    Quote: "**API Server 阶段**：经过完整的认证→授权→准入链后，将对象持久化到 etcd。"

    @requires:kube.api @requires:kube.audit
    Scenario: the stages of a create run in order, the storage write last
      Given the request trace is recording
      When the client creates the web Deployment
      Then the first POST to "/apis/apps/v1/namespaces/{ns}/deployments" in the request trace passed the stages "authentication, authorization, mutating-admission, schema-validation, validating-admission, storage"

    @requires:kube.api @requires:kube.rbac
    Scenario: a create denied by authorization writes nothing
      When "mallory" creates the web Deployment
      Then the response status is 403 with reason "Forbidden"
      And there is no Deployment "web"

    @requires:kube.api @requires:kube.rbac @requires:kube.storage
    Scenario: a create denied by authorization leaves no key in the store
      When "mallory" creates the web Deployment
      Then the response status is 403 with reason "Forbidden"
      And the store holds no key "/registry/deployments/{ns}/web"

    @requires:kube.api @requires:kube.admission @requires:kube.storage
    Scenario: a create refused by a validating webhook leaves no key in the store
      Given a validating webhook "no-deploy" that refuses every deployment create with message "no deployments today"
      When the client creates the web Deployment
      Then the response is refused with a message containing "no deployments today"
      And the store holds no key "/registry/deployments/{ns}/web"
      And there is no Deployment "web"
      When the client creates ConfigMap "control"
      Then the store holds key "/registry/configmaps/{ns}/control"

  Rule: FLOW-201-AFTER-WRITE — the API server answers 201 Created once the object is written to etcd
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: After etcd acknowledges the write, the API server returns 201 Created and kubectl reports
      the Deployment created; the returned object is what was stored.
    Quote: "Note over API: 返回 201 Created 给 kubectl"

    @requires:kube.api @requires:kube.storage @requires:kv
    Scenario: the 201 answer's resourceVersion is the revision at which the key was stored
      Given a cluster whose store is also reachable directly
      When the client creates the web Deployment
      Then the response status is 201
      And the store key "/registry/deployments/{ns}/web" holds the answer's uid at a modRevision equal to the answer's metadata.resourceVersion

    @requires:kube.api
    Scenario: a read right after the 201 answer returns the stored object
      When the client creates the web Deployment
      Then the response status is 201
      And a GET of Deployment "web" right after the answer returns its uid and resourceVersion

  Rule: FLOW-DEPLOYMENT-CREATES-RS — the Deployment controller sees the new Deployment by watch and creates its ReplicaSet
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The Deployment controller watches Deployments, sees the change and creates the matching
      ReplicaSet through the API server. Upstream names it <deployment>-<pod-template-hash>, labels
      it and its pod template with that hash, and makes the Deployment its controller owner
      (pkg/controller/deployment/sync.go, getNewReplicaSet).
    Quote: "**Deployment Controller 阶段**：Watch 到 Deployment 变更，创建对应的 ReplicaSet。"

    @requires:kube.api @requires:controllers.deployment
    Scenario: one ReplicaSet owned by the Deployment, for 3 replicas, named by its template hash
      When the client creates the web Deployment
      Then within 10 seconds there is exactly one ReplicaSet with an ownerReference to Deployment "web" with controller true
      And that ReplicaSet has spec.replicas 3 and a name "web-" followed by its label "pod-template-hash"

    @requires:kube.api @requires:controllers.deployment @requires:kube.audit
    Scenario: the ReplicaSet is created through the API server by the controller manager
      Given the request trace is recording
      When the client creates the web Deployment
      Then within 10 seconds there is exactly one ReplicaSet with an ownerReference to Deployment "web" with controller true
      And the request trace holds a POST to "/apis/apps/v1/namespaces/{ns}/replicasets" creating that ReplicaSet, made by the controller manager, after the client's POST of the Deployment

  Rule: FLOW-RS-CREATES-UNBOUND-PODS — the ReplicaSet controller creates `replicas` Pods with no node
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The ReplicaSet controller sees the new ReplicaSet by watch and creates the requested
      number of Pods; at that point spec.nodeName is empty — the Pods are not bound to any node.
      (A scheduler may bind them a moment later: each Pod is created unbound, which a watch shows
      as its ADDED event.)
    Quote: "RSC->>API: 创建 Pod (spec.nodeName 为空)"

    @requires:kube.api @requires:kube.watch @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: three pods are created, each with no node when it is added
      Given a watch on the pods of the scenario's namespace
      When the client creates the web Deployment
      Then within 10 seconds there are exactly 3 pods labelled "app=web", each with a controller ownerReference to the ReplicaSet of Deployment "web"
      And within 10 seconds the pod watch has delivered an ADDED event for each of them, every one with an empty spec.nodeName

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset @requires:cluster.nodes
    Scenario: with no node to bind them to, the three pods stay unbound
      Given a cluster with no nodes
      When the client creates the web Deployment
      Then within 10 seconds there are exactly 3 pods labelled "app=web", each with a controller ownerReference to the ReplicaSet of Deployment "web"
      And every pod labelled "app=web" has an empty spec.nodeName

  Rule: FLOW-SCHEDULER-BINDS — the scheduler watches unscheduled Pods, filters and scores nodes, and binds
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The scheduler watches for Pods with no node, runs Filter then Score for each, and writes
      the result by binding the Pod (Pod.spec.nodeName is set through the binding subresource).
      Upstream's default scoring spreads a workload's pods over equal nodes (the default
      PodTopologySpread constraints and NodeResourcesLeastAllocated, which scores requests of 0 as
      100m CPU and 200Mi: pkg/scheduler/util, GetNonzeroRequests), and the scheduler records an
      Event "Scheduled" on each pod.
    Quote: "**Scheduler 阶段**：Watch 到未调度的 Pod，执行 Filter + Score 两阶段调度，将结果写入 `Pod.spec.nodeName`。"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:controllers.deployment @requires:controllers.replicaset @requires:kube.audit
    Scenario: each pod is bound with one POST to its binding subresource, and the three are spread over both nodes
      Given a cluster with nodes "n1" and "n2"
      And the request trace is recording
      When the client creates the web Deployment
      Then within 10 seconds there are exactly 3 pods labelled "app=web", each bound to node "n1" or "n2"
      And the request trace holds exactly one POST to the binding subresource of each pod labelled "app=web", made by user "system:kube-scheduler"
      And every pod labelled "app=web" has condition "PodScheduled" with status "True"
      And the pods labelled "app=web" are on both nodes "n1" and "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: a node filtered out (cordoned) never receives a pod
      Given a cluster with nodes "n1" and "n2"
      And Node "n2" is cordoned
      When the client creates the web Deployment
      Then within 10 seconds there are exactly 3 pods labelled "app=web", each bound to node "n1"

    @requires:kube.api @requires:cluster.workloads @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: every pod is bound to a Ready node, and the scheduler says so in an event
      Given the cluster has a node that runs pods
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each bound to a node that is Ready
      And every pod labelled "app=web" has condition "PodScheduled" with status "True"
      And within 10 seconds every pod labelled "app=web" has an event "Scheduled" from "default-scheduler" saying "Successfully assigned {ns}/<pod> to <node>"

  Rule: FLOW-KUBELET-CRI-ORDER — the kubelet creates the sandbox first, then creates and starts each container
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: The kubelet of the chosen node sees the Pod by watch and, through CRI, calls
      RunPodSandbox (the pause container), then CreateContainer, then StartContainer.
    Quote: "KL->>CRI: RunPodSandbox (创建 pause 容器)" / "KL->>CRI: CreateContainer (创建业务容器)" / "KL->>CRI: StartContainer (启动业务容器)"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:cri @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: for each pod the CRI calls come in sandbox, create, start order, in the one sandbox made for it
      Given a cluster with node "n1" whose CRI calls are recorded
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And for each of those pods the CRI calls of node "n1" hold one "RunPodSandbox", then "CreateContainer", then "StartContainer"
      And the sandbox each CreateContainer names is the one RunPodSandbox returned for that pod

  Rule: FLOW-STATUS-RUNNING — the kubelet reports the Pod Running to the API server, which stores it
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The kubelet reports the Pod's status (phase Running) to the API server, which writes it
      to etcd; this completes the flow.
    Quote: "**状态更新**：kubelet 将 Pod 状态上报给 API Server，完成整个流程。"

    @requires:kube.api @requires:cluster.workloads @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: the pods reach Running and the Deployment reports 3 available replicas
      Given the cluster has a node that runs pods
      When the client creates the web Deployment
      Then within 60 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And within 10 seconds Deployment "web" has status.availableReplicas 3

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:kube.storage @requires:kube.audit @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: the stored pods are Running, written there by their node's kubelet
      Given a cluster with nodes "n1" and "n2"
      And the request trace is recording
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And the store value of each of those pods has status.phase "Running"
      And the status of each of those pods was written by user "system:node:<its node>"

    @requires:kubectl @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:cri @requires:kube.audit @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: the whole flow happens in the order of the sequence diagram
      Given a cluster with node "n1" whose CRI calls are recorded
      And the request trace is recording
      When I run "kubectl apply -n {ns} -f -" with the web Deployment manifest
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And the request trace shows, in order: kubectl's POST of the Deployment after authentication, authorization and admission; the ReplicaSet's POST by the controller manager; then for each pod its POST by the controller manager, its binding by "system:kube-scheduler" and its status by "system:node:n1"
      And for each of those pods the CRI calls of node "n1" hold one "RunPodSandbox", then "CreateContainer", then "StartContainer"

  @untestable
  Rule: FLOW-DURATION — the whole flow takes from a few seconds to tens of seconds
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: The whole process takes a few seconds to a few tens of seconds, depending on image size,
      node resources and network speed.
    Quote: "整个过程大约需要几秒到几十秒"
    Untestable: an order-of-magnitude estimate that depends on images, hardware and network; no fixed bound follows from it.

  Rule: FLOW-STAGE-TIMESTAMPS — the timestamps of each stage can be read back to find the slow one
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程 / 关键阶段说明
    Claim: `kubectl describe pod` shows a timestamp for each stage (conditions and events), so the
      bottleneck can be located. Upstream: each condition carries lastTransitionTime; the scheduler
      records Event "Scheduled" and the kubelet "Pulling"/"Pulled" (when it pulls), "Created" and
      "Started" per container (pkg/kubelet/events/event.go), each with its time.
    Quote: "可以通过 `kubectl describe pod` 查看每个阶段的时间戳，定位瓶颈所在。"

    @requires:kubectl @requires:kube.api @requires:cluster.workloads @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: a running pod carries stage timestamps in order, and kubectl describe shows them
      Given the cluster has a node that runs pods
      When I run "kubectl apply -n {ns} -f -" with the web Deployment manifest
      Then within 60 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And each of those pods has a lastTransitionTime on conditions "PodScheduled", "Initialized", "ContainersReady" and "Ready", none before its creationTimestamp
      And within 10 seconds each of those pods has events "Scheduled", "Created" and "Started" whose timestamps do not decrease in that order
      And "kubectl describe pod" of one of those pods prints its "Conditions:" and an "Events:" section listing "Scheduled", "Created" and "Started" with their ages

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
