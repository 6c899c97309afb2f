@component:overview
Feature: Overview — a control plane that decides, a data plane that runs
  Source: 000_1662d8c5cea2447f.txt § 概述

  Seed 000 opens with the layering the rest of the book relies on: the control plane writes
  declarative state and decides; the data plane — an agent on every node — runs Pods and moves
  their traffic. The parts are checked one by one in the component folders; the rules here are
  the opening claims in their own words.

  @untestable
  Rule: ARCH-TWO-LAYERS — Kubernetes is layered into a control plane and a data plane
    Source: 000_1662d8c5cea2447f.txt § 概述
      — also 003_83c2ae260ce54bb3.txt § 集群结构 (was OVERVIEW-CLUSTER-TWO-PARTS; seed 003 makes the same claim there)
    Claim: Kubernetes uses a control plane (global decisions: scheduling, orchestration, convergence of
      state) over a data plane (per-node agents that run Pods and forward their traffic).
    Quote: "Kubernetes 采用经典的**控制平面 + 数据平面**分层架构。"
    Untestable: a description of structure; what each layer does is checked by the component rules.

  Rule: ARCH-DECISIONS-IN-CONTROL-PLANE — every declarative write, decision and reconciliation happens in the control plane
    Source: 000_1662d8c5cea2447f.txt § 控制平面（Control Plane）
      — also 003_83c2ae260ce54bb3.txt § 控制平面组件 (was OVERVIEW-CONTROL-PLANE-ROLE; seed 003 makes the same claim there)
    Claim: All writes of declarative state, all decisions and all coordination are done in the control
      plane; nodes only carry them out. Upstream's Node authorizer gives a kubelet no more than that:
      its own Node and Lease, Events, and the status of the pods bound to it
      (plugin/pkg/auth/authorizer/node).
    Quote: "所有声明式状态的写入、决策与协调均在此完成。"

    @requires:kube.api @requires:cluster.scheduler @requires:kubelet @requires:kube.audit
    Scenario: a pod's node is chosen by the scheduler, not by the node it lands on, which only reports status
      Given a cluster with nodes "n1" and "n2"
      And the request trace is recording
      When I create pod "web" with no spec.nodeName and one container "app" running "sleep 3600"
      Then within 30 seconds pod "web" has phase "Running"
      And the request trace holds exactly one binding of pod "web", made by user "system:kube-scheduler"
      And every write by a node in the request trace is to its own Node, its Lease, an Event or the status of a pod bound to it
