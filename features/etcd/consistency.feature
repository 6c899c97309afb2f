@component:etcd
Feature: etcd — consistency under faults
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议

  etcd keeps its members consistent with Raft. What a client can rely on is that the replicated
  store behaves as a single copy would — linearizability — whatever crashes, partitions and
  message faults strike its members. This is checked the way Jepsen checks real stores: seeded
  fault schedules, concurrent clients, and a Wing–Gong checker over the history they saw.

  Rule: RAFT-LINEARIZABLE — under crashes, partitions and message faults, the replicated store behaves as one copy
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: etcd uses the Raft protocol to guarantee distributed consistency: every history of puts,
      gets and compare-and-swaps that concurrent clients observe is linearizable, and no term ever
      has two leaders, under any schedule of crashes, restarts, partitions, message loss,
      duplication and reordering.
    Quote: "etcd 使用 Raft 协议保证分布式一致性。"

    The scenario runs a batch of schedules (seeded from the scenario's seed, 3- and 5-member
    stores alternately) so the run stays fast; the reference's unit test runs 600
    (reference/sim/linearizability.test.ts), and `--seed N` explores another batch. The batch is 60:
    with PreVote and CheckQuorum a deposed leader that still believes it leads is rare, and a batch
    of 12 no longer met one (the fault stale-leader-read went uncaught; 50 was the least that caught it).

    @requires:kv.fault-schedules
    Scenario: a batch of seeded fault schedules yields only linearizable histories
      When 60 seeded fault schedules run against the store with concurrent clients
      Then every history the clients saw is linearizable
      And in no schedule did a term have more than one leader
      And the clients got at least 600 answers and the faults forced at least 24 elections in all
