@component:apiserver
Feature: API Server — the watch stream
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制

  The notes describe watch as a long-lived request that replaces repeated listing: the client sends
  `GET /api/v1/pods?watch=true&resourceVersion=12345`, and the API server pushes the changes it takes
  from etcd's watch stream over HTTP chunked transfer (or an HTTP/2 stream). The 410 Gone answer for a
  compacted resourceVersion is WATCH-410, in watch.feature; the rules here are the rest of the section.

  Rule: WATCH-FROM-RESOURCEVERSION — a watch from resourceVersion N delivers every change after N, and none at or before it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: A client watches with `?watch=true&resourceVersion=N` and receives the changes after N instead
      of polling with repeated lists.
    Quote: "客户端发送 GET /api/v1/pods?watch=true&resourceVersion=12345。"

    @requires:kube.api @requires:kube.watch
    Scenario: changes made before the watch began are replayed from the given resourceVersion
      Given a ConfigMap "a" exists
      And the resourceVersion of ConfigMap "a" is noted as "r1"
      And a ConfigMap "b" exists
      And the ConfigMap "a" is updated 2 times
      When a client watches ConfigMaps from resourceVersion "r1"
      Then within 5 s the watch delivers exactly: ADDED "b", MODIFIED "a", MODIFIED "a"
      And no event carries a resourceVersion at or below "r1"

    @requires:kube.api @requires:kube.watch
    Scenario: a watch stays open and delivers later changes as they happen
      Given a client watches ConfigMaps from the current resourceVersion
      When ConfigMap "c" is created
      And the client deletes ConfigMap "c"
      Then within 5 s the watch delivers exactly: ADDED "c", DELETED "c"
      And the watch has not ended

  Rule: WATCH-SELECTOR — a watch with a selector delivers the changes of the objects it selects; an object that comes to match arrives as ADDED, one that stops matching as DELETED
    Source: 000_1662d8c5cea2447f.txt § 请求流转全过程
    Claim: Components watch only what concerns them (the kubelet the Pods bound to its node, the
      scheduler the unscheduled ones), so a watch filtered by a label or field selector must tell the
      client when an object enters or leaves the selection, or its cache keeps an object that no
      longer belongs. Upstream's watch cache (staging/src/k8s.io/apiserver/pkg/storage/cacher/
      cache_watcher.go, convertToWatchEvent): ADDED for an object that starts matching, MODIFIED
      while it keeps matching, DELETED carrying its last matching state (at the resourceVersion of
      the write that took it out) for one that stops matching, nothing for an object that matches
      neither before nor after.
    Quote: "kubelet 通过 Watch 感知分配到本节点的 Pod"

    @requires:kube.api @requires:kube.watch
    Scenario: objects entering and leaving a label selector arrive as ADDED and DELETED
      Given ConfigMaps "in" and "gone" labelled "set=ks,tier=web"
      And ConfigMaps "out" labelled "set=ks,tier=db"
      And a client watches ConfigMaps labelled "set=ks,tier=web" from the current resourceVersion
      When the ConfigMap "in" is updated 1 times
      And the ConfigMap "out" is updated 1 times
      And ConfigMap "in" is relabelled "set=ks,tier=db"
      And ConfigMap "out" is relabelled "set=ks,tier=web"
      And the client deletes ConfigMap "gone"
      And the client deletes ConfigMap "in"
      And ConfigMaps "last" labelled "set=ks,tier=web"
      Then within 5 s the watch delivers exactly: MODIFIED "in", DELETED "in", ADDED "out", DELETED "gone", ADDED "last"
      And the DELETED event for "in" carries label "tier=web" and the resourceVersion of its relabelling

    @requires:kube.api @requires:kube.watch
    Scenario: one change seen by two watches: ADDED and DELETED for the one whose selector it enters and leaves, MODIFIED for the one that keeps selecting it
      # The event type is per watcher: the same write is ADDED for a watch the object starts to
      # match and MODIFIED for one it matched already, though upstream serialises the object once
      # for all of them (cacher/caching_object.go).
      Given ConfigMaps "x" labelled "set=ks,tier=db"
      And a client watches ConfigMaps labelled "set=ks,tier=web" from the current resourceVersion with "", kept as "web"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "", kept as "all"
      When ConfigMap "x" is relabelled "set=ks,tier=web"
      And ConfigMap "x" is relabelled "set=ks,tier=db"
      Then within 5 s the watch "web" delivers exactly: ADDED "x", DELETED "x"
      And within 5 s the watch "all" delivers exactly: MODIFIED "x", MODIFIED "x"

    @requires:kube.api @requires:kube.watch
    Scenario: a kubelet's watch of the pods bound to its node (spec.nodeName=node-a) gets their creation and deletion, and nothing of the pods on other nodes
      # The kubelet's pod source watches with fieldSelector spec.nodeName=<its node>
      # (pkg/kubelet/config/apiserver.go, NewSourceApiserver); pods index that field for such watches
      # (pkg/registry/core/pod/storage/storage.go, TriggerFunc on spec.nodeName).
      Given a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion, kept as "node-a"
      When pod "mine" is created bound to node "node-a"
      And pod "theirs" is created bound to node "node-b"
      And the client deletes pod "theirs" at once
      And the client deletes pod "mine" at once
      Then within 5 s the watch "node-a" delivers exactly: ADDED "mine", DELETED "mine"

    @requires:kube.api @requires:kube.watch
    Scenario: a watch of one pod by name (what kubectl get pod NAME --watch sends: fieldSelector metadata.name=NAME) gets that pod's changes only
      # cli-runtime's resource Helper.WatchSingle (staging/src/k8s.io/cli-runtime/pkg/resource/helper.go)
      # watches one object as its collection with fieldSelector metadata.name=NAME.
      Given a client watches pods with field selector "metadata.name=mine" from the current resourceVersion, kept as "one pod"
      When pod "mine" is created bound to node "node-a"
      And pod "other" is created bound to node "node-a"
      And the client deletes pod "mine" at once
      Then within 5 s the watch "one pod" delivers exactly: ADDED "mine", DELETED "mine"

    # Several watches can want the same node (its kubelet's, a node agent's), and a watch that names
    # no exact node has no trigger value: upstream's cacher hands each change to every watcher whose
    # trigger value the pod has now or had before, and to every watcher without one
    # (cacher.go startDispatching: triggerValues, then watchersBuffer from allWatchers and valueWatchers).
    @requires:kube.api @requires:kube.watch
    Scenario: two watches of the same node and a watch of the pods on any other node, open together, each get the node's pods
      Given a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion, kept as "kubelet"
      And a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion, kept as "agent"
      And a client watches pods with field selector "spec.nodeName!=node-b" from the current resourceVersion, kept as "not node-b"
      When pod "mine" is created bound to node "node-a"
      And pod "theirs" is created bound to node "node-b"
      And the client deletes pod "theirs" at once
      And the client deletes pod "mine" at once
      Then within 5 s the watch "kubelet" delivers exactly: ADDED "mine", DELETED "mine"
      And within 5 s the watch "agent" delivers exactly: ADDED "mine", DELETED "mine"
      And within 5 s the watch "not node-b" delivers exactly: ADDED "mine", DELETED "mine"

    # A kubelet watches its node's pods in every namespace; a person may watch the same node in one
    # namespace (kubectl get pods -n NS --field-selector spec.nodeName=NODE --watch). The cacher keeps
    # one trigger index per resource and filters each watcher by its own key prefix.
    @requires:kube.api @requires:kube.watch
    Scenario: a watch of a node's pods in every namespace gets them from each namespace, beside a watch of the same node in one namespace
      Given Namespace "{ns}-other" exists
      And a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion, kept as "in the namespace"
      And a client watches pods in all namespaces with field selector "spec.nodeName=node-a" from the current resourceVersion, kept as "kubelet"
      When pod "mine" is created bound to node "node-a"
      And pod "elsewhere" is created bound to node "node-a" in Namespace "{ns}-other"
      And the client deletes pod "elsewhere" in Namespace "{ns}-other" at once
      And the client deletes pod "mine" at once
      Then within 5 s the watch "kubelet" delivers exactly: ADDED "mine", ADDED "elsewhere", DELETED "elsewhere", DELETED "mine"
      And within 5 s the watch "in the namespace" delivers exactly: ADDED "mine", DELETED "mine"

    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: when one of two watches of the same node ends, the other still gets the node's pods
      Given a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion with "timeoutSeconds=300", kept as "long"
      And a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion with "timeoutSeconds=30", kept as "short"
      When 35 seconds of virtual time pass
      Then the watch "short" has ended
      When pod "mine" is created bound to node "node-a"
      And the client deletes pod "mine" at once
      Then within 5 s the watch "long" delivers exactly: ADDED "mine", DELETED "mine"

    # Only an exact requirement on spec.nodeName picks the pods' trigger: fields.Selector's
    # RequiresExactMatch answers for a hasTerm ("=" / "==") and never for a notHasTerm ("!="), and
    # the cacher takes the trigger value from it (staging/src/k8s.io/apimachinery/pkg/fields/
    # selector.go; apiserver/pkg/storage/cacher/cacher.go). A "!=" watch is filtered on every pod.
    @requires:kube.api @requires:kube.watch
    Scenario: a watch of the pods on every node but node-a (spec.nodeName!=node-a) gets the other nodes' pods, and none of node-a's
      Given a client watches pods with field selector "spec.nodeName!=node-a" from the current resourceVersion, kept as "not node-a"
      When pod "mine" is created bound to node "node-a"
      And pod "theirs" is created bound to node "node-b"
      And the client deletes pod "theirs" at once
      And the client deletes pod "mine" at once
      Then within 5 s the watch "not node-a" delivers exactly: ADDED "theirs", DELETED "theirs"

    @requires:kube.api @requires:kube.watch
    Scenario: when a pod is bound, it leaves the watch of unscheduled pods (spec.nodeName=) as DELETED and enters its node's watch as ADDED
      # A scheduler watches the pods with no node yet; the write of the binding
      # (pods/binding) takes the pod out of that selection and into the node's.
      Given a client watches pods with field selector "spec.nodeName=" from the current resourceVersion, kept as "unscheduled"
      And a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion, kept as "node-a"
      When pod "p" is created unbound, for a scheduler named "kubespec-none"
      And pod "p" is bound to node "node-a"
      And the client deletes pod "p" at once
      Then within 5 s the watch "unscheduled" delivers exactly: ADDED "p", DELETED "p"
      And within 5 s the watch "node-a" delivers exactly: ADDED "p", DELETED "p"

  Rule: WATCH-EVENT-ORDER — events arrive in the order of their resourceVersions, which strictly increase
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: The API server takes change events from etcd's watch stream, so each watch sees the changes in
      commit order.
    Quote: "API Server 从 etcd 的 Watch 流中获取变更事件"

    @requires:kube.api @requires:kube.watch
    Scenario: twenty updates to one object arrive in order
      Given a ConfigMap "counter" exists with data "n=0"
      And a client watches ConfigMaps from the current resourceVersion
      When ConfigMap "counter" is updated 20 times, setting "n" to 1, 2, … 20
      Then within 5 s the watch delivers 20 MODIFIED events whose "n" values are 1 to 20 in order
      And their resourceVersions strictly increase as integers

    @requires:kube.api @requires:kube.watch
    Scenario: a deletion arrives after the updates before it, at a higher resourceVersion, with the last state
      # A DELETED event carries the object's last state at the resourceVersion of the deletion
      # (api-concepts, "Efficient detection of changes"; the etcd3 watcher stamps the deleted object
      # with the delete's revision), so a client resuming from it does not see the deletion again.
      Given a ConfigMap "counter" exists with data "n=0"
      And a client watches ConfigMaps from the current resourceVersion
      When ConfigMap "counter" is updated 3 times, setting "n" to 1, 2, … 3
      And the client deletes ConfigMap "counter"
      Then within 5 s the watch delivers exactly: MODIFIED "counter", MODIFIED "counter", MODIFIED "counter", DELETED "counter"
      And the resourceVersions of the watch's events strictly increase as integers
      And the DELETED event for "counter" carries data "n" = "3"

    # A custom resource read at a version other than its stored one is converted on its way out,
    # every event of a watch too (apiextensions-apiserver's crConverter, by the CRD's webhook here:
    # API-CRD-CONVERSION in single-entry.feature); the wait for the webhook must not reorder them.
    @requires:kube.api @requires:kube.watch @requires:kube.crd.conversion-webhook
    Scenario: events that each wait for a conversion webhook still arrive in commit order, each converted
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that moves spec.size to spec.replicas
      When Widget "w1" is created at v1 with spec.size 1
      And the client watches Widgets at v2 from the current resourceVersion
      And Widget "w1" is updated at v1 to spec.size 3
      And Widget "w2" is created at v1 with spec.size 2
      And the client deletes Widget "w1" at v1
      Then within 5 s the conversion watch delivers exactly, each at v2: MODIFIED "w1" with spec.replicas 3, ADDED "w2" with spec.replicas 2, DELETED "w1" with spec.replicas 3

  Rule: WATCH-CHUNKED-STREAM — one HTTP response carries the events as newline-delimited JSON: chunked transfer over HTTP/1.1, one stream over HTTP/2
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: Events are serialized and pushed to the client over HTTP chunked transfer encoding (HTTP/1.1)
      or an HTTP/2 stream, one response for many events.
    Quote: "经序列化后通过 HTTP chunked transfer / HTTP/2 stream 推送给客户端。"

    # The media type is the serializer's (JSON here): endpoints/handlers/watch.go, WatchServer.HandleHTTP
    # sets Content-Type to it and Transfer-Encoding to chunked before the first event.
    @requires:kube.api @requires:kube.watch
    Scenario: a watch over HTTP/1.1 is a chunked response of {"type","object"} lines
      When the client opens GET "/api/v1/namespaces/{ns}/configmaps?watch=true" over HTTP/1.1
      And ConfigMaps "x" and "y" are created
      Then the watch response status is 200 with header "Transfer-Encoding: chunked"
      And the watch response status is 200 with header "Content-Type: application/json"
      And within 5 s the response body holds a line for each of them, every line a JSON object with keys "type" and "object"
      And the response has not ended

    # No cache between client and server may keep or replay a watch: upstream's handler chain marks
    # every response "Cache-Control: no-cache, private" (staging/src/k8s.io/apiserver/pkg/server/
    # filters/cachecontrol.go WithCacheControl, in DefaultBuildHandlerChain).
    @requires:kube.api @requires:kube.watch
    Scenario: a watch response tells caches not to keep it
      When the client opens GET "/api/v1/namespaces/{ns}/configmaps?watch=true" over HTTP/1.1
      And ConfigMaps "x" are created
      Then the watch response status is 200 with header "Cache-Control: no-cache, private"
      And the response has not ended

    @requires:kube.api @requires:kube.watch @requires:kube.http2
    Scenario: a watch over HTTP/2 is one stream of {"type","object"} lines, with no chunked coding
      When the client opens GET "/api/v1/namespaces/{ns}/configmaps?watch=true" over HTTP/2
      And ConfigMaps "x" and "y" are created
      Then the watch response status is 200 without a "Transfer-Encoding" header
      And within 5 s the response body holds a line for each of them, every line a JSON object with keys "type" and "object"
      And the response has not ended

  Rule: WATCH-SERIALIZATION — each event goes out serialized in the form the client negotiated: JSON, protobuf frames, or the one-row Tables of kubectl get --watch
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: The API server serializes each change event before it pushes it to the client, in the media
      type the request's Accept header negotiated (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
      watch.go, serveWatch): application/json gives {"type","object"} lines (WATCH-CHUNKED-STREAM);
      application/vnd.kubernetes.protobuf gives protobuf frames under Content-Type
      "application/vnd.kubernetes.protobuf;stream=watch"; `application/json;as=Table;v=v1;g=meta.k8s.io`,
      what kubectl get --watch asks for, turns each event's object into a meta.k8s.io/v1 Table of one
      row (its cells, and the object as PartialObjectMetadata, or whole with includeObject=Object:
      handlers/response.go asTable), the column definitions on the first event only.
    Quote: "API Server 从 etcd 的 Watch 流中获取变更事件，经序列化后通过 HTTP chunked transfer / HTTP/2 stream 推送给客户端。"

    # Upstream's watch encoder (handlers/watch.go: Fixup, later watchEmbeddedEncoder.doEncode) sets
    # TableOptions.NoHeaders after the first object it transforms: "on watch, we only want to print
    # table headers on the first object and omit them on subsequent events".
    @requires:kube.api @requires:kube.watch
    Scenario: a watch asked for Tables gets each change as a one-row Table, the column definitions on the first event only
      Given ConfigMaps "a" labelled "set=ks"
      When a client watches ConfigMaps labelled "set=ks" as Tables with ""
      And ConfigMaps "b" labelled "set=ks"
      And the ConfigMap "a" is updated 1 times
      And the client deletes ConfigMap "b"
      Then within 5 s the Table watch delivers rows for: ADDED "a", ADDED "b", MODIFIED "a", DELETED "b"
      And each of its events is a meta.k8s.io/v1 Table of one row: the name in the first cell, the object as PartialObjectMetadata at the Table's resourceVersion
      And only the first of its Tables carries column definitions, "Name" first

    # meta.k8s.io/v1beta1 is a Table version the watch still transforms to, beside v1
    # (endpoints/handlers/watch.go optionsForTransform: Kind Table at metav1beta1 or metav1); a
    # client that asks only for it gets its Tables in it.
    @requires:kube.api @requires:kube.watch
    Scenario: a watch asked for meta.k8s.io/v1beta1 Tables gets each change as a v1beta1 Table
      Given ConfigMaps "a" labelled "set=ks"
      When a client watches ConfigMaps labelled "set=ks" as meta.k8s.io/v1beta1 Tables
      And ConfigMaps "b" labelled "set=ks"
      Then within 5 s the Table watch delivers rows for: ADDED "a", ADDED "b"
      And each of its events is a meta.k8s.io/v1beta1 Table of one row: the name in the first cell, the object as PartialObjectMetadata at the Table's resourceVersion

    # The protobuf serializer frames each event with its length (apimachinery runtime/serializer/
    # protobuf LengthDelimitedFramer) and serveWatch names the media type with ";stream=watch"
    # (endpoints/handlers/watch.go: every media type but JSON gets the suffix).
    @requires:kube.api @requires:kube.watch
    Scenario: a watch asked for protobuf gets length-prefixed WatchEvent frames under the ";stream=watch" media type
      When the client opens GET "/api/v1/namespaces/{ns}/configmaps?watch=true" over HTTP/1.1 accepting "application/vnd.kubernetes.protobuf"
      And ConfigMaps "x" and "y" are created
      Then the watch response status is 200 with header "Content-Type: application/vnd.kubernetes.protobuf;stream=watch"
      And within 5 s the response body holds a protobuf frame for each of them: an ADDED WatchEvent whose object is a v1 ConfigMap in the k8s envelope

    # includeObject=Object: the row carries the whole object (handlers/response.go asTable,
    # metav1.IncludeObject), as kubectl get --watch -o custom-columns asks for it.
    @requires:kube.api @requires:kube.watch
    Scenario: a Table watch with includeObject=Object carries each whole object in its row
      Given ConfigMaps "a" labelled "set=ks"
      When a client watches ConfigMaps labelled "set=ks" as Tables with "includeObject=Object"
      And ConfigMaps "b" labelled "set=ks"
      Then within 5 s the Table watch delivers rows for: ADDED "a", ADDED "b"
      And each of its rows carries the whole ConfigMap, data included

    # A custom resource is shown in the version the request names: with conversion strategy None
    # only its apiVersion changes (apiextensions-apiserver pkg/apiserver/conversion/nop_converter.go),
    # and a Table of it has the CRD's columns, Name first (pkg/registry/customresource/tableconvertor).
    @requires:kube.api @requires:kube.watch
    Scenario: a Table watch of a custom resource at its other version carries each object at that version
      Given a CustomResourceDefinition for kind "Gizmo" in group "{ns}.example.com" served at v1 and v2, stored at v1, with conversion strategy None
      When Gizmo "g1" is created at v1 with spec.size 1
      And the client watches Gizmos at v2 as Tables with "includeObject=Object"
      And Gizmo "g2" is created at v1 with spec.size 1
      Then within 5 s the Table watch delivers rows for: ADDED "g1", ADDED "g2"
      And only the first of its Tables carries column definitions, "Name" first
      And each of its rows carries the whole Gizmo at v2, spec.size 1

    # A CRD's own printer columns: the Table of a custom resource has Name, then the version's
    # additionalPrinterColumns, each cell read at its jsonPath; Age only when none is declared
    # (apiextensions-apiserver pkg/registry/customresource/tableconvertor, the CRD handler's
    # serving info takes the columns of the version served).
    @requires:kube.api @requires:kube.watch
    Scenario: a Table watch of a custom resource with a printer column carries that column, each row its value
      Given a CustomResourceDefinition for kind "Gizmo" in group "{ns}.example.com" served at v1 and v2, stored at v1, with conversion strategy None and an integer printer column "Size" at .spec.size
      When Gizmo "g1" is created at v1 with spec.size 4
      And the client watches Gizmos at v2 as Tables with ""
      And Gizmo "g2" is created at v1 with spec.size 4
      Then within 5 s the Table watch delivers rows for: ADDED "g1", ADDED "g2"
      And the first of its Tables has the columns "Name" and "Size", and each of its rows the Gizmo's name and spec.size 4

    # An event that cannot be put in the form asked for is not sent in another: upstream's watch
    # server stops at the first event it fails to encode (endpoints/handlers/watch.go; kubernetes
    # #84693 "Stop Watching when there is encoding error") — for a custom resource, a failed
    # conversion. The client's re-list then sees the 500 (API-CRD-CONVERSION).
    @requires:kube.api @requires:kube.watch @requires:kube.crd.conversion-webhook
    Scenario: a watch whose conversion webhook is down ends at the first event it cannot convert, and never sends it unconverted
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" served at v1 and v2, stored at v1, with a conversion webhook that is down
      When the client watches Widgets at v2 from the current resourceVersion
      And Widget "w1" is created at v1 with spec.size 3
      Then within 10 s the conversion watch has ended, having delivered no Widget

  Rule: WATCH-INITIAL-STATE — a watch with no resourceVersion, or from "0", first delivers the current objects as ADDED events, never the history
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: Which changes a watch delivers depends on its resourceVersion (api-concepts, "Semantics for
      watch"): unset — "Get State and Start at Most Recent": one synthetic ADDED event per object that
      exists now, then every later change; "0" — "Get State and Start at Any": the same from any state
      the server's cache holds, never refused as too old; N — every change after N (WATCH-FROM-RESOURCEVERSION).
      Neither unset nor "0" replays the history of changes before the watch.
    Quote: "客户端发送 GET /api/v1/pods?watch=true&resourceVersion=12345。"

    @requires:kube.api @requires:kube.watch
    Scenario Outline: a watch <from> starts with one ADDED per existing object it selects, then the changes
      Given ConfigMaps "a" and "b" labelled "set=ks"
      And ConfigMaps "other" labelled "set=other"
      And the ConfigMap "a" is updated 2 times
      When a client watches ConfigMaps labelled "set=ks" <from>
      And ConfigMaps "c" labelled "set=ks"
      Then within 5 s the watch delivers ADDED for "a" and "b" in any order, then exactly: ADDED "c"

      Examples:
        | from                         |
        | with no resourceVersion      |
        | from resourceVersion "0"     |

    @requires:kube.api @requires:kube.watch @requires:kube.compaction
    Scenario: a watch from "0" after a compaction starts from the current state, not with 410
      Given ConfigMaps "a" and "b" labelled "set=ks"
      And the ConfigMap "a" is updated 2 times
      When the API server's store is compacted
      And a client watches ConfigMaps labelled "set=ks" from resourceVersion "0"
      And ConfigMaps "c" labelled "set=ks"
      Then within 5 s the watch delivers ADDED for "a" and "b" in any order, then exactly: ADDED "c"

    @requires:kube.api @requires:kube.watch
    Scenario: a streaming list from an older resourceVersion starts with the objects as they are now, not with the changes since
      # sendInitialEvents=true with resourceVersionMatch=NotOlderThan asks for the state as of at
      # least that resourceVersion, as synthetic ADDED events, then the initial-events-end bookmark
      # (api-concepts, "Streaming lists"; KEP-3157): the history after it is not replayed.
      Given ConfigMaps "a" labelled "set=ks"
      And the resourceVersion of ConfigMap "a" is noted as "r1"
      And ConfigMaps "b" labelled "set=ks"
      And the ConfigMap "a" is updated 2 times
      When a client watches ConfigMaps labelled "set=ks" from resourceVersion "r1" with "sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan"
      Then within 5 s the watch delivers ADDED for "a" and "b" in any order, then a BOOKMARK

    @requires:kube.api @requires:kube.watch
    Scenario: a watch with no resourceVersion and sendInitialEvents=false skips the current objects and delivers only the changes
      # ListOptions.sendInitialEvents "defaults to true if resourceVersion="" or resourceVersion="0"
      # (for backward compatibility reasons) and to false otherwise" (API reference, watch query
      # parameters; KEP-3157): set to false it opts the watch out of the synthetic ADDED events.
      Given ConfigMaps "a" and "b" labelled "set=ks"
      When a client watches ConfigMaps labelled "set=ks" with "sendInitialEvents=false&resourceVersionMatch=NotOlderThan"
      And ConfigMaps "c" labelled "set=ks"
      Then within 5 s the watch delivers exactly: ADDED "c"

  Rule: WATCH-TIMEOUT — the server ends a watch when the client's timeoutSeconds have passed, and not before
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: A watch is a long poll ("长轮询"): it stays open while nothing happens, and the client bounds
      it with `timeoutSeconds`, after which the server closes the stream whatever the activity and the
      client watches again from its last resourceVersion (api-concepts, ListOptions.timeoutSeconds:
      "Timeout for the list/watch call. This limits the duration of the call, regardless of any
      activity or inactivity"; staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go).
    Quote: "客户端可以长轮询监听资源变更，而非反复 List 轮询。"

    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: a watch with timeoutSeconds=30 is still open after 20 s and ended after 35 s
      Given ConfigMaps "a" labelled "set=ks"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "timeoutSeconds=30", kept as "short"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "timeoutSeconds=300", kept as "long"
      When 20 seconds of virtual time pass
      Then the watch "short" has not ended
      When 15 seconds of virtual time pass
      Then the watch "short" has ended
      And the watch "long" has not ended

    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: without timeoutSeconds, or with 0, a quiet watch stays open for the server's minimum request timeout
      # Upstream (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go, ListResource): with no
      # timeoutSeconds, or 0, the watch lasts minRequestTimeout × (1 + rand) — with the default
      # --min-request-timeout of 1800 s, between 30 and 60 minutes; never the 0 s it says.
      Given ConfigMaps "a" labelled "set=ks"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "", kept as "unset"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "timeoutSeconds=0", kept as "zero"
      When 29 minutes of virtual time pass
      Then the watch "unset" has not ended
      And the watch "zero" has not ended

    @requires:kube.api @requires:kube.watch
    Scenario Outline: a timeoutSeconds of "<value>", not a whole number of seconds, is refused with 400 BadRequest
      # The query is decoded into ListOptions first; a value that does not decode is a BadRequest
      # (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go: errors.NewBadRequest). A
      # timeoutSeconds present in the query is parsed with strconv.ParseInt(value, 10, 64), the empty
      # value too (apimachinery/pkg/runtime/conversion.go, Convert_Slice_string_To_Pointer_int64).
      When a client watches ConfigMaps labelled "set=ks" with "timeoutSeconds=<value>"
      Then the watch is answered with code 400 and reason "BadRequest"

      Examples:
        | value |
        | soon  |
        | 30s   |
        | 1.5   |
        |       |

  Rule: WATCH-BOOKMARKS — a client that allows bookmarks may get BOOKMARK events that carry only a resourceVersion; one that does not gets none
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / Watch 机制
    Claim: With `allowWatchBookmarks=true` the server may send BOOKMARK events, which tell the client how
      far the stream has got so it can resume without a 410 — past the writes its selector filtered out
      too (cacher.go dispatchEvents: a bookmark carries the last resourceVersion the cacher processed,
      matching or not): the object is of the watched kind and carries
      only apiVersion, kind and metadata.resourceVersion (plus, for the end of the initial events of a
      `sendInitialEvents` watch, the annotation `k8s.io/initial-events-end: "true"`) — no name, no spec or
      data (api-concepts, "Watch bookmarks" and "Streaming lists"; staging/src/k8s.io/apiserver/pkg/storage/cacher).
      Without `allowWatchBookmarks` no BOOKMARK is sent.
    Quote: "API Server 从 etcd 的 Watch 流中获取变更事件，经序列化后通过 HTTP chunked transfer / HTTP/2 stream 推送给客户端。"

    @requires:kube.api @requires:kube.watch
    Scenario: a streaming list ends its initial events with a bookmark that carries only the resourceVersion and the end annotation
      Given ConfigMaps "a" and "b" labelled "set=ks"
      When a client watches ConfigMaps labelled "set=ks" with "sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan"
      Then within 5 s the watch delivers ADDED for "a" and "b" in any order, then a BOOKMARK
      And every BOOKMARK carries only kind "ConfigMap", apiVersion "v1" and metadata.resourceVersion, and annotation "k8s.io/initial-events-end"
      And the BOOKMARK's resourceVersion is at least that of every ADDED event before it

    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: over two quiet minutes a watch that allows bookmarks gets them, and one that does not gets none
      Given ConfigMaps "a" labelled "set=ks"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "allowWatchBookmarks=true", kept as "with bookmarks"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "", kept as "without"
      When 2 minutes of virtual time pass
      Then the watch "with bookmarks" has delivered at least 1 BOOKMARK, each carrying only kind "ConfigMap", apiVersion "v1" and metadata.resourceVersion
      And the watch "without" has delivered no BOOKMARK

    # The cacher schedules each bookmark watcher's next one bookmarkFrequency after the last
    # (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go: defaultBookmarkFrequency =
    # time.Minute; cache_watcher.go nextBookmarkTime, re-added to bookmarkWatchers after each), so a
    # quiet watch hears of its progress again and again, not once.
    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: over five quiet minutes a watch that allows bookmarks keeps getting them, about one a minute
      Given ConfigMaps "a" labelled "set=ks"
      And a client watches ConfigMaps labelled "set=ks" from the current resourceVersion with "allowWatchBookmarks=true", kept as "with bookmarks"
      When 5 minutes of virtual time pass
      Then the watch "with bookmarks" has delivered at least 3 BOOKMARKs, each carrying only kind "ConfigMap", apiVersion "v1" and metadata.resourceVersion

    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: a bookmark moves past the writes the watch's selector filtered out
      Given a client watches ConfigMaps labelled "set=ks,tier=web" from the current resourceVersion with "allowWatchBookmarks=true", kept as "web"
      And ConfigMaps "db" labelled "set=ks,tier=db"
      When 2 minutes of virtual time pass
      Then the watch "web" has delivered only BOOKMARKs, the last at a resourceVersion at least that of ConfigMap "db"

    @requires:kube.api @requires:kube.watch
    Scenario: a watch with no resourceVersion that does not allow bookmarks gets its initial ADDED events and no BOOKMARK
      # The initial-events-end bookmark belongs to sendInitialEvents=true (KEP-3157); a plain
      # "Get State and Start at Most Recent" watch without allowWatchBookmarks gets none.
      Given ConfigMaps "a" and "b" labelled "set=ks"
      When a client watches ConfigMaps labelled "set=ks" with no resourceVersion
      And ConfigMaps "c" labelled "set=ks"
      Then within 5 s the watch delivers ADDED for "a" and "b" in any order, then exactly: ADDED "c"
      And the watch has delivered no BOOKMARK

    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: a kubelet's watch with bookmarks moves past the writes to pods on other nodes
      # The pod trigger (spec.nodeName) spares a node's watch the other nodes' changes, but the
      # cacher's bookmark still carries the last resourceVersion it processed (cacher.go dispatchEvents).
      Given a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion with "allowWatchBookmarks=true", kept as "node-a"
      And pod "theirs" is created bound to node "node-b"
      When 2 minutes of virtual time pass
      Then the watch "node-a" has delivered only BOOKMARKs, the last at a resourceVersion at least that of pod "theirs" at its creation

    # A bookmark says "you have everything up to here": one ahead of what the watch was offered
    # would make a client that resumes from it skip the next change (cacher.go: the bookmark's
    # resourceVersion is the last one the cacher processed, never one still to come).
    @requires:kube.api @requires:kube.watch @requires:clock.virtual
    Scenario: a kubelet's bookmark is never ahead of the writes: a watch resumed from it gets the next pod on its node
      Given a client watches pods with field selector "spec.nodeName=node-a" from the current resourceVersion with "allowWatchBookmarks=true", kept as "node-a"
      # The pod is written just before the watch's first bookmark (one a minute), so that bookmark
      # follows the watch's own event with no other write between them.
      And 59 seconds of virtual time pass
      And pod "mine" is created bound to node "node-a"
      When 2 seconds of virtual time pass
      And a client watches pods with field selector "spec.nodeName=node-a" from the last BOOKMARK of the watch "node-a", kept as "resumed"
      And pod "next" is created bound to node "node-a"
      Then within 5 s the watch "resumed" delivers exactly: ADDED "next"
