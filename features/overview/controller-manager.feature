@component:overview
Feature: Overview — kube-controller-manager and its common controllers
  Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager

  Seed 003 calls the controller manager the cluster's "executor": many controllers, each keeping
  one kind of resource in its desired state, logically independent but compiled into one process.
  Its table names four controllers — Node, Job, EndpointSlice and ServiceAccount. Seed 000's deeper
  treatment of the Node and Job controllers lives in features/controllers; the Rules here check
  seed 003's one-line descriptions.

  @pending
  Rule: OVERVIEW-KCM-ONE-PROCESS — many independent controllers run inside one process
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager
    Claim: kube-controller-manager runs many controllers, each maintaining one kind of resource;
      their logic is independent but they run in the same process (one binary, one leader lease).
    Quote: "多个控制器逻辑独立 - 但运行在同一个进程中（简化架构）"

    @requires:kube.api @requires:cluster.controllers
    Scenario: one controller-manager lease covers the work of several controllers
      Given a cluster with node "n1"
      When I create the web Deployment, a Job "once" and a Namespace "team-a"
      Then within 20 seconds a ReplicaSet for "web", a Pod for Job "once" and ServiceAccount "team-a/default" exist
      And kube-system has exactly one Lease for the controller manager, "kube-controller-manager"

    @requires:kube.api @requires:cluster.controllers
    Scenario: controllers are independent — disabling one leaves the others working
      Given a controller manager started with controllers "*,-serviceaccount"
      When I create the web Deployment and Namespace "team-b"
      Then within 20 seconds a ReplicaSet for "web" exists
      And after 10 seconds Namespace "team-b" still has no ServiceAccount "default"

  Rule: OVERVIEW-NODE-CONTROLLER — the node controller notices and responds when a node fails
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager
    Claim: The Node controller notices when nodes fail and responds.
    Quote: "Node Controller | 负责在节点出现故障时进行通知和响应"

    @requires:kube.api @requires:controllers.nodelifecycle @requires:clock.virtual
    Scenario: a node that stops heartbeating is marked Unknown and tainted unreachable
      Given a cluster with the controllers running
      And Node "n1" registered through the API with condition Ready=True and no kubelet behind it
      And Node "n2" registered through the API with condition Ready=True and no kubelet behind it
      When for 60 s of virtual time the test renews the Lease of Node "n2" every 10 s, and Node "n1" sends nothing
      Then Node "n1" has condition Ready=Unknown with reason "NodeStatusUnknown"
      And Node "n1" has taint "node.kubernetes.io/unreachable" with effect "NoExecute"
      And Node "n2" has condition Ready=True

  @pending
  Rule: OVERVIEW-JOB-CONTROLLER — the Job controller creates Pods for a Job until it completes
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager
    Claim: The Job controller watches Job objects (one-off tasks) and creates Pods to run them to
      completion.
    Quote: "Job Controller | 监测代表一次性任务的 Job 对象，然后创建 Pod 来运行这些任务直至完成"

    @requires:kube.api @requires:cluster.controllers @requires:cluster.scheduler @requires:kubelet
    Scenario: a Job with completions 3 runs three successful pods and is Complete
      Given a cluster with node "n1"
      When I create Job "once" with completions 3, parallelism 1 and a container running "sh -c 'exit 0'"
      Then within 60 seconds Job "once" has status.succeeded 3 and condition "Complete" with status "True"
      And exactly 3 pods with label "job-name=once" exist, all with phase "Succeeded"

  @pending
  Rule: EPS-POPULATE — the EndpointSlice controller fills EndpointSlices linking a Service to its Pods
    Source: 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager
    Claim: The EndpointSlice controller populates EndpointSlice objects, which provide the link
      between Services and Pods.
    Quote: "EndpointSlice Controller | 填充 EndpointSlice 对象（以提供 Service 和 Pod 之间的链接）"

    @requires:kube.api @requires:cluster.controllers
    Scenario: a Service with two matching pods gets a managed EndpointSlice naming both
      Given a Service "web" selecting "app=web" with port named "http" 80 targetPort 8080
      And running ready pods "web-1" and "web-2" labelled "app=web" with IPs "10.244.1.10" and "10.244.1.11"
      Then within 10 seconds there is an EndpointSlice labelled "kubernetes.io/service-name=web" and "endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io"
      And it has addressType "IPv4", port "http" 8080, and endpoints "10.244.1.10" and "10.244.1.11" whose targetRef names pods "web-1" and "web-2"
      And it has an ownerReference to Service "web"

    @requires:kube.api @requires:cluster.controllers
    Scenario: deleting a backend pod removes its endpoint
      Given a Service "web" selecting "app=web" with ready pods "web-1" and "web-2"
      When I delete pod "web-2" with gracePeriodSeconds 0
      Then within 10 seconds the EndpointSlices of Service "web" list exactly the pods "web-1"

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
