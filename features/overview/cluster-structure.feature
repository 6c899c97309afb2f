@component:overview
Feature: Overview — a cluster is a control plane and nodes
  Source: 003_83c2ae260ce54bb3.txt § 集群结构
  Source: 003_83c2ae260ce54bb3.txt § 控制平面组件

  Seed 003 is a short tour of the components. This file holds its claims about the cluster as a
  whole and about the API server, etcd and the scheduler; the controller managers are in
  controller-manager.feature, the node components in features/kubelet, features/proxy and
  features/runtime, and the cloud controller manager in features/cloud. Seed 000 makes many of
  the same claims in more detail; the Rules here check the short versions.

  @untestable
  Rule: OVERVIEW-CLUSTER-TWO-PARTS — a cluster consists of a control plane and worker nodes
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: A Kubernetes cluster is made of two parts: the control plane and the worker nodes.
    Quote: "Kubernetes 集群（Cluster） 由两大核心部分组成：- 控制平面（Control Plane）- 工作节点（Node）"
    Untestable: a definition that structures the rest of the document; the parts' behaviour is checked by the component rules.

  @untestable
  Rule: OVERVIEW-CONTROL-PLANE-ROLE — the control plane makes the cluster's global decisions and keeps its desired state
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件
    Claim: The control plane manages all nodes and Pods, schedules Pods onto suitable nodes and
      maintains the desired state; its components make global decisions (scheduling, desired state,
      event handling).
    Quote: "控制平面组件负责对整个 Kubernetes 集群做出全局决策，并维护集群状态。"
    Untestable: a summary of roles; each role is checked by its own rule (OVERVIEW-SCHED-*, FLOW-*, OVERVIEW-NODE-CONTROLLER).

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

  # pending: needs the controller manager and the scheduler (cluster.controllers, cluster.scheduler)
  @pending
  Rule: OVERVIEW-APISERVER-ONLY-ENTRY — every operation goes through the API server
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-apiserver
    Claim: The API server is the cluster's entry point and the control plane's front end: every
      request — from kubectl, controllers and the scheduler — goes through it as a REST request.
    Quote: "所有请求都必须经过 API Server" / "所有操作都通过它进行（kubectl / Controller / Scheduler）"

    @requires:kube.api @requires:kube.audit @requires:kube.storage @requires:cluster.controllers @requires:cluster.scheduler
    Scenario: every object the controllers and scheduler write was written through an API request
      Given a cluster with node "n1"
      When I create the web Deployment
      And within 30 seconds every pod labelled "app=web" is bound
      Then for every key written under "/registry/replicasets/default/" and "/registry/pods/default/" the audit trail has a matching create, update, patch or binding request
      And the audit trail shows requests from users "system:kube-controller-manager" or controller service accounts, and "system:kube-scheduler"

  @pending
  Rule: OVERVIEW-APISERVER-HORIZONTAL — the API server scales horizontally: several instances behind a load balancer
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-apiserver
    Claim: kube-apiserver supports horizontal scaling: several instances run and a load balancer
      spreads the traffic.
    Quote: "支持 水平扩展（Horizontal Scaling）- 可运行多个实例 - 通过负载均衡分发流量"

    @requires:kube.api @requires:cluster.ha
    Scenario: requests through the load balancer are served by more than one instance and all see one state
      Given an HA cluster with API servers "a1", "a2" and "a3" behind a load balancer
      When I create ConfigMaps "c1" to "c30" through the load balancer
      Then at least 2 of the API servers served one of those creates
      And a list of ConfigMaps through each API server returns all 30

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
  Rule: OVERVIEW-ETCD-LOSS-IS-STATE-LOSS — losing etcd's data loses the cluster state; a backup brings it back
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / etcd
    Claim: etcd must be backed up regularly, because losing its data means losing the cluster state.
    Quote: "必须定期备份 - 数据丢失 = 集群状态丢失"

    @requires:kube.api @requires:kube.storage @requires:kv.snapshot
    Scenario: wiping the store empties the API; restoring a snapshot refills it
      Given Deployment "web" and ConfigMap "cfg" in namespace "default"
      And a snapshot of the store
      When the store's data is wiped and the API server restarted on the empty store
      Then Deployment "web" and ConfigMap "cfg" are not found
      When the snapshot is restored into the store and the API server restarted
      Then Deployment "web" and ConfigMap "cfg" exist with the same uid as before

  @pending
  Rule: OVERVIEW-SCHED-WATCHES-UNASSIGNED — the scheduler watches for new Pods without a node and picks one
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler
    Claim: kube-scheduler watches newly created Pods that have no node assigned and selects the most
      suitable node for each; Pods that already name a node are left alone.
    Quote: "监听新创建的 Pod（尚未分配 Node）- 选择最合适的 Node"

    @requires:kube.api @requires:kube.audit @requires:cluster.scheduler
    Scenario: the scheduler binds an unassigned pod and ignores a pod created with a node
      Given a cluster with nodes "n1" and "n2"
      When I create pod "free" with no spec.nodeName
      And I create pod "fixed" with spec.nodeName "n2"
      Then within 10 seconds pod "free" is bound to "n1" or "n2"
      And the audit trail has no "pods/binding" request for pod "fixed"

  @pending
  Rule: OVERVIEW-SCHED-RESOURCES — the scheduler weighs the Pod's resource needs (CPU, memory)
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler
    Claim: Scheduling considers resource requirements (CPU / memory).
    Quote: "资源需求（CPU / Memory）"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod needing 2 CPUs goes to the only node with 2 free CPUs
      Given a cluster with node "small" with allocatable cpu "1" and node "big" with allocatable cpu "4"
      When I create pod "heavy" requesting cpu "2"
      Then within 10 seconds pod "heavy" is bound to node "big"

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
