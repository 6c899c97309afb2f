@component:controllers
Feature: Controller Manager — the pod garbage collector
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解

  The notes list the controllers the manager runs and how they reconcile; they say nothing about
  pods that outlive their node. Upstream's kube-controller-manager runs a pod garbage collector
  (pod-garbage-collector-controller, alias podgc; pkg/controller/podgc/gc_controller.go) that every
  20 s force-deletes terminated pods beyond --terminated-pod-gc-threshold (12500), terminating pods
  never scheduled or on an out-of-service node, and pods bound to a node that no longer exists.
  Without it such a pod would stay Pending or Running for ever: no kubelet is left to end it.

  Rule: PODGC-ORPHANED — a pod bound to a node that does not exist is marked Failed and deleted, after a quarantine
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / Controller Manager / 常见控制器详解 — no claim in the documents; upstream's pod garbage collector (pkg/controller/podgc/gc_controller.go: gcOrphaned, quarantineTime 40 s, DisruptionTarget reason DeletionByPodGC)
    Claim: The controller manager cleans up after nodes that are gone: a pod bound to a node that does
      not exist is first given 40 s for the node to show up, then marked Failed with the condition
      DisruptionTarget (reason DeletionByPodGC) and force-deleted. Pods on nodes that exist are left alone.

    @requires:kube.api @requires:controllers.podgc @slow
    Scenario: a pod on a missing node outlives the quarantine, then is marked Failed and deleted; a pod on a node that exists stays
      Given Node "here-{ns}" exists, with no kubelet
      And pod "stray" bound to node "gone-{ns}", which does not exist, and pod "home" bound to node "here-{ns}"
      When 35 seconds pass
      Then pod "stray" still exists
      And within 60 seconds pod "stray" is gone
      And pod "stray" was Failed with condition DisruptionTarget reason "DeletionByPodGC" before it went
      And pod "home" still exists
