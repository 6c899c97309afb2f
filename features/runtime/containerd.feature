@component:runtime
Feature: containerd — architecture of the mainstream CRI runtime
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构

  The notes draw containerd as a CRI plugin in front of a container service, a sandbox service
  and an image service, above a task manager (runc / youki), a content store, a snapshotter and
  an event bus. Its internal module split is not visible through CRI, the interface every target
  exposes; what is visible is checked here — metadata, process lifecycle, content-addressed images
  and lifecycle events. The internal split itself is @untestable.

  @untestable
  Rule: CTRD-MAINSTREAM — containerd is the most widely used runtime, split out of Docker
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd）
    Claim: containerd is the most mainstream Kubernetes container runtime, an industrial-grade
      runtime extracted from Docker.
    Quote: "containerd 是目前 Kubernetes 最主流的容器运行时，从 Docker 中剥离出来的**工业级容器运行时**。"
    Untestable: a statement about adoption and history, not about behaviour a scenario can observe.

  Rule: CTRD-CRI-PLUGIN — containerd's CRI plugin serves the CRI gRPC API and translates kubelet requests
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: The CRI plugin implements the CRI gRPC interface and translates kubelet requests into
      calls on containerd's container, sandbox and image services.
    Quote: "**CRI Plugin** | 实现 CRI gRPC 接口，翻译 kubelet 请求"

    @requires:cri @requires:cri.containerd
    Scenario: a sandbox created through CRI shows up as a containerd container in the k8s.io namespace
      Given a containerd CRI runtime endpoint with image "busybox" present
      When I call RunPodSandbox for sandbox "s1" in namespace "default"
      Then the runtime's Version answer has runtimeName "containerd"
      And containerd namespace "k8s.io" lists a container whose id is the sandbox id of "s1"

  Rule: CTRD-CONTAINER-METADATA — the container service keeps container metadata: create, delete, query
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: The container service manages container metadata — creation, deletion and lookup —
      separately from the running process.
    Quote: "**Container Service** | 管理容器的元数据（创建、删除、查询）"

    @requires:cri
    Scenario: labels and annotations given at creation are returned by ContainerStatus until removal
      Given a CRI runtime endpoint with image "busybox" present
      And a sandbox "s1"
      When I call CreateContainer "c1" in sandbox "s1" with image "busybox", label "team=blue" and annotation "note=x"
      Then ContainerStatus of "c1" has metadata name "c1", attempt 0, label "team=blue" and annotation "note=x"
      And ContainerStatus of "c1" has state "CONTAINER_CREATED" and no startedAt
      When I call RemoveContainer "c1"
      Then ListContainers returns no container named "c1"

  Rule: CTRD-TASK-LIFECYCLE — the task manager runs container processes: start and stop
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: The task manager manages the lifecycle of the container's process (start, stop, pause)
      through a low-level runtime such as runc or youki. CRI exposes start and stop; pause is not
      part of CRI and is not checked.
    Quote: "**Task Manager** | 管理容器进程的生命周期（start、stop、pause）"

    @requires:cri
    Scenario: a started container has a pid and startedAt; after it exits it has exitCode and finishedAt
      Given a CRI runtime endpoint with image "busybox" present
      And a sandbox "s1"
      When I call CreateContainer "c1" in sandbox "s1" with image "busybox" and command "sh -c 'sleep 1; exit 4'"
      And I call StartContainer "c1"
      Then ContainerStatus of "c1" has state "CONTAINER_RUNNING" and a startedAt
      And within 5 seconds ContainerStatus of "c1" has state "CONTAINER_EXITED" with exitCode 4 and a finishedAt after startedAt

  Rule: CTRD-CONTENT-ADDRESSABLE — image content is stored by digest
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: The content store keeps image layers in content-addressable storage: content is named by
      its digest, so the same content under two names is stored once.
    Quote: "**Content Store** | 管理镜像层（layer）的存储，支持 content-addressable 存储"

    @requires:cri @requires:cri.containerd
    Scenario: two tags of the same image have one image id, which is a sha256 digest
      Given a CRI runtime endpoint with image "busybox" present
      When the same image is also tagged "kubespec/alias:v1" in the runtime
      Then ImageStatus of "busybox" and of "kubespec/alias:v1" return the same id
      And that id matches "^sha256:[0-9a-f]{64}$"
      And ListImages returns that id once, with both tags in repoTags

  @untestable
  Rule: CTRD-SNAPSHOTTER — the snapshotter manages container filesystem snapshots (overlayfs, btrfs)
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: The snapshotter manages container filesystem snapshots, with overlayfs, btrfs and other backends.
    Quote: "**Snapshotter** | 管理容器文件系统快照（overlayfs、btrfs 等）"
    Untestable: the snapshotter is internal to containerd; CRI exposes neither snapshots nor the snapshotter in use.

  Rule: CTRD-EVENTS — the runtime publishes container lifecycle events
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: containerd publishes container lifecycle events. Through CRI they are the
      GetContainerEvents stream (CRI v1; served by containerd from 1.7, not by 1.6).
    Quote: "**Events** | 发布容器生命周期事件"

    @requires:cri @requires:cri.events
    Scenario: a container's life produces created, started, stopped and deleted events in order
      Given a CRI runtime endpoint with image "busybox" present
      And I subscribe to GetContainerEvents
      When I create, start, stop and remove container "c1" in a new sandbox "s1"
      Then the events for container "c1" are in order "CONTAINER_CREATED_EVENT, CONTAINER_STARTED_EVENT, CONTAINER_STOPPED_EVENT, CONTAINER_DELETED_EVENT"

  @untestable
  Rule: CTRD-MODULE-SPLIT — containerd's CRI plugin sits on separate container, sandbox and image services
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / Container Runtime（containerd） / containerd 架构
    Claim: Inside containerd the CRI plugin calls a container service (→ task manager → runc/youki),
      a sandbox service (→ network sandbox) and an image service (→ content store).
    Quote: "CRI --> CT[Container Service]" / "CRI --> SS[Sandbox Service]" / "CRI --> IS[Image Service]"
    Untestable: the internal wiring of containerd's modules is not observable through CRI, the only runtime interface targets expose.
