@component:apiserver
Feature: API Server — how it uses etcd
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互

  Three claims: the API server is the only writer to etcd; other components read through the API
  server, which keeps a cache (the watch cache) in front of etcd; and consistency comes from etcd's
  MVCC — resourceVersion is compared on update, so concurrent writers conflict instead of overwriting
  each other (optimistic concurrency).

  Rule: API-ONLY-WRITER — every object in the store was put there by the API server handling a request
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: The API server is the only component that writes to etcd.
    Quote: "写操作：API Server 是唯一向 etcd 写入数据的组件。"

    @requires:kube.api @requires:kube.audit @requires:kube.storage @requires:cluster.controllers
    Scenario: each pod the controllers create is preceded by a create request in the request trace
      Given a cluster with the controllers running
      And the request trace is recording
      When Deployment "app" is created with 3 replicas
      Then within 10 s the store holds 3 keys under "/registry/pods/{ns}/"
      And for each of those keys the request trace holds a completed POST creating that pod, answered 201

    # The serviceaccounts controller writes too: its ServiceAccount must arrive in the store by way of a
    # create the API server handled (and so recorded), not by a write of the controller's own.
    @requires:kube.api @requires:kube.audit @requires:kube.storage @requires:controllers.serviceaccount
    Scenario: the ServiceAccount the serviceaccounts controller makes is stored by a create the API server answered
      Given the request trace is recording
      When I create Namespace "{ns}-w"
      Then within 10 s the store holds 1 key under "/registry/serviceaccounts/{ns}-w/"
      And for each of those keys the request trace holds a completed POST creating that ServiceAccount, answered 201

  Rule: API-READ-THROUGH — the scheduler and controller manager read cluster state from the API server, not from etcd
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: Other components (Scheduler, Controller Manager) read through the API server. Upstream
      they run informers: one list, then a watch, each through the API server (client-go
      tools/cache Reflector); a pod created later reaches them as a watch event, with no new list.

    @requires:kube.api @requires:kube.audit @requires:cluster.scheduler @requires:kubelet @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: the scheduler and controller manager list from the API server once, and learn of a new Deployment's pods without listing again
      Given a cluster with node "n1"
      And the request trace is recording
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each bound to node "n1"
      And the request trace holds no list of pods, nodes, deployments or replicasets by user "system:kube-scheduler" or the controller manager
      And since the session opened the request trace holds a list of pods and of nodes by user "system:kube-scheduler", and of deployments, replicasets and pods by the controller manager

    @requires:kube.api @requires:kube.storage.clients @requires:cluster.scheduler @requires:kubelet @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: while they place a new Deployment's pods, the store serves no reads but the API server's
      Given a cluster with node "n1"
      And the store's client log is recording
      When the client creates the web Deployment
      Then within 30 seconds there are exactly 3 pods labelled "app=web", each bound to node "n1"
      And every request in the store's client log was made by "kube-apiserver"

  Rule: API-CACHE-CONSISTENT — a cache layer in the API server serves reads; a read without a resourceVersion is still the latest state, a resourceVersion="0" read may come from the cache
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: The API server has an "apiserver cache" layer that serves reads to speed them up. Upstream
      says what each read may return (api-concepts, "Semantics for get and list"): a get or list with no
      resourceVersion is a consistent read — the latest state, so never older than a write the reader saw
      complete (served from the cache only once the cache has caught up with etcd, the
      ConsistentListFromCache feature); a read with resourceVersion="0" may be served from the cache at
      any state it holds, so it can lag but is never refused as too old (LIST-RESOURCEVERSION), and it
      catches up with the writes.
    Quote: "API Server 内部有 apiserver cache 层优化读性能。"

    @requires:kube.api
    Scenario: a resourceVersion="0" list catches up with a create within seconds
      When ConfigMap "fresh" is created and its resourceVersion is noted as "R"
      Then within 5 s a list of ConfigMaps at resourceVersion "0" contains ConfigMap "fresh"

    @requires:kube.api
    Scenario: a list made right after a create includes the created object
      When ConfigMap "fresh" is created and its resourceVersion is noted as "R"
      And the client immediately lists ConfigMaps in the scenario's namespace without a resourceVersion
      Then the list contains ConfigMap "fresh"
      And the list's resourceVersion is at least "R"

    @requires:kube.api
    Scenario: a get made right after an update returns the update
      Given a ConfigMap "c" exists with data "v=1"
      When ConfigMap "c" is updated to data "v=2"
      And the client immediately gets ConfigMap "c"
      Then its data "v" is "2"

  Rule: API-OPTIMISTIC-CONCURRENCY — an update carrying a stale resourceVersion is refused 409 Conflict and changes nothing
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: The API server uses etcd's MVCC for optimistic concurrency control, detecting conflicts
      through the resourceVersion field.
    Quote: "API Server 使用 etcd 的 MVCC（Multi-Version Concurrency Control）实现乐观并发控制，通过 resourceVersion 字段做冲突检测。"

    @requires:kube.api
    Scenario: the second of two writers working from the same version loses
      Given a ConfigMap "c" exists with data "v=1"
      And the resourceVersion of ConfigMap "c" is noted as "R"
      When writer A updates ConfigMap "c" to data "v=A" with resourceVersion "R"
      And writer B updates ConfigMap "c" to data "v=B" with resourceVersion "R"
      Then writer A's response status is 200
      And writer B's response status is 409 with reason "Conflict"
      And ConfigMap "c" has data "v=A"

    @requires:kube.api
    Scenario: ten concurrent updates from the same version — exactly one succeeds
      Given a ConfigMap "c" exists with data "v=0"
      And the resourceVersion of ConfigMap "c" is noted as "R"
      When 10 writers concurrently update ConfigMap "c" to data "v=<writer>" with resourceVersion "R"
      Then exactly 1 response has status 200 and 9 have status 409
      And ConfigMap "c" has the data of the writer that got 200

    @requires:kube.api
    Scenario: an update without a resourceVersion is not checked
      Given a ConfigMap "c" exists with data "v=1"
      When ConfigMap "c" is updated to data "v=2" with no resourceVersion in the body
      Then the response status is 200
