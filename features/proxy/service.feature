@component:proxy
Feature: kube-proxy — Services, their virtual IPs and types
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy
  Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy

  A Service selects a set of Pods by label and gets a stable virtual IP, the ClusterIP. kube-proxy,
  which runs on every node, turns Services and their EndpointSlices into packet-filter rules so
  that a connection to ClusterIP:port reaches one backend Pod. NodePort and LoadBalancer Services
  build on ClusterIP. Seed 003 also credits kube-proxy with Pod-to-Pod traffic; upstream that is
  the network plugin's job (PROXY-NOT-POD-TO-POD).


  Endpoints are written as EndpointSlices of Services without a selector (anyone may, and kube-proxy
  treats them like the EndpointSlice controller's); only SVC-SELECTOR needs the controller itself.
  The Rules after SVC-LOADBALANCER-ON-NODEPORT are not in the notes: they state what the notes'
  forwarding picture needs to be true of a real cluster (timeouts, traffic policies, Services
  without endpoints, terminating endpoints), each as upstream documents it.

  Rule: PROXY-EVERY-NODE — kube-proxy runs on every node and programs every Service there
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy runs on each node and maintains the forwarding rules for all Services on it,
      whether or not the node hosts a backend.
    Quote: "在每个 Node 上运行" / "kube-proxy 运行在每个节点上，负责实现 **Service** 的网络转发逻辑。"

    @requires:kube.api @requires:proxy.rules
    Scenario: a Service's rules appear on a node that hosts none of its endpoints
      Given kube-proxy on nodes "n1" and "n2"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      Then within 10 seconds the proxy rules of node "n1" forward "10.96.0.50:80/TCP" to "10.244.1.10:8080"
      And within 10 seconds the proxy rules of node "n2" forward "10.96.0.50:80/TCP" to "10.244.1.10:8080"

  Rule: SVC-SELECTOR — a Service selects its backend Pods by label selector
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: A Service matches a set of backend Pods through its label selector; its endpoints follow
      the set of matching Pods as labels change.
    Quote: "一个 Service 通过 Label Selector 匹配一组后端 Pod"

    @requires:kube.api @requires:controllers.endpointslice @requires:cluster.scheduler @requires:kubelet
    Scenario: relabelling a pod moves it in or out of the Service's endpoints
      Given a cluster with node "n1"
      And a Service "web" selecting "app=web,tier=front" on port 80
      And backend pods "a" labelled "app=web,tier=front", "b" labelled "app=web,tier=back" and "c" labelled "app=web,tier=front" are running
      Then within 60 seconds the EndpointSlices of Service "web" list exactly the pods "a, c"
      When I relabel backend pod "c" to "app=web,tier=back"
      Then within 60 seconds the EndpointSlices of Service "web" list exactly the pods "a"

  Rule: SVC-CLUSTERIP-STABLE — a Service gets a stable virtual ClusterIP from the service range
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Each Service is given a stable virtual IP (ClusterIP), allocated inside the cluster's
      service CIDR, that does not change while its backends come and go; spec.clusterIP is immutable.
      A requested ClusterIP must be inside the range and free (pkg/registry/core/service/ipallocator).
    Quote: "分配一个稳定的虚拟 IP（ClusterIP）" / "**ClusterIP**：分配集群内部虚拟 IP"

    @requires:kube.api
    Scenario: the ClusterIP is in the service range and survives endpoint churn; changing it is rejected
      Given an API server with service-cluster-ip-range "10.96.0.0/12"
      When I create a Service "web" on port 80 without a clusterIP
      Then Service "web" has a clusterIP inside "10.96.0.0/12"
      When 3 endpoints of Service "web" are written and then deleted
      Then Service "web" has the same clusterIP as before
      When I update Service "web" setting spec.clusterIP to another free address in the range
      Then the update answer is 422 Invalid with a cause on field "spec.clusterIP" saying "field is immutable"

    @requires:kube.api
    Scenario: a requested ClusterIP outside the range or already taken is refused
      Given an API server with service-cluster-ip-range "10.96.0.0/12"
      When I create a Service "web" on port 80 without a clusterIP
      And I create a Service "outside" on port 80 with clusterIP "192.0.2.10"
      Then the create answer is 422 Invalid with a cause on field "spec.clusterIPs" saying "failed to allocate IP 192.0.2.10: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/12"
      When I create a Service "twin" on port 80 with the clusterIP of Service "web"
      Then the create answer is 422 Invalid with a cause on field "spec.clusterIPs" saying "provided IP is already allocated"

  Rule: PROXY-FORWARDS-TO-BACKENDS — a connection to ServiceIP:Port is forwarded to a backend Pod
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: When a client connects to ServiceIP:Port, kube-proxy's rules send the traffic to one of
      the Service's backend Pods, on the Service's targetPort.
    Quote: "当客户端访问 `ServiceIP:Port` 时，kube-proxy 负责将流量转发到后端 Pod。"

    @requires:kube.api @requires:proxy.dataplane
    Scenario: every connection to the ClusterIP lands on a backend, on the target port
      Given kube-proxy on nodes "n1" and "n2"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" and "10.244.1.11" on node "n1" on port 8080
      When I open 200 new connections to "10.96.0.50:80" from a pod on node "n2"
      Then every connection was answered by "10.244.1.10:8080" or "10.244.1.11:8080"
      And both "10.244.1.10:8080" and "10.244.1.11:8080" received at least 1 connection

    @requires:kube.api @requires:proxy.dataplane
    Scenario Outline: in <mode> mode a UDP Service port forwards UDP to the backend, and TCP to the same port reaches no endpoint
      # A Service port is ServiceIP:Port with its protocol (TCP, UDP or SCTP; cluster DNS is UDP
      # port 53): kube-proxy matches the protocol with the port (`-p udp -m udp --dport 53`, nftables
      # `ip daddr . meta l4proto . th dport`), and an EndpointSlice port counts for the Service port
      # of the same name and protocol (kubernetes/kubernetes pkg/proxy/iptables/proxier.go;
      # pkg/proxy/endpointslicecache.go).
      Given kube-proxy in <mode> mode on node "n1"
      And a Service "dns" with clusterIP "10.96.0.10" port 53/UDP targetPort 5353
      And an EndpointSlice for Service "dns" with ready endpoints "10.244.1.10" on node "n1" on port 5353/UDP
      When I open 10 new UDP connections to "10.96.0.10:53" from a pod on node "n1"
      Then every connection was answered by "10.244.1.10:5353"
      When I open 1 new TCP connection to "10.96.0.10:53" from a pod on node "n1"
      Then no connection reached an endpoint

      @requires:proxy.iptables
      Examples:
        | mode     |
        | iptables |

      @requires:proxy.nftables
      Examples:
        | mode     |
        | nftables |

  @erratum
  Rule: PROXY-NOT-POD-TO-POD — kube-proxy carries Pod-to-Service traffic; direct Pod-to-Pod traffic is the network plugin's
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy supports communication between Pods (Pod ↔ Pod).
    Quote: "支持 Pod 之间的通信（Pod ↔ Pod）"
    Upstream: kube-proxy "is responsible for implementing a virtual IP mechanism for Services"
      (kubernetes/website content/en/docs/reference/networking/virtual-ips.md). Pod-to-Pod
      reachability by Pod IP is provided by the network plugin (CNI), per the cluster networking
      model (kubernetes/website docs/concepts/cluster-administration/networking.md). kube-proxy takes
      part in Pod↔Pod traffic only when it goes through a Service.

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: kube-proxy programs no rule that matches a pod IP as destination
      Given kube-proxy in iptables mode on node "n2"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      Then within 10 seconds the proxy rules of node "n2" forward "10.96.0.50:80/TCP" to "10.244.1.10:8080"
      And no rule in the nat or filter table of node "n2" matches "10.244.1.10" as destination address

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables
    Scenario: a connection straight to a pod IP passes kube-proxy's rules untouched
      Given kube-proxy in iptables mode on node "n2"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      When I open 1 new connection to "10.244.1.10:8080" from a pod on node "n2"
      Then no connection was redirected by the proxy

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables
    Scenario: a pod's port that has a NodePort's number is still the pod's; NodePorts are on the node's own addresses
      # kube-proxy opens a NodePort on the node's addresses only: the jump to KUBE-NODEPORTS and
      # the filter table's DROP for a Local NodePort without an endpoint on this node both match
      # "-m addrtype --dst-type LOCAL" (kubernetes/kubernetes pkg/proxy/iptables/proxier.go).
      Given kube-proxy in iptables mode on node "n2"
      And a Service "web" of type NodePort with nodePort 30080 port 80 targetPort 8080 with externalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      And a Service "app" with clusterIP "10.96.0.60" port 30080 targetPort 30080
      And an EndpointSlice for Service "app" with ready endpoints "10.244.1.20" on node "n1" on port 30080
      When I open 3 new connections to "10.244.1.20:30080" from a pod on node "n2"
      Then no connection was redirected by the proxy

  Rule: PROXY-EXTERNAL-ACCESS — kube-proxy lets traffic from outside reach a Service's Pods
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy provides access from outside the cluster to Services inside it
      (External → Service → Pod), e.g. through a NodePort on every node.
    Quote: "提供外部访问集群内服务的能力（External -> Service -> Pod）"

    @requires:kube.api @requires:proxy.dataplane
    Scenario: a client outside the cluster reaches the pod through any node's NodePort
      Given kube-proxy on nodes "n1" and "n2"
      And a Service "web" of type NodePort with nodePort 30080 port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      When a client outside the cluster connects to node "n2" port 30080
      Then the connection is answered by "10.244.1.10:8080"

  @erratum
  Rule: PROXY-PACKET-FILTER — kube-proxy uses the OS packet filter; it no longer proxies traffic itself
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / kube-proxy
    Claim: kube-proxy manages rules through the operating system's packet filtering (iptables or
      ipvs) and can sometimes forward traffic itself.
    Quote: "借助操作系统的数据包过滤机制（iptables 或 ipvs）实现网络规则管理 - 有时也可直接进行流量代理或转发"
    Upstream: the self-forwarding mode was the userspace proxy, removed in v1.26 (kubernetes/kubernetes
      PR #112133); kube-proxy's --proxy-mode now accepts iptables, ipvs and nftables on Linux and
      rejects anything else at validation (pkg/proxy/apis/config/validation/validation.go,
      validateProxyMode). Every mode left programs the kernel (netfilter or IPVS) and never sees
      the Service traffic itself.

    @requires:kube.api @requires:proxy.rules
    Scenario: kube-proxy asked for the userspace mode refuses to start
      When kube-proxy starts in userspace mode on node "n1"
      Then within 10 seconds kube-proxy on node "n1" has exited with an error mentioning "userspace"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: in iptables mode a Service is a DNAT rule in the kernel, not a port kube-proxy listens on
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" and "10.244.1.11" on port 8080
      Then within 10 seconds the nat table of node "n1" has a rule "-j DNAT --to-destination 10.244.1.10:8080"
      And no nat rule of node "n1" redirects to a local port

  Rule: SVC-NODEPORT-RANGE — a NodePort is allocated from 30000–32767 by default
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: A NodePort Service opens one port on every node, from the range 30000-32767 (the API
      server's default --service-node-port-range). A requested port outside the range, or taken,
      is refused (pkg/registry/core/service/portallocator).
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
    Scenario: a nodePort already taken is refused
      Given an API server with the default service-node-port-range
      When I create a Service "np" of type NodePort port 80 without a nodePort
      And I create a Service "np2" of type NodePort port 80 with the nodePort of Service "np"
      Then the create answer is 422 Invalid with a cause on field "spec.ports[0].nodePort" saying "provided port is already allocated"

    @requires:kube.api
    Scenario: 50 NodePort Services without a requested port get 50 distinct ports inside the range
      Given an API server with the default service-node-port-range
      When I create 50 Services of type NodePort without a nodePort
      Then their nodePorts are 50 distinct numbers between 30000 and 32767

  Rule: SVC-NODEPORT-ON-CLUSTERIP — a NodePort Service is a ClusterIP Service plus a port on every node
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: NodePort builds on ClusterIP: the Service still gets a ClusterIP, and is also reachable
      from outside at NodeIP:NodePort on every node.
    Quote: "**NodePort**：在 ClusterIP 基础上，在每个节点开放一个端口（30000-32767），外部可通过 `NodeIP:NodePort` 访问。"

    @requires:kube.api @requires:proxy.dataplane
    Scenario: the same backend answers on the ClusterIP and on each node's NodePort
      Given kube-proxy on nodes "n1", "n2" and "n3"
      And a Service "web" of type NodePort port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      Then Service "web" has a non-empty clusterIP
      And a connection from node "n1" to the clusterIP of Service "web" port 80 is answered by "10.244.1.10:8080"
      And a connection from outside to the nodePort of Service "web" on each of "n1, n2, n3" is answered by "10.244.1.10:8080"

  Rule: SVC-LOADBALANCER-ON-NODEPORT — a LoadBalancer Service builds on NodePort; a cloud load balancer forwards to it
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: LoadBalancer builds on NodePort: a cloud API call creates an external load balancer that
      forwards to the NodePort. (By default; upstream spec.allocateLoadBalancerNodePorts false lets a
      provider skip the node ports.) The load balancer itself is the cloud-controller-manager's
      (features/cloud/); here, the NodePort it builds on.
    Quote: "**LoadBalancer**：在 NodePort 基础上，调用云厂商 API 创建外部负载均衡器，将流量转发到 NodePort。"

    @requires:kube.api
    Scenario: a LoadBalancer Service gets a clusterIP and a nodePort
      When I create a Service "web" of type LoadBalancer port 80
      Then Service "web" has a clusterIP and a nodePort between 30000 and 32767

    @requires:kube.api @requires:proxy.dataplane
    Scenario: a LoadBalancer Service is reachable on its nodePort, where the cloud load balancer sends it
      Given kube-proxy on nodes "n1" and "n2"
      When I create a Service "web" of type LoadBalancer port 80
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 80
      Then a connection from outside to the nodePort of Service "web" on each of "n1, n2" is answered by "10.244.1.10:80"

  Rule: SVC-AFFINITY-TIMEOUT — ClientIP affinity lasts sessionAffinityConfig.clientIP.timeoutSeconds, 10800 s by default
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: Implied by the table's session-affinity row: a client stays on its backend for a while,
      not for ever. Upstream: spec.sessionAffinityConfig.clientIP.timeoutSeconds, default 10800 (3 h),
      valid from 1 to 86400 (pkg/apis/core/v1/defaults.go; pkg/apis/core/validation,
      validateClientIPAffinityConfig; kubernetes/website virtual-ips.md § Session stickiness timeout).

    @requires:kube.api
    Scenario: a ClientIP Service without a timeout gets 10800; 0 is refused
      When I create a Service "web" on port 80 with sessionAffinity "ClientIP"
      Then Service "web" has sessionAffinityConfig.clientIP.timeoutSeconds 10800
      When I create a Service "zero" on port 80 with sessionAffinity "ClientIP" and timeoutSeconds 0
      Then the create answer is 422 Invalid with a cause on field "spec.sessionAffinityConfig.clientIP.timeoutSeconds" saying "must be greater than 0 and less than 86400"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: a 60-second timeout is the recent match's --seconds
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with sessionAffinity "ClientIP" timeoutSeconds 60 and 2 ready endpoints
      Then the KUBE-SVC chain of Service "web" has 2 rules with options "-m recent --rcheck --seconds 60 --reap" naming a KUBE-SEP chain

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables @requires:clock.virtual
    Scenario: after the timeout passes without a connection, the client's next backend is drawn again
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with sessionAffinity "ClientIP" timeoutSeconds 60 and 3 ready endpoints
      When one client opens 1 new connection to Service "web" every 61 seconds, 20 times
      Then those connections were answered by more than one endpoint
      When one client opens 1 new connection to Service "web" every 30 seconds, 20 times
      Then those connections were answered by one endpoint

  Rule: PROXY-EXT-LOCAL — externalTrafficPolicy Local sends outside traffic only to the node's own endpoints and keeps the client address
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: Implied by NodePort "reachable at NodeIP:NodePort on every node": with
      externalTrafficPolicy Local a node forwards outside traffic only to endpoints on itself,
      without masquerading, and drops it when it has none. Upstream: KUBE-EXT-* sends outside
      sources to KUBE-SVL-* (local endpoints only), and a node without local endpoints drops
      (pkg/proxy/iptables/proxier.go; kubernetes/website virtual-ips.md § Traffic policies).

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: the NodePort jumps to a KUBE-EXT chain that sends outside traffic to KUBE-SVL
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" of type NodePort port 80 targetPort 8080 with externalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" and "10.244.2.10" on node "n2" on port 8080
      Then within 10 seconds chain "KUBE-NODEPORTS" of the nat table of node "n1" jumps to a chain named like "KUBE-EXT-*"
      And that KUBE-EXT chain jumps to a chain named like "KUBE-SVL-*"
      And that KUBE-SVL chain jumps to exactly 1 chain named like "KUBE-SEP-*"

    @requires:kube.api @requires:proxy.dataplane
    Scenario: outside clients reach only the node's own endpoint, and nothing on a node without one
      Given kube-proxy on nodes "n1", "n2" and "n3"
      And a Service "web" of type NodePort port 80 targetPort 8080 with externalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" and "10.244.2.10" on node "n2" on port 8080
      When 50 outside clients connect to node "n1" on the nodePort of Service "web"
      Then every connection was answered by "10.244.1.10:8080"
      And no connection was masqueraded
      When 50 outside clients connect to node "n3" on the nodePort of Service "web"
      Then every connection was dropped

    @requires:kube.api @requires:proxy.dataplane
    Scenario: pods and the node itself reach every endpoint through a Local NodePort; only the node's own connections are masqueraded
      Given kube-proxy on nodes "n1", "n2" and "n3"
      And a Service "web" of type NodePort port 80 targetPort 8080 with externalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" and "10.244.2.10" on node "n2" on port 8080
      When a pod on node "n3" opens 40 new connections to the nodePort of Service "web" on its node
      Then every connection was answered by "10.244.1.10:8080" or "10.244.2.10:8080"
      And both "10.244.1.10:8080" and "10.244.2.10:8080" received at least 1 connection
      And no connection was masqueraded
      When a process on node "n3" opens 40 new connections to the nodePort of Service "web" on its node
      Then every connection was answered by "10.244.1.10:8080" or "10.244.2.10:8080"
      And both "10.244.1.10:8080" and "10.244.2.10:8080" received at least 1 connection
      And every connection was masqueraded

    @requires:kube.api @requires:proxy.dataplane
    Scenario: with internalTrafficPolicy Local as well, pods still reach every endpoint through the Local NodePort
      # The short circuit for pods goes to the cluster-wide chain, which the Service keeps while it
      # takes outside traffic, whatever its internal policy (kubernetes/kubernetes pkg/proxy/types
      # UsesClusterEndpoints: "Even if the external traffic policy is Local, we need Cluster
      # endpoints to implement short circuiting").
      Given kube-proxy on nodes "n1", "n2" and "n3"
      And a Service "web" of type NodePort port 80 targetPort 8080 with externalTrafficPolicy "Local" and internalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" and "10.244.2.10" on node "n2" on port 8080
      When a pod on node "n1" opens 40 new connections to the nodePort of Service "web" on its node
      Then every connection was answered by "10.244.1.10:8080" or "10.244.2.10:8080"
      And both "10.244.1.10:8080" and "10.244.2.10:8080" received at least 1 connection
      And no connection was masqueraded

  Rule: PROXY-INT-LOCAL — internalTrafficPolicy Local keeps ClusterIP traffic on the client's node
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Implied by "ServiceIP:Port is forwarded to a backend Pod": with internalTrafficPolicy
      Local, only endpoints on the client's own node are used, and traffic is dropped on a node
      that has none. Upstream: kubernetes/website docs/concepts/services-networking/service-traffic-policy.md;
      pkg/proxy/topology.go CategorizeEndpoints.

    @requires:kube.api @requires:proxy.dataplane
    Scenario: pods on each node reach only their own node's endpoint; a node without one drops
      Given kube-proxy on nodes "n1", "n2" and "n3"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080 and internalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" and "10.244.2.10" on node "n2" on port 8080
      When I open 50 new connections to "10.96.0.50:80" from a pod on node "n1"
      Then every connection was answered by "10.244.1.10:8080"
      When I open 50 new connections to "10.96.0.50:80" from a pod on node "n2"
      Then every connection was answered by "10.244.2.10:8080"
      When I open 10 new connections to "10.96.0.50:80" from a pod on node "n3"
      Then every connection was dropped

    @requires:kube.api @requires:proxy.dataplane
    Scenario: the policy is the ClusterIP's: outside clients of the Service's NodePort still reach an endpoint on another node
      # internalTrafficPolicy governs traffic from internal sources to the ClusterIP; a NodePort
      # follows externalTrafficPolicy, Cluster by default (kubernetes/website
      # docs/reference/networking/virtual-ips.md § Traffic policies; pkg/proxy/iptables/proxier.go
      # writes KUBE-SVC for the external traffic chain whatever the internal policy).
      Given kube-proxy on nodes "n1" and "n3"
      And a Service "web" of type NodePort port 80 targetPort 8080 with internalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      When 10 outside clients connect to node "n3" on the nodePort of Service "web"
      Then every connection was answered by "10.244.1.10:8080"
      And every connection was masqueraded
      When I open 10 new connections to the clusterIP of Service "web" from a pod on node "n3"
      Then every connection was dropped

    @requires:kube.api @requires:proxy.dataplane
    Scenario Outline: in <mode> mode the node itself reaching an internalTrafficPolicy Local ClusterIP is masqueraded; a pod is not
      # The policy chooses the endpoints, not who is masqueraded: upstream writes the off-cluster
      # masquerade rule into the internal traffic chain whichever it is — KUBE-SVL-* for Local
      # (kubernetes/kubernetes pkg/proxy/iptables/proxier.go and pkg/proxy/nftables/proxier.go,
      # "Set up internal traffic handling"), so the reply to a node-local client still comes back.
      Given kube-proxy in <mode> mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080 and internalTrafficPolicy "Local"
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" and "10.244.2.10" on node "n2" on port 8080
      When I open 10 new connections to "10.96.0.50:80" from a pod on node "n1"
      Then every connection was answered by "10.244.1.10:8080"
      And no connection was masqueraded
      When I open 10 new connections to Service "web" from node "n1"
      Then every connection was answered by "10.244.1.10:8080"
      And every connection was masqueraded

      @requires:proxy.iptables
      Examples:
        | mode     |
        | iptables |

      @requires:proxy.nftables
      Examples:
        | mode     |
        | nftables |

  Rule: PROXY-REJECT-NO-ENDPOINTS — a connection to a Service without endpoints is rejected at once
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Implied by "forwarded to a backend Pod": when there is none, the client learns it at
      once instead of timing out. Upstream: the iptables filter table REJECTs the ClusterIP
      ("has no endpoints", KUBE-SERVICES) and NodePorts (KUBE-EXTERNAL-SERVICES); nftables mode
      sends them through the no-endpoint-services map to a reject (pkg/proxy/iptables/proxier.go,
      pkg/proxy/nftables/proxier.go).

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: the filter table rejects a Service without endpoints, and the nat table has no chain for it
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" of type NodePort with nodePort 30080 port 80 targetPort 8080
      Then within 10 seconds chain "KUBE-SERVICES" of the filter table of node "n1" has a rule rejecting the clusterIP of Service "web" port 80
      And chain "KUBE-EXTERNAL-SERVICES" of the filter table of node "n1" has a rule with options "-p tcp -m tcp --dport 30080 -j REJECT"
      And the nat table of node "n1" has no chain named like "KUBE-SVC-*"

    @requires:kube.api @requires:proxy.dataplane
    Scenario Outline: in <mode> mode a connection to a Service without endpoints is rejected, and accepted once it has one
      Given kube-proxy in <mode> mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      When I open 1 new connection to "10.96.0.50:80" from a pod on node "n1"
      Then every connection was rejected
      When an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on port 8080 is written
      And I open 1 new connection to "10.96.0.50:80" from a pod on node "n1" once the proxy has synced
      Then every connection was answered by "10.244.1.10:8080"

      @requires:proxy.iptables
      Examples:
        | mode     |
        | iptables |

      @requires:proxy.nftables
      Examples:
        | mode     |
        | nftables |

      @requires:proxy.ipvs
      Examples:
        | mode     |
        | IPVS     |

    @requires:kube.api @requires:proxy.dataplane
    Scenario: the NodePort of a Service without endpoints refuses outside clients, and its ClusterIP refuses the node itself
      Given kube-proxy on nodes "n1"
      And a Service "web" of type NodePort with nodePort 30080 port 80 targetPort 8080
      When 3 outside clients connect to node "n1" on the nodePort of Service "web"
      Then every connection was rejected
      When I open 3 new connections to Service "web" from node "n1"
      Then every connection was rejected

  Rule: PROXY-TERMINATING-FALLBACK — with no ready endpoint, traffic goes to serving terminating endpoints
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Implied by a rolling update never leaving a Service without backends: when every endpoint
      is terminating, kube-proxy keeps sending new connections to those still serving, and stops as
      soon as a ready endpoint exists. Upstream: KEP-1669 ProxyTerminatingEndpoints, GA in v1.28
      (pkg/proxy/topology.go CategorizeEndpoints).

    @requires:kube.api @requires:proxy.dataplane
    Scenario: terminating serving endpoints take traffic only while nothing is ready
      Given kube-proxy on nodes "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with serving terminating endpoints "10.244.1.10" and "10.244.1.11" on port 8080
      When I open 50 new connections to "10.96.0.50:80" from a pod on node "n1"
      Then every connection was answered by "10.244.1.10:8080" or "10.244.1.11:8080"
      When the EndpointSlice of Service "web" also lists ready endpoint "10.244.1.12" on port 8080
      And I open 50 new connections to "10.96.0.50:80" from a pod on node "n1" once the proxy has synced
      Then every connection was answered by "10.244.1.12:8080"

  Rule: PROXY-MASQUERADE-OFF-CLUSTER — a connection to a Service from outside the pod network is masqueraded; a pod's keeps its address
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Implied by "ServiceIP:Port is forwarded to a backend Pod": the backend's reply must
      come back through the node that rewrote the destination, so a connection from a client the
      pod network does not route back to (an outside host, a process on the node) leaves the node
      with the node's address as its source; a pod's connection keeps its own address. Upstream:
      KUBE-SVC-* marks traffic to the ClusterIP from outside --cluster-cidr with KUBE-MARK-MASQ
      (mark 0x4000), KUBE-EXT-* marks NodePort traffic, and KUBE-POSTROUTING masquerades exactly
      the marked packets (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, syncProxyRules;
      nftables mode: mark-for-masquerade and masquerading, pkg/proxy/nftables/proxier.go).

    @requires:kube.api @requires:proxy.dataplane
    Scenario Outline: in <mode> mode pods keep their address; outside clients and the node itself are masqueraded
      Given kube-proxy in <mode> mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      When I open 10 new connections to "10.96.0.50:80" from a pod on node "n1"
      Then every connection was answered by "10.244.1.10:8080"
      And no connection was masqueraded
      When I open 10 new connections to Service "web"
      Then every connection was answered by "10.244.1.10:8080"
      And every connection was masqueraded
      When I open 10 new connections to Service "web" from node "n1"
      Then every connection was answered by "10.244.1.10:8080"
      And every connection was masqueraded

      @requires:proxy.iptables
      Examples:
        | mode     |
        | iptables |

      @requires:proxy.nftables
      Examples:
        | mode     |
        | nftables |

    @requires:kube.api @requires:proxy.dataplane
    Scenario Outline: in <mode> mode a pod reaching itself through its Service is masqueraded; another pod is not
      # Hairpin: a backend whose connection to its Service lands on itself would see a packet from
      # its own address and answer itself directly, past the node that rewrote the destination; the
      # endpoint's chain masquerades a source equal to the endpoint ("-s 10.244.1.10/32 -j
      # KUBE-MARK-MASQ"; kubernetes/kubernetes pkg/proxy/iptables/proxier.go, "Handle traffic that
      # loops back to the originator with SNAT"; nftables: pkg/proxy/nftables/proxier.go).
      Given kube-proxy in <mode> mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on node "n1" on port 8080
      When the pod "10.244.1.10" on node "n1" opens 5 new connections to "10.96.0.50:80"
      Then every connection was answered by "10.244.1.10:8080"
      And every connection was masqueraded
      When I open 5 new connections to "10.96.0.50:80" from a pod on node "n1"
      Then every connection was answered by "10.244.1.10:8080"
      And no connection was masqueraded

      @requires:proxy.iptables
      Examples:
        | mode     |
        | iptables |

      @requires:proxy.nftables
      Examples:
        | mode     |
        | nftables |

    @requires:kube.api @requires:proxy.dataplane
    Scenario: outside clients of a NodePort are masqueraded towards an endpoint on another node
      Given kube-proxy on nodes "n1" and "n2"
      And a Service "web" of type NodePort with nodePort 30080 port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.2.10" on node "n2" on port 8080
      When 10 outside clients connect to node "n1" on the nodePort of Service "web"
      Then every connection was answered by "10.244.2.10:8080"
      And every connection was masqueraded

