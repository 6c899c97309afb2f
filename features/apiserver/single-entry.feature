@component:apiserver
Feature: API Server — the single entry point, and why
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 为什么这样设计？

  The notes open the API Server section with one architectural claim: every component talks to the
  API Server and nothing else touches etcd. They then give three reasons. Each reason that has an
  observable consequence is read as a rule with a scenario; the reason that is only a design intent
  (a replaceable storage backend) is recorded as untestable.

  The scenarios observe the claim from the outside: the request trace (`kube.audit`) shows who made
  which request, and the store (`kube.storage`) shows what was written.

  Rule: API-SINGLE-ENTRY — kubectl, kubelet, scheduler and controller manager talk only to the API server
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-apiserver (was OVERVIEW-APISERVER-ONLY-ENTRY; seed 003 makes the same claim there)
    Claim: Every component (kubectl, kubelet, Controller Manager, Scheduler) communicates only with the
      API server; none of them operates on etcd directly. Two sides show it: the API server's
      request trace holds each component's reads and writes under its own identity, and the store's
      client log (who connected to etcd with which identity) holds no client but the API server.

    @requires:kube.api @requires:kube.storage.clients @requires:cluster.workloads @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: while a Deployment is rolled out to running pods, no client but the API server talks to the store
      Given the cluster has a node that runs pods
      And the store's client log is recording
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And the store's client log holds writes under "/registry/replicasets/{ns}/" and "/registry/pods/{ns}/"
      And every request in the store's client log was made by "kube-apiserver"

    @requires:kube.api @requires:kube.audit @requires:cluster.scheduler @requires:kubelet @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: each component's part of a rollout reaches the API server under its own identity
      Given a cluster with node "n1"
      And the request trace is recording
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each in phase "Running"
      And the request trace holds a 201 POST to "/apis/apps/v1/namespaces/{ns}/replicasets" made by the controller manager
      And the request trace holds 3 201 POSTs to "/api/v1/namespaces/{ns}/pods" made by the controller manager
      And the request trace holds a 201 POST to the binding of each of those pods made by user "system:kube-scheduler"
      And the request trace holds a status write of each of those pods made by user "system:node:n1"

  Rule: API-UNIFIED-AUTH — every request, whoever sends it, passes the same authentication, authorization and admission chain
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 为什么这样设计？
    Claim: All requests go through one authentication/authorization/admission chain, so components do not
      implement security logic themselves; a component's service account gets no more than RBAC grants it.
    Quote: "所有请求经过同一套认证/授权/准入链，避免各组件自行实现安全逻辑。"

    @requires:kube.api @requires:kube.rbac
    Scenario: a service account with no bindings is refused like any other user
      Given service account "robot" in the scenario's namespace
      When "system:serviceaccount:{ns}:robot" lists pods in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

    @requires:kube.api @requires:kube.admission @requires:cluster.controllers
    Scenario: a validating webhook sees requests from a controller just as it sees requests from kubectl users
      Given a cluster with the controllers running
      And a validating webhook "count-pods" that admits every pod create and records it
      When Deployment "app" is created with 2 replicas
      Then within 10 s webhook "count-pods" has recorded exactly 2 pod creates

    @requires:kube.api @requires:kube.admission @requires:controllers.serviceaccount
    Scenario: a validating webhook sees the serviceaccounts controller's create just as it sees the client's
      Given a validating webhook "count-sas" that admits every serviceaccount create and records it
      And service account "robot" in the scenario's namespace
      When I delete ServiceAccount "{ns}/default"
      Then within 10 seconds ServiceAccount "{ns}/default" exists again with a new uid
      And within 10 s webhook "count-sas" has recorded exactly 2 serviceaccount creates
      And the serviceaccount create of "default" recorded by webhook "count-sas" was made by the controller manager

    @requires:kube.api @requires:kube.audit @requires:controllers.serviceaccount
    Scenario: the controller manager's create passes the same stages, in the same order, as the client's
      Given the request trace is recording
      And service account "robot" in the scenario's namespace
      When I delete ServiceAccount "{ns}/default"
      Then within 10 seconds ServiceAccount "{ns}/default" exists again with a new uid
      And the controller manager's POST to "/api/v1/namespaces/{ns}/serviceaccounts" in the request trace passed the same stages as the client's

  @untestable
  Rule: API-STORAGE-DECOUPLED — the API server is a proxy over etcd, so the storage engine could in theory be replaced
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 为什么这样设计？
    Claim: Because the API server is the proxy layer in front of etcd, the backend storage engine is
      replaceable (in theory) without upper-layer components noticing.
    Quote: "API Server 作为 etcd 的代理层，后端存储引擎可替换（理论层面），上层组件无需感知。"
    Untestable: a design intent ("in theory"); no scenario on one target can show that another backend would work.

  Rule: API-OBSERVABILITY — a single entry point lets audit logging cover every request
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 为什么这样设计？
    Claim: Because all traffic enters through the API server, cross-cutting concerns such as audit logs
      and rate limiting are governed in one place: every request appears in the audit trail.
    Quote: "集中入口便于审计日志、请求速率限制等横向关注点的统一治理。"

    @requires:kube.api @requires:kube.audit
    Scenario: every request, allowed or refused, leaves exactly one completed entry in the request trace
      Given the request trace is recording
      When ConfigMap "a" is created
      And the client gets ConfigMap "missing"
      And the client deletes ConfigMap "a"
      Then the request trace holds exactly 3 completed entries made by the scenario's client
      And their response codes are 201, 404 and 200 in that order

  Rule: API-RATE-LIMIT — a client over its share of the API server's concurrent requests is answered 429 Too Many Requests with Retry-After
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 为什么这样设计？
    Claim: Because all traffic enters through the API server, request rate limiting is governed in one
      place. Upstream's two throttles both answer 429 with a Retry-After header: the max-in-flight filter
      (--max-mutating-requests-inflight, default 200, and --max-requests-inflight, default 400; a request
      beyond them is refused at once with `Retry-After: 1` and "Too many requests, please try again later.";
      watches and other long-running requests take no seat, and system:masters is never refused —
      staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go), and API Priority and Fairness
      when a priority level's queues are full (staging/src/k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go).
      The scenarios fill the mutating seats with creates held in an admission webhook, so the limit is
      reached without a load test; a target declares its limit through `kube.inflight-limit`.
    Quote: "集中入口便于审计日志、请求速率限制等横向关注点的统一治理。"

    @requires:kube.api @requires:kube.rbac @requires:kube.admission @requires:kube.inflight-limit
    Scenario: with every mutating seat held, one more create is 429 with Retry-After; once released, the seats are free again
      Given a Role "writer" in the scenario's namespace allowing "create" on "configmaps"
      And a RoleBinding binding Role "writer" to user "dora"
      And a validating webhook "gate" that holds every configmap create until released
      When "dora" starts as many ConfigMap creates as the server's mutating in-flight limit, all held by webhook "gate"
      And "dora" creates ConfigMap "one-more"
      Then the response status is 429 with a Retry-After header of at least 1 second
      When webhook "gate" releases the held creates
      Then every create "dora" started is answered 201
      And "dora" creating ConfigMap "after" is answered 201

    @requires:kube.api @requires:kube.rbac @requires:kube.admission @requires:kube.inflight-limit
    Scenario: while the mutating seats are full, reads and system:masters' writes are still served
      Given a Role "writer" in the scenario's namespace allowing "create, list" on "configmaps"
      And a RoleBinding binding Role "writer" to user "dora"
      And a validating webhook "gate" that holds every configmap create until released
      When "dora" starts as many ConfigMap creates as the server's mutating in-flight limit, all held by webhook "gate"
      Then "dora" listing ConfigMaps in the scenario's namespace is answered 200
      And a ConfigMap create by the scenario's admin (system:masters) reaches webhook "gate" instead of a 429
      When webhook "gate" releases the held creates
      Then every create "dora" started is answered 201

  Rule: API-CRD-CONVERSION — a custom resource is read in the version the client asks for; a CRD with conversion strategy Webhook has its webhook convert it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 为什么这样设计？
    Claim: The API server stands between its clients and etcd, so clients need not know the stored
      form: a custom resource stored in one version is served in the version the request names.
      The notes say nothing specific about custom resources; this Rule tests upstream's mechanism.
    Quote: "API Server 作为 etcd 的代理层……上层组件无需感知。"
    Upstream: a CRD's spec.conversion.strategy Webhook makes the API server POST an
      apiextensions.k8s.io/v1 ConversionReview {request: {uid, desiredAPIVersion, objects}} for the
      objects not already in the desired version, and check the answer: response.uid must be the
      request's, convertedObjects as many as sent, each in the desired apiVersion with the same kind,
      name, namespace and uid; any failure fails the request with 500 and "conversion webhook for
      <group>/<version>, Kind=<Kind> failed: …" (staging/src/k8s.io/apiextensions-apiserver/pkg/
      apiserver/conversion/webhook_converter.go; the empty reason is responsewriters/status.go
      ErrorToAPIStatus for a plain error). A CRD with strategy Webhook and no webhook is refused 422
      (pkg/apis/apiextensions/validation/validation.go validateCustomResourceConversion).

    @requires:kube.api @requires:kube.crd.conversion-webhook
    Scenario: an object stored at v1 and read at v2 comes back as the webhook converted it
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that moves spec.size to spec.replicas
      When Widget "w1" is created at v1 with spec.size 3
      And the client gets Widget "w1" at v2
      Then the response is Widget "w1" at v2 with spec.replicas 3
      And the conversion webhook received a ConversionReview for "{ns}.example.com/v2" holding Widget "w1"

    @requires:kube.api @requires:kube.crd.conversion-webhook
    Scenario: a list and a watch at v2 are converted too, the watch's events in order
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that moves spec.size to spec.replicas
      When Widget "w1" is created at v1 with spec.size 2
      And the client watches Widgets at v2 from the start
      And Widget "w2" is created at v1 with spec.size 2
      And Widget "w3" is created at v1 with spec.size 2
      And the client lists Widgets at v2
      Then the list holds Widgets "w1, w2, w3" at v2, each with spec.replicas 2
      And the watch delivers Widgets "w1, w2, w3" as ADDED at v2 with spec.replicas 2, in that order

    @requires:kube.api @requires:kube.crd.conversion-webhook
    Scenario: a webhook answering for another uid fails the read with 500
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that answers for another uid
      When Widget "w1" is created at v1 with spec.size 3
      And the client gets Widget "w1" at v2
      Then the response status is 500
      And the response message contains "conversion webhook for {ns}.example.com/v1, Kind=Widget failed: expected response.uid="

    @requires:kube.api @requires:kube.crd.conversion-webhook
    Scenario: a webhook leaving the object in its stored version fails the read with 500
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that leaves the objects at their version
      When Widget "w1" is created at v1 with spec.size 3
      And the client gets Widget "w1" at v2
      Then the response status is 500
      And the response message contains "invalid groupVersion (expected {ns}.example.com/v2, received {ns}.example.com/v1)"

    @requires:kube.api @requires:kube.crd.conversion-webhook
    Scenario: a webhook that is down fails the read with 500, while reads in the stored version need no webhook
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that is down
      When Widget "w1" is created at v1 with spec.size 3
      And the client gets Widget "w1" at v2
      Then the response status is 500
      And the response message contains "conversion webhook for {ns}.example.com/v1, Kind=Widget failed: "
      When the client gets Widget "w1" at v1
      Then the response status is 200

    @requires:kube.api
    Scenario: a CRD with conversion strategy Webhook but no webhook is refused 422 Invalid
      When a CustomResourceDefinition with conversion strategy Webhook and no webhook is created
      Then the response status is 422 with reason "Invalid"
      And the response details list a cause for field "spec.conversion.webhookClientConfig" of type "FieldValueRequired"
      And the response message contains "required when strategy is set to Webhook"
