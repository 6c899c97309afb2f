@component:controllers
Feature: Controller Manager — the namespace controller
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager

  The notes describe the controller manager as a set of controllers, each continuously reconciling
  one resource type; their list does not name the namespace controller, but a namespace's life
  depends on it, and a cluster whose namespaces never go away is the first thing a user notices.
  The Rule states what upstream does (pkg/controller/namespace, pkg/registry/core/namespace): a
  deleted namespace is not removed at once. The API server marks it (deletionTimestamp, phase
  Terminating) and keeps it while spec.finalizers holds `kubernetes`; NamespaceLifecycle admission
  refuses new content in it; the namespace controller deletes everything in it — every namespaced
  resource the server serves — and only then removes its finalizer, which deletes the namespace.

  Rule: NS-DELETE-CONTENT — a deleted namespace is Terminating until the namespace controller has deleted everything in it, then it goes
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager
    Claim: The Controller Manager is a set of controllers, each continuously reconciling one resource
      type; for Namespaces upstream's namespace controller empties a namespace being deleted and then
      finalizes it. While it is Terminating nothing new may be created in it (403 Forbidden: "unable to
      create new content in namespace X because it is being terminated", NamespaceLifecycle in
      staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go).
    Quote: "Controller Manager 是一组控制器（Controller）的集合进程，每个控制器负责一种资源类型的持续协调。"

    @requires:kube.api @requires:controllers.namespace
    Scenario: a deleted namespace refuses new content, loses its content, waits for a finalizer, then goes
      Given Namespace "doomed-{ns}" holding ConfigMap "a", Secret "b" and ServiceAccount "builder"
      And ConfigMap "held" in Namespace "doomed-{ns}" with finalizer "kubespec.io/hold"
      When I delete Namespace "doomed-{ns}"
      Then Namespace "doomed-{ns}" has phase "Terminating", a deletionTimestamp and spec.finalizers "kubernetes"
      And creating ConfigMap "late" in Namespace "doomed-{ns}" is refused 403 Forbidden with message "configmaps \"late\" is forbidden: unable to create new content in namespace doomed-{ns} because it is being terminated"
      And within 20 seconds ConfigMap "a", Secret "b" and ServiceAccount "builder" are gone from Namespace "doomed-{ns}"
      And 5 seconds later Namespace "doomed-{ns}" still exists, while ConfigMap "held" waits for its finalizer
      When the finalizers of ConfigMap "held" in Namespace "doomed-{ns}" are removed
      Then within 40 seconds Namespace "doomed-{ns}" is gone

    @requires:kube.api @requires:controllers.namespace @requires:controllers.deployment @requires:controllers.replicaset
    Scenario: a namespace with a Deployment and its pods is emptied and removed
      Given Namespace "apps-{ns}" with a Deployment "web" of 2 replicas whose pods exist
      When I delete Namespace "apps-{ns}"
      Then within 40 seconds Namespace "apps-{ns}" is gone
      And no Deployment, ReplicaSet or Pod is left in Namespace "apps-{ns}"
