@component:overview
Feature: Overview — kube-controller-manager and its common controllers
  Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager

  Seed 003 calls the controller manager the cluster's "executor": many controllers, each keeping
  one kind of resource in its desired state, logically independent but compiled into one process.
  Its table names four controllers — Node, Job, EndpointSlice and ServiceAccount. The one-process
  claim and the Node and Job controllers are seed 000's too, and live once in features/controllers
  (CTRL-ONE-PER-KIND, NODE-READY-UNKNOWN, JOB-COMPLETIONS, whose Sources name seed 003); the Rules
  here are the ones only seed 003 makes.

  Rule: EPS-POPULATE — the EndpointSlice controller fills EndpointSlices linking a Service to its Pods
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager
    Claim: The EndpointSlice controller populates EndpointSlice objects, which provide the link
      between Services and Pods. Upstream (pkg/controller/endpointslice, staging/src/k8s.io/endpointslice):
      one or more slices per Service with a selector, at most 100 endpoints each
      (--max-endpoints-per-slice), labelled kubernetes.io/service-name and
      endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io, owned by the Service;
      a named targetPort is resolved from each pod's container ports.
    Quote: "EndpointSlice Controller | 填充 EndpointSlice 对象（以提供 Service 和 Pod 之间的链接）"

    The pods here are bound to a node registered through the API with no kubelet behind it; the
    test writes their status (Running, Ready, their IP) as their kubelet would, so only the API
    server and the controller are under test.

    @requires:kube.api @requires:controllers.endpointslice
    Scenario: a Service with two matching pods gets a managed EndpointSlice naming both
      Given a Service "web" selecting "app=web" with port named "http" 80 targetPort "http"
      And running ready pods "web-1" and "web-2" labelled "app=web" with IPs "10.244.1.10" and "10.244.1.11" and container port "http" 8080
      And a running ready pod "db-1" labelled "app=db" with IP "10.244.1.12" and container port "http" 8080
      Then within 10 seconds there is an EndpointSlice labelled "kubernetes.io/service-name=web" and "endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io"
      And it has addressType "IPv4", port "http" 8080, and endpoints "10.244.1.10" and "10.244.1.11" whose targetRef names pods "web-1" and "web-2"
      And it has an ownerReference to Service "web" with controller true

    @requires:kube.api @requires:controllers.endpointslice
    Scenario: deleting a backend pod removes its endpoint
      Given a Service "web" selecting "app=web" with ready pods "web-1" and "web-2"
      Then within 10 seconds the EndpointSlices of Service "web" list exactly the pods "web-1, web-2"
      When I delete pod "web-2" with gracePeriodSeconds 0
      Then within 10 seconds the EndpointSlices of Service "web" list exactly the pods "web-1"

    @requires:kube.api @requires:controllers.endpointslice
    Scenario: a Service with 101 pods gets two slices, none over 100 endpoints, listing every pod once
      Given a Service "web" selecting "app=web" with 101 ready pods
      Then within 30 seconds the EndpointSlices of Service "web" list 101 endpoints, each pod once, at most 100 in a slice

  Rule: SA-DEFAULT — the ServiceAccount controller creates a `default` ServiceAccount in every new namespace
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager
    Claim: The ServiceAccount controller creates the default ServiceAccount for each new namespace.
    Quote: "ServiceAccount Controller | 为新的命名空间创建默认的 ServiceAccount"

    @requires:kube.api @requires:controllers.serviceaccount
    Scenario: a new namespace gets ServiceAccount "default", and it is recreated if deleted
      When I create Namespace "team-{ns}"
      Then within 10 seconds ServiceAccount "team-{ns}/default" exists
      When I delete ServiceAccount "team-{ns}/default"
      Then within 10 seconds ServiceAccount "team-{ns}/default" exists again with a new uid
