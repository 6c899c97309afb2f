@component:proxy
Feature: kube-proxy — Services, their virtual IPs and types
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy
  Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy

  A Service selects a set of Pods by label and gets a stable virtual IP, the ClusterIP. kube-proxy,
  which runs on every node, turns Services and their EndpointSlices into packet-filter rules so
  that a connection to ClusterIP:port reaches one backend Pod. NodePort and LoadBalancer Services
  build on ClusterIP. Seed 003 also credits kube-proxy with Pod-to-Pod traffic; upstream that is
  the network plugin's job (PROXY-NOT-POD-TO-POD).

  @pending
  Rule: PROXY-EVERY-NODE — kube-proxy runs on every node and programs every Service there
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy runs on each node and maintains the forwarding rules for all Services on it,
      whether or not the node hosts a backend.
    Quote: "在每个 Node 上运行" / "kube-proxy 运行在每个节点上，负责实现 **Service** 的网络转发逻辑。"

    @requires:kube.api @requires:cluster.nodes @requires:cluster.controllers @requires:proxy.rules
    Scenario: a Service's rules appear on a node that hosts none of its pods
      Given a cluster with nodes "n1" and "n2"
      And a Service "web" with clusterIP "10.96.0.50" port 80 selecting "app=web"
      And a running pod "web-1" labelled "app=web" on node "n1"
      Then within 10 seconds the proxy rules of node "n1" forward "10.96.0.50:80/TCP" to the IP of pod "web-1"
      And within 10 seconds the proxy rules of node "n2" forward "10.96.0.50:80/TCP" to the IP of pod "web-1"

  @pending
  Rule: SVC-SELECTOR — a Service selects its backend Pods by label selector
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: A Service matches a set of backend Pods through its label selector; its endpoints follow
      the set of matching Pods as labels change.
    Quote: "一个 Service 通过 Label Selector 匹配一组后端 Pod"

    @requires:kube.api @requires:cluster.controllers
    Scenario: relabelling a pod moves it in or out of the Service's endpoints
      Given a Service "web" selecting "app=web,tier=front" on port 80
      And running pods "a" labelled "app=web,tier=front", "b" labelled "app=web,tier=back" and "c" labelled "app=web,tier=front"
      Then within 10 seconds the EndpointSlices of Service "web" list exactly the pods "a, c"
      When I relabel pod "c" to "app=web,tier=back"
      Then within 10 seconds the EndpointSlices of Service "web" list exactly the pods "a"

  @pending
  Rule: SVC-CLUSTERIP-STABLE — a Service gets a stable virtual ClusterIP from the service range
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Each Service is given a stable virtual IP (ClusterIP), allocated inside the cluster's
      service CIDR, that does not change while its backends come and go; spec.clusterIP is immutable.
    Quote: "分配一个稳定的虚拟 IP（ClusterIP）" / "**ClusterIP**：分配集群内部虚拟 IP"

    @requires:kube.api @requires:cluster.controllers
    Scenario: the ClusterIP is in the service range and survives backend churn; changing it is rejected
      Given an API server with service-cluster-ip-range "10.96.0.0/12"
      When I create a Service "web" selecting "app=web" on port 80 without a clusterIP
      Then Service "web" has a clusterIP inside "10.96.0.0/12"
      When 3 pods labelled "app=web" are created and then deleted
      Then Service "web" has the same clusterIP as before
      When I update Service "web" setting spec.clusterIP to another free address in the range
      Then the update answer is 422 Invalid with a cause on field "spec.clusterIP" saying "field is immutable"

  @pending
  Rule: PROXY-FORWARDS-TO-BACKENDS — a connection to ServiceIP:Port is forwarded to a backend Pod
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: When a client connects to ServiceIP:Port, kube-proxy's rules send the traffic to one of
      the Service's backend Pods, on the Service's targetPort.
    Quote: "当客户端访问 `ServiceIP:Port` 时，kube-proxy 负责将流量转发到后端 Pod。"

    @requires:kube.api @requires:cluster.controllers @requires:proxy.traffic
    Scenario: every connection to the ClusterIP lands on a backend, on the target port
      Given a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080 selecting "app=web"
      And running pods "web-1" and "web-2" labelled "app=web" serving on port 8080
      When I open 200 new connections to "10.96.0.50:80" from a pod on another node
      Then every connection was answered by "web-1" or "web-2" on port 8080
      And both "web-1" and "web-2" received at least 1 connection

  @erratum @pending
  Rule: PROXY-NOT-POD-TO-POD — kube-proxy carries Pod-to-Service traffic; direct Pod-to-Pod traffic is the network plugin's
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy supports communication between Pods (Pod ↔ Pod).
    Quote: "支持 Pod 之间的通信（Pod ↔ Pod）"
    Upstream: kube-proxy "is responsible for implementing a virtual IP mechanism for Services"
      (kubernetes/website content/en/docs/reference/networking/virtual-ips.md). Pod-to-Pod
      reachability by Pod IP is provided by the network plugin (CNI), per the cluster networking
      model (kubernetes/website docs/concepts/cluster-administration/networking.md). kube-proxy takes
      part in Pod↔Pod traffic only when it goes through a Service.

    @requires:kube.api @requires:cluster.controllers @requires:proxy.rules
    Scenario: kube-proxy programs no rule that matches a pod IP as destination
      Given a cluster with nodes "n1" and "n2"
      And a Service "web" with clusterIP "10.96.0.50" port 80 selecting "app=web"
      And a running pod "web-1" labelled "app=web" on node "n1"
      Then within 10 seconds the proxy rules of node "n2" forward "10.96.0.50:80/TCP" to the IP of pod "web-1"
      And no proxy rule of node "n2" matches the IP of pod "web-1" as destination address

  @pending
  Rule: PROXY-EXTERNAL-ACCESS — kube-proxy lets traffic from outside reach a Service's Pods
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy provides access from outside the cluster to Services inside it
      (External → Service → Pod), e.g. through a NodePort on every node.
    Quote: "提供外部访问集群内服务的能力（External -> Service -> Pod）"

    @requires:kube.api @requires:cluster.controllers @requires:cluster.nodes @requires:proxy.traffic
    Scenario: a client outside the cluster reaches the pod through any node's NodePort
      Given a cluster with nodes "n1" and "n2"
      And a Service "web" of type NodePort with nodePort 30080 port 80 targetPort 8080 selecting "app=web"
      And a running pod "web-1" labelled "app=web" on node "n1" serving on port 8080
      When a client outside the cluster connects to node "n2" port 30080
      Then the connection is answered by "web-1"

  @untestable
  Rule: PROXY-PACKET-FILTER — kube-proxy uses the OS packet filter, and sometimes proxies traffic itself
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy manages rules through the operating system's packet filtering (iptables or
      ipvs) and can sometimes forward traffic itself.
    Quote: "借助操作系统的数据包过滤机制（iptables 或 ipvs）实现网络规则管理 - 有时也可直接进行流量代理或转发"
    Untestable: the packet-filter part is covered mode by mode in iptables-vs-ipvs.feature; the self-forwarding (userspace) mode no longer exists upstream (removed in v1.26, kubernetes/kubernetes PR #112133), so there is nothing left to check.

  @pending
  Rule: SVC-NODEPORT-RANGE — a NodePort is allocated from 30000–32767 by default
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: A NodePort Service opens one port on every node, from the range 30000-32767 (the API
      server's default --service-node-port-range).
    Quote: "在每个节点开放一个端口（30000-32767）"

    @requires:kube.api
    Scenario Outline: requesting nodePort <port>
      Given an API server with the default service-node-port-range
      When I create a Service "np" of type NodePort port 80 with nodePort <port>
      Then the create answer is <answer>

      Examples:
        | port  | answer                                                                                      |
        | 30000 | 201                                                                                         |
        | 32767 | 201                                                                                         |
        | 29999 | 422 Invalid with a cause on field "spec.ports[0].nodePort" saying "provided port is not in the valid range. The range of valid ports is 30000-32767" |
        | 32768 | 422 Invalid with a cause on field "spec.ports[0].nodePort" saying "provided port is not in the valid range. The range of valid ports is 30000-32767" |

    @requires:kube.api
    Scenario: 50 NodePort Services without a requested port get 50 distinct ports inside the range
      Given an API server with the default service-node-port-range
      When I create 50 Services of type NodePort without a nodePort
      Then their nodePorts are 50 distinct numbers between 30000 and 32767

  @pending
  Rule: SVC-NODEPORT-ON-CLUSTERIP — a NodePort Service is a ClusterIP Service plus a port on every node
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: NodePort builds on ClusterIP: the Service still gets a ClusterIP, and is also reachable
      from outside at NodeIP:NodePort on every node.
    Quote: "**NodePort**：在 ClusterIP 基础上，在每个节点开放一个端口（30000-32767），外部可通过 `NodeIP:NodePort` 访问。"

    @requires:kube.api @requires:cluster.controllers @requires:cluster.nodes @requires:proxy.traffic
    Scenario: the same backend answers on the ClusterIP and on each node's NodePort
      Given a cluster with nodes "n1", "n2" and "n3"
      And a Service "web" of type NodePort port 80 targetPort 8080 selecting "app=web"
      And a running pod "web-1" labelled "app=web" on node "n1" serving on port 8080
      Then Service "web" has a non-empty clusterIP
      And a connection to the clusterIP of Service "web" port 80 is answered by "web-1"
      And a connection to the nodePort of Service "web" on each of "n1, n2, n3" is answered by "web-1"

  @pending
  Rule: SVC-LOADBALANCER-ON-NODEPORT — a LoadBalancer Service builds on NodePort; a cloud load balancer forwards to it
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: LoadBalancer builds on NodePort: a cloud API call creates an external load balancer that
      forwards to the NodePort. (By default; upstream spec.allocateLoadBalancerNodePorts false lets a
      provider skip the node ports.)
    Quote: "**LoadBalancer**：在 NodePort 基础上，调用云厂商 API 创建外部负载均衡器，将流量转发到 NodePort。"

    @requires:kube.api @requires:cluster.cloud @requires:cluster.nodes
    Scenario: the cloud load balancer's backends are every node on the Service's nodePort
      Given a cluster with nodes "n1" and "n2" and a cloud-controller-manager
      When I create a Service "web" of type LoadBalancer port 80 selecting "app=web"
      Then Service "web" has a clusterIP and a nodePort between 30000 and 32767
      And within 30 seconds Service "web" has a status.loadBalancer.ingress address
      And the cloud load balancer of Service "web" forwards port 80 to "n1" and "n2" on the nodePort of Service "web"
