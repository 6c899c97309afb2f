@component:etcd
Feature: etcd — how many members
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / etcd 集群节点数建议

  The notes' warning box: run 3 or 5 members in production; 3 tolerate one failure, 5 tolerate two; an
  even count such as 4 adds no fault tolerance but adds replication cost. The tolerance figures follow
  from the majority rule (quorum = ⌊n/2⌋ + 1) and are checked by killing members; the production advice
  is not a property of any one store.

  A note on `@members:4`: the even-count rule needs a four-member store; the target sizes itself from
  that tag as it does for `@members:5`.

  Rule: ETCD-SIZE-3-TOLERATES-1 — a 3-member store keeps accepting writes with one member down, and stops with two down
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / etcd 集群节点数建议
    Claim: Three members tolerate one failure.
    Quote: "3 节点容忍 1 个故障"

    @requires:kv @requires:kv.members
    Scenario: one member down — writes continue
      Given a 3-member store
      When the leader is killed
      Then within 5 s a new leader is elected
      And a put of key "/k" succeeds within 5 s

    @requires:kv @requires:kv.members @slow
    Scenario: two members down — writes stop; once they return, writes resume and nothing acknowledged is lost
      Given a 3-member store
      And keys "/acked/1" and "/acked/2" are put
      When 2 members are killed
      Then a put of key "/k" does not succeed within 10 s
      When the killed members are restarted
      Then within 10 s a put of key "/after" succeeds
      And every key acknowledged in this scenario reads back with the value written

  Rule: ETCD-SIZE-5-TOLERATES-2 — a 5-member store keeps accepting writes with two members down, and stops with three down
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / etcd 集群节点数建议
    Claim: Five members tolerate two failures.
    Quote: "5 节点容忍 2 个故障"

    @requires:kv @requires:kv.members @requires:kv.members.5 @members:5
    Scenario: two members down, one of them the leader — writes continue
      Given a 5-member store
      When the leader is killed
      And a follower is killed
      Then within 5 s a new leader is elected
      And a put of key "/k" succeeds within 5 s

    @requires:kv @requires:kv.members @requires:kv.members.5 @members:5 @slow
    Scenario: three members down — writes stop; once they return, writes resume and nothing acknowledged is lost
      Given a 5-member store
      And keys "/acked/1" and "/acked/2" are put
      When 3 members are killed
      Then a put of key "/k" does not succeed within 10 s
      When the killed members are restarted
      Then within 10 s a put of key "/after" succeeds
      And every key acknowledged in this scenario reads back with the value written

  Rule: ETCD-SIZE-EVEN-NO-GAIN — a 4-member store tolerates only one failure, the same as 3
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / etcd 集群节点数建议
    Claim: An even member count (e.g. 4) does not add fault tolerance: the quorum of 4 is 3, so it still
      tolerates only one failure, while every write is replicated to one more member.
    Quote: "偶数节点（如 4）不增加容错能力反而增加复制开销，不推荐。"

    @requires:kv @requires:kv.members @members:4
    Scenario: one member down — writes continue
      Given a 4-member store
      When a follower is killed
      Then a put of key "/k" succeeds within 5 s

    @requires:kv @requires:kv.members @members:4 @slow
    Scenario: two members down — writes stop, unlike a 5-member store
      Given a 4-member store
      When 2 followers are killed
      Then a put of key "/k" does not succeed within 10 s

    @requires:kv @requires:kv.members @requires:raft.observe @members:4
    Scenario: a write in a 4-member store is sent to 3 followers, one more than in a 3-member store
      Given a 4-member store with a stable leader
      When key "/k" is put with value "v"
      Then the trace shows a "MsgApp" carrying the entry sent to each of the 3 followers

  @untestable
  Rule: ETCD-SIZE-RECOMMEND — production stores should have 3 or 5 members
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / etcd 集群节点数建议
    Claim: In production, 3 or 5 etcd members are recommended.
    Quote: "生产环境建议 3 或 5 个节点。"
    Untestable: operational advice for choosing a deployment size; the failure tolerance behind it is checked by the rules above.
