@component:controllers
Feature: Controller Manager — the Deployment controller
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller

  A Deployment owns ReplicaSets, which own Pods. A change of replicas scales the current ReplicaSet; a
  change of the pod template makes a new ReplicaSet, which a rolling update scales up while the old
  one scales down. Old ReplicaSets are kept at zero replicas so that `kubectl rollout undo` can switch
  back to one. Each bullet of the notes, and the hierarchy drawing, is a rule.

  The pods these scenarios make name a scheduler no cluster runs, so nothing but the scenario decides
  their state. "Rolled out" means what `kubectl rollout status` waits for; to get there the test marks
  each pod Running and Ready through the status subresource, standing in for its kubelet as upstream's
  Deployment integration tests do (test/integration/deployment: markAllPodsReady) — never for the
  controller under test.

  Rule: DEPLOY-CREATES-REPLICASET — a new Deployment gets one ReplicaSet, owned by it, with its replicas and template
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: The Deployment controller watches Deployments and creates the corresponding ReplicaSet.
    Quote: "监听 Deployment 对象的变更。"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: one ReplicaSet with the pod-template-hash label and revision 1
      Given a cluster with the controllers running
      When Deployment "my-app" is created with 3 replicas and image "app:v1"
      Then within 10 s Deployment "my-app" owns exactly 1 replicaset
      And that replicaset has 3 replicas, image "app:v1", a "pod-template-hash" label, and annotation "deployment.kubernetes.io/revision" = "1"
      And its name is "my-app-" followed by the value of its "pod-template-hash" label

  Rule: DEPLOY-SCALE — changing .spec.replicas resizes the current ReplicaSet and creates no new one
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: When .spec.replicas changes, the controller updates the corresponding ReplicaSet.
    Quote: "当 .spec.replicas 或 .spec.template 发生变化时，创建或更新对应的 ReplicaSet。"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: scaling from 3 to 5 keeps the same ReplicaSet
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 3 replicas and image "app:v1", rolled out
      When Deployment "my-app" is scaled to 5
      Then within 10 s Deployment "my-app" owns exactly 1 replicaset, the same one as before
      And that replicaset has 5 replicas and annotation "deployment.kubernetes.io/revision" = "1"

  Rule: DEPLOY-TEMPLATE-NEW-RS — changing .spec.template creates a new ReplicaSet with the next revision
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: When .spec.template changes, the controller creates a new ReplicaSet.
    Quote: "当 .spec.replicas 或 .spec.template 发生变化时，创建或更新对应的 ReplicaSet。"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: a new image makes revision 2 in a new ReplicaSet
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 3 replicas and image "app:v1", rolled out
      When Deployment "my-app" is updated to image "app:v2"
      Then within 60 s Deployment "my-app" owns exactly 2 replicasets
      And the one with image "app:v2" has annotation "deployment.kubernetes.io/revision" = "2" and a different "pod-template-hash"

  Rule: DEPLOY-ROLLING-UPDATE — a rolling update scales the new ReplicaSet up and the old one down, within maxSurge and maxUnavailable
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: Rolling Update creates the new ReplicaSet and scales it up step by step while scaling the old one down.
    Quote: "支持 Rolling Update（滚动更新）：创建新版 ReplicaSet 逐步扩容，同时缩减旧版。"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: with 4 replicas and the default 25 % surge and unavailability, bounds hold at every step
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 4 replicas and image "app:v1", rolled out
      When Deployment "my-app" is updated to image "app:v2"
      Then within 120 s all 4 pods of Deployment "my-app" run image "app:v2" and are available
      And at every observed moment the two replicasets together had at most 5 pods
      And at every observed moment at least 3 pods were available
      And the old replicaset ends with 0 replicas

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset @requires:clock.virtual
    Scenario: a new version that never becomes ready halts the rollout with the old pods still serving
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 4 replicas and image "app:v1", rolled out
      When Deployment "my-app" is updated to an image whose containers never become ready
      Then after 60 s the old replicaset still has at least 3 available pods
      And the new replicaset has at most 2 pods

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset @requires:clock.virtual
    Scenario: a rollout that makes no progress for progressDeadlineSeconds is reported as ProgressDeadlineExceeded
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 4 replicas and image "app:v1", rolled out
      When Deployment "my-app" is updated to an image whose containers never become ready
      Then after 620 s the old replicaset still has at least 3 available pods
      And Deployment "my-app" has condition Progressing=False with reason "ProgressDeadlineExceeded"

  Rule: DEPLOY-ROLLBACK — kubectl rollout undo returns the Deployment to the previous ReplicaSet's template
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: Rollback switches back to the old ReplicaSet via `kubectl rollout undo`.
    Quote: "支持 Rollback：通过 kubectl rollout undo 切换回旧版 ReplicaSet。"

    @requires:kubectl @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: undo scales the revision-1 ReplicaSet back up and makes it revision 3
      Given a cluster with the controllers running
      And Deployment "my-app" was created with 3 replicas and image "app:v1", then updated to image "app:v2", rolled out
      When I run "kubectl rollout undo deployment/my-app --namespace {ns}"
      Then within 60 s Deployment "my-app" still owns exactly 2 replicasets
      And the replicaset with image "app:v1" has 3 replicas and annotation "deployment.kubernetes.io/revision" = "3"
      And the replicaset with image "app:v2" has 0 replicas

  Rule: DEPLOY-HISTORY-KEPT — replaced ReplicaSets are kept at zero replicas, up to revisionHistoryLimit (default 10)
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: The old ReplicaSet is kept for rollback.
    Quote: "ReplicaSet (my-app-4a6c2e, revision 1) ← 旧版本（保留用于回滚）"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: after two updates both older ReplicaSets remain, scaled to zero
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 2 replicas and image "app:v1", rolled out
      When Deployment "my-app" is updated to image "app:v2" and rolled out
      And Deployment "my-app" is updated to image "app:v3" and rolled out
      Then Deployment "my-app" owns exactly 3 replicasets, with revisions 1, 2 and 3
      And the revision-1 and revision-2 replicasets have 0 replicas

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: revisionHistoryLimit 1 keeps only one old ReplicaSet
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 2 replicas, image "app:v1" and revisionHistoryLimit 1, rolled out
      When Deployment "my-app" is updated to image "app:v2" and rolled out
      And Deployment "my-app" is updated to image "app:v3" and rolled out
      Then within 10 s Deployment "my-app" owns exactly 2 replicasets, with revisions 2 and 3

  Rule: DEPLOY-HIERARCHY — each Pod is owned by a ReplicaSet, and each ReplicaSet by its Deployment
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 / Deployment Controller
    Claim: Deployment → ReplicaSet → Pod is a hierarchy: the Deployment owns ReplicaSets, each owning its Pods.
    Quote: "Deployment → ReplicaSet → Pod 的层级关系"

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: owner references form the chain, with controller=true at each link
      Given a cluster with the controllers running
      When Deployment "my-app" is created with 3 replicas
      Then within 10 s each of its 3 pods has one ownerReference, to its replicaset, with controller true
      And that replicaset has one ownerReference, to Deployment "my-app", with controller true

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset @requires:controllers.garbagecollector
    Scenario: deleting the Deployment deletes its ReplicaSets and Pods
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 3 replicas
      When Deployment "my-app" is deleted with propagationPolicy "Foreground"
      Then within 30 s no replicaset and no pod of Deployment "my-app" remains
      And Deployment "my-app" was deleted only after all of its replicasets and pods

    @requires:kube.api @requires:controllers.deployment @requires:controllers.replicaset @requires:controllers.garbagecollector
    Scenario: deleting the Deployment with propagationPolicy Orphan leaves its ReplicaSets and Pods, owned by no one
      Given a cluster with the controllers running
      And Deployment "my-app" exists with 3 replicas
      When Deployment "my-app" is deleted with propagationPolicy "Orphan"
      Then within 30 s Deployment "my-app" is gone while its replicasets and pods remain, owned by no one
