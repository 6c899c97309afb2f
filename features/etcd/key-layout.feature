@component:etcd
Feature: etcd — what Kubernetes stores, and where
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构

  etcd is the cluster's only persistent store. Kubernetes maps each object to one key in a flat key
  space, `/registry/<resource>/<namespace>/<name>`, and the notes give four examples. Three are exact;
  Services are not stored where the notes say (they live under `services/specs`, sharing the
  `services/` prefix with `services/endpoints`). The value is the object encoded as Protocol Buffers —
  true for built-in types, but custom resources are stored as JSON.

  Rule: ETCD-SOLE-STORE — all cluster state lives in etcd: each object the API accepts is a key under /registry
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd
    Claim: etcd is Kubernetes' only persistent store and holds all cluster state: Pods, Services,
      ConfigMaps, Secrets, Nodes, Namespaces and so on.
    Quote: "etcd 是 Kubernetes 的唯一持久化存储，存储了集群的所有状态数据"

    @requires:kube.api @requires:kube.storage
    Scenario Outline: a created <kind> is a key in the store
      When <kind> "<name>" is created
      Then the store holds key "<key>"

      Examples:
        | kind      | name   | key                                  |
        | ConfigMap | cm1    | /registry/configmaps/{ns}/cm1        |
        | Secret    | s1     | /registry/secrets/{ns}/s1            |
        | Pod       | p1     | /registry/pods/{ns}/p1               |
        | Namespace | ns-{ns} | /registry/namespaces/ns-{ns}        |

  Rule: ETCD-KEY-PODS — a pod is stored at /registry/pods/<namespace>/<name>
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: Kubernetes resource paths map to a flat key space; a pod's key is /registry/pods/<ns>/<name>.
    Quote: "/registry/pods/default/my-pod"

    @requires:kube.api @requires:kube.storage @requires:kv
    Scenario: a pod's key and nothing else appears under the namespace's pod prefix
      When Pod "my-pod" is created
      Then the store holds key "/registry/pods/{ns}/my-pod"
      And the store holds exactly 1 key under "/registry/pods/{ns}/"

  Rule: ETCD-KEY-DEPLOYMENTS — a deployment is stored at /registry/deployments/<namespace>/<name>
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: A deployment's key is /registry/deployments/<ns>/<name>.
    Quote: "/registry/deployments/default/my-deploy"

    @requires:kube.api @requires:kube.storage
    Scenario: a deployment's key
      When Deployment "my-deploy" is created with 1 replica
      Then the store holds key "/registry/deployments/{ns}/my-deploy"

  @erratum
  Rule: ETCD-KEY-SERVICES — a service is stored at /registry/services/specs/<namespace>/<name>
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: A service's key is /registry/services/<ns>/<name>.
    Quote: "/registry/services/kube-system/kube-dns"
    Upstream: services are stored under the special prefix "services/specs" (and Endpoints under
      "services/endpoints"): SpecialDefaultResourcePrefixes in
      pkg/kubeapiserver/default_storage_factory_builder.go. The key is /registry/services/specs/<ns>/<name>.

    @requires:kube.api @requires:kube.storage
    Scenario: a service's key has the "specs" segment
      When Service "kube-dns-{ns}" is created with port 53
      Then the store holds key "/registry/services/specs/{ns}/kube-dns-{ns}"
      And the store holds no key "/registry/services/{ns}/kube-dns-{ns}"

  Rule: ETCD-KEY-NODES — a node is stored at /registry/minions/<name>, a historical name with no namespace
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: A node's key is /registry/minions/<name>.
    Quote: "/registry/minions/node-1"

    @requires:kube.api @requires:kube.storage
    Scenario: a node registered through the API is stored under "minions"
      When Node "node-{ns}" is registered through the API
      Then the store holds key "/registry/minions/node-{ns}"
      And the store holds no key "/registry/nodes/node-{ns}"

  Rule: ETCD-VALUE-ENCODING — built-in objects are stored as Protocol Buffers
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: The value under an object's key is the resource object encoded as Protocol Buffers.
    Quote: "每个 Value 是对应资源对象的 Protocol Buffer 编码。"

    kube-apiserver's default --storage-media-type is application/vnd.kubernetes.protobuf for built-in
    types (since v1.6, kubernetes/kubernetes#40683), written behind the 4-byte envelope "k8s\x00"
    (k8s.io/apimachinery/pkg/runtime/serializer/protobuf: protoEncodingPrefix). The reference's codec
    defines every built-in kind it serves but APIService and CustomResourceDefinition (their protos
    live in kube-aggregator and apiextensions-apiserver), and keeps as JSON an object its message
    cannot carry whole (an empty list or map, a field the message lacks). The kinds below include
    the ones the kubelet and the controllers write most: Node, Lease, Event, EndpointSlice.

    @requires:kube.api @requires:kube.storage
    Scenario: a ConfigMap's value begins with the protobuf envelope magic "k8s\x00"
      When ConfigMap "cm1" is created
      Then the value at key "/registry/configmaps/{ns}/cm1" begins with the 4 bytes "6B 38 73 00"

    @requires:kube.api @requires:kube.storage
    Scenario Outline: a <kind>'s value begins with the protobuf envelope magic too
      When <kind> "<name>" is created
      Then the value at key "<key>" begins with the 4 bytes "6B 38 73 00"

      Examples:
        | kind          | name      | key                                |
        | Secret        | s1        | /registry/secrets/{ns}/s1          |
        | Namespace     | ns-{ns}   | /registry/namespaces/ns-{ns}       |
        | Pod           | p1        | /registry/pods/{ns}/p1             |
        | Service       | s1        | /registry/services/specs/{ns}/s1   |
        | Deployment    | d1        | /registry/deployments/{ns}/d1      |
        | Node          | node-{ns} | /registry/minions/node-{ns}        |
        | Lease         | l1        | /registry/leases/{ns}/l1           |
        | Event         | e1        | /registry/events/{ns}/e1           |
        | EndpointSlice | es1       | /registry/endpointslices/{ns}/es1  |

  @erratum
  Rule: ETCD-VALUE-ENCODING-CRD — custom resources are stored as JSON, not Protocol Buffers
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: "Every value is Protocol Buffers" does not hold for custom resources.
    Quote: "每个 Value 是对应资源对象的 Protocol Buffer 编码。"
    Upstream: custom resources have no protobuf schema and are stored as JSON — the docs page
      "Kubernetes API Concepts" (kubernetes.io/docs/reference/using-api/api-concepts/) notes that
      Protobuf is not available for CustomResourceDefinition types.

    A custom resource is stored under its group: /registry/<group>/<plural>/<namespace>/<name>
    (apiextensions-apiserver customresource_handler.go, ResourcePrefix = group + "/" + plural).

    @requires:kube.api @requires:kube.storage
    Scenario: a custom resource's value is a JSON document
      Given a CustomResourceDefinition for kind "Widget" in group "{ns}.example.com" with a free-form spec
      When Widget "w1" is created in the scenario's namespace
      Then the value at key "/registry/{ns}.example.com/widgets/{ns}/w1" parses as JSON
      And that JSON has "kind" equal to "Widget"
