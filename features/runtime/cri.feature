@component:runtime
Feature: Container Runtime Interface — the kubelet's only way to a runtime
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / CRI 调用链
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / CRI 接口规范
  Source: 003_83c2ae260ce54bb3.txt § 节点组件 / Container Runtime

  The kubelet talks to its runtime only through CRI, a gRPC API of two services: RuntimeService
  (Pod sandboxes and containers) and ImageService (images). A Pod sandbox holds the Pod's shared
  namespaces; in containerd it is the `pause` container. Scenarios tagged `cri` call the runtime
  directly over its socket, the way the kubelet does (upstream API: k8s.io/cri-api
  pkg/apis/runtime/v1/api.proto).

  Rule: CRI-GRPC — CRI is a gRPC interface the kubelet calls through a built-in CRI client
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / CRI 调用链
    Claim: The kubelet reaches the runtime through its built-in CRI client; CRI is a gRPC standard
      interface (service runtime.v1.RuntimeService and runtime.v1.ImageService).
    Quote: "kubelet 通过 **CRI（Container Runtime Interface）** 与容器运行时交互。CRI 是基于 gRPC 的标准接口"

    @requires:cri @requires:cri.grpc
    Scenario: the runtime answers the CRI Version call over gRPC with API version v1
      Given a CRI runtime endpoint
      When I call "runtime.v1.RuntimeService/Version" with version "v1"
      Then the answer has runtimeApiVersion "v1" and a non-empty runtimeName

    @requires:cri @requires:cri.grpc
    Scenario: an unknown RPC is answered with gRPC status UNIMPLEMENTED
      Given a CRI runtime endpoint
      When I call "runtime.v1.RuntimeService/NoSuchCall"
      Then the call fails with gRPC status code 12 (UNIMPLEMENTED)

  Rule: CRI-CALL-CHAIN — the kubelet drives Pods only through RuntimeService and ImageService calls
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / CRI 调用链
    Claim: Container lifecycle goes through RuntimeService (RunPodSandbox, CreateContainer,
      StartContainer, StopContainer), images through ImageService (PullImage, ListImages, RemoveImage).
    Quote: "Runtime Service（管理容器生命周期：RunPodSandbox、CreateContainer、StartContainer、StopContainer）"

    @requires:kube.api @requires:kubelet @requires:cri
    Scenario: running and deleting a pod produces exactly the expected kinds of CRI calls
      Given a cluster with node "n1" whose CRI calls are recorded
      When I create pod "web" with one container "app" running "sleep 3600"
      And pod "web" reaches phase "Running"
      And I delete pod "web" with gracePeriodSeconds 0
      Then the CRI calls of node "n1" for pod "web" include "RunPodSandbox, CreateContainer, StartContainer, StopContainer, StopPodSandbox"
      And every recorded call of node "n1" is a method of "runtime.v1.RuntimeService" or "runtime.v1.ImageService"

  Rule: CRI-RUNTIME-SERVICE — RuntimeService manages Pod sandboxes and containers
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / CRI 接口规范
    Claim: RuntimeService offers RunPodSandbox, StopPodSandbox, CreateContainer, StartContainer,
      StopContainer, RemoveContainer, ListContainers and ContainerStatus.
    Quote: "**RuntimeService**：管理 Pod Sandbox 和容器的生命周期。"

    @requires:cri
    Scenario: a container goes CREATED → RUNNING → EXITED → removed through the RuntimeService calls
      Given a CRI runtime endpoint with image "busybox" present
      When I call RunPodSandbox for sandbox "s1" in namespace "default"
      And I call CreateContainer "c1" in sandbox "s1" with image "busybox" and command "sleep 3600"
      Then ContainerStatus of "c1" has state "CONTAINER_CREATED"
      When I call StartContainer "c1"
      Then ContainerStatus of "c1" has state "CONTAINER_RUNNING"
      And ListContainers with sandbox filter "s1" returns exactly "c1"
      When I call StopContainer "c1" with timeout 0
      Then ContainerStatus of "c1" has state "CONTAINER_EXITED"
      When I call RemoveContainer "c1"
      Then ContainerStatus of "c1" fails with gRPC status code 5 (NOT_FOUND)
      When I call StopPodSandbox "s1"
      Then PodSandboxStatus of "s1" has state "SANDBOX_NOTREADY"

  Rule: CRI-IMAGE-SERVICE — ImageService pulls, lists, inspects and removes images
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / CRI 接口规范
    Claim: ImageService offers PullImage, ListImages, ImageStatus and RemoveImage.
    Quote: "**ImageService**：管理镜像的拉取、查询与删除。"

    @requires:cri
    Scenario: an image removed through ImageService is gone from ListImages and ImageStatus
      Given a CRI runtime endpoint with image "busybox" present
      Then ListImages contains an image tagged "busybox"
      And ImageStatus of "busybox" returns an image whose id starts with "sha256:"
      When I call RemoveImage "busybox"
      Then ListImages contains no image tagged "busybox"
      And ImageStatus of "busybox" returns no image and no error

  @erratum
  Rule: CRI-SANDBOX-PAUSE — a Pod sandbox holds the Pod's network and IPC namespaces; the PID namespace is per container unless shareProcessNamespace
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / CRI 接口规范
    Claim: The Pod sandbox is CRI's abstraction of Pod-level resources (network namespace, PID
      namespace, ...). In containerd it is the `pause` (infra) container, whose only job is to hold
      the namespaces; business containers join them and so share the network.
    Quote: "containerd 中对应的是 `pause` 容器（也叫 infra 容器），它的唯一作用是持有命名空间，业务容器通过加入这些命名空间实现网络共享。"
    Upstream: The sandbox shares the network and IPC namespaces; the PID namespace is each
      container's own unless the Pod sets `shareProcessNamespace: true`. CRI's NamespaceOption
      comment: "The CRI default is POD, but the v1.PodSpec default is CONTAINER. The kubelet's
      runtime manager will set this to CONTAINER explicitly for v1 pods" (k8s.io/cri-api
      pkg/apis/runtime/v1/api.proto); kubernetes/website tasks/configure-pod-container/
      share-process-namespace.md ("Configure Process Namespace Sharing between Containers in a Pod").

    @requires:cri
    Scenario: two containers of one sandbox share network and IPC namespaces but not the PID namespace
      Given a CRI runtime endpoint with image "busybox" present
      When I call RunPodSandbox for sandbox "s1" in namespace "default"
      And I start container "server" in sandbox "s1" running "sleep 3600"
      And I start container "client" in sandbox "s1" running "sleep 3600"
      Then "readlink /proc/self/ns/net" prints the same in containers "server" and "client"
      And "readlink /proc/self/ns/ipc" prints the same in containers "server" and "client"
      And "readlink /proc/self/ns/pid" prints different things in containers "server" and "client"

    @requires:cri
    Scenario: with the sandbox's PID namespace asked for (shareProcessNamespace), the containers share it
      Given a CRI runtime endpoint with image "busybox" present
      When I call RunPodSandbox for sandbox "s1" with shareProcessNamespace
      And I start container "server" in sandbox "s1" running "sleep 3600"
      And I start container "client" in sandbox "s1" running "sleep 3600"
      Then "readlink /proc/self/ns/pid" prints the same in containers "server" and "client"

    @requires:cri
    Scenario: the sandbox keeps its IP while its containers come and go
      Given a CRI runtime endpoint with image "busybox" present
      When I call RunPodSandbox for sandbox "s1" in namespace "default"
      And I start container "c1" in sandbox "s1" running "sleep 3600"
      And I remember the IP in PodSandboxStatus of "s1"
      And I stop and remove container "c1"
      And I start container "c2" in sandbox "s1" running "sleep 3600"
      Then PodSandboxStatus of "s1" has the remembered IP and state "SANDBOX_READY"

    @requires:kube.api @requires:kubelet @requires:cri
    Scenario: the kubelet asks for a per-container PID namespace unless the pod sets shareProcessNamespace
      Given a cluster with node "n1"
      When I create the pod:
        """yaml
        apiVersion: v1
        kind: Pod
        metadata: {name: shared}
        spec:
          nodeName: n1
          shareProcessNamespace: true
          containers:
          - {name: a, image: busybox, command: ["sleep", "3600"]}
          - {name: b, image: busybox, command: ["sleep", "3600"]}
        """
      And I create pod "apart" with containers "a" and "b" running "sleep 3600"
      Then within 10 seconds pod "shared" has phase "Running"
      And within 10 seconds pod "apart" has phase "Running"
      And "readlink /proc/self/ns/pid" prints the same in containers "a" and "b" of pod "shared"
      And "readlink /proc/self/ns/pid" prints different things in containers "a" and "b" of pod "apart"
      And "readlink /proc/self/ns/net" prints the same in containers "a" and "b" of pod "apart"

  Rule: CRI-PLUGGABLE — any runtime implementing CRI can serve the kubelet
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / CRI 调用链
    Claim: CRI is the abstraction layer that lets the kubelet work with any runtime implementing
      it (containerd, CRI-O, ...): the runtime is pluggable without rebuilding the kubelet.
    Quote: "CRI 作为抽象层，使得 kubelet 可以对接任何实现了 CRI 接口的运行时（containerd、CRI-O 等），实现了**运行时可插拔**。"

    @requires:kube.api @requires:kubelet @requires:cri @requires:kubelet.runtime-endpoint
    Scenario: a kubelet pointed at a different CRI endpoint runs the pod there
      Given a cluster with node "n1" whose kubelet uses the CRI endpoint of a second, recording runtime
      When I create pod "web" with one container "app" running "sleep 3600"
      Then within 30 seconds pod "web" has phase "Running"
      And the second runtime received RunPodSandbox for pod "web"

  @untestable
  Rule: CRI-HISTORY-DOCKER — early Kubernetes was bound to Docker and a runtime change meant rebuilding the kubelet
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / CRI 调用链
    Claim: Before CRI, the kubelet was tied to Docker; switching runtime required recompiling it.
    Quote: "Kubernetes 早期绑定 Docker，切换运行时需要重新编译 kubelet。"
    Untestable: a statement about project history, not about the behaviour of any running component.

  @erratum
  Rule: CRI-DOCKER-NOT-DIRECT — since v1.24 the kubelet cannot use Docker Engine directly; only CRI runtimes
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / Container Runtime
    Claim: Seed 003 names Docker next to containerd and CRI-O as runtimes the kubelet calls.
    Quote: "常见的有 Docker、containerd、cri-o 等" / "调用容器运行时（如 Docker、containerd）启动和管理容器"
    Upstream: dockershim was removed from the kubelet in v1.24 (KEP-2221 "Removing dockershim from
      kubelet", kubernetes/enhancements keps/sig-node/2221-remove-dockershim; "Updated: Dockershim
      Removal FAQ", kubernetes.io blog 2022-02-17). Docker Engine can serve only through the
      external CRI adapter cri-dockerd; the kubelet speaks nothing but CRI.

    @requires:kube.api @requires:kubelet @requires:kubelet.runtime-endpoint
    Scenario: the kubelet refuses a runtime endpoint that does not speak CRI v1
      Given a node "n1" whose kubelet's runtime endpoint answers gRPC but implements no "runtime.v1.RuntimeService"
      When the kubelet of node "n1" starts
      Then the kubelet of node "n1" exits with an error mentioning "runtime.v1.RuntimeService"
      And node "n1" never reports condition "Ready" with status "True"

  Rule: CRI-RUNTIME-LIFECYCLE — the container runtime starts, stops and manages container lifecycles
    Source: 003_83c2ae260ce54bb3.txt § 节点组件 / Container Runtime
    Claim: The container runtime is the component that really runs containers: it starts them,
      stops them and manages their lifecycle.
    Quote: "真正“运行容器”的组件" / "启动容器 - 停止容器 - 管理容器生命周期"

    @requires:cri
    Scenario: a container that ignores SIGTERM is killed with SIGKILL when the stop timeout ends
      # `sleep` as PID 1 has no TERM handler, so the kernel drops SIGTERM for it.
      Given a CRI runtime endpoint with image "busybox" present
      And a running container "c1" in sandbox "s1" running "sleep 3600"
      When I call StopContainer "c1" with timeout 2
      Then within 5 seconds ContainerStatus of "c1" has state "CONTAINER_EXITED" with exitCode 137
