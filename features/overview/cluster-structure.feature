@component:overview
Feature: Overview — a cluster is a control plane and nodes
  Source: 003_83c2ae260ce54bb3.txt § 集群结构
  Source: 003_83c2ae260ce54bb3.txt § 控制平面组件

  Seed 003 is a short tour of the components. This file holds its claims about the cluster as a
  whole and about the API server, etcd and the scheduler; the controller managers are in
  controller-manager.feature, the node components in features/kubelet, features/proxy and
  features/runtime, and the cloud controller manager in features/cloud. Where seed 000 makes the
  same claim, the Rule lives once, in the component's folder, and its Source names both seeds
  (ARCH-TWO-LAYERS, ARCH-DECISIONS-IN-CONTROL-PLANE, API-SINGLE-ENTRY, HA-APISERVER-STATELESS,
  PRACTICE-ETCD-RESTORE-DRILL, SCHED-UNBOUND-ONLY, SCHED-FILTER-RESOURCES); the Rules here are
  the claims only seed 003 makes.

  @untestable
  Rule: OVERVIEW-PRODUCTION-MULTI-MACHINE — in production the control plane spans several machines
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: In production the control plane is usually deployed on several machines for high
      availability and fault tolerance; a single machine is for learning and testing.
    Quote: "通常部署在多台机器上 - 实现高可用（High Availability）- 提升容错能力（Fault Tolerance）"
    Untestable: deployment advice; what multiple masters buy is checked in features/ha.

  @untestable
  Rule: OVERVIEW-CONTROL-PLANE-PLACEMENT — control plane components can run on any node and usually run no user containers
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件
    Claim: Control plane components can run on any node; control plane nodes usually do not run
      user application containers.
    Quote: "控制平面组件可以运行在任意节点" / "控制平面节点通常：- 不运行用户应用容器"
    Untestable: a deployment convention ("通常"); the mechanism that enforces it is checked by PRACTICE-MASTER-TAINT.

  @pending
  Rule: OVERVIEW-NODE-RUNS-PODS — worker nodes run the Pods, through their container runtime
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: A worker node runs the actual workload: it runs Pods (the smallest deployable unit) and
      provides the container runtime environment.
    Quote: "运行 Pod（最小部署单元）- 提供容器运行环境（如 container runtime）"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:cri
    Scenario: a pod's containers run in the runtime of the node it is bound to
      Given a cluster with nodes "n1" and "n2"
      When I create pod "web" with one container "app" running "sleep 3600"
      Then within 30 seconds pod "web" has phase "Running"
      And the runtime of the node named in spec.nodeName of pod "web" has a running container "app" for pod "default/web"
      And the runtime of the other node has no sandbox for pod "default/web"

  @pending
  Rule: OVERVIEW-AT-LEAST-ONE-NODE — a cluster needs at least one node to run anything
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: Every cluster needs at least one node; without one, no Pod can run.
    Quote: "每个集群至少需要一个 Node"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: with no node a pod waits unschedulable, and runs once a node joins
      Given a cluster with no nodes
      When I create pod "web" with one container "app" running "sleep 3600"
      Then within 10 seconds pod "web" has condition "PodScheduled" with status "False" and reason "Unschedulable"
      When I add node "n1"
      Then within 30 seconds pod "web" is bound to node "n1"

  @untestable
  Rule: OVERVIEW-MANY-NODES — clusters usually have several nodes for load, reliability and scale
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: Clusters usually have multiple nodes to share load, improve reliability and allow scaling.
    Quote: "通常会有多个 Node 用于：- 分担负载 - 提高可靠性 - 支持扩展（Scalability）"
    Untestable: a sizing motivation, not a behaviour.

  @pending
  Rule: OVERVIEW-ETCD-HOLDS-STATE — etcd stores all cluster state: Pods, Nodes, configuration
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / etcd
    Claim: etcd is the cluster's database: a distributed, highly available key-value store holding
      all cluster state (Pods, Nodes, configuration, ...). Upstream keys are /registry/<resource>/…,
      with Nodes under their historical name /registry/minions/<name>.
    Quote: "存储所有集群状态数据（Pods、Nodes、Config 等）" / "一个分布式、高可用、键值存储（Key-Value Store）"

    @requires:kube.api @requires:kube.storage @requires:cluster.nodes
    Scenario: a pod, a node and a ConfigMap each have their key in the store
      Given a cluster with node "n1"
      When I create pod "web" and ConfigMap "cfg" in namespace "default"
      Then the store has keys "/registry/pods/default/web", "/registry/minions/n1" and "/registry/configmaps/default/cfg"

  @pending
  Rule: OVERVIEW-SCHED-CONSTRAINTS — the scheduler honours node constraints and (anti-)affinity
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler
    Claim: Scheduling considers node constraints (hardware / policy) and affinity / anti-affinity.
    Quote: "节点约束（硬件/策略）- 亲和性 / 反亲和性"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a nodeSelector picks the labelled node
      Given a cluster with node "n1" labelled "disk=hdd" and node "n2" labelled "disk=ssd"
      When I create pod "db" with nodeSelector "disk=ssd"
      Then within 10 seconds pod "db" is bound to node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: required pod anti-affinity on hostname spreads two replicas over two nodes
      Given a cluster with nodes "n1" and "n2"
      When I create pods "r1" and "r2" labelled "app=r" with required podAntiAffinity to "app=r" on topologyKey "kubernetes.io/hostname"
      Then within 10 seconds pods "r1" and "r2" are bound to different nodes

  @untestable
  Rule: OVERVIEW-SCHED-OTHER-FACTORS — the scheduler also weighs data locality, workload interference and deadlines
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler
    Claim: Scheduling also considers data locality, inter-workload interference and deadlines.
    Quote: "数据位置 - 工作负载干扰 - 截止时间（Deadline）"
    Untestable: the default scheduler has no plugin or API field for interference or deadlines, so no observable behaviour follows; data locality as volume topology belongs to storage, which this suite does not model.
