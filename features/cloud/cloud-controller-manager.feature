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

  Rule: CCM-ONLY-WITH-CLOUD — the CCM runs only where a cloud is integrated
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM runs only in environments that integrate a cloud platform; local and learning
      environments usually do not include it. What follows, testably: with a cloud integrated,
      nodes registered by kubelets with --cloud-provider=external are initialised from the cloud
      (taint node.cloudprovider.kubernetes.io/uninitialized removed, providerID and zone set);
      without one, nothing does a cloud's work — a LoadBalancer Service keeps an empty
      status.loadBalancer and no cleanup finalizer, and no node carries the uninitialized taint.
    Quote: "仅在需要云平台集成的环境运行，本地或学习环境通常不包含该组件。"

    @requires:kube.api @requires:cluster.without-cloud @requires:clock.virtual
    Scenario: without a cloud, a LoadBalancer Service keeps an empty status and no node waits for initialisation
      When I create a Service "web" of type LoadBalancer port 80 selecting "app=web"
      And 60 s of virtual time pass
      Then Service "web" has an empty status.loadBalancer and no finalizer "service.kubernetes.io/load-balancer-cleanup"
      And no Node carries the taint "node.cloudprovider.kubernetes.io/uninitialized"

    @requires:kube.api @requires:cluster.cloud
    Scenario: with a cloud, the CCM initialises each node the kubelet registered as uninitialized
      Given a cluster with cloud nodes "n1" and "n2"
      Then within 30 seconds nodes "n1" and "n2" are initialised from the cloud: no uninitialized taint, a providerID and a zone label

  Rule: CCM-HORIZONTAL — the CCM can run as several instances; one leads
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM scales horizontally: several instances can run for fault tolerance, with leader
      election choosing the active one (upstream Lease "cloud-controller-manager" in kube-system).
    Quote: "支持水平扩展，可多实例部署以提高容错能力。"

    @requires:kube.api @requires:cluster.cloud @requires:cluster.ha @requires:clock.virtual
    Scenario: with the leading instance gone, another instance creates the next load balancer
      Given an HA cluster where cloud-controller-manager instance "c1" holds lease "kube-system/cloud-controller-manager" and "c2" is standing by
      When cloud-controller-manager instance "c1" is killed
      And 25 s of virtual time pass
      Then lease "kube-system/cloud-controller-manager" has holderIdentity naming "c2"
      When I create a Service "web" of type LoadBalancer port 80 selecting "app=web"
      Then within 30 seconds the cloud has exactly one load balancer for Service "web"

  Rule: CCM-NODE-DELETED-IN-CLOUD — when a node stops responding, the CCM asks the cloud and deletes the Node if its machine is gone
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The CCM's Node controller, once a node stops responding, checks with the cloud whether
      the node's machine has been deleted; if so the Node object is deleted.
    Quote: "Node Controller | 用于在节点终止响应后检查云平台以确定节点是否已被删除"

    # "Stops responding" is the node lifecycle controller's verdict (Ready=Unknown after the grace
    # period without heartbeats); the CCM's node lifecycle controller then asks the cloud.
    @requires:kube.api @requires:cluster.cloud @requires:controllers.nodelifecycle @requires:clock.virtual
    Scenario: a node whose instance was deleted in the cloud is removed; one whose instance exists is kept
      Given a cluster with cloud nodes "n1" and "n2"
      When node "n1" stops sending heartbeats and its instance is deleted in the cloud
      And node "n2" stops sending heartbeats but its instance still exists in the cloud
      And 120 seconds pass
      Then Node "n1" no longer exists
      And Node "n2" still exists with condition "Ready" status "Unknown"

  Rule: CCM-ROUTES — the Route controller sets up routes for Pod networks in the cloud
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The Route controller sets up routes in the underlying cloud infrastructure (upstream: one
      route per node, sending the node's spec.podCIDR to that node).
    Quote: "Route Controller | 用于在底层云基础架构中设置路由"

    @requires:kube.api @requires:cluster.cloud
    Scenario: each node's podCIDR is routed to it, and the route goes when the node goes
      Given a cluster with cloud nodes "n1" with podCIDR "10.244.1.0/24" and "n2" with podCIDR "10.244.2.0/24"
      Then within 30 seconds the cloud route table has routes "10.244.1.0/24 → n1" and "10.244.2.0/24 → n2"
      And node "n1" has condition "NetworkUnavailable" with status "False"
      When Node "n2" is deleted
      Then within 30 seconds the cloud route table has no route for "10.244.2.0/24"

  Rule: CCM-SERVICE-LB — the Service controller creates, updates and deletes cloud load balancers
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / cloud-controller-manager
    Claim: The Service controller creates, updates and deletes load balancers on the cloud platform
      for Services of type LoadBalancer.
    Quote: "Service Controller | 用于创建、更新和删除云平台上的负载均衡器"

    @requires:kube.api @requires:cluster.cloud
    Scenario: a LoadBalancer Service's life is mirrored by one cloud load balancer
      Given a cluster with cloud nodes "n1" and "n2"
      When I create a Service "web" of type LoadBalancer port 80 selecting "app=web"
      Then within 30 seconds the cloud has one load balancer for Service "web" listening on port 80
      And within 30 seconds that load balancer sends to nodes "n1" and "n2"
      And Service "web" has status.loadBalancer.ingress with that load balancer's address
      And Service "web" has finalizer "service.kubernetes.io/load-balancer-cleanup"
      When I change Service "web" to port 8080
      Then within 30 seconds that cloud load balancer listens on port 8080 and not on port 80
      When I delete Service "web"
      Then within 30 seconds the cloud has no load balancer for Service "web"
      And Service "web" no longer exists
