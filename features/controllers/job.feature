@component:controllers
Feature: Controller Manager — the Job controller
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller

  A Job runs pods until a number of them succeed (`.spec.completions`). The notes name three patterns —
  a single pod, a fixed completion count, and a work queue — a retry limit (`.spec.backoffLimit`), and
  automatic clean-up after completion (`ttlSecondsAfterFinished`). The scenarios use pod templates whose
  containers exit 0 or 1 after one second, so that every run is decided by the spec.

  Rule: JOB-COMPLETIONS — a Job is Complete once .spec.completions of its pods have succeeded
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 / kube-controller-manager (was OVERVIEW-JOB-CONTROLLER; seed 003 makes the same claim there)
    Claim: The Job controller manages the lifecycle of batch work and ensures the Job's pods succeed the
      specified number of times (.spec.completions).
    Quote: "确保 Job 中的 Pod 成功运行指定次数（.spec.completions）。"

    @requires:kube.api @requires:controllers.job @requires:cluster.scheduler @requires:kubelet
    Scenario: completions 3 — three successes and no more
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "count" is created with completions 3 and a container that exits 0 after 1 s
      Then within 60 s Job "count" has condition Complete=True
      And Job "count" reports status.succeeded 3
      And exactly 3 pods were created for Job "count"

  Rule: JOB-MODE-SINGLE — with neither completions nor parallelism set, a Job runs one pod to success
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller
    Claim: The single-pod Job is one of three supported patterns.
    Quote: "支持三种模式：单 Pod Job、固定完成次数 Job、工作队列 Job。"

    @requires:kube.api @requires:controllers.job @requires:cluster.scheduler @requires:kubelet
    Scenario: one pod, one success
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "once" is created with no completions or parallelism and a container that exits 0 after 1 s
      Then Job "once" as read back has spec.completions 1 and spec.parallelism 1
      And within 60 s Job "once" has condition Complete=True
      And exactly 1 pod was created for Job "once"

  Rule: JOB-MODE-FIXED-COMPLETIONS — with completions N and parallelism P, at most P pods run at once until N succeed
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller
    Claim: The fixed-completion-count Job is one of three supported patterns.
    Quote: "固定完成次数 Job"

    @requires:kube.api @requires:controllers.job @requires:cluster.scheduler @requires:kubelet
    Scenario: completions 5, parallelism 2 — never more than 2 active
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "batch" is created with completions 5, parallelism 2 and a container that exits 0 after 1 s
      Then within 120 s Job "batch" has condition Complete=True with status.succeeded 5
      And at every observed moment Job "batch" had at most 2 active pods

  Rule: JOB-MODE-WORK-QUEUE — with parallelism set and completions unset, the Job completes when any pod succeeds and the rest have finished
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller
    Claim: The work-queue Job is one of three supported patterns: pods coordinate through a queue, and
      the Job is done when one of them reports success.
    Quote: "工作队列 Job"

    @requires:kube.api @requires:controllers.job @requires:cluster.scheduler @requires:kubelet
    Scenario: parallelism 3, no completions — no new pods once one has succeeded
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "queue" is created with parallelism 3, no completions, and a container that exits 0 after 5 s
      Then Job "queue" as read back has no spec.completions
      And within 30 s Job "queue" had 3 active pods at one observed moment
      And within 60 s Job "queue" has condition Complete=True
      And exactly 3 pods were created for Job "queue"

  Rule: JOB-BACKOFF-LIMIT — after backoffLimit + 1 failed pods the Job fails with reason BackoffLimitExceeded
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller
    Claim: .spec.backoffLimit controls the number of retries after failure.
    Quote: "通过 .spec.backoffLimit 控制失败重试次数。"

    @requires:kube.api @requires:controllers.job @requires:cluster.scheduler @requires:kubelet @requires:clock.virtual
    Scenario: backoffLimit 2 — three failures, then Failed
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "flaky" is created with backoffLimit 2, restartPolicy Never and a container that exits 1 after 1 s
      Then within 10 minutes of virtual time Job "flaky" has condition Failed=True with reason "BackoffLimitExceeded"
      And exactly 3 pods were created for Job "flaky", all Failed

    @requires:kube.api
    Scenario: backoffLimit defaults to 6
      When Job "defaults" is created without backoffLimit
      Then Job "defaults" as read back has spec.backoffLimit 6

  Rule: JOB-TTL-AFTER-FINISHED — a finished Job with ttlSecondsAfterFinished is deleted that many seconds after it finished, with its pods
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Job Controller
    Claim: ttlSecondsAfterFinished automatically cleans up the Job after it completes.
    Quote: "ttlSecondsAfterFinished 可在完成后自动清理 Job。"

    @requires:kube.api @requires:controllers.job @requires:controllers.ttlafterfinished @requires:controllers.garbagecollector @requires:cluster.scheduler @requires:kubelet @requires:clock.virtual
    Scenario: ttl 100 s — present at 90 s after completion, gone by 110 s
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "tidy" is created with ttlSecondsAfterFinished 100 and a container that exits 0 after 1 s
      And Job "tidy" completes at virtual time C
      Then at C + 90 s Job "tidy" still exists
      And by C + 110 s Job "tidy" and its pods no longer exist

    @requires:kube.api @requires:controllers.job @requires:controllers.ttlafterfinished @requires:controllers.garbagecollector @requires:cluster.scheduler @requires:kubelet @requires:clock.virtual
    Scenario: a Job without the field is kept
      Given a cluster with the controllers running and a kubelet on node "n1"
      When Job "keep" is created with a container that exits 0 after 1 s
      And Job "keep" completes
      And 10 minutes of virtual time pass
      Then Job "keep" still exists
