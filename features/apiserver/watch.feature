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

    @requires:kube.api @requires:kube.watch
    Scenario: a watch from a resourceVersion that is still retained replays every later change instead
      Given a ConfigMap "settings" exists
      And the resourceVersion of ConfigMap "settings" is noted as "before"
      And the ConfigMap "settings" is updated 3 times
      When a client watches ConfigMaps from resourceVersion "before"
      Then the watch delivers 3 MODIFIED events for "settings" with increasing resourceVersions
      And the watch is not answered with code 410

    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: an informer whose resourceVersion expired re-lists and ends with the server's state
      Given ConfigMaps "a" and "b" exist
      And an informer on ConfigMaps has listed and is watching
      When the informer is disconnected
      And ConfigMap "c" is created and ConfigMap "a" is deleted
      And the API server's store is compacted
      And the informer reconnects from its last resourceVersion
      Then the informer is told 410 Expired and lists again
      And the informer's cache holds exactly the ConfigMaps "b" and "c"
      When ConfigMap "d" is created
      Then the informer's cache holds exactly the ConfigMaps "b", "c" and "d"
