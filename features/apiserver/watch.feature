@component:apiserver
Feature: API Server — watching instead of polling, and what happens when history is gone
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制

  A client does not poll: it lists once, then watches from the list's resourceVersion and
  receives every change after it as a stream of events. The server can only replay changes it
  still has. Once the store has compacted its history past a client's resourceVersion, the
  server says so with 410, and the client starts over with a fresh list.

  Rule: WATCH-410 — a watch from a compacted resourceVersion is answered 410 Gone, and the client re-lists
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: If the client's resourceVersion is too old (the history behind it has been compacted), the API
      server answers 410 Gone and the client must list again.
    Quote: "如果客户端的 resourceVersion 过旧（已被 API Server compaction），返回 410 Gone，客户端需重新 List。"

    Upstream answers such a watch either with HTTP 410 or — from its watch cache — with HTTP 200 and a
    first ERROR event carrying the same Status (code 410, reason Expired); client-go treats both alike.
    The scenarios accept either form and nothing else.

    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: a watch from a resourceVersion the store has compacted away is answered 410 Expired
      Given a ConfigMap "settings" exists
      And the resourceVersion of ConfigMap "settings" is noted as "before"
      And the ConfigMap "settings" is updated 3 times
      When the API server's store is compacted
      And a client watches ConfigMaps from resourceVersion "before"
      Then the watch is answered with code 410 and reason "Expired"
      And its message names resourceVersion "before" as too old, then the oldest one a watch can start from
      And the watch ends with that answer, and nothing follows it

    @requires:kube.api @requires:kube.watch
    Scenario: a watch from a resourceVersion that is still retained replays every later change instead
      Given a ConfigMap "settings" exists
      And the resourceVersion of ConfigMap "settings" is noted as "before"
      And the ConfigMap "settings" is updated 3 times
      When a client watches ConfigMaps from resourceVersion "before"
      Then the watch delivers 3 MODIFIED events for "settings" with increasing resourceVersions
      And the watch is not answered with code 410

    # kubectl get --watch asks for Tables; the 410 still comes as the Status itself, never as a
    # Table of it: upstream's doTransformObject returns a *metav1.Status untransformed
    # (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go).
    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: a watch asking for Tables from a compacted resourceVersion gets the 410 as a plain Status
      Given a ConfigMap "settings" exists
      And the resourceVersion of ConfigMap "settings" is noted as "before"
      And the ConfigMap "settings" is updated 3 times
      When the API server's store is compacted
      And a client watches ConfigMaps as Tables from resourceVersion "before"
      Then the watch is answered with code 410 and reason "Expired"
      And the watch ends with that answer, and nothing follows it

    # A custom resource watched at a version other than the stored one is no different: the 410 is
    # the core v1 Status, not converted to the watched version as the objects are. Upstream's error
    # watcher sends the Status itself (cacher.go newErrWatcher; doTransformObject passes a
    # *metav1.Status through), and client-go reads an ERROR event's object as an API error only at
    # apiVersion v1 (apimachinery pkg/api/errors FromObject): a converted one would be no 410 to it.
    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: a watch of a custom resource at its other version from a compacted resourceVersion gets the 410 as a v1 Status
      Given a CustomResourceDefinition for kind "Gizmo" in group "{ns}.example.com" served at v1 and v2, stored at v1, with conversion strategy None
      And Gizmo "g1" is created at v1 with spec.size 1
      And the resourceVersion of Gizmo "g1" at v1 is noted as "before"
      And Gizmo "g1" is updated at v1 to spec.size 2
      And Gizmo "g1" is updated at v1 to spec.size 3
      When the API server's store is compacted
      And the client watches Gizmos at v2 from resourceVersion "before"
      Then the watch is answered with code 410 and reason "Expired"
      And the watch ends with that answer, and nothing follows it

    # The same when the CRD converts through a webhook: the Status never goes to the webhook.
    @requires:kube.api @requires:kube.watch @requires:kube.compaction @requires:kube.crd.conversion-webhook
    Scenario: a watch of a webhook-converted custom resource from a compacted resourceVersion gets the 410 as a v1 Status
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that moves spec.size to spec.replicas
      And Widget "w1" is created at v1 with spec.size 1
      And the resourceVersion of Widget "w1" at v1 is noted as "before"
      And Widget "w1" is updated at v1 to spec.size 2
      And Widget "w1" is updated at v1 to spec.size 3
      When the API server's store is compacted
      And the client watches Widgets at v2 from resourceVersion "before"
      Then the watch is answered with code 410 and reason "Expired"
      And the watch ends with that answer, and nothing follows it

    # Compacting at the newest revision keeps that revision: a watch from the one before it asks
    # only for changes the store still has (a watch starts at resourceVersion + 1, and etcd
    # refuses only a start below the compact revision: etcd server/storage/mvcc/watchable_store.go;
    # the API server asks for resourceVersion + 1: apiserver/pkg/storage/etcd3/watcher.go), so it is not 410.
    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: a watch from the resourceVersion just before the compaction point is still served
      Given a ConfigMap "settings" exists
      And the ConfigMap "settings" is updated 2 times
      And the resourceVersion of ConfigMap "settings" is noted as "before"
      And the ConfigMap "settings" is updated 1 times
      When the API server's store is compacted
      And a client watches ConfigMaps from resourceVersion "before"
      Then within 5 s the watch delivers exactly: MODIFIED "settings"
      And the watch is not answered with code 410

    # What the server owes the client that re-lists after a 410 — not what a client library does with it:
    # the fresh list is the current state, and a watch from its resourceVersion continues from there.
    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: after a 410 a fresh list holds the current state, and a watch from its resourceVersion continues it
      Given ConfigMaps "a" and "b" labelled "set=ks"
      And the client lists ConfigMaps with label selector "set=ks"
      And the list's resourceVersion is noted as "listed"
      And ConfigMaps "c" labelled "set=ks"
      And the client deletes ConfigMap "a"
      When the API server's store is compacted
      And a client watches ConfigMaps from resourceVersion "listed"
      Then the watch is answered with code 410 and reason "Expired"
      When the client lists ConfigMaps with label selector "set=ks"
      Then the list holds exactly the ConfigMaps "b" and "c"
      When a client watches ConfigMaps labelled "set=ks" from the list's resourceVersion
      And ConfigMaps "d" labelled "set=ks"
      Then within 5 s the watch delivers exactly: ADDED "d"

  @erratum
  Rule: WATCH-CACHE-WINDOW — a watch is served from the API server's watch cache: a resourceVersion that has left the cache's window is 410 Expired even though the store has not compacted it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: A resourceVersion is too old, and the watch answered 410, only once the store has compacted it away.
    Quote: "如果客户端的 resourceVersion 过旧（已被 API Server compaction），返回 410 Gone，客户端需重新 List。"
    Upstream: the API server answers a watch from a resourceVersion out of its watch cache, a per-resource
      ring of recent events, not out of etcd: staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go
      keeps defaultLowerBoundCapacity = 100 events, doubles the ring (up to defaultUpperBoundCapacity =
      100*1024) only while its oldest event is younger than eventFreshDuration (75 s, cacher.go), and else
      drops the oldest event; getAllEventsSinceLocked then answers a resourceVersion older than the ring's
      first event "too old resource version: rv (oldest-1)", 410 Expired, sent by Cacher.Watch as an ERROR
      event (cacher.go). So a quiet client is 410 after enough churn, with no compaction at all.

    # With upstream's real defaults: two writes, a pause past eventFreshDuration so they are stale and
    # the ring does not grow for them, then churn until they leave (100 writes on a ring of the default
    # size; a cluster whose ConfigMap cache has grown needs more, hence the bound). Real time on a real
    # cluster (@slow); virtual time on the reference.
    @requires:kube.api @requires:kube.watch @slow
    Scenario: after a pause past 75 s and enough later writes, a watch from a resourceVersion before them is 410 Expired, with no compaction
      Given a ConfigMap "settings" exists
      And the resourceVersion of ConfigMap "settings" is noted as "before"
      And the ConfigMap "settings" is updated 1 times
      When 80 seconds pass
      And the ConfigMap "settings" is updated until a watch from resourceVersion "before" is answered 410, at most 3000 times
      Then the watch is answered with code 410 and reason "Expired"
      When the resourceVersion of ConfigMap "settings" is noted as "latest"
      And a client watches ConfigMaps from resourceVersion "latest"
      And ConfigMap "after" is created
      Then within 5 s the watch delivers exactly: ADDED "after"
