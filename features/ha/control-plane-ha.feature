@component:ha
Feature: High availability — several masters, one leader per controller
  Source: 000_1662d8c5cea2447f.txt § 高可用架构

  Production clusters run several masters behind a load balancer to remove single points of
  failure. Each control-plane component has its own mechanism: API servers are stateless copies
  behind the load balancer, etcd relies on Raft, and the scheduler and controller manager run on
  every master but act only while they hold a Lease (leader election).

  Lease timings in the scenarios are upstream's defaults for kube-scheduler and
  kube-controller-manager: --leader-elect-lease-duration 15s, --leader-elect-renew-deadline 10s,
  --leader-elect-retry-period 2s (k8s.io/component-base config, LeaderElectionConfiguration
  defaults), with Leases "kube-scheduler" and "kube-controller-manager" in namespace kube-system.

  Rule: HA-MULTI-MASTER — with several masters behind a load balancer, losing one master does not stop the cluster
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 多 Master 部署
    Claim: Production deploys several master nodes (each running API server, scheduler and
      controller manager) behind a load balancer that workers and clients use, removing the single
      point of failure.
    Quote: "生产环境需要部署多 Master 节点以消除单点故障。"

    # Stacked masters: m1's etcd member dies with it, as on a kubeadm stacked control plane.
    @requires:kube.api @requires:cluster.ha @requires:cluster.scheduler @requires:controllers.deployment @requires:controllers.nodelifecycle @requires:kubelet @requires:clock.virtual @topology:stacked
    Scenario: killing the master that holds both leases leaves nodes Ready and new Deployments served
      Given an HA cluster with masters "m1", "m2", "m3" behind a load balancer and worker nodes "w1", "w2"
      And master "m1" holds the leases "kube-system/kube-scheduler" and "kube-system/kube-controller-manager"
      When master "m1" is killed
      And I create the web Deployment with 2 replicas through the load balancer
      Then within 60 seconds Deployment "web" has status.availableReplicas 2
      And nodes "w1" and "w2" stayed Ready throughout

  Rule: HA-APISERVER-STATELESS — API servers are stateless; any instance behind the load balancer serves the same state
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-apiserver (was OVERVIEW-APISERVER-HORIZONTAL; seed 003 makes the same claim there)
    Claim: The API server is stateless and scales horizontally: several instances behind a load
      balancer, each serving the state kept in etcd — reads, writes and watches alike, so a
      resourceVersion from one instance is good on any other.
    Quote: "**API Server** | 多实例 + 负载均衡 | 无状态组件，可水平扩展"

    @requires:kube.api @requires:cluster.ha @topology:external
    Scenario: an object written through one API server is read through another, at the same resourceVersion
      Given an HA cluster with API servers on masters "m1", "m2" and "m3"
      When I create ConfigMap "cfg" through the API server on "m1"
      Then a quorum read of ConfigMap "cfg" through the API server on "m2" returns the same resourceVersion and data
      When machine "m1" is killed
      Then updating ConfigMap "cfg" through the API server on "m3" succeeds

    @requires:kube.api @requires:kube.watch @requires:cluster.ha @topology:external
    Scenario: a watch whose API server dies resumes on another from its last resourceVersion, losing and repeating nothing
      Given an HA cluster with API servers on masters "m1", "m2" and "m3"
      When I watch ConfigMaps through the API server on "m1"
      And I create ConfigMaps "a" and "b" through the load balancer
      And machine "m1" is killed
      And I create ConfigMap "c" through the load balancer
      And I resume the watch through the API server on "m2" from the last resourceVersion it delivered
      And I create ConfigMap "d" through the load balancer
      Then the watch events, before and after the resume, are exactly ADDED "a", "b", "c", "d" in order

  Rule: HA-ETCD-TOLERANCE — etcd stays writable while a majority of its members is up
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: etcd gets HA from Raft consensus; a 3- or 5-member cluster tolerates (n−1)/2 member
      failures (integer division: 1 of 3, 2 of 5), because a write is acknowledged only once a
      majority has it. With fewer members up, writes are not acknowledged (one may still commit
      later, once a majority is back). The same arithmetic as ETCD-SIZE-3-TOLERATES-1 and
      ETCD-SIZE-5-TOLERATES-2, seen from the HA section.
    Quote: "**etcd** | Raft 共识协议 | 3/5 节点集群，容忍 (n-1)/2 故障"

    @requires:kv @requires:kv.members
    Scenario: a 3-member cluster keeps writing with 1 member down and stops acknowledging with 2 down
      Given a 3-member store
      When the leader is killed
      Then a put of key "/k" succeeds within 10 s
      When a follower is killed
      Then a put of key "/k2" does not succeed within 10 s

    @requires:kv @requires:kv.members @requires:kv.members.5 @members:5
    Scenario: a 5-member cluster keeps writing with 2 members down and stops acknowledging with 3 down
      Given a 5-member store
      When 2 followers are killed
      Then a put of key "/k" succeeds within 10 s
      When the leader is killed
      Then a put of key "/k2" does not succeed within 10 s

  Rule: HA-SCHEDULER-LEADER — several schedulers run, only the leader schedules
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: The scheduler runs as several instances with leader election; only the leader schedules.
    Quote: "**Scheduler** | Leader Election | 多实例运行，仅 Leader 执行调度"

    # Every instance authenticates as system:kube-scheduler, so the audit trail's user cannot tell
    # them apart; each process's own rest_client_requests_total (its writes) can.
    @requires:kube.api @requires:cluster.ha @requires:cluster.scheduler @requires:clock.virtual
    Scenario: only the instance named in the scheduler lease binds pods
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And an HA cluster with schedulers "m1", "m2" and "m3" starting at the same time
      When I create 20 pods with no node
      Then within 20 seconds all 20 pods are bound
      And only the scheduler named in lease "kube-system/kube-scheduler" made API writes besides leader election

    @requires:kube.api @requires:cluster.ha @requires:cluster.scheduler @requires:clock.virtual
    Scenario: after the leading scheduler is killed, a standby takes the lease and schedules
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And an HA cluster where scheduler "m1" holds lease "kube-system/kube-scheduler" and "m2" and "m3" are standing by
      When scheduler "m1" is killed
      And I create 5 pods with no node
      Then within 40 seconds all 5 pods are bound
      And lease "kube-system/kube-scheduler" has holderIdentity naming "m2" or "m3"
      And only the scheduler named in lease "kube-system/kube-scheduler" made API writes besides leader election, among "m1", "m2" and "m3"

  Rule: HA-CONTROLLER-MANAGER-LEADER — several controller managers run, only the leader runs control loops
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: The controller manager runs as several instances with leader election; only the leader
      runs the control loops.
    Quote: "**Controller Manager** | Leader Election | 多实例运行，仅 Leader 执行控制循环"

    @requires:kube.api @requires:cluster.ha @requires:controllers.serviceaccount @requires:clock.virtual
    Scenario: only the instance holding the lease writes: new namespaces get their ServiceAccount from it alone
      Given an HA cluster with controller managers "c1", "c2" and "c3" starting at the same time
      When 5 s of virtual time pass
      And I create namespaces "ha-a", "ha-b" and "ha-c"
      Then within 20 seconds each of namespaces "ha-a", "ha-b" and "ha-c" has ServiceAccount "default"
      And only the controller manager named in lease "kube-system/kube-controller-manager" made API writes besides leader election

    @requires:kube.api @requires:cluster.ha @requires:controllers.serviceaccount @requires:clock.virtual
    Scenario: after the leader is killed, the new leader runs the control loops
      Given an HA cluster where controller manager "c1" holds lease "kube-system/kube-controller-manager" and "c2", "c3" are standing by
      When controller manager "c1" is killed
      And 25 s of virtual time pass
      And I create namespaces "ha-d"
      Then within 20 seconds each of namespaces "ha-d" has ServiceAccount "default"
      And only the controller manager named in lease "kube-system/kube-controller-manager" made API writes besides leader election, among "c2" and "c3"

  Rule: LEASE-ACQUIRE — each instance tries to take the Lease; the one that succeeds is leader
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: Scheduler and controller manager use a Kubernetes Lease object for leader election; each
      instance tries to acquire the Lease at start-up and the one that does becomes leader.
    Quote: "每个实例启动时尝试获取 Lease，获取成功者成为 Leader"

    @requires:kube.api @requires:cluster.ha @requires:clock.virtual
    Scenario: three controller managers start; exactly one holds the lease and the others keep trying
      Given an HA cluster with controller managers "c1", "c2" and "c3" starting at the same time
      When 5 s of virtual time pass
      Then lease "kube-system/kube-controller-manager" has a holderIdentity naming exactly one of "c1", "c2", "c3"
      And that lease has spec.leaseDurationSeconds 15
      And exactly one controller manager instance reports itself leader, the one the lease names

    @requires:kube.api
    Scenario: two candidates read the same Lease; only the first update wins, the other gets 409 Conflict
      When candidate "a" creates Lease "election" in the scenario's namespace naming itself, for 15 seconds
      And candidates "b" and "c" both read Lease "election"
      And candidate "b" updates it to name itself
      And candidate "c" updates it to name itself with the resourceVersion it read
      Then the update by "b" succeeds and the update by "c" is refused with 409 Conflict
      And Lease "election" names "b" as its holder

  Rule: LEASE-RENEW — the leader renews its Lease periodically
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: The leader keeps its leadership by renewing the Lease at regular intervals (client-go:
      every retryPeriod, 2 s by default).
    Quote: "获取成功者成为 Leader 并定期续租"

    @requires:kube.api @requires:kube.watch @requires:cluster.ha @requires:clock.virtual
    Scenario: renewTime advances every retry period while the holder stays the same
      Given an HA cluster where controller manager "c1" holds lease "kube-system/kube-controller-manager" and "c2", "c3" are standing by
      When 60 s of virtual time pass
      Then lease "kube-system/kube-controller-manager" still has holderIdentity naming "c1"
      And its spec.renewTime was updated at least 25 times, never more than 10 seconds apart
      And its spec.leaseTransitions did not change

  Rule: LEASE-EXPIRY-TAKEOVER — when the leader fails, another instance takes over after the Lease expires, not before
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: After the leader fails, the other instances compete again once the Lease has expired;
      none takes over while the Lease is still valid. With client-go's timing (leaseDuration 15 s,
      renewDeadline 10 s, retryPeriod 2 s, tries jittered by up to 1.2 × retryPeriod) a standby
      counts the 15 s from when *it* last saw the Lease change, so it takes over between 15 s and
      about 24 s after the last renewal; and a leader that cannot renew stops leading
      retryPeriod + renewDeadline = 12 s after its last renewal, before anyone can take over.
    Quote: "Leader 故障后，其他实例在 Lease 过期后重新竞选。"

    @requires:kube.api @requires:kube.watch @requires:cluster.ha @requires:clock.virtual
    Scenario: a frozen leader is replaced between 15 and about 24 seconds after its last renewal
      Given an HA cluster where controller manager "c1" holds lease "kube-system/kube-controller-manager" and "c2", "c3" are standing by
      When controller manager "c1" freezes right after renewing
      And 14 s of virtual time pass
      Then lease "kube-system/kube-controller-manager" still has holderIdentity naming "c1"
      When 11 s of virtual time pass
      Then lease "kube-system/kube-controller-manager" has holderIdentity naming "c2" or "c3"
      And its spec.leaseTransitions increased by 1
      And the takeover's spec.acquireTime is between 15 and 24 seconds after the last renewTime of "c1"

    @requires:kube.api @requires:cluster.ha @requires:clock.virtual
    Scenario: a leader that cannot renew within the renew deadline stops acting as leader
      Given an HA cluster where controller manager "c1" holds lease "kube-system/kube-controller-manager"
      When controller manager "c1" loses its connection to the API server right after renewing
      And 10 s of virtual time pass
      Then controller manager "c1" still reports itself leader
      When 3 s of virtual time pass
      Then controller manager "c1" no longer reports itself leader

    @requires:kube.api @requires:kube.watch @requires:cluster.ha @requires:clock.virtual
    Scenario: a standby that starts after the leader froze waits a full lease duration from its own first look
      Given an HA cluster where controller manager "c1" holds lease "kube-system/kube-controller-manager"
      When controller manager "c1" freezes right after renewing
      And 10 s of virtual time pass
      And controller manager "c2" starts
      And 10 s of virtual time pass
      Then lease "kube-system/kube-controller-manager" still has holderIdentity naming "c1"
      When 10 s of virtual time pass
      Then lease "kube-system/kube-controller-manager" has holderIdentity naming "c2"
