@component:dns
Feature: Service discovery — a Service's DNS name leads to it
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
  Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 最佳实践

  The notes call a Service the cluster's abstraction for "service discovery and load balancing"
  (服务发现与负载均衡) and name CoreDNS as a critical system component (its priority is
  PRACTICE-PRIORITY-PREEMPTION in practices/). kube-proxy does the load balancing (proxy/); the
  discovery half is the cluster DNS: CoreDNS with its `kubernetes` plugin (kube-dns before it)
  watches Services and EndpointSlices through the API server and answers for the names the
  Kubernetes DNS-Based Service Discovery specification defines (kubernetes/dns
  docs/specification.md). The Rules state what that specification and the plugin's README
  (coredns/coredns plugin/kubernetes/README.md) say a client sees.

  The steps ask the cluster's DNS server over UDP with a real resolver (Node's c-ares), as a pod
  would through its resolv.conf, in the cluster domain `cluster.local` (kubelet's default
  --cluster-domain); `{ns}` is the scenario's namespace. Endpoints are written as EndpointSlices of
  Services without a selector, which CoreDNS reads like the EndpointSlice controller's.

  Rule: DNS-SERVICE-A — a Service's name <svc>.<ns>.svc.<zone> resolves to its ClusterIP, and stops resolving when the Service goes
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: A Service is the cluster's service-discovery abstraction with a stable virtual IP: a client
      finds it by name. The cluster DNS answers `<service>.<ns>.svc.<zone>` A with the ClusterIP
      (specification 2.3.1), from what it watches: a deleted Service's name no longer exists.
    Quote: "Service 是 Kubernetes 提供的**服务发现与负载均衡**抽象。" / "分配一个稳定的虚拟 IP（ClusterIP）"

    @requires:kube.api @requires:cluster.dns
    Scenario: the Service's name answers its ClusterIP until the Service is deleted
      Given a Service "web" with ports "http" 80 and "metrics" 9090
      Then within 10 seconds a query for A "web.{ns}.svc.cluster.local" answers the clusterIP of Service "web"
      And within 10 seconds a query for A "web.kube-system.svc.cluster.local" answers NXDOMAIN
      When Service "web" is deleted
      Then within 10 seconds a query for A "web.{ns}.svc.cluster.local" answers NXDOMAIN

  Rule: DNS-NODATA-NOT-NXDOMAIN — a name that exists but has no record of the asked type answers NOERROR with no records; a name that does not exist answers NXDOMAIN
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Resolving a Service by name depends on the DNS telling "no such name" (NXDOMAIN) apart
      from "no record of this type" (NOERROR, empty answer: NODATA, RFC 2308). An IPv4 Service
      asked for AAAA is NODATA — a resolver trying AAAA then A must not conclude the name is
      gone (coredns plugin/backend_lookup.go answers NODATA with the SOA) — while a Service that
      does not exist is NXDOMAIN.
    Quote: "Service 是 Kubernetes 提供的**服务发现与负载均衡**抽象。"

    @requires:kube.api @requires:cluster.dns
    Scenario: AAAA for an IPv4 Service is NODATA; a missing Service is NXDOMAIN
      Given a Service "web" with ports "http" 80 and "metrics" 9090
      Then within 10 seconds a query for A "web.{ns}.svc.cluster.local" answers the clusterIP of Service "web"
      And within 10 seconds a query for AAAA "web.{ns}.svc.cluster.local" answers NODATA
      And within 10 seconds a query for A "missing.{ns}.svc.cluster.local" answers NXDOMAIN

  Rule: DNS-HEADLESS-READY-ENDPOINTS — a headless Service's name resolves to the addresses of its ready endpoints, and is NXDOMAIN when none is ready
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: A Service with no virtual IP (clusterIP None, headless) is discovered by its backends
      directly: its name answers an A record per *ready* endpoint (specification 2.4.1); endpoints
      that are not ready are left out, and with none ready the answer is NXDOMAIN ("If there are
      no ready endpoints for the headless Service, the answer should be NXDOMAIN").
    Quote: "一个 Service 通过 Label Selector 匹配一组后端 Pod"

    @requires:kube.api @requires:cluster.dns
    Scenario: only the ready endpoints are answered, and none ready is NXDOMAIN
      Given a headless Service "db" with port "pg" 5432
      And an EndpointSlice for Service "db" on port "pg" 5432 with endpoints "10.244.7.1" ready, "10.244.7.2" ready and "10.244.7.3" not ready
      Then within 10 seconds a query for A "db.{ns}.svc.cluster.local" answers exactly "10.244.7.1, 10.244.7.2"
      When the EndpointSlice of Service "db" is rewritten with endpoints "10.244.7.1" not ready, "10.244.7.2" not ready and "10.244.7.3" not ready
      Then within 10 seconds a query for A "db.{ns}.svc.cluster.local" answers NXDOMAIN

  Rule: DNS-SRV-NAMED-PORTS — _<port>._<proto>.<svc>.<ns>.svc.<zone> SRV gives a named port's number and the name to reach it; a port the Service does not name does not exist
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / Service 实现原理
    Claim: Clients discover a Service's ports by name too: for each named port an SRV record
      `_<port>._<proto>.<service>.<ns>.svc.<zone>` carries the Service's port number and the
      Service's name as target (specification 2.3.2); for a headless Service one record per ready
      endpoint, targeting `<hostname>.<service>...` (the endpoint's dashed IP when it has no
      hostname) with the endpoint's port, as CoreDNS reads it from the EndpointSlice (2.4.2).
      A port name the Service does not have is NXDOMAIN.
    Quote: "当客户端访问 `ServiceIP:Port` 时，kube-proxy 负责将流量转发到后端 Pod。"

    @requires:kube.api @requires:cluster.dns
    Scenario: each named port of a ClusterIP Service has its SRV record with the Service port
      Given a Service "web" with ports "http" 80 and "metrics" 9090
      Then within 10 seconds a query for SRV "_http._tcp.web.{ns}.svc.cluster.local" answers exactly "80 web.{ns}.svc.cluster.local"
      And within 10 seconds a query for SRV "_metrics._tcp.web.{ns}.svc.cluster.local" answers exactly "9090 web.{ns}.svc.cluster.local"
      And within 10 seconds a query for SRV "_grpc._tcp.web.{ns}.svc.cluster.local" answers NXDOMAIN

    @requires:kube.api @requires:cluster.dns
    Scenario: a headless Service's SRV records name each ready endpoint
      Given a headless Service "db" with port "pg" 5432
      And an EndpointSlice for Service "db" on port "pg" 5432 with endpoints "10.244.8.1" ready, "10.244.8.2" ready and "10.244.8.3" not ready
      Then within 10 seconds a query for SRV "_pg._tcp.db.{ns}.svc.cluster.local" answers exactly "5432 10-244-8-1.db.{ns}.svc.cluster.local, 5432 10-244-8-2.db.{ns}.svc.cluster.local"
      And within 10 seconds a query for A "10-244-8-2.db.{ns}.svc.cluster.local" answers exactly "10.244.8.2"
