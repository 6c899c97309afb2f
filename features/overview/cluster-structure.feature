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

  Rule: OVERVIEW-NODE-RUNS-PODS — worker nodes run the Pods, through their container runtime
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: A worker node runs the actual workload: it runs Pods (the smallest deployable unit) and
      provides the container runtime environment.
    Quote: "运行 Pod（最小部署单元）- 提供容器运行环境（如 container runtime）"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:cri
    Scenario: a pod's containers run in the runtime of the node it is bound to, and no other
      Given a cluster with nodes "n1" and "n2"
      When I create pod "web" with no spec.nodeName and one container "app" running "sleep 3600"
      Then within 30 seconds pod "web" has phase "Running"
      And the runtime of the node pod "web" is bound to has a running container "app" for it
      And the runtime of every other node has no sandbox for pod "web"

    @requires:kube.api @requires:cluster.workloads
    Scenario: a running pod reports the node's address and its container's runtime id
      Given the cluster has a node that runs pods
      When I create pod "web" with no spec.nodeName and one container "app" running "sleep 3600"
      Then within 60 seconds pod "web" has phase "Running"
      And pod "web" reports as status.hostIP an address of the node it is bound to, and a containerID for container "app"

  Rule: OVERVIEW-AT-LEAST-ONE-NODE — a cluster needs at least one node to run anything
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: Every cluster needs at least one node; without one, no Pod can run. Upstream: the
      scheduler marks the pod PodScheduled=False, reason Unschedulable, and retries it when a node
      is added (a NodeAdd event moves it out of the unschedulable queue: pkg/scheduler/internal/queue).
    Quote: "每个集群至少需要一个 Node"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes @requires:kubelet
    Scenario: with no node a pod waits unschedulable, and runs once a node joins
      Given a cluster with no nodes
      When I create pod "web" with one container "app" running "sleep 3600"
      Then within 10 seconds pod "web" has condition "PodScheduled" with status "False" and reason "Unschedulable"
      And after 20 s Pod "web" is still Pending
      When I add node "n1"
      Then within 30 seconds pod "web" is bound to node "n1"
      And within 30 seconds pod "web" has phase "Running"

  @untestable
  Rule: OVERVIEW-MANY-NODES — clusters usually have several nodes for load, reliability and scale
    Source: 003_83c2ae260ce54bb3.txt § 集群结构
    Claim: Clusters usually have multiple nodes to share load, improve reliability and allow scaling.
    Quote: "通常会有多个 Node 用于：- 分担负载 - 提高可靠性 - 支持扩展（Scalability）"
    Untestable: a sizing motivation, not a behaviour.

  Rule: OVERVIEW-ETCD-HOLDS-STATE — etcd stores all cluster state: Pods, Nodes, configuration
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / etcd
    Claim: etcd is the cluster's database: a distributed, highly available key-value store holding
      all cluster state (Pods, Nodes, configuration, ...). Upstream keys are /registry/<resource>/…,
      with Nodes under their historical name /registry/minions/<name>
      (pkg/kubeapiserver/default_storage_factory_builder.go, SpecialDefaultResourcePrefixes).
    Quote: "存储所有集群状态数据（Pods、Nodes、Config 等）" / "一个分布式、高可用、键值存储（Key-Value Store）"

    @requires:kube.api @requires:kube.storage @requires:kubelet
    Scenario: a pod, a node and a ConfigMap each have their key in the store, holding the object the API serves
      Given a cluster with node "n1"
      When I create pod "web" with one container "app" running "sleep 3600"
      And the client creates ConfigMap "cfg"
      Then the store key "/registry/pods/{ns}/web" holds the object the API serves at "/api/v1/namespaces/{ns}/pods/web"
      And the store key "/registry/minions/n1" holds the object the API serves at "/api/v1/nodes/n1"
      And the store key "/registry/configmaps/{ns}/cfg" holds the object the API serves at "/api/v1/namespaces/{ns}/configmaps/cfg"

  Rule: OVERVIEW-SCHED-CONSTRAINTS — the scheduler honours node constraints and (anti-)affinity
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler
    Claim: Scheduling considers node constraints (hardware / policy) and affinity / anti-affinity.
      Each is a Filter upstream (NodeResourcesFit, NodeAffinity for nodeSelector, InterPodAffinity):
      a node that breaks one is never chosen, however the scores fall, and a pod no node passes
      stays unbound.
    Quote: "节点约束（硬件/策略）- 亲和性 / 反亲和性"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: hardware — pods that fit only the larger node go there, and one that fits nowhere stays unbound
      Given a cluster with node "n1" with 1 CPU and node "n2" with 2 CPU, each with 8Gi memory
      When Pods "big-1", "big-2" and "big-3" are created labelled "app=big" requesting 1500m CPU
      Then within 10 s exactly 1 of the pods "big-1", "big-2" and "big-3" is bound to Node "n2", and the others stay unbound for 20 s

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: policy — a nodeSelector picks the labelled node for every pod, though spreading would prefer the other
      Given a cluster with nodes "n1" labelled "disk=hdd" and "n2" labelled "disk=ssd", each with 4 CPU and 8Gi memory
      When Pods "db-1", "db-2" and "db-3" are created with nodeSelector "disk=ssd"
      Then within 10 s pods "db-1", "db-2" and "db-3" are all on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: required pod anti-affinity on hostname puts two replicas on two nodes and leaves a third unbound
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pods "r1", "r2" and "r3" are created labelled "app=r" with required anti-affinity to "app=r" on "kubernetes.io/hostname"
      Then within 10 s exactly 2 of the pods "r1", "r2" and "r3" are bound, each to a different node, and the other stays unbound for 20 s

  @untestable
  Rule: OVERVIEW-SCHED-OTHER-FACTORS — the scheduler also weighs data locality, workload interference and deadlines
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler
    Claim: Scheduling also considers data locality, inter-workload interference and deadlines.
    Quote: "数据位置 - 工作负载干扰 - 截止时间（Deadline）"
    Untestable: the default scheduler has no plugin or API field for interference or deadlines, so no observable behaviour follows; data locality as volume topology belongs to storage, which this suite does not model.
