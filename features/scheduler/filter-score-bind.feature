@component:scheduler
Feature: Scheduler — filter, score, bind
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程

  The scheduler picks a node for every pod whose spec.nodeName is empty. It filters out nodes that
  fail a hard condition (not enough resources, nodeSelector mismatch, an untolerated taint), scores the
  rest (the default leans to balanced resource use, affinity matches and locality), and binds the pod
  to the best node by writing spec.nodeName; the kubelet of that node then learns of the pod from
  the API server. The info box explains why there are two phases: filtering is constraint
  satisfaction, scoring is optimisation among the feasible nodes.

  Scenarios here use nodes registered through the API (`cluster.nodes`) with stated capacities, so
  every choice has one right answer.

  Rule: SCHED-UNBOUND-ONLY — the scheduler places only pods whose spec.nodeName is empty
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler (was OVERVIEW-SCHED-WATCHES-UNASSIGNED; seed 003 makes the same claim there)
    Claim: The Scheduler chooses a node for each Pod not yet bound to a Node; a pod created with
      spec.nodeName already set is not scheduled.
    Quote: "Scheduler 负责为每个未绑定 Node 的 Pod 选择最优节点。"

    @requires:kube.api @requires:kube.audit @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod created with nodeName set is never bound by the scheduler
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And the request trace is recording
      When Pod "pinned" is created with spec.nodeName "n2"
      And 10 s pass
      Then Pod "pinned" is on Node "n2"
      And the request trace holds no binding for Pod "pinned"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod created without nodeName is bound within seconds
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pod "free" is created requesting 100m CPU
      Then within 10 s Pod "free" is bound to a node
      And Pod "free" has condition PodScheduled=True

  Rule: SCHED-FILTER-RESOURCES — a node without enough unrequested CPU or memory is filtered out
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-scheduler (was OVERVIEW-SCHED-RESOURCES; seed 003 makes the same claim there)
    Claim: Filtering removes nodes that fail hard conditions, e.g. insufficient resources.
    Quote: "移除不满足硬性条件的节点 … 例：资源不足"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the only node with room is chosen
      Given a cluster with node "small" with 1 CPU and node "big" with 8 CPU, each with 8Gi memory
      When Pod "hungry" is created requesting 2 CPU
      Then within 10 s Pod "hungry" is on Node "big"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: requests count, not actual usage — a node full of requests admits no more
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 1500m CPU
      When Pod "b" is created requesting 1 CPU
      Then after 10 s Pod "b" is still Pending
      And Pod "b" has condition PodScheduled=False with reason "Unschedulable" and a message containing "Insufficient cpu"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: memory is filtered as CPU is — a pod goes to the node with room for its memory, and waits when none has it, counted per node
      # NodeResourcesFit checks every requested resource against what the node has left
      # unrequested (pkg/scheduler/framework/plugins/noderesources/fit.go, "Insufficient memory").
      Given a cluster with node "small" with 4 CPU and 2Gi memory and node "busy" with 4 CPU and 8Gi memory
      And pods requesting a total of 3 CPU and 1Gi memory are on Node "busy"
      When Pod "cache" is created requesting 100m CPU and 3Gi memory
      Then within 10 s Pod "cache" is on Node "busy"
      When Pod "huge" is created requesting 100m CPU and 16Gi memory
      Then after 10 s Pod "huge" is still Pending
      And Pod "huge" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/2 nodes are available: 2 Insufficient memory."

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a node's pod capacity is a resource too — a node running as many pods as it allows takes no more
      # status.allocatable.pods (the kubelet's --max-pods) bounds the pods on a node whatever they
      # request; upstream's reason is "Too many pods" (noderesources/fit.go).
      Given a cluster with node "n1" with 4 CPU and 8Gi memory and room for 1 pod
      And Pod "first" is on Node "n1" requesting 100m CPU
      When Pod "second" is created requesting 100m CPU
      Then after 10 s Pod "second" is still Pending
      And Pod "second" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/1 nodes are available: 1 Too many pods."

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: memory is counted by requests as CPU is — a node whose memory is mostly requested admits no pod needing more than the rest
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 100m CPU and 6Gi memory
      When Pod "b" is created requesting 100m CPU and 4Gi memory
      Then after 10 s Pod "b" is still Pending
      And Pod "b" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/1 nodes are available: 1 Insufficient memory."

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a request equal to what is left fits, and the message names only the resources that do not
      # noderesources/fit.go fitsRequest: a resource is insufficient when the request exceeds
      # allocatable − requested, so an exact fit passes; "Too many pods" when the pods on the node plus
      # this one exceed its allocatable pods.
      Given a cluster with node "n1" with 2 CPU and 4Gi memory and room for 2 pods
      And Pod "a" is on Node "n1" requesting 1500m CPU and 1Gi memory
      When Pod "cpu-heavy" is created requesting 1 CPU and 3Gi memory
      And Pod "mem-heavy" is created requesting 500m CPU and 4Gi memory
      Then after 10 s Pod "cpu-heavy" is still Pending
      And Pod "cpu-heavy" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/1 nodes are available: 1 Insufficient cpu."
      And Pod "mem-heavy" is still Pending
      And Pod "mem-heavy" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/1 nodes are available: 1 Insufficient memory."
      When Pod "exact" is created requesting 500m CPU and 3Gi memory
      Then within 10 s Pod "exact" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod that requests no CPU or memory fits even a node whose requests already exceed what it has
      # fit.go fitsRequest checks a resource only when the pod requests some of it; a pod bound by
      # spec.nodeName never went through the filter, so a node can be overcommitted.
      Given a cluster with node "n1" with 1 CPU and 1Gi memory
      And Pod "hog" is on Node "n1" requesting 1500m CPU and 2Gi memory
      When Pod "tiny" is created with label "app=tiny"
      Then within 10 s Pod "tiny" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod waiting for room is placed as soon as the pod holding it is deleted
      # NodeResourcesFit registers for assigned-pod deletion and Node add/allocatable changes
      # (fit.go EventsToRegister): the waiting pod is retried at once, not after the 5-minute flush.
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 1500m CPU
      When Pod "b" is created requesting 1 CPU
      Then after 10 s Pod "b" is still Pending
      When Pod "a" is deleted
      Then within 10 s Pod "b" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod that has finished holds no room — a pod waiting for it is placed once it has Succeeded
      # kube-scheduler watches only pods that have not terminated (pkg/scheduler/scheduler.go
      # newPodInformer, field selector status.phase!=Succeeded,status.phase!=Failed): a finished
      # pod leaves its cache as a deleted one does, and its requests stop counting on the node.
      # No kubelet runs on n1, so the test reports the phase in its place.
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 1500m CPU
      When Pod "b" is created requesting 1 CPU
      Then after 10 s Pod "b" is still Pending
      When Pod "a" reports phase Succeeded, as its kubelet would
      Then within 10 s Pod "b" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod waiting for room is placed as soon as a node with room joins
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 1500m CPU
      When Pod "b" is created requesting 1 CPU
      Then after 10 s Pod "b" is still Pending
      When Node "n2" with 2 CPU and 8Gi memory joins the cluster
      Then within 10 s Pod "b" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod waiting for room is placed as soon as its node reports more allocatable
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 1500m CPU
      When Pod "b" is created requesting 1 CPU
      Then after 10 s Pod "b" is still Pending
      When Node "n1" reports 4 CPU and 8Gi memory allocatable
      Then within 10 s Pod "b" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod waiting for CPU is not retried on changes that cannot make room, so it is placed at once when room is made
      # Upstream moves an unschedulable pod back to the queue only on the cluster events the plugins
      # that rejected it registered (noderesources/fit.go EventsToRegister: pod deletion or scale-down,
      # node add or allocatable change — never a pod added; the queue's MoveAllToActiveOrBackoffQueue
      # checks them against the pod's UnschedulablePlugins), and each failed attempt doubles its
      # backoff from 1 s up to 10 s (podInitialBackoffDuration, podMaxBackoffDuration). A pod retried
      # on each of these four pod additions would be 10 s into a backoff when the room is made.
      Given a cluster with node "n1" with 2 CPU and 8Gi memory
      And Pod "a" is on Node "n1" requesting 1500m CPU
      When Pod "b" is created requesting 1 CPU
      Then after 10 s Pod "b" is still Pending
      When Pod "x1" is on Node "n1" with label "app=x"
      And 15 s pass
      And Pod "x2" is on Node "n1" with label "app=x"
      And 15 s pass
      And Pod "x3" is on Node "n1" with label "app=x"
      And 15 s pass
      And Pod "x4" is on Node "n1" with label "app=x"
      And 1 s pass
      And Pod "a" is deleted
      Then within 3 s Pod "b" is on Node "n1"

  Rule: SCHED-FILTER-NODESELECTOR — a node whose labels do not match the pod's nodeSelector is filtered out
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
    Claim: Filtering removes nodes whose labels do not match the pod's NodeSelector.
    Quote: "NodeSelector 不匹配"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: only the labelled node is eligible
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n2" has label "disk=ssd"
      When Pod "db" is created with nodeSelector "disk=ssd"
      Then within 10 s Pod "db" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: no matching node — the pod waits, and is placed as soon as a node gains the label
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      When Pod "db" is created with nodeSelector "disk=ssd"
      Then after 10 s Pod "db" is still Pending
      When Node "n1" is given label "disk=ssd"
      Then within 30 s Pod "db" is on Node "n1"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: no matching node — the pod waits, and is placed as soon as a labelled node joins
      # NodeAffinity registers for Node add and label changes (node_affinity.go EventsToRegister).
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      When Pod "db" is created with nodeSelector "disk=ssd"
      Then after 10 s Pod "db" is still Pending
      When Node "n2" with 4 CPU and 8Gi memory, labelled "disk=ssd", joins the cluster
      Then within 10 s Pod "db" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod waiting for a label is not retried when the node's allocatable changes, so it is placed at once when the label comes
      # NodeAffinity registers Node add and label updates (and taint updates where queueing hints are
      # off), never an allocatable change (nodeaffinity/node_affinity.go EventsToRegister): that cannot
      # make a nodeSelector match, so the pod is not retried and its backoff stays at the first
      # attempt's 1 s (see SCHED-FILTER-RESOURCES).
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      When Pod "db" is created with nodeSelector "disk=ssd"
      Then after 10 s Pod "db" is still Pending
      When Node "n1" reports 5 CPU and 8Gi memory allocatable
      And 15 s pass
      And Node "n1" reports 6 CPU and 8Gi memory allocatable
      And 15 s pass
      And Node "n1" reports 7 CPU and 8Gi memory allocatable
      And 15 s pass
      And Node "n1" reports 8 CPU and 8Gi memory allocatable
      And 1 s pass
      And Node "n1" is given label "disk=ssd"
      Then within 3 s Pod "db" is on Node "n1"

  Rule: SCHED-FILTER-TAINT — a node with a NoSchedule taint the pod does not tolerate is filtered out
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
    Claim: Filtering removes nodes with a Taint for which the pod has no matching Toleration.
    Quote: "Taint 无对应 Toleration"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the untainted node is chosen, though it is the busier one
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" has taint "dedicated=gpu:NoSchedule"
      And pods requesting a total of 1 CPU and 2Gi memory are on Node "n2"
      When Pod "web" is created requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n2"

  Rule: SCHED-FILTER-BEFORE-SCORE — a filtered-out node is never chosen, however well it would score
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 为什么是 Filter + Score 两阶段？
    Claim: Filtering is a constraint-satisfaction problem that shrinks the candidate set by elimination;
      scoring is an optimisation among the feasible nodes only.
    Quote: "过滤阶段是约束满足问题（CSP），用排除法缩小候选集；打分阶段是优化问题，在可行解中找最优。"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: an empty but tainted node loses to a busy feasible one
      Given a cluster with nodes "empty" and "busy", each with 4 CPU and 8Gi memory
      And Node "empty" has taint "maintenance=true:NoSchedule"
      And pods requesting a total of 3 CPU are on Node "busy"
      When Pod "web" is created requesting 500m CPU
      Then within 10 s Pod "web" is on Node "busy"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: when no node passes the filters the pod stays Pending and the reasons are counted per node
      Given a cluster with nodes "n1" and "n2", each with 1 CPU and 8Gi memory
      And Node "n1" has taint "maintenance=true:NoSchedule"
      When Pod "huge" is created requesting 2 CPU
      Then after 10 s Pod "huge" is still Pending
      And Pod "huge" has condition PodScheduled=False with reason "Unschedulable" and a message starting "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {maintenance: true}. preemption: "

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: in a cluster of 250 nodes a cycle stops filtering at 120 feasible nodes, so the best node is scored by 12 pods in 25
      # Upstream scores a sample of the feasible nodes in clusters of 100 nodes or more
      # (schedule_one.go numFeasibleNodesToFind: 50 − 250/125 = 48 % of 250 is 120, above the minimum
      # of 100), and each cycle starts where the previous one stopped (nextStartNodeIndex). 25 cycles
      # of 120 over 250 nodes go round exactly 12 times, so every node, "best" too, is in the sample of
      # exactly 12 of them, wherever the scan starts; the preferred node wins each time it is seen.
      Given a cluster with 249 nodes "w-1" to "w-249", each with 4 CPU and 8Gi memory, registered in that order
      And Node "best" with 4 CPU and 8Gi memory, labelled "disk=ssd", joins the cluster
      When 25 pods are created, one at a time, each with preferred node affinity "disk In (ssd)" of weight 100
      Then exactly 12 of them are on Node "best"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: with no node at all there is nothing to filter — the pod waits with upstream's "no nodes available to schedule pods"
      # schedule_one.go schedulePod returns ErrNoNodesAvailable before running any plugin when the
      # snapshot has no node.
      Given a cluster with no node registered
      When Pod "early" is created requesting 100m CPU
      Then after 10 s Pod "early" is still Pending
      And Pod "early" has condition PodScheduled=False with reason "Unschedulable" and a message containing "no nodes available to schedule pods"

  @untestable
  Rule: SCHED-TWO-PHASE-EXTENSIBLE — separating the two phases lets each be extended and plugged independently
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 为什么是 Filter + Score 两阶段？
    Claim: Separating filtering and scoring lets each step be extended and turned into plugins independently.
    Quote: "两阶段分离使得每一步可以独立扩展和插件化。"
    Untestable: a property of the scheduler's code structure (see FRAMEWORK-EXTENSION-POINTS), not of any cluster's behaviour.

  Rule: SCHED-SCORE-BALANCED — among feasible nodes the default scoring prefers the one with the most free, balanced resources
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
    Claim: Remaining nodes are scored; the default policy favours a balanced distribution of resource use.
    Quote: "默认策略倾向于：资源均衡分布"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the less loaded of two otherwise equal nodes is chosen
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And pods requesting a total of 3 CPU and 6Gi memory are on Node "n1"
      When Pod "web" is created requesting 500m CPU and 512Mi memory
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: ten identical pods on three empty identical nodes are spread 4-3-3 or 3-4-3 or 3-3-4
      Given a cluster with nodes "n1", "n2" and "n3", each with 4 CPU and 8Gi memory
      When 10 pods are created, one at a time, each requesting 200m CPU and 256Mi memory
      Then within 30 s all 10 pods are bound
      And no node holds more than 4 of them and none fewer than 3

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: free memory counts as free CPU does — a node whose memory is mostly taken loses to one with more of both left
      # LeastAllocated (noderesources/least_allocated.go) averages the free share of CPU and of memory.
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And pods requesting a total of 100m CPU and 6Gi memory are on Node "n1"
      And pods requesting a total of 1 CPU and 1Gi memory are on Node "n2"
      When Pod "web" is created requesting 100m CPU and 100Mi memory
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the free share is counted with the pod on the node — a small empty node it would half fill loses to a big node with more left
      # LeastAllocated scores (allocatable − requested − the pod's request) / allocatable: "small" keeps
      # 50 % free, "big" 62 % (least_allocated.go leastRequestedScore).
      Given a cluster with node "small" with 2 CPU and 2Gi memory and node "big" with 8 CPU and 8Gi memory
      And pods requesting a total of 2 CPU and 2Gi memory are on Node "big"
      When Pod "web" is created requesting 1 CPU and 1Gi memory
      Then within 10 s Pod "web" is on Node "big"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the least-allocated score outweighs a slightly better balance — the empty node wins over a busier, perfectly balanced one
      # NodeResourcesFit (LeastAllocated, weight 1): n1 72, n2 86; NodeResourcesBalancedAllocation
      # (weight 1, balanced_allocation.go: 100 × (1 − |cpu share − memory share| / 2)): n1 99, n2 88.
      # n2 wins 174 to 171: both scores count, neither alone decides.
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And pods requesting a total of 100m CPU and 2150Mi memory are on Node "n1"
      When Pod "web" is created requesting 1 CPU and 100Mi memory
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a pod with no requests is scored as if it asked for 100m CPU and 200Mi memory
      # NodeResourcesFit scores with the non-zero requests (pkg/scheduler/util/pod_resources.go:
      # DefaultMilliCPURequest 100, DefaultMemoryRequest 200 MB): on "small" the pod would take 10 %
      # of the CPU and 20 % of the memory, so "big" wins 186 to 180; counted as zero, "small" would.
      Given a cluster with node "small" with 1 CPU and 1Gi memory and node "big" with 8 CPU and 8Gi memory
      And pods requesting a total of 800m CPU and 800Mi memory are on Node "big"
      When Pod "web" is created with label "app=web"
      Then within 10 s Pod "web" is on Node "big"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: nodes that score the same are chosen among at random — twenty small pods on two huge nodes land on both
      # On nodes this large a 100m pod moves no score, so every pod sees a tie; upstream picks uniformly
      # among the best (schedule_one.go selectHost, reservoir sampling), so all twenty on one node
      # has a chance of 2^-19.
      Given a cluster with nodes "n1" and "n2", each with 1000 CPU and 4000Gi memory
      When 20 pods are created, one at a time, each requesting 100m CPU and 100Mi memory
      Then within 10 s all 20 pods are bound
      And each of Nodes "n1" and "n2" holds at least one of them

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: among three nodes that score the same each is chosen about a third of the time — none is favoured by its place in the list
      # selectHost keeps the i-th of k equal scores with chance 1/k (reservoir sampling,
      # schedule_one.go), so each of three tied nodes takes a third of the pods: 20 of 60 on
      # average, fewer than 8 or more than 32 with a chance below 1 in 1,000.
      Given a cluster with nodes "n1", "n2" and "n3", each with 1000 CPU and 4000Gi memory
      When 60 pods are created, one at a time, each requesting 100m CPU and 100Mi memory
      Then within 10 s all 60 pods are bound
      And no node holds more than 32 of them and none fewer than 8

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: a resource requested beyond what a node has counts as fully used, not more — two overcommitted nodes are equally full
      # least_allocated.go leastRequestedScore scores a resource 0 when its requests exceed the
      # allocatable (and balanced_allocation.go caps each fraction at 1): a node three times
      # overcommitted on CPU is no worse than one overcommitted by half, so pods that request nothing
      # (and pass the filter, see SCHED-FILTER-RESOURCES) are spread over both at random.
      Given a cluster with nodes "n1" and "n2", each with 1 CPU and 4000Gi memory
      And Pod "hog-1" is on Node "n1" requesting 10 CPU
      And Pod "hog-2" is on Node "n2" requesting 1500m CPU
      When 20 pods are created, one at a time, each with label "app=web"
      Then each of Nodes "n1" and "n2" holds at least one of them

  @erratum
  Rule: SCHED-SCORE-LOCALITY — the default scoring prefers nodes that already have the pod's container images
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
    Claim: The default scoring favours data locality.
    Quote: "默认策略倾向于：资源均衡分布、亲和性匹配、数据局部性"
    Upstream: the default score plugins (pkg/scheduler/apis/config/v1/default_plugins.go) are
      TaintToleration, NodeAffinity, NodeResourcesFit, PodTopologySpread, InterPodAffinity,
      NodeResourcesBalancedAllocation and ImageLocality. The only locality scored is image locality
      (pkg/scheduler/framework/plugins/imagelocality): nodes that already hold the container images score
      higher. Nothing scores the location of a pod's data; volume placement is a filter (VolumeBinding, VolumeZone).

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the node that already has a large image wins between two empty nodes
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n2" reports image "registry.example/big:1" of 800Mi in its status
      When Pod "web" is created with image "registry.example/big:1" requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n2"

    @requires:kube.api @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: the image is worth more than a modest difference in load — the node holding it wins over an emptier one
      # ImageLocality (image_locality.go): 800Mi on one node of two counts 400Mi, scaled between 23 MB
      # and 1000 MB: 38. LeastAllocated gives the emptier node 97 against 72, balance is even, so the
      # image node wins 209 to 196.
      Given a cluster with nodes "n1" and "n2", each with 4 CPU and 8Gi memory
      And Node "n1" reports image "registry.example/big:1" of 800Mi in its status
      And pods requesting a total of 1 CPU and 2Gi memory are on Node "n1"
      When Pod "web" is created with image "registry.example/big:1" requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n1"

  Rule: SCHED-BIND-NODENAME — binding writes the chosen node into the pod's spec.nodeName
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
    Claim: Binding picks the highest-scoring node and writes it to Pod.spec.nodeName.
    Quote: "选择得分最高的节点，写入 Pod.spec.nodeName"

    @requires:kube.api @requires:kube.audit @requires:cluster.scheduler @requires:cluster.nodes
    Scenario: binding is one POST to the pod's binding subresource, after which nodeName is set
      Given a cluster with node "n1" with 4 CPU and 8Gi memory
      And the request trace is recording
      When Pod "web" is created requesting 100m CPU
      Then within 10 s Pod "web" is on Node "n1"
      And the request trace holds exactly 1 POST to "/api/v1/namespaces/{ns}/pods/web/binding", with target Node "n1"

    @requires:kube.api
    Scenario: a bound pod cannot be re-bound
      Given Pod "web" exists with spec.nodeName "n1"
      When a Binding of Pod "web" to Node "n2" is posted
      Then the response status is 409 with reason "Conflict"
      And Pod "web" is on Node "n1"

  Rule: SCHED-KUBELET-LEARNS — the kubelet of the chosen node learns of the binding from the API server and runs the pod
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Scheduler / 调度流程
    Claim: After binding, the API server notifies the kubelet of the corresponding node (through the
      kubelet's watch on pods whose spec.nodeName is its node).
    Quote: "API Server 通知对应节点的 kubelet"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:cri
    Scenario: only the chosen node's kubelet starts the pod
      Given a cluster with 2 nodes running kubelets
      When Pod "web" is created requesting 100m CPU
      Then within 30 s Pod "web" is Running
      And Pod "web"'s status.hostIP is the address of the node named in its spec.nodeName
      And only the runtime of the node named in Pod "web"'s spec.nodeName was asked to run a sandbox for it
