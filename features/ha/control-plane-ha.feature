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

  @pending
  Rule: HA-MULTI-MASTER — with several masters behind a load balancer, losing one master does not stop the cluster
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 多 Master 部署
    Claim: Production deploys several master nodes (each running API server, scheduler and
      controller manager) behind a load balancer that workers and clients use, removing the single
      point of failure.
    Quote: "生产环境需要部署多 Master 节点以消除单点故障。"

    @requires:kube.api @requires:cluster.ha @requires:cluster.scheduler @requires:cluster.controllers @requires:kubelet
    Scenario: killing the master that holds both leases leaves nodes Ready and new Deployments served
      Given an HA cluster with masters "m1", "m2", "m3" behind a load balancer and worker nodes "w1", "w2"
      And master "m1" holds the leases "kube-system/kube-scheduler" and "kube-system/kube-controller-manager"
      When master "m1" is killed
      And I create the web Deployment with 2 replicas through the load balancer
      Then within 60 seconds Deployment "web" has status.availableReplicas 2
      And nodes "w1" and "w2" stayed Ready throughout

  @pending
  Rule: HA-APISERVER-STATELESS — API servers are stateless; any instance behind the load balancer serves the same state
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-apiserver (was OVERVIEW-APISERVER-HORIZONTAL; seed 003 makes the same claim there)
    Claim: The API server is stateless and scales horizontally: several instances behind a load
      balancer, each serving the state kept in etcd.
    Quote: "**API Server** | 多实例 + 负载均衡 | 无状态组件，可水平扩展"

    @requires:kube.api @requires:cluster.ha
    Scenario: an object written through one API server is read through another, at the same resourceVersion
      Given an HA cluster with API servers "a1", "a2" and "a3"
      When I create ConfigMap "cfg" through API server "a1"
      Then a quorum read of ConfigMap "cfg" through API server "a2" returns the same resourceVersion and data
      When API server "a1" is killed
      Then updating ConfigMap "cfg" through API server "a3" succeeds

  @pending
  Rule: HA-ETCD-TOLERANCE — an etcd cluster of n members tolerates ⌊(n−1)/2⌋ failures
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: etcd gets HA from Raft consensus; a 3- or 5-member cluster tolerates (n−1)/2 member
      failures (integer division: 1 of 3, 2 of 5), because a majority must remain.
    Quote: "**etcd** | Raft 共识协议 | 3/5 节点集群，容忍 (n-1)/2 故障"

    @requires:kv @requires:kv.members
    Scenario: a 3-member cluster keeps writing with 1 member down and stops with 2 down
      Given a replicated store with 3 members
      When 1 member is killed
      Then a put succeeds within 10 seconds
      When another member is killed
      Then a put fails within 15 seconds without being committed
      And a serializable get on the surviving member still answers

    @requires:kv @requires:kv.members @requires:kv.members.5 @members:5
    Scenario: a 5-member cluster keeps writing with 2 members down and stops with 3 down
      Given a replicated store with 5 members
      When 2 members are killed
      Then a put succeeds within 10 seconds
      When another member is killed
      Then a put fails within 15 seconds without being committed

  @pending
  Rule: HA-SCHEDULER-LEADER — several schedulers run, only the leader schedules
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: The scheduler runs as several instances with leader election; only the leader schedules.
    Quote: "**Scheduler** | Leader Election | 多实例运行，仅 Leader 执行调度"

    @requires:kube.api @requires:kube.audit @requires:cluster.ha @requires:cluster.scheduler
    Scenario: every binding comes from the instance named in the scheduler lease
      Given an HA cluster with schedulers on masters "m1", "m2" and "m3"
      When I create 20 pods with no node
      Then within 20 seconds all 20 pods are bound
      And every "pods/binding" create in the audit trail came from the scheduler instance named in lease "kube-system/kube-scheduler"

  @pending
  Rule: HA-CONTROLLER-MANAGER-LEADER — several controller managers run, only the leader runs control loops
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: The controller manager runs as several instances with leader election; only the leader
      runs the control loops.
    Quote: "**Controller Manager** | Leader Election | 多实例运行，仅 Leader 执行控制循环"

    @requires:kube.api @requires:kube.audit @requires:cluster.ha @requires:cluster.controllers
    Scenario: ReplicaSets and Pods are created only by the instance holding the lease
      Given an HA cluster with controller managers on masters "m1", "m2" and "m3"
      When I create the web Deployment with 3 replicas
      Then within 20 seconds there are exactly 3 pods labelled "app=web"
      And every ReplicaSet and Pod create in the audit trail came from the controller-manager instance named in lease "kube-system/kube-controller-manager"

  @pending
  Rule: LEASE-ACQUIRE — each instance tries to take the Lease; the one that succeeds is leader
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: Scheduler and controller manager use a Kubernetes Lease object for leader election; each
      instance tries to acquire the Lease at start-up and the one that does becomes leader.
    Quote: "每个实例启动时尝试获取 Lease，获取成功者成为 Leader"

    @requires:kube.api @requires:cluster.ha @requires:clock.virtual
    Scenario: three schedulers start; exactly one holds the lease and the others keep trying
      Given an HA cluster with schedulers "s1", "s2" and "s3" starting at the same time
      When 5 seconds pass
      Then lease "kube-system/kube-scheduler" has a holderIdentity naming exactly one of "s1", "s2", "s3"
      And that lease has spec.leaseDurationSeconds 15
      And exactly one scheduler instance reports itself leader

  @pending
  Rule: LEASE-RENEW — the leader renews its Lease periodically
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: The leader keeps its leadership by renewing the Lease at regular intervals.
    Quote: "获取成功者成为 Leader 并定期续租"

    @requires:kube.api @requires:cluster.ha @requires:clock.virtual
    Scenario: renewTime advances every retry period while the holder stays the same
      Given an HA cluster where scheduler "s1" holds lease "kube-system/kube-scheduler"
      When 60 seconds pass
      Then lease "kube-system/kube-scheduler" still has holderIdentity naming "s1"
      And its spec.renewTime was updated at least 25 times, never more than 10 seconds apart
      And its spec.leaseTransitions did not change

  @pending
  Rule: LEASE-EXPIRY-TAKEOVER — when the leader fails, another instance takes over after the Lease expires, not before
    Source: 000_1662d8c5cea2447f.txt § 高可用架构 / 组件高可用机制
    Claim: After the leader fails, the other instances compete again once the Lease has expired;
      none takes over while the Lease is still valid.
    Quote: "Leader 故障后，其他实例在 Lease 过期后重新竞选。"

    @requires:kube.api @requires:cluster.ha @requires:clock.virtual
    Scenario: a frozen leader is replaced between 15 and 17 seconds after its last renewal
      Given an HA cluster where scheduler "s1" holds lease "kube-system/kube-scheduler" and "s2", "s3" are standing by
      When scheduler "s1" freezes right after renewing
      And 14 seconds pass
      Then lease "kube-system/kube-scheduler" still has holderIdentity naming "s1"
      When 3 more seconds pass
      Then lease "kube-system/kube-scheduler" has holderIdentity naming "s2" or "s3"
      And its spec.leaseTransitions increased by 1

    @requires:kube.api @requires:cluster.ha @requires:clock.virtual
    Scenario: a leader that cannot renew within the renew deadline stops acting as leader
      Given an HA cluster where scheduler "s1" holds lease "kube-system/kube-scheduler"
      When scheduler "s1" loses its connection to the API server
      And 11 seconds pass
      Then scheduler "s1" no longer reports itself leader and binds no pod
