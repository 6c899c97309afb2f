@component:apiserver
Feature: API Server — informers
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制 / Informer 机制

  The notes' tip: client-go's Informer wraps Watch, a local cache (Indexer) and event dispatch
  (EventHandler); every controller relies on informers to see changes, so that it does not send the
  API server a flood of requests. A client-side library is seen from the server by its traffic:
  one list, then one long watch from the list's resourceVersion, and no polling afterwards.

  Rule: INFORMER-LIST-THEN-WATCH — an informer lists once, then watches from the list's resourceVersion
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制 / Informer 机制
    Claim: The Informer encapsulates Watch: it fills its cache with a list and keeps it current with a
      watch, so no change between the list and the watch is lost. (Newer client-go can stream the
      initial list inside the watch instead, with sendInitialEvents=true; the scenario accepts both.)
    Quote: "Informer 封装了 Watch + 本地缓存（Indexer）+ 事件分发（EventHandler）的完整流程。"

    @requires:kube.api @requires:kube.audit @requires:controllers.replicaset @requires:controllers.stoppable
    Scenario: the controller manager's pod informer watches from exactly the resourceVersion its list returned
      Given a cluster whose controller manager is stopped
      And the request trace is recording
      When the controller manager starts
      Then within 30 s the controller manager has made at most one list of pods
      And if it listed pods, its first pod watch asks for the resourceVersion that list returned
      And if it did not list pods, its first pod watch sets "sendInitialEvents=true"
      And 60 s after it started the controller manager has made exactly one watch of pods

  Rule: INFORMER-NO-POLLING — controllers read from their informer caches instead of polling the API server
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制 / Informer 机制
    Claim: All controllers depend on informers to observe resources, avoiding large numbers of requests
      to the API server.
    Quote: "所有 Controller 内部都依赖 Informer 来感知资源变化，避免直接对 API Server 发起大量请求。"

    # Not even a GET of one object: a controller that checks on its objects by polling fails here.
    @requires:kube.api @requires:kube.audit @requires:controllers.replicaset @requires:controllers.deployment @requires:clock.virtual
    Scenario: a quiet controller manager makes no request at all but its watches
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 3 replicas
      And Deployment "app" exists with 2 replicas
      And the request trace is recording
      When 10 minutes of virtual time pass
      Then the request trace holds no request by the controller manager other than watches

    @requires:kube.api @requires:kube.audit @requires:controllers.replicaset @requires:controllers.deployment @requires:kubelet @requires:cluster.scheduler @requires:clock.virtual
    Scenario: a quiet cluster costs the controller manager no list requests
      Given a cluster with the controllers running
      And a cluster with node "worker-1"
      And Deployment "app" exists with 3 replicas, all available
      And the request trace is recording
      When 10 minutes of virtual time pass
      Then the request trace holds no list of pods, replicasets or deployments by the controller manager

    @requires:kube.api @requires:kube.audit @requires:controllers.serviceaccount @requires:clock.virtual
    Scenario: a quiet cluster costs the serviceaccounts controller's informers no list requests
      Given the request trace is recording
      When 30 minutes of virtual time pass
      Then the request trace holds no list of namespaces or serviceaccounts by the controller manager
      And every watch of namespaces or serviceaccounts by the controller manager sets "resourceVersion"

  Rule: INFORMER-EVENT-DISPATCH — an informer dispatches each change to its handlers as an add, update or delete
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制 / Informer 机制
    Claim: The Informer's EventHandler dispatch turns the watch stream into add/update/delete callbacks,
      which is how controllers react within moments to a change.
    Quote: "事件分发（EventHandler）"

    @requires:kube.api @requires:controllers.replicaset
    Scenario: deleting a ReplicaSet's pod is noticed and repaired promptly, without waiting for a resync
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas
      When one pod of ReplicaSet "rs" is deleted
      Then within 5 s ReplicaSet "rs" owns 2 pods again

    # On virtual time the reaction to a watch event costs I/O turns but no time at all: a controller that
    # polls, even every second, is still waiting for its next poll when this budget runs out.
    @requires:kube.api @requires:controllers.replicaset @requires:clock.virtual
    Scenario: a deleted pod is replaced within 100 ms of virtual time, far sooner than a 1-second poll would see it
      Given a cluster with the controllers running
      And ReplicaSet "rs" exists with 2 replicas
      When one pod of ReplicaSet "rs" is deleted
      Then within 0.1 s ReplicaSet "rs" owns 2 pods again

    # The serviceaccounts controller's informers: a namespace's ADDED event and a ServiceAccount's DELETED
    # event each reach its handler. Upstream informers resync every 12 to 24 hours at the least
    # (kube-controller-manager's --min-resync-period), so 5 s leaves no room for waiting on one.
    @requires:kube.api @requires:controllers.serviceaccount
    Scenario: a new namespace, and a deleted default ServiceAccount, are noticed and acted on promptly
      When I create Namespace "{ns}-dispatch"
      Then within 5 seconds ServiceAccount "{ns}-dispatch/default" exists
      When I delete ServiceAccount "{ns}-dispatch/default"
      Then within 5 seconds ServiceAccount "{ns}-dispatch/default" exists again with a new uid
