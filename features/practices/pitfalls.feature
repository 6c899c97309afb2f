@component:practices
Feature: Common pitfalls
  Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱

  Five pitfalls, each with a remedy. Most remedies are advice; where a pitfall rests on a
  mechanism (how the scheduler counts requests, how RBAC bindings widen access, how the kubelet
  rotates its certificate) the mechanism is checked.

  # The cause alone (disk latency making leaders change) is ETCD-DISK-LATENCY's; here it is seen
  # through the metrics the remedy names, as an operator sees it. The API server's side is checked
  # in PRACTICE-MONITOR-CONTROL-PLANE (etcd_request_duration_seconds).
  Rule: PITFALL-ETCD-DISK — slow disks make etcd elect leaders often and the API server time out; etcd's WAL fsync latency is the metric to watch
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: etcd is latency-sensitive; slow disk I/O causes frequent leader elections and API server
      timeouts. Remedy: use SSDs and watch the etcd_disk_wal_fsync_duration_seconds metric.
    Quote: "etcd 是延迟敏感型应用，磁盘 I/O 慢会导致 Leader 选举频繁、API Server 超时。" / "使用 SSD，监控 `etcd_disk_wal_fsync_duration_seconds` 指标。"

    @requires:kv @requires:kv.metrics
    Scenario: every committed write is timed in etcd_disk_wal_fsync_duration_seconds
      Given key "/metrics/0" is put with value "0"
      And etcd's metrics are scraped as "before"
      When 5 keys are put one at a time
      And etcd's metrics are scraped as "after"
      Then on the member that leads in "before" and "after", etcd_disk_wal_fsync_duration_seconds_count grew by at least 5
      And every member in "after" exposes etcd_server_leader_changes_seen_total, etcd_server_has_leader and etcd_server_proposals_committed_total

    @requires:kv @requires:kv.members @requires:kv.metrics @requires:disk.latency @requires:clock.virtual
    Scenario: a leader's slow WAL shows in its fsync histogram while the members see the leader change and writes fail
      Given a 3-member store with a stable leader
      And etcd's metrics are scraped as "before"
      When the leader's disk starts taking 2000 ms per sync
      And keys are put one after another for 10 s
      And etcd's metrics are scraped as "after"
      Then from "before" to "after" every WAL fsync of the slowed member took longer than 1.024 s
      And from "before" to "after" etcd_server_leader_changes_seen_total grew on every member
      And at least one of the puts was refused by the store

  Rule: PITFALL-RBAC-TOO-BROAD — a broad ClusterRoleBinding grants access in every namespace
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Overly broad ClusterRole bindings are a security risk: a ClusterRoleBinding grants its
      role in all namespaces, where a RoleBinding confines it to one.
    Quote: "过于宽松的 ClusterRole 绑定带来安全风险"

    @requires:kube.api @requires:kube.rbac
    Scenario: the same ClusterRole bound by ClusterRoleBinding reaches other namespaces; by RoleBinding it does not
      Given a ClusterRole "secret-reader-{ns}" allowing "get,list" on "secrets"
      And service accounts "wide" and "narrow" in the scenario's namespace
      And a ClusterRoleBinding binding ClusterRole "secret-reader-{ns}" to service account "wide"
      And a RoleBinding in the scenario's namespace binding ClusterRole "secret-reader-{ns}" to service account "narrow"
      When "system:serviceaccount:{ns}:wide" lists secrets in Namespace "kube-system"
      Then the response status is 200
      When "system:serviceaccount:{ns}:narrow" lists secrets in Namespace "kube-system"
      Then the response status is 403 with reason "Forbidden"
      When "system:serviceaccount:{ns}:narrow" lists secrets in the scenario's namespace
      Then the response status is 200

  Rule: PITFALL-RBAC-TOO-STRICT — a component without the permissions it needs stops working
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: RBAC that is too strict keeps components from working.
    Quote: "过于严格导致组件无法工作。"

    @requires:kube.api @requires:kube.rbac @requires:kube.audit @requires:cluster.scheduler @requires:kubelet
    Scenario: a scheduler identity that may not create pods/binding leaves pods Pending
      Given a cluster with node "n1"
      And the scheduler's user "system:kube-scheduler" lost its permission to create "pods/binding"
      When I create pod "web" with one container "app" running "sleep 3600", left to the scheduler
      Then pod "web" still has an empty spec.nodeName after 10 seconds
      And the scheduler's binding attempts were answered 403 Forbidden

  Rule: PITFALL-AUTH-CAN-I — `kubectl auth can-i` tells whether a subject may do something
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Follow least privilege and verify permissions with `kubectl auth can-i`.
    Quote: "遵循最小权限原则，使用 `kubectl auth can-i` 验证权限。"

    @requires:kubectl @requires:kube.api @requires:kube.rbac
    Scenario Outline: kubectl auth can-i <verb> <resource> as the service account "app"
      Given service account "app" in the scenario's namespace
      And a Role "pod-reader" in the scenario's namespace allowing "get,list" on "pods"
      And a RoleBinding binding Role "pod-reader" to service account "app"
      When I run "kubectl auth can-i <verb> <resource> -n {ns} --as system:serviceaccount:{ns}:app"
      Then kubectl prints "<answer>" and exits with code <code>

      Examples:
        | verb   | resource | answer | code |
        | list   | pods     | yes    | 0    |
        | delete | pods     | no     | 1    |
        | get    | secrets  | no     | 1    |

  Rule: PITFALL-NO-REQUESTS — without requests the scheduler cannot account for a Pod's needs
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Without resources.requests the scheduler cannot make sound decisions: it fits Pods by
      their requests, so a Pod without requests counts as needing nothing and any number of them
      fit on a node.
    Quote: "没有 requests，Scheduler 无法做出合理的调度决策。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: ten request-less pods all fit a 1-CPU node; a second 600m pod does not
      Given a cluster with one node "n1" with allocatable cpu "1" and memory "1Gi"
      When I create 10 pods with no resource requests
      Then within 10 seconds all 10 pods are bound to node "n1"
      When I create pod "big-1" requesting cpu "600m"
      And I create pod "big-2" requesting cpu "600m"
      Then within 10 seconds pod "big-1" is bound to node "n1"
      And pod "big-2" has condition "PodScheduled" with status "False" and a message containing "Insufficient cpu"

    @requires:kube.api
    Scenario: a container with only limits gets requests equal to its limits
      When I create pod "lim" whose container "app" has limits cpu "500m" and memory "128Mi" and no requests
      Then pod "lim" has container "app" requests cpu "500m" and memory "128Mi"

  Rule: PITFALL-NO-LIMITS — without limits one Pod can take a node's resources; a memory limit is enforced
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Without limits a single Pod can exhaust the node's resources and hurt other Pods; a limit
      caps it (a container over its memory limit is OOM-killed).
    Quote: "没有 limits，单个 Pod 可能耗尽节点资源，影响其他 Pod。"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet
    Scenario: a container allocating past its 64Mi limit is OOMKilled and restarted
      Given a cluster with node "n1"
      When I create pod "hog" with restartPolicy "Always" whose container "app" has memory limit "64Mi" and allocates 256Mi
      Then within 30 seconds the last termination of container "app" of pod "hog" has reason "OOMKilled" and exitCode 137
      And container "app" of pod "hog" has restartCount at least 1

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet
    Scenario: the same container with no memory limit is never stopped: nothing caps what it takes
      Given a cluster with node "n1"
      When I create pod "hog" with restartPolicy "Always" whose container "app" has no memory limit and allocates 256Mi
      And 30 seconds pass
      Then container "app" of pod "hog" is running
      And container "app" of pod "hog" has restartCount 0

  @untestable
  Rule: PITFALL-ALWAYS-SET-RESOURCES — always set resources.requests and resources.limits
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Always set resources.requests and resources.limits on containers.
    Quote: "始终为容器设置 `resources.requests` 和 `resources.limits`。"
    Untestable: advice on writing workloads; the mechanisms behind it are PITFALL-NO-REQUESTS and PITFALL-NO-LIMITS.

  @untestable
  Rule: PITFALL-KUBEADM-CERT-ONE-YEAR — kubeadm issues certificates valid for one year
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: kubelet certificates can expire; kubeadm signs certificates valid for 1 year by default.
    Quote: "kubeadm 默认签发的证书有效期为 1 年。"
    Untestable: a property of the kubeadm installer, which is not a target of this suite.

  @pending
  Rule: PITFALL-KUBELET-CERT-ROTATION — with rotation on, the kubelet renews its client certificate before it expires
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Turning on certificate rotation (--rotate-certificates; upstream now the kubelet config
      field rotateCertificates) makes the kubelet request a new client certificate before the old
      one expires. Upstream rotates at a jittered 70–90 % of the certificate's lifetime
      (k8s.io/client-go util/certificate/certificate_manager.go, nextRotationDeadline).
    Quote: "设置证书自动轮换（`--rotate-certificates`），或使用外部 CA 签发长周期证书。"

    @requires:kube.api @requires:kube.authn @requires:kubelet @requires:clock.virtual
    Scenario: at 91% of its lifetime the kubelet has requested and is using a new certificate
      Given a node "n1" whose kubelet has rotateCertificates true and a client certificate valid for 100 days
      When 91 days pass
      Then a CertificateSigningRequest with signerName "kubernetes.io/kube-apiserver-client-kubelet" and username "system:node:n1" exists
      And once it is approved and signed, the kubelet of node "n1" authenticates with the new certificate
      And node "n1" is still Ready

    @requires:kube.api @requires:kube.authn @requires:kubelet @requires:clock.virtual
    Scenario: before 70% of its lifetime no rotation is requested
      Given a node "n1" whose kubelet has rotateCertificates true and a client certificate valid for 100 days
      When 69 days pass
      Then no CertificateSigningRequest from "system:node:n1" exists

  @untestable
  Rule: PITFALL-LATEST-TAG — the `latest` tag cannot be traced; pin a version tag or digest
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: The latest tag is not traceable, so a rollback cannot tell which version ran before;
      always use an explicit version tag (v1.2.3) or an image digest (sha256).
    Quote: "`latest` 标签不可追溯，回滚时无法确定之前的版本。"
    Untestable: advice about release practice; what a tag points to over time lives in a registry outside the cluster. Digest pinning itself is checked by PITFALL-PIN-DIGEST.

  Rule: PITFALL-PIN-DIGEST — an image referenced by digest runs exactly that content
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱
    Claim: Referencing an image by digest (name@sha256:...) pins the exact content, unlike a
      movable tag such as latest.
    Quote: "始终使用明确的版本标签（如 `v1.2.3`）或镜像摘要（sha256）。"

    Upstream: the runtime resolves `name@sha256:…` by its manifest digest (containerd's CRI
    plugin records a pulled image under `name@<digest>`), and the kubelet reports the runtime's
    ContainerStatus.imageRef — the image's repo digest — as status.containerStatuses[].imageID.
    The tag is moved on the node as a registry push and a re-pull would move it.

    @requires:kube.api @requires:kubelet @requires:cri @requires:cri.images.retag
    Scenario: after the tag moves, a digest-pinned pod still runs the original image
      Given a cluster with node "n1" whose runtime has image "kubespec/app:latest" with digest D1
      And a running pod "pinned" whose container "app" uses image "kubespec/app@" followed by digest D1
      When tag "kubespec/app:latest" is moved to a different image with digest D2
      And pod "pinned" is deleted and created again with the same spec
      Then container "app" of pod "pinned" reports an imageID ending in D1
      And a running pod "floating" whose container "app" uses image "kubespec/app:latest" reports an imageID ending in D2
