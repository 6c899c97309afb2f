@component:proxy
Feature: kube-proxy — iptables mode, IPVS mode and nftables mode
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式

  The notes compare the two classic proxy modes row by row: implementation, rule count,
  performance, load-balancing algorithm, connection tracking, session affinity, kernel needs and
  fit; then draw each mode's forwarding path and mention the newer nftables mode. Each row is a
  Rule per mode where a scenario can check it.

  Rules are read back as an operator reads them on a node (`iptables-save`, `ipvsadm -Sn`,
  `ipset list`, `nft list table ip kube-proxy`), so a real node can answer every `proxy.rules`
  scenario. Endpoints are written as EndpointSlices of Services without a selector — the API lets
  anyone do that, and kube-proxy treats them like the EndpointSlice controller's. Scenarios about
  where connections go need `proxy.dataplane` (the reference evaluates its rules in a model of
  the kernel's tables; e2e/proxy-kernel.test.ts loads the same rules into a real kernel) or
  `proxy.traffic` (real packets). This machine's kernel has no ip_vs modules: IPVS runs only in
  the reference's model, and a target on such a kernel reports `proxy.ipvs` missing. Where a
  claim is about growth (linear chains vs O(1) hash lookup), the scenarios count programmed rules.

  Three rows disagree with upstream: iptables mode does support ClientIP session affinity
  (IPT-SESSION-AFFINITY), IPVS mode still relies on conntrack (IPVS-CONNTRACK), and IPVS is no
  longer the mode for large clusters — it is deprecated since v1.35 in favour of nftables
  (PROXY-MODE-FIT, NFT-FUTURE-DEFAULT).


  Rule: IPT-DNAT-CHAINS — iptables mode implements Services with DNAT rules in iptables chains
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: In iptables mode kube-proxy implements a Service with iptables rule chains that DNAT the
      Service address to a backend.
    Quote: "**实现方式** | 使用 iptables 规则链做 DNAT"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: the nat table holds a DNAT rule per endpoint
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" and "10.244.1.11" on port 8080
      Then within 10 seconds the nat table of node "n1" has a rule "-j DNAT --to-destination 10.244.1.10:8080"
      And the nat table of node "n1" has a rule "-j DNAT --to-destination 10.244.1.11:8080"

  Rule: IPT-CHAIN-PATH — iptables mode forwards through KUBE-SERVICES → KUBE-SVC-* → KUBE-SEP-* → Pod
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: A packet enters KUBE-SERVICES, which matches the Service's ClusterIP:Port and jumps to
      the Service's KUBE-SVC-XXXX chain; that chain picks one KUBE-SEP-YYYY chain at random, and the
      KUBE-SEP chain DNATs to the backend Pod IP:Port. Upstream names the chains KUBE-SVC- and
      KUBE-SEP- plus the first 16 characters of base32(sha256(servicePortName + protocol [+ endpoint]))
      (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, portProtoHash, servicePortEndpointChainName).
    Quote: "Client → KUBE-SERVICES Chain → KUBE-SVC-XXXX (匹配 Service ClusterIP:Port) → KUBE-SEP-YYYY (DNAT 到后端 Pod IP:Port，随机选择) → Pod"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: the chain path from KUBE-SERVICES to the endpoint DNAT
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" and "10.244.1.11" on port 8080
      Then within 10 seconds chain "KUBE-SERVICES" of the nat table of node "n1" has a rule matching "-d 10.96.0.50/32 -p tcp --dport 80" that jumps to a chain named like "KUBE-SVC-*"
      And that KUBE-SVC chain is named after the hash of Service "web" port "" and protocol "tcp"
      And that KUBE-SVC chain jumps to exactly 2 chains named like "KUBE-SEP-*"
      And one of those KUBE-SEP chains has a rule "-p tcp -j DNAT --to-destination 10.244.1.10:8080"
      And the other has a rule "-p tcp -j DNAT --to-destination 10.244.1.11:8080"
      And chains "PREROUTING" and "OUTPUT" of the nat table of node "n1" jump to "KUBE-SERVICES"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: kube-proxy's chains are its own, hung from the kernel's built-in chains, and every jump lands on a declared chain
      # iptables-save prints each chain once, ":NAME POLICY [packets:bytes]": the built-in chains a
      # netfilter hook enters carry a policy, the chains kube-proxy creates carry "-". Upstream
      # declares KUBE-SERVICES, KUBE-NODEPORTS, KUBE-POSTROUTING and KUBE-MARK-MASQ (nat) and
      # KUBE-SERVICES and KUBE-EXTERNAL-SERVICES (filter) on every sync, needed or not
      # (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, syncProxyRules: "Write chain lines
      # for all the top-level chains"); iptables-restore refuses a jump to a chain it does not know.
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" on port 8080
      Then within 10 seconds the nat table of node "n1" has a rule "-j DNAT --to-destination 10.244.1.10:8080"
      And the nat table of node "n1" declares the built-in chains "PREROUTING", "INPUT", "OUTPUT" and "POSTROUTING" and kube-proxy's own chains "KUBE-SERVICES", "KUBE-NODEPORTS", "KUBE-POSTROUTING" and "KUBE-MARK-MASQ"
      And the filter table of node "n1" declares the built-in chains "INPUT", "FORWARD" and "OUTPUT" and kube-proxy's own chains "KUBE-SERVICES" and "KUBE-EXTERNAL-SERVICES"
      And every chain a rule of the nat or filter table of node "n1" jumps to is declared in its table

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario Outline: a <protocol> Service port takes the same path, matched and DNATed with its protocol
      # A Service port is ClusterIP:Port with its protocol (TCP, UDP or SCTP): KUBE-SERVICES
      # matches the protocol with the port, the chains are named after it, and the endpoint's DNAT
      # carries it — iptables refuses a DNAT to a port without -p tcp, udp, sctp or dccp
      # (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, syncProxyRules: "-p", protocol on
      # the service and endpoint rules).
      Given kube-proxy in iptables mode on node "n1"
      And a Service "<name>" with clusterIP "10.96.0.10" port <port>/<protocol> targetPort <target>
      And an EndpointSlice for Service "<name>" with ready endpoints "10.244.1.10" on port <target>/<protocol>
      Then within 10 seconds chain "KUBE-SERVICES" of the nat table of node "n1" has a rule matching "-d 10.96.0.10/32 -p <proto> --dport <port>" that jumps to a chain named like "KUBE-SVC-*"
      And that KUBE-SVC chain is named after the hash of Service "<name>" port "" and protocol "<proto>"
      And that KUBE-SVC chain jumps to exactly 1 chain named like "KUBE-SEP-*"
      And one of those KUBE-SEP chains has a rule "-p <proto> -j DNAT --to-destination 10.244.1.10:<target>"

      Examples:
        | name | protocol | proto | port  | target |
        | dns  | UDP      | udp   | 53    | 5353   |
        | ngap | SCTP     | sctp  | 38412 | 38412  |

  Rule: IPT-RULES-LINEAR — iptables rules grow linearly with Services and endpoints
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: In iptables mode the number of rules grows linearly with the number of Services and
      endpoints, and the KUBE-SERVICES chain is matched rule by rule.
    Quote: "**规则数量** | 随 Service/Endpoint 数量线性增长"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: each additional two-endpoint Service adds the same number of nat rules
      Given kube-proxy in iptables mode on node "n1"
      When I create Services "s1" to "s3", each with 2 ready endpoints, and count the nat rules after each
      Then the three increments in nat rule count are equal and greater than 0
      And chain "KUBE-SERVICES" has 3 more rules than before the Services existed

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario Outline: each additional endpoint of a <type> Service adds a KUBE-SEP chain and a rule in the KUBE-SVC chain
      # A NodePort Service's KUBE-EXT chain jumps to the same KUBE-SVC chain as its ClusterIP:
      # one spread over the endpoints, written once (kubernetes/kubernetes pkg/proxy/iptables/proxier.go).
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" of type <type> with 1 ready endpoint
      When the Service "web" grows to 5 ready endpoints
      Then the KUBE-SVC chain of Service "web" has 5 jump rules to KUBE-SEP chains
      And there are 5 KUBE-SEP chains for Service "web"

      Examples:
        | type      |
        | ClusterIP |
        | NodePort  |

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables
    Scenario: KUBE-SERVICES holds one rule per Service, tried in turn
      Given kube-proxy in iptables mode on node "n1"
      And 20 Services with 1 ready endpoint each
      Then chain "KUBE-SERVICES" of the nat table of node "n1" has a ClusterIP rule for each of the 20 Services
      And a connection to the first Service is forwarded
      And a connection to the last Service is forwarded

  Rule: IPT-RANDOM-EQUAL — iptables mode picks a backend at random with equal probability
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: The iptables load-balancing algorithm is random with equal probabilities: for n
      endpoints the k-th jump (k = 0..n-2) uses "-m statistic --mode random --probability 1/(n-k)"
      and the last is unconditional. kube-proxy writes the probability with 10 decimals
      (computeProbability, "%0.10f"); the kernel keeps it as a 31-bit fraction and iptables-save
      prints 11 decimals (0.33333333349), so the scenario compares the numbers.
    Quote: "**负载均衡算法** | 随机（概率相等）"

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: three endpoints get probabilities 1/3, 1/2 and an unconditional last jump
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with 3 ready endpoints
      Then the KUBE-SVC chain of Service "web" has, in order, jumps with probability 1/3, probability 1/2 and no statistic match

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables
    Scenario: 3000 connections spread evenly over three backends
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with 3 ready endpoints "a", "b" and "c"
      When I open 3000 new connections to Service "web"
      Then each of "a", "b" and "c" received between 850 and 1150 connections

  Rule: IPT-CONNTRACK — iptables mode relies on conntrack to keep a connection on its backend
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: iptables mode relies on the kernel's conntrack module: the backend is chosen on a
      connection's first packet and conntrack sends every later packet the same way.
    Quote: "**连接追踪** | 依赖 conntrack 模块"

    @requires:kube.api @requires:proxy.iptables @requires:proxy.traffic
    Scenario: all requests on one keep-alive connection reach the same backend
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with 3 ready endpoints
      When I send 50 HTTP requests over one keep-alive connection to Service "web"
      Then all 50 requests were answered by the same endpoint

  @erratum
  Rule: IPT-SESSION-AFFINITY — iptables mode supports ClientIP session affinity
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: The table says iptables mode does not support session persistence.
    Quote: "**会话保持** | 不支持 | 支持（Client-IP 会话亲和）"
    Upstream: iptables mode implements spec.sessionAffinity ClientIP with the `recent` match: the
      KUBE-SVC chain first checks "-m recent --name KUBE-SEP-… --rcheck --seconds <timeout> --reap"
      per endpoint, and each KUBE-SEP chain records the client with "-m recent --set"
      (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, "First write session affinity rules");
      the default timeout is 10800 s (kubernetes/website reference/networking/virtual-ips.md § Session affinity).
      iptables-save prints the options in its own order ("-m recent --rcheck --seconds 10800 --reap
      --name KUBE-SEP-… --mask 255.255.255.255 --rsource"), so the scenario matches option by option.

    @requires:kube.api @requires:proxy.rules @requires:proxy.iptables
    Scenario: a ClientIP-affinity Service gets recent-match rules with the default 10800 s timeout
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with sessionAffinity "ClientIP" and 2 ready endpoints
      Then the KUBE-SVC chain of Service "web" has 2 rules with options "-m recent --rcheck --seconds 10800 --reap --rsource" naming a KUBE-SEP chain
      And each KUBE-SEP chain of Service "web" has a rule with options "-m recent --set" naming its own chain

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables
    Scenario: one client's new connections all go to the same backend
      Given kube-proxy in iptables mode on node "n1"
      And a Service "web" with sessionAffinity "ClientIP" and 3 ready endpoints
      When one client opens 100 new connections to Service "web"
      Then all 100 connections were answered by the same endpoint

  Rule: IPT-KERNEL-STANDARD — iptables mode needs only a standard Linux kernel
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: iptables mode works on a standard Linux kernel (netfilter), without the IPVS modules.
    Quote: "**内核要求** | 标准 Linux 内核"

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.iptables
    Scenario: a node without ip_vs still forwards Service traffic in iptables mode
      Given a node "n1" whose kernel has no ip_vs module
      And kube-proxy in iptables mode on node "n1"
      And a Service "web" with 2 ready endpoints
      When I open 10 new connections to Service "web" from node "n1"
      Then all 10 connections were answered by an endpoint of Service "web"

  Rule: IPVS-KERNEL-MODULE — IPVS mode programs the kernel's IP Virtual Server
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: IPVS mode uses the kernel IPVS (IP Virtual Server) module instead of DNAT chains.
    Quote: "**实现方式** | 使用内核 IPVS（IP Virtual Server）模块"

    @requires:kube.api @requires:proxy.rules @requires:proxy.ipvs
    Scenario: a Service becomes an IPVS virtual service and its address is bound to kube-ipvs0
      Given kube-proxy in IPVS mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 and 2 ready endpoints
      Then within 10 seconds node "n1" has an IPVS virtual server "TCP 10.96.0.50:80"
      And the dummy interface "kube-ipvs0" of node "n1" carries address "10.96.0.50"
      And the nat table of node "n1" has no chain named like "KUBE-SVC-*"

  Rule: IPVS-PATH — IPVS forwards from a virtual server (ClusterIP:Port) to real servers (Pod IP:Port)
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: In IPVS mode a packet hits the IPVS virtual server for ClusterIP:Port and is sent to one
      real server, a backend Pod IP:Port, chosen by the scheduling algorithm.
    Quote: "Client → IPVS Virtual Server (Service ClusterIP:Port) → IPVS Real Server (后端 Pod IP:Port，按算法选择) → Pod"

    @requires:kube.api @requires:proxy.rules @requires:proxy.ipvs
    Scenario: the virtual server's real servers follow the ready endpoints
      Given kube-proxy in IPVS mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 targetPort 8080
      And an EndpointSlice for Service "web" with ready endpoints "10.244.1.10" and "10.244.1.11" on port 8080
      Then within 10 seconds IPVS virtual server "TCP 10.96.0.50:80" has real servers "10.244.1.10:8080, 10.244.1.11:8080"
      When the endpoint "10.244.1.11" of Service "web" becomes unready
      Then within 10 seconds IPVS virtual server "TCP 10.96.0.50:80" has real servers "10.244.1.10:8080"

  Rule: IPVS-HASH-O1 — IPVS looks Services up in a hash table; rule count does not grow per Service
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: IPVS keeps Services in a hash table, so lookup is O(1) regardless of the number of Services.
      Modelled: in IPVS mode the iptables rule count stays constant as Services are added (ClusterIPs
      go into the ipset KUBE-CLUSTER-IP), while one virtual server is added per Service port.
    Quote: "**规则数量** | 使用 Hash 表，复杂度 O(1)"

    @requires:kube.api @requires:proxy.rules @requires:proxy.ipvs
    Scenario: from 5 to 25 Services, iptables rules stay constant and virtual servers grow by 20
      Given kube-proxy in IPVS mode on node "n1"
      And 5 Services with 2 ready endpoints each
      When I count the nat rules and IPVS virtual servers of node "n1"
      And I add 20 more Services with 2 ready endpoints each
      Then the nat rule count of node "n1" is unchanged
      And node "n1" has 20 more IPVS virtual servers
      And ipset "KUBE-CLUSTER-IP" of node "n1" has 20 more entries

  @untestable
  Rule: PROXY-PERF-THRESHOLD — iptables is fine under ~1000 Services; IPVS pulls ahead above
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: iptables mode performs well below about 1000 Services; above that IPVS has a clear advantage.
    Quote: "**性能** | Service 数量 < 1000 时表现良好 | Service 数量 > 1000 时性能优势明显"
    Untestable: a performance threshold depends on hardware, kernel and traffic, and IPVS cannot run on this kernel; the structural cause is checked by IPT-RULES-LINEAR and IPVS-HASH-O1, and `npm run bench -- proxy` plots the per-lookup cost of each mode from 100 to 30,000 Services.

  Rule: IPVS-SCHEDULERS — IPVS mode offers rr, lc, dh, sh, sed and nq, with rr the default
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: IPVS mode supports several load-balancing algorithms: rr, lc, dh, sh, sed, nq. Upstream
      kube-proxy's default scheduler is rr (pkg/proxy/ipvs/proxier.go, defaultScheduler).
    Quote: "**负载均衡算法** | 支持多种：rr、lc、dh、sh、sed、nq"

    @requires:kube.api @requires:proxy.rules @requires:proxy.ipvs
    Scenario Outline: kube-proxy configured with scheduler "<configured>" programs scheduler "<programmed>"
      Given kube-proxy in IPVS mode on node "n1" with ipvs.scheduler "<configured>"
      And a Service "web" with clusterIP "10.96.0.50" port 80 and 2 ready endpoints
      Then within 10 seconds IPVS virtual server "TCP 10.96.0.50:80" uses scheduler "<programmed>"

      Examples:
        | configured | programmed |
        |            | rr         |
        | rr         | rr         |
        | lc         | lc         |
        | dh         | dh         |
        | sh         | sh         |
        | sed        | sed        |
        | nq         | nq         |

    @requires:kube.api @requires:proxy.ipvs @requires:proxy.dataplane
    Scenario: round robin alternates strictly between two backends
      Given kube-proxy in IPVS mode on node "n1" with ipvs.scheduler "rr"
      And a Service "web" with 2 ready endpoints "a" and "b"
      When I open 10 new connections to Service "web" one after another
      Then the answering endpoints alternate between "a" and "b"

    @requires:kube.api @requires:proxy.ipvs @requires:proxy.dataplane
    Scenario: source hashing keeps each client on one backend
      Given kube-proxy in IPVS mode on node "n1" with ipvs.scheduler "sh"
      And a Service "web" with 3 ready endpoints
      When 5 clients each open 10 new connections to Service "web"
      Then each client's connections were all answered by one endpoint

  @erratum
  Rule: IPVS-CONNTRACK — IPVS has its own connection table, yet kube-proxy's IPVS mode still needs conntrack
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: The table contrasts iptables "depends on conntrack" with IPVS "has its own connection
      tracking", implying IPVS mode does without conntrack.
    Quote: "**连接追踪** | 依赖 conntrack 模块 | IPVS 自带连接追踪"
    Upstream: IPVS keeps its own connection table, but kube-proxy in IPVS mode still uses iptables
      for masquerading and packet filtering, and at start-up sets the sysctl net/ipv4/vs/conntrack
      to 1 so IPVS connections are entered in conntrack (kubernetes/kubernetes
      pkg/proxy/ipvs/proxier.go, sysctlVSConnTrack and "In IPVS proxy mode, the following flags
      need to be set").

    @requires:kube.api @requires:proxy.rules @requires:proxy.ipvs
    Scenario: kube-proxy in IPVS mode turns on net.ipv4.vs.conntrack and masquerades with iptables
      When kube-proxy starts in IPVS mode on node "n1"
      Then within 10 seconds sysctl "net.ipv4.vs.conntrack" of node "n1" is 1
      And the nat table of node "n1" has a rule "-j MASQUERADE"

  Rule: IPVS-SESSION-AFFINITY — IPVS mode supports ClientIP session affinity through persistence
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: IPVS mode supports session persistence (Client-IP session affinity), programmed as a
      persistent virtual server with the Service's timeout.
    Quote: "**会话保持** | … | 支持（Client-IP 会话亲和）"

    @requires:kube.api @requires:proxy.rules @requires:proxy.ipvs
    Scenario: a ClientIP-affinity Service becomes a persistent virtual server with timeout 10800
      Given kube-proxy in IPVS mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80, sessionAffinity "ClientIP" and 2 ready endpoints
      Then within 10 seconds IPVS virtual server "TCP 10.96.0.50:80" is persistent with timeout 10800 seconds

    @requires:kube.api @requires:proxy.ipvs @requires:proxy.dataplane
    Scenario: with persistence, a client stays on its backend even under round robin
      Given kube-proxy in IPVS mode on node "n1" with ipvs.scheduler "rr"
      And a Service "web" with sessionAffinity "ClientIP" and 3 ready endpoints
      When one client opens 100 new connections to Service "web"
      Then all 100 connections were answered by the same endpoint

  Rule: IPVS-KERNEL-REQUIRED — IPVS mode needs the ip_vs kernel modules, and fails without them
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: IPVS mode requires the IPVS kernel modules (ip_vs, ip_vs_rr, ...). Upstream, since
      v1.26 kube-proxy no longer falls back to iptables: asked for IPVS on a node that cannot do it,
      it exits with an error (kubernetes/kubernetes PR #111806 "remove kube-proxy mode fallback").
    Quote: "**内核要求** | … | 需要 IPVS 内核模块（`ip_vs`、`ip_vs_rr` 等）"

    @requires:proxy.rules
    Scenario: on a kernel without ip_vs, kube-proxy asked for IPVS mode exits and programs nothing
      Given a node "n1" whose kernel has no ip_vs module
      When kube-proxy starts in IPVS mode on node "n1"
      Then within 10 seconds kube-proxy on node "n1" has exited with an error mentioning "ipvs"
      And the nat table of node "n1" has no chain named like "KUBE-*"

  @untestable @erratum
  Rule: PROXY-MODE-FIT — iptables suits small and medium clusters; IPVS, now deprecated, is no longer the answer for large ones
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: iptables mode fits small and medium clusters; IPVS mode fits large clusters with many Services.
    Quote: "**适用场景** | 中小规模集群 | 大规模集群（Service 数量多）"
    Upstream: IPVS mode is deprecated since v1.35 (KEP-5495, kubernetes/enhancements
      keps/sig-network/5495-deprecate-ipvs-mode-in-kube-proxy; kubernetes/kubernetes PR #134539,
      release note "Mark ipvs mode in kube-proxy as deprecated … Users are encouraged to move to
      nftables"; kube-proxy logs and records an IPVSDeprecation warning when started in ipvs mode).
      The KubeProxyIPVS feature gate (v1.37) is planned to default to false in v1.40 and be locked
      in v1.43, after which ipvs mode is gone (kubernetes/enhancements PR #6120). The docs now
      point large clusters to nftables mode (kubernetes/website reference/networking/virtual-ips.md).
    Untestable: sizing advice for operators, not behaviour of the proxy; the measured costs behind it are in `npm run bench -- proxy`.

  Rule: NFT-MODE — kube-proxy has an nftables mode (alpha 1.29, beta 1.31, GA 1.33)
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: Kubernetes 1.29 introduced an nftables proxy mode as the replacement for iptables.
      Upstream: alpha in v1.29, beta in v1.31, GA in v1.33 (kubernetes/enhancements
      keps/sig-network/3866-nftables-proxy/kep.yaml); its rules live in one table, "kube-proxy"
      (pkg/proxy/nftables/proxier.go).
    Quote: "Kubernetes 1.29 引入 nftables 代理模式作为 iptables 的替代。"

    @requires:kube.api @requires:proxy.rules @requires:proxy.nftables
    Scenario: a Service in nftables mode is an element of the service-ips verdict map in table "ip kube-proxy"
      Given kube-proxy in nftables mode on node "n1"
      And a Service "web" with clusterIP "10.96.0.50" port 80 and 2 ready endpoints
      Then within 10 seconds node "n1" has nft table "ip kube-proxy"
      And map "service-ips" of that table has an element for "10.96.0.50 . tcp . 80"
      And the iptables nat table of node "n1" has no chain named like "KUBE-SVC-*"

  Rule: NFT-VERDICT-MAP — nftables mode dispatches Services through one map lookup, not a rule per Service
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: nftables gives better rule-matching performance than iptables. Modelled: Service dispatch
      is a single verdict-map lookup, so adding Services adds map elements, not rules in the
      dispatch chain; endpoints are picked with "numgen random mod n".
    Quote: "nftables 是 iptables 的继任者，提供更好的规则匹配性能和更简洁的语法。"

    @requires:kube.api @requires:proxy.rules @requires:proxy.nftables
    Scenario: 20 more Services add 20 map elements and no rule to the "services" chain
      Given kube-proxy in nftables mode on node "n1"
      And 5 Services with 2 ready endpoints each
      When I count the rules of chain "services" and the elements of map "service-ips" in table "ip kube-proxy" of node "n1"
      And I add 20 more Services with 2 ready endpoints each
      Then chain "services" has the same number of rules
      And map "service-ips" has 20 more elements

    @requires:kube.api @requires:proxy.rules @requires:proxy.nftables
    Scenario: each port of a two-port Service is its own element of the service-ips map
      # The map is keyed by ClusterIP . protocol . port: one lookup dispatches every Service
      # port, so a port left out of the map is a port no packet reaches (upstream
      # pkg/proxy/nftables/proxier.go adds one serviceIPsMap element per service port).
      Given kube-proxy in nftables mode on node "n1"
      And a Service "multi" with clusterIP "10.96.0.60", ports "http" 80 and "metrics" 9090, and 2 ready endpoints
      Then within 10 seconds node "n1" has nft table "ip kube-proxy"
      And map "service-ips" of that table has an element for "10.96.0.60 . tcp . 80"
      And map "service-ips" of that table has an element for "10.96.0.60 . tcp . 9090"

    @requires:kube.api @requires:proxy.rules @requires:proxy.nftables
    Scenario: a three-endpoint Service chooses its endpoint with numgen random mod 3
      Given kube-proxy in nftables mode on node "n1"
      And a Service "web" with 3 ready endpoints
      Then the service chain of Service "web" in table "ip kube-proxy" has a rule with "numgen random mod 3 vmap" listing 3 endpoint chains

    @requires:kube.api @requires:proxy.dataplane @requires:proxy.nftables
    Scenario: 3000 connections spread evenly over three backends in nftables mode
      Given kube-proxy in nftables mode on node "n1"
      And a Service "web" with 3 ready endpoints "a", "b" and "c"
      When I open 3000 new connections to Service "web"
      Then each of "a", "b" and "c" received between 850 and 1150 connections

  @untestable @erratum
  Rule: NFT-FUTURE-DEFAULT — nftables is on its way to becoming the default mode
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kube-proxy / iptables 模式 vs IPVS 模式
    Claim: nftables mode may become the default in the future.
    Quote: "未来可能成为默认模式。"
    Upstream: no longer only a possibility: KEP-5343 (kubernetes/enhancements issue #5343) plans to
      make nftables kube-proxy's default backend, and the docs announce the change
      (kubernetes/website PR #56355, "Mention upcoming kube-proxy default mode change"); IPVS is
      deprecated in its favour (KEP-5495). As of v1.35 iptables is still the default on Linux.
    Untestable: a plan about future releases; the suite checks the nftables mode itself (NFT-MODE, NFT-VERDICT-MAP).
