@component:apiserver
Feature: API Server — reading through the API server: lists, selectors, pages and resourceVersions
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互

  Every component reads cluster state through the API server ("读操作：其他组件……通过 API Server 读取"),
  and a client that watches first lists ("客户端需重新 List"). A read that the API server answers for
  every caller has to say exactly what it returns: which objects a label or field selector keeps,
  how a long list is cut into pages that together hold every object once, what a resourceVersion in
  the request means, and what happens when the history a page or a resourceVersion needs is gone.
  The rules follow upstream's API concepts page (https://kubernetes.io/docs/reference/using-api/api-concepts/)
  and its label/field selector documents.

  # Every ConfigMap a scenario makes carries "set=ks": a real cluster adds its own ConfigMap
  # (kube-root-ca.crt) to each namespace, and the selectors under test are ANDed with "set=ks" so
  # "exactly" means the scenario's own objects.
  Rule: LIST-LABEL-SELECTOR — a label selector keeps exactly the objects its requirements match, including negations and set operations
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: Reads go through the API server; a list filtered by a label selector returns the objects whose
      labels satisfy every requirement: `k=v`, `k!=v` (also true when the label is absent), `k in (a,b)`,
      `k notin (a,b)` (also true when absent), `k` (the label exists) and `!k` (it does not), ANDed by commas
      (k8s.io/apimachinery/pkg/labels/selector.go, Requirement.Matches).
    Quote: "读操作：其他组件（Scheduler、Controller Manager）通过 API Server 读取"

    @requires:kube.api
    Scenario Outline: a list with label selector "<selector>" returns exactly the matching ConfigMaps
      Given ConfigMaps labelled:
        | name | labels                   |
        | a    | set=ks,env=prod,tier=web |
        | b    | set=ks,env=dev           |
        | c    | set=ks,tier=db           |
        | d    | set=ks                   |
      When the client lists ConfigMaps with label selector "<selector>"
      Then the response status is 200
      And the list holds exactly the ConfigMaps <names>

      Examples:
        | selector                   | names                   |
        | set=ks,env=prod            | "a"                     |
        | set=ks,env!=prod           | "b", "c" and "d"        |
        | set=ks,env in (prod,dev)   | "a" and "b"             |
        | set=ks,env notin (prod)    | "b", "c" and "d"        |
        | set=ks,env                 | "a" and "b"             |
        | set=ks,!env                | "c" and "d"             |
        | set=ks,!env,tier           | "c"                     |
        | set=ks,env notin (prod,dev) | "c" and "d"            |

    @requires:kube.api
    Scenario: a label selector that does not parse is refused 400 BadRequest
      When the client lists ConfigMaps with label selector "env in (prod"
      Then the response status is 400 with reason "BadRequest"

  Rule: LIST-FIELD-SELECTOR — a field selector keeps the objects whose named fields match; a field the kind does not support is refused 400
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: A list filtered by a field selector returns the objects whose fields match: every kind supports
      metadata.name and metadata.namespace; pods also spec.nodeName, status.phase and a few more (the field
      label conversion in pkg/apis/core/v1/conversion.go). Any other field is refused 400 BadRequest, with
      upstream's message: `field label not supported: <field>` for pods, and for kinds with only the
      metadata fields `"<field>" is not a known field selector: only "metadata.name", "metadata.namespace"`
      (k8s.io/apimachinery/pkg/runtime/conversion.go, DefaultMetaV1FieldSelectorConversion).
    Quote: "读操作：其他组件（Scheduler、Controller Manager）通过 API Server 读取"

    @requires:kube.api
    Scenario: metadata.name picks one ConfigMap and != leaves out one
      Given ConfigMaps labelled:
        | name | labels |
        | a    | set=ks |
        | b    | set=ks |
        | c    | set=ks |
      When the client lists ConfigMaps with label selector "set=ks" and field selector "metadata.name=b"
      Then the list holds exactly the ConfigMaps "b"
      When the client lists ConfigMaps with label selector "set=ks" and field selector "metadata.name!=b"
      Then the list holds exactly the ConfigMaps "a" and "c"
      When the client lists ConfigMaps with label selector "set=ks" and field selector "metadata.namespace={ns}"
      Then the list holds exactly the ConfigMaps "a", "b" and "c"

    @requires:kube.api
    Scenario: spec.nodeName and status.phase select pods
      Given pod "on-n1" bound to node "n1" and pod "on-n2" bound to node "n2"
      When the client lists pods with field selector "spec.nodeName=n1"
      Then the list holds exactly the pods "on-n1"
      When the client lists pods with field selector "spec.nodeName!=n1,status.phase=Pending"
      Then the list holds exactly the pods "on-n2"
      When the client lists pods with field selector "status.phase=Running"
      Then the list holds no pods

    @requires:kube.api
    Scenario: a field pods do not support is refused with upstream's message
      When the client lists pods with field selector "spec.containers=x"
      Then the response status is 400 with reason "BadRequest"
      And the response message contains "field label not supported: spec.containers"

    @requires:kube.api
    Scenario: a field a ConfigMap does not support is refused with upstream's message
      When the client lists ConfigMaps with label selector "set=ks" and field selector "data.v=0"
      Then the response status is 400 with reason "BadRequest"
      And the response message contains "\"data.v\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""

  Rule: LIST-PAGING — a list read with limit and continue returns every object exactly once, all pages from one snapshot
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: A client may read a long list in pages: `limit` bounds a page, and a page that is not the last
      carries `metadata.continue`, which the next request passes back. Together the pages hold every object
      exactly once, as of the first page's resourceVersion: writes between pages do not show up
      (api-concepts, "Retrieving large results sets in chunks").
    Quote: "读操作：其他组件（Scheduler、Controller Manager）通过 API Server 读取"

    @requires:kube.api
    Scenario: seven ConfigMaps read three at a time arrive exactly once across the pages
      Given ConfigMaps "p1", "p2", "p3", "p4", "p5", "p6" and "p7" labelled "set=ks"
      When the client lists ConfigMaps with label selector "set=ks" in pages of 3
      Then there are at least 3 pages, each of at most 3 ConfigMaps, every page but the last with a continue token
      And the pages together hold each of "p1", "p2", "p3", "p4", "p5", "p6" and "p7" exactly once
      And every page carries the first page's resourceVersion

    @requires:kube.api
    Scenario: writes between pages do not change what the pages hold
      Given ConfigMaps "p1", "p2", "p3", "p4", "p5", "p6" and "p7" labelled "set=ks"
      When the client lists ConfigMaps with label selector "set=ks" in pages of 3, creating ConfigMap "p8" and deleting ConfigMap "p7" after the first page
      Then the pages together hold each of "p1", "p2", "p3", "p4", "p5", "p6" and "p7" exactly once
      And every page carries the first page's resourceVersion

  Rule: LIST-CONTINUE-EXPIRED — a continue token from before a compaction is answered 410 Expired
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: The pages of a list are read at the first page's revision; once the store has compacted past it
      the next page cannot be consistent, and the API server answers 410 Gone, reason Expired, "The provided
      continue parameter is too old to display a consistent list result." — the client must start the list
      again, as a watch from a compacted resourceVersion must (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go,
      handleCompactedErrorForPaging).
    Quote: "如果客户端的 resourceVersion 过旧（已被 API Server compaction），返回 410 Gone，客户端需重新 List。"

    @requires:kube.api @requires:kube.compaction
    Scenario: the next page after a compaction is 410 Expired, and a fresh list works
      Given ConfigMaps "p1", "p2", "p3", "p4" and "p5" labelled "set=ks"
      When the client lists the first page of 2 ConfigMaps with label selector "set=ks"
      And the ConfigMap "p1" is updated 2 times
      And the API server's store is compacted
      And the client asks for the next page
      Then the response status is 410 with reason "Expired"
      And the response message contains "The provided continue parameter is too old to display a consistent list result."
      When the client lists ConfigMaps with label selector "set=ks" in pages of 2
      Then the pages together hold each of "p1", "p2", "p3", "p4" and "p5" exactly once

  Rule: LIST-RESOURCEVERSION — a list's resourceVersion says how fresh the answer must be: unset is the latest, "0" is any, Exact is that revision
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: The API server's cache answers reads; what a list may return depends on its resourceVersion
      (api-concepts, "Semantics for get and list"): unset — the most recent state (a consistent read);
      "0" — any state the server has, served from its cache, never refused as too old; N with
      resourceVersionMatch=Exact — the state at exactly N, 410 Expired once N is compacted; N with
      NotOlderThan (or no match) — state at least as new as N. resourceVersionMatch without a
      resourceVersion is refused 422 Invalid.
    Quote: "API Server 内部有 apiserver cache 层优化读性能。"

    @requires:kube.api
    Scenario: an Exact list at an earlier resourceVersion shows the state of that moment
      Given ConfigMaps labelled:
        | name | labels |
        | a    | set=ks |
      And the resourceVersion of ConfigMap "a" is noted as "R"
      And ConfigMaps labelled:
        | name | labels |
        | b    | set=ks |
      When the client lists ConfigMaps with label selector "set=ks" at resourceVersion "R" matching "Exact"
      Then the list holds exactly the ConfigMaps "a"
      And the list's resourceVersion equals "R"
      When the client lists ConfigMaps with label selector "set=ks" at resourceVersion "R" matching "NotOlderThan"
      Then the list contains ConfigMap "a"
      And the list's resourceVersion is at least "R"

    @requires:kube.api @requires:kube.compaction
    Scenario: resourceVersion "0" is answered after a compaction; an Exact read of a compacted revision is 410
      Given ConfigMaps labelled:
        | name | labels |
        | a    | set=ks |
      And the resourceVersion of ConfigMap "a" is noted as "R"
      And the ConfigMap "a" is updated 2 times
      When the API server's store is compacted
      And the client lists ConfigMaps with label selector "set=ks" at resourceVersion "0"
      Then the response status is 200
      And the list holds exactly the ConfigMaps "a"
      When the client lists ConfigMaps with label selector "set=ks" at resourceVersion "R" matching "Exact"
      Then the response status is 410 with reason "Expired"

    @requires:kube.api
    Scenario: resourceVersionMatch without a resourceVersion is refused 422 Invalid
      When the client lists ConfigMaps with query "resourceVersionMatch=NotOlderThan"
      Then the response status is 422 with reason "Invalid"
