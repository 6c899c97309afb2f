@component:ha
Feature: High availability — etcd topology and the API server load balancer
  Source: 000_1662d8c5cea2447f.txt § 高可用架构 / etcd 集群拓扑选择
  Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 负载均衡方案

  Two etcd topologies: stacked (an etcd member on every master) and external (etcd on its own
  machines). Their fault tolerance differs and can be checked by killing machines; their cost and
  fit are operator advice. The load-balancing section lists products and warns that the API
  server needs an L4 balancer — for a reason that is wrong upstream (HA-APISERVER-PROTOCOL).

  Rule: TOPO-STACKED-SHARED-FATE — in the stacked topology a master failure also removes an etcd member
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / etcd 集群拓扑选择
    Claim: Stacked topology puts etcd on the master nodes: fewer machines and simpler, but a master
      failure loses its etcd member too, so reliability is lower.
    Quote: "etcd 与 Master 组件部署在同一节点。" / "Master 节点故障同时丢失 etcd 成员，可靠性较低。"

    @requires:kube.api @requires:cluster.ha @requires:kv.members @topology:stacked
    Scenario: killing one stacked master leaves 2 of 3 etcd members; killing a second stops writes
      Given an HA cluster with stacked masters "m1", "m2", "m3", each running an API server and an etcd member
      When machine "m1" is killed
      Then the store has 2 of 3 members alive
      And creating ConfigMap "a" through the load balancer succeeds within 15 seconds
      When machine "m2" is killed
      Then creating ConfigMap "b" through the load balancer fails within 30 seconds

  Rule: TOPO-EXTERNAL-INDEPENDENT — with external etcd, a master failure leaves the etcd cluster whole
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / etcd 集群拓扑选择
    Claim: External topology runs etcd on dedicated nodes: a master failure does not affect the etcd
      cluster, so reliability is higher, at the cost of more machines and operations work.
    Quote: "etcd 独立部署在专用节点上。" / "Master 故障不影响 etcd 集群，可靠性更高。"

    @requires:kube.api @requires:cluster.ha @requires:kv.members @topology:external
    Scenario: killing a master leaves all three etcd members alive
      Given an HA cluster with masters "m1", "m2", "m3" and external etcd members "e1", "e2", "e3"
      When machine "m1" is killed
      Then the store has 3 of 3 members alive

  Rule: TOPO-FAULT-TOLERANCE — stacked tolerates one node failure; external tolerates one master plus one etcd failure
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / etcd 集群拓扑选择
    Claim: With three of each, stacked survives the failure of 1 node; external survives 1 master
      and 1 etcd member failing together.
    Quote: "容错能力 | 1 节点故障 | 1 Master 故障 + 1 etcd 故障"

    @requires:kube.api @requires:cluster.ha @requires:kv.members @topology:external
    Scenario: external topology keeps serving writes with one master and one etcd member down
      Given an HA cluster with masters "m1", "m2", "m3" and external etcd members "e1", "e2", "e3"
      When machines "m1" and "e1" are killed
      Then creating ConfigMap "a" through the load balancer succeeds within 15 seconds

    @requires:kube.api @requires:cluster.ha @requires:kv.members @topology:stacked
    Scenario: stacked topology with the same two failures — two stacked machines — stops writes
      Given an HA cluster with stacked masters "m1", "m2", "m3", each running an API server and an etcd member
      When machines "m1" and "m2" are killed
      Then creating ConfigMap "a" through the load balancer fails within 30 seconds

  @untestable
  Rule: TOPO-COST-AND-FIT — stacked needs 3 machines and suits test/small production; external needs 6 and suits large production
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / etcd 集群拓扑选择
    Claim: Stacked: 3 masters = 3 etcd, low deployment complexity, for testing and small production.
      External: 3 masters + 3 etcd = 6 machines, high complexity, for large production.
    Quote: "节点数 | 3 Master = 3 etcd | 3 Master + 3 etcd = 6"
    Untestable: machine counts, complexity and fit are deployment choices and advice, not behaviour.

  @untestable
  Rule: LB-OPTIONS — hardware, software or cloud load balancers can front the API servers
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 负载均衡方案
    Claim: The API servers can be fronted by a hardware LB (F5), a software LB (HAProxy + Keepalived,
      Nginx as L4 proxy) or a cloud LB (AWS NLB, Alibaba SLB, GCP Load Balancer).
    Quote: "**硬件 LB**：F5 等" / "**软件 LB**：HAProxy + Keepalived（自建集群）、Nginx（四层代理）" / "**云厂商 LB**：AWS NLB、阿里云 SLB、GCP Load Balancer"
    Untestable: a list of products to choose from; no target behaviour follows from it.

  @untestable
  Rule: LB-L4-NOT-L7 — balance the API servers at L4 (TCP), not L7 (HTTP)
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 负载均衡方案
    Claim: The API server load balancer should be layer 4 (e.g. HAProxy TCP mode, NLB); layer 7 can
      break long-lived connections and streaming requests.
    Quote: "API Server 的负载均衡是四层（TCP），不是七层（HTTP）" / "应使用 L4 负载均衡（如 HAProxy TCP mode、NLB）"
    Untestable: advice on choosing infrastructure outside the cluster; no capability provides a load balancer to test. (Upstream's kubeadm HA guide does configure HAProxy in TCP mode; a further reason is that TLS must reach the API server for client-certificate authentication.)

  @erratum
  Rule: HA-APISERVER-PROTOCOL — the API server serves REST over HTTP/1.1 and HTTP/2, not gRPC
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 负载均衡方案
    Claim: The API server uses HTTP/2 + gRPC, which is why L7 balancing would break it.
    Quote: "因为 API Server 使用 HTTP/2 + gRPC，七层负载均衡可能破坏长连接和流式请求。"
    Upstream: The API server exposes an HTTP REST API, in JSON or Protobuf encoding, over HTTP/1.1
      or HTTP/2 (kubernetes/website docs/concepts/overview/kubernetes-api.md; docs/reference/using-api/api-concepts.md).
      gRPC is spoken between the API server and etcd, not by API clients. Long-running requests
      (watch, exec, logs) are chunked or upgraded HTTP streams.

    @requires:kube.api
    Scenario: an HTTP/1.1 request gets a JSON REST answer
      When I send "GET /api/v1/namespaces/default" over HTTP/1.1 with "Accept: application/json"
      Then the answer is 200 with content type "application/json" and a body whose kind is "Namespace"

    @requires:kube.api @requires:kube.watch
    Scenario: a watch is an HTTP/1.1 chunked stream of JSON lines
      When I send "GET /api/v1/namespaces/default/configmaps?watch=true" over HTTP/1.1
      And I create ConfigMap "cfg" in namespace "default"
      Then the watch answer has "Transfer-Encoding: chunked" and delivers a line whose type is "ADDED"

    @requires:kube.api
    Scenario: a gRPC call to the API server is not served
      When I call gRPC method "etcdserverpb.KV/Range" on the API server's port
      Then the call fails and no object is returned
