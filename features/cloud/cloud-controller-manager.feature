@component:cloud
Feature: cloud-controller-manager — the cloud's controllers, split out
  Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager

  The cloud-controller-manager (CCM) runs the controllers that talk to a cloud provider (AWS, GCP,
  Azure, ...): a Node controller that asks the cloud whether an unresponsive node's machine still
  exists, a Route controller that programs Pod routes in the cloud network, and a Service
  controller that manages cloud load balancers. The scenarios run against a simulated or real
  cloud (`cluster.cloud`) whose instances, routes and load balancers the steps can inspect and
  change.

  @untestable
  Rule: CCM-DECOUPLES-CLOUD — cloud-specific control logic lives in its own component, separate from the core
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM decouples Kubernetes' core control logic from cloud implementation details
      (nodes, networks, load balancers) by running all cloud-infrastructure controllers on their own.
    Quote: "将 Kubernetes 核心控制逻辑 与 云平台的实现细节（如节点/网络/负载均衡等）解耦。" / "将所有与云基础设施相关的控制器独立出来运行。"
    Untestable: an architectural design goal; which binary hosts a controller is not observable through the API.

  @untestable
  Rule: CCM-ONLY-WITH-CLOUD — the CCM runs only where a cloud is integrated
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM runs only in environments that integrate a cloud platform; local and learning
      environments usually do not include it.
    Quote: "仅在需要云平台集成的环境运行，本地或学习环境通常不包含该组件。"
    Untestable: a statement about which deployments include the component; a capability can say a target has a CCM but not check that others lack one. (Without a CCM a LoadBalancer Service simply keeps an empty status.loadBalancer.)

  @pending
  Rule: CCM-HORIZONTAL — the CCM can run as several instances; one leads
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM scales horizontally: several instances can run for fault tolerance, with leader
      election choosing the active one (upstream Lease "cloud-controller-manager" in kube-system).
    Quote: "支持水平扩展，可多实例部署以提高容错能力。"

    @requires:kube.api @requires:cluster.cloud @requires:cluster.ha @requires:clock.virtual
    Scenario: with the leading instance gone, another instance creates the next load balancer
      Given a cluster with cloud-controller-manager instances "c1" and "c2", "c1" holding lease "kube-system/cloud-controller-manager"
      When instance "c1" is killed
      And 20 seconds pass
      Then lease "kube-system/cloud-controller-manager" has holderIdentity naming "c2"
      When I create a Service "web" of type LoadBalancer port 80 selecting "app=web"
      Then within 30 seconds the cloud has exactly one load balancer for Service "default/web"

  @pending
  Rule: CCM-NODE-DELETED-IN-CLOUD — when a node stops responding, the CCM asks the cloud and deletes the Node if its machine is gone
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM's Node controller, once a node stops responding, checks with the cloud whether
      the node's machine has been deleted; if so the Node object is deleted.
    Quote: "Node Controller | 用于在节点终止响应后检查云平台以确定节点是否已被删除"

    @requires:kube.api @requires:cluster.cloud @requires:cluster.nodes @requires:clock.virtual
    Scenario: a node whose instance was deleted in the cloud is removed; one whose instance exists is kept
      Given a cluster with cloud nodes "n1" and "n2"
      When node "n1" stops sending heartbeats and its instance is deleted in the cloud
      And node "n2" stops sending heartbeats but its instance still exists in the cloud
      And 120 seconds pass
      Then Node "n1" no longer exists
      And Node "n2" still exists with condition "Ready" status "Unknown"

  @pending
  Rule: CCM-ROUTES — the Route controller sets up routes for Pod networks in the cloud
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The Route controller sets up routes in the underlying cloud infrastructure (upstream: one
      route per node, sending the node's spec.podCIDR to that node).
    Quote: "Route Controller | 用于在底层云基础架构中设置路由"

    @requires:kube.api @requires:cluster.cloud @requires:cluster.nodes
    Scenario: each node's podCIDR is routed to it, and the route goes when the node goes
      Given a cluster with cloud nodes "n1" with podCIDR "10.244.1.0/24" and "n2" with podCIDR "10.244.2.0/24"
      Then within 30 seconds the cloud route table has routes "10.244.1.0/24 → n1" and "10.244.2.0/24 → n2"
      And node "n1" has condition "NetworkUnavailable" with status "False"
      When Node "n2" is deleted
      Then within 30 seconds the cloud route table has no route for "10.244.2.0/24"

  @pending
  Rule: CCM-SERVICE-LB — the Service controller creates, updates and deletes cloud load balancers
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The Service controller creates, updates and deletes load balancers on the cloud platform
      for Services of type LoadBalancer.
    Quote: "Service Controller | 用于创建、更新和删除云平台上的负载均衡器"

    @requires:kube.api @requires:cluster.cloud @requires:cluster.nodes
    Scenario: a LoadBalancer Service's life is mirrored by one cloud load balancer
      Given a cluster with cloud nodes "n1" and "n2"
      When I create a Service "web" of type LoadBalancer port 80 selecting "app=web"
      Then within 30 seconds the cloud has one load balancer for Service "default/web" listening on port 80
      And Service "web" has status.loadBalancer.ingress with that load balancer's address
      And Service "web" has finalizer "service.kubernetes.io/load-balancer-cleanup"
      When I change Service "web" to port 8080
      Then within 30 seconds that cloud load balancer listens on port 8080 and not on port 80
      When I delete Service "web"
      Then within 30 seconds the cloud has no load balancer for Service "default/web"
      And Service "web" no longer exists
