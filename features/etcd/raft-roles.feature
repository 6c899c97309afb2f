@component:etcd
Feature: etcd — Raft roles
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议

  etcd keeps its members consistent with Raft, and the notes' table gives the three roles, what each
  does, and how a member comes to hold it. One rule per role-and-condition. Scenarios that look inside
  the protocol need `raft.observe` (the reference); those that only need "who is leader" and "did
  the write work" run against real etcd too.

  Rule: RAFT-LEADER-MAJORITY-VOTE — a member becomes leader only with votes from a majority of the members
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: The Leader is the member that won votes from a majority of the members.
    Quote: "Leader | 处理所有写请求，日志复制到 Follower | 获得多数节点投票"

    @requires:kv.members @requires:clock.virtual
    Scenario: a 3-member store elects exactly one leader
      Given a 3-member store
      Then within 5 s of virtual time exactly one member reports itself leader
      And every live member names that member as leader

    @requires:kv.members @requires:net.partition @requires:clock.virtual
    Scenario: a member cut off alone cannot become leader however long it waits
      Given a 3-member store
      When a follower is partitioned from the other two members
      Then for 60 s of virtual time the partitioned member never reports itself leader
      And the other two members still agree on one leader

    @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: with only one of three members alive no leader is elected
      Given a 3-member store
      When 2 followers are killed
      Then for 30 s of virtual time no live member reports itself leader in a term after the kill
      And a put of key "/k" does not succeed within 10 s

  Rule: RAFT-ONE-LEADER-PER-TERM — at no instant do two members lead the same term
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: A Leader is the member that won votes from a majority. Each member votes at most once per
      term and any two majorities share a member, so a term can have at most one leader (Raft §5.2,
      Election Safety) — at every moment of a run, not only once it has settled.
    Quote: "Leader | 处理所有写请求，日志复制到 Follower | 获得多数节点投票"

    The leaders are recorded throughout the run: on a target with `raft.observe` at every state
    change of every member, and everywhere at every poll of every wait.

    @requires:kv.members
    Scenario: over repeated leader crashes no term ever has two leaders
      Given a 3-member store
      And the leader of every term is recorded from now on
      When the leader is killed and, once another member leads, restarted, 4 times
      Then no term had more than one leader
      And leaders were recorded in at least 5 different terms

    @requires:kv @requires:kv.members
    Scenario: a member restarted after a crash comes back in at least the term it was in
      One vote per term holds across crashes only if a member keeps its term and its vote: Raft
      Figure 2 lists currentTerm and votedFor as persistent state, "updated on stable storage
      before responding to RPCs". etcd-io/raft hands them to the host in Ready.HardState, which
      etcd writes to its WAL before it sends the Ready's messages, and a restarted member starts
      from the HardState it finds there (etcd-io/raft bootstrap: Storage.InitialState). A member
      that came back in an earlier term would take the vote requests of that term afresh.

      Given a 3-member store with a stable leader
      And key "/k" is put with value "v"
      When a follower is killed, with the term it reports noted
      And it is restarted
      Then the first term it reports after the restart is at least the noted one

    @requires:kv.members @requires:kv.members.5 @requires:net.partition @requires:raft.observe @requires:clock.virtual @members:5
    Scenario: over random partitions of a 5-member store no term ever has two leaders
      Given a 5-member store
      And the leader of every term is recorded from now on
      When the members are split at random into two sides and healed, 160 times
      Then no term had more than one leader
      And leaders were recorded in at least 10 different terms

  Rule: RAFT-VOTE-UP-TO-DATE-LOG — a member votes only for a candidate whose log is at least as up to date as its own
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: A Leader must win the votes of a majority; a member refuses its vote to a candidate whose
      log is behind its own (last term lower, or equal and shorter: Raft §5.4.1). Since every
      committed entry is on a majority, a member missing committed entries can never gather a
      majority, and no acknowledged write is lost to a new leader.
    Quote: "Leader | 处理所有写请求，日志复制到 Follower | 获得多数节点投票"

    @requires:kv @requires:kv.members
    Scenario: a member that missed acknowledged writes is not elected when it campaigns first
      The member that missed the writes comes back alone and campaigns, term after term; the
      member that holds the writes comes back later and receives its requests for votes first.

      Given a 3-member store
      And the leader of every term is recorded from now on
      When a follower is killed and noted as the stale member
      And keys "/acked/1", "/acked/2" and "/acked/3" are put
      And the other members are killed
      And the stale member is restarted
      And the store is left alone for 3 s
      And one of the members that holds the writes is restarted
      Then within 10 s a put of key "/after" succeeds
      And the stale member has not led any term since it was recorded
      And every key acknowledged in this scenario reads back with the value written

    @requires:kv @requires:kv.members @requires:net.partition @requires:clock.virtual
    Scenario: a member cut off while writes committed, campaigning all the while, is not elected when it returns
      Given a 3-member store
      And the leader of every term is recorded from now on
      When a follower is partitioned from the other two members
      And keys "/acked/1", "/acked/2" and "/acked/3" are put
      And 5 s of virtual time pass
      And the leader is killed
      And the partition is healed
      Then within 10 s a put of key "/after" succeeds
      And the partitioned member has not led any term since it was recorded
      And every key acknowledged in this scenario reads back with the value written

    @requires:kv @requires:kv.members @requires:kv.members.5 @requires:net.partition @requires:clock.virtual @members:5
    Scenario: an old leader with a longer log of unacknowledged writes is not elected over the members holding a later acknowledged write
      "Up to date" compares the last entries' terms first, and the lengths only between equal
      terms (§5.4.1): a longer log of an earlier term is behind. The old leader and its follower
      hold 100 entries that never committed; the majority's log is shorter, but ends in a later
      term with an acknowledged write. Once the majority's leader dies, the two long logs must
      not gather a third vote.

      Given a 5-member store
      When the leader and one follower are partitioned from the other three members
      And 100 puts are sent to the store without waiting for their answers
      Then within 5 s of virtual time the other three members agree on a new leader
      And a put of key "/acked/1" succeeds
      When the leader is killed
      And the partition is healed
      Then within 10 s a put of key "/after" succeeds
      And every key acknowledged in this scenario reads back with the value written

  Rule: RAFT-LEADER-STEPS-DOWN-IN-MINORITY — a leader that no longer hears from a majority stops acting as leader
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: Leadership rests on a majority. A leader that has not heard from a majority within an
      election timeout steps down (etcd's CheckQuorum, always on in etcd: server/etcdserver/raft.go
      sets CheckQuorum: true), so a leader cut off in a minority stops accepting writes it could
      never commit and clients look for the real leader.
    Quote: "Leader | 处理所有写请求，日志复制到 Follower | 获得多数节点投票"

    @requires:kv.members
    Scenario: a leader whose followers are all down steps down
      Given a 3-member store
      When 2 followers are killed
      Then within 5 s the surviving member no longer reports itself leader

    @requires:kv.members @requires:kv.members.5 @requires:net.partition @requires:clock.virtual @members:5
    Scenario: a leader partitioned into a minority steps down while the majority elects a new leader
      Given a 5-member store
      When the leader and one follower are partitioned from the other three members
      Then within 5 s of virtual time the old leader no longer reports itself leader
      And within 5 s of virtual time the other three members agree on a new leader

    @requires:kv @requires:kv.members @requires:disk.latency @requires:raft.observe @requires:clock.virtual
    Scenario: a leader whose followers answer slowly, but within an election timeout, keeps leading
      The window is an election timeout (etcd-io/raft raft.go, Config.CheckQuorum: the leader steps
      down "when quorum is not active for an electionTimeout"), not a heartbeat interval: followers
      whose disks take 300 ms per sync answer the leader's appends late, yet well inside the
      1000 ms election timeout, so they count as active and the leader stays.

      Given a 3-member store with a stable leader
      And the leader of every term is recorded from now on
      When both followers' disks start taking 300 ms per sync
      And keys are put one after another for 10 s
      Then leaders were recorded in exactly 1 term
      And at least 10 of the puts were acknowledged

  Rule: RAFT-LEADER-HANDLES-WRITES — all writes are ordered by the leader, which replicates its log to the followers
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: The Leader handles all write requests and replicates the log to the Followers.
    Quote: "Leader | 处理所有写请求，日志复制到 Follower"

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: every entry in every member's log was first appended by the leader of its term
      Given a 3-member store
      When 10 keys are put
      Then the trace shows each of the 10 entries appended first by the leader
      And every follower's last log index equals the leader's

  Rule: RAFT-FOLLOWER-DEFAULT — every member starts as a follower
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: Follower is the default state.
    Quote: "Follower | 接收 Leader 日志，被动同步 | 默认状态"

    @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: before any election timeout elapses, all members are followers in term 0 or 1
      Given a 3-member store that has just started, with no virtual time elapsed
      Then every member's role is "follower"
      And no member's term is greater than 1

    @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: a restarted member rejoins as a follower
      Given a 3-member store
      When a follower is killed
      And it is restarted
      Then the restarted member's role is "follower"
      And within 5 s of virtual time its last log index equals the leader's

  Rule: RAFT-FOLLOWER-PASSIVE — followers only answer the leader and candidates; they send no appends of their own
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: A Follower receives the Leader's log and synchronises passively.
    Quote: "接收 Leader 日志，被动同步"

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: in a stable cluster only the leader sends appends and heartbeats
      Given a 3-member store with a stable leader
      When 5 keys are put
      Then every "MsgApp" and "MsgHeartbeat" in the trace was sent by the leader
      And every message a follower sent was a "MsgAppResp", a "MsgHeartbeatResp", or a "MsgProp" forwarded to the leader

  Rule: RAFT-CANDIDATE-ON-TIMEOUT — a follower that hears no heartbeat within its election timeout becomes a candidate
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: A Candidate starts an election; a Follower becomes one when it receives no heartbeat within
      the election timeout.
    Quote: "Candidate | 发起选举 | Follower 在 election timeout 内未收到心跳"

    @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: killing the leader makes a follower campaign in a higher term
      Given a 3-member store with a stable leader in term T
      When the leader is killed
      Then within 5 s of virtual time some member has been "candidate" in a term above T
      And the trace holds "MsgVote" messages for that term
      And within 5 s of virtual time a new leader is elected

    @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: after the leader dies, no follower campaigns before an election timeout has passed
      The timeout is a lower bound: a follower campaigns only once it has heard nothing for a whole
      election timeout (etcd-io/raft raft.go: the randomized timeout is drawn from
      [electionTimeout, 2 × electionTimeout), and pastElectionTimeout compares the ticks since the
      last heartbeat with it). etcd's default election timeout is 1000 ms (`etcd --help`:
      `--election-timeout '1000'`) and the leader's last heartbeat went out at most one heartbeat
      interval (100 ms) before it died, so for the first 800 ms nobody may even ask for pre-votes.

      Given a 3-member store with a stable leader in term T
      When the leader is killed
      And 800 ms of virtual time pass
      Then no member has been "pre-candidate" since
      And no member has been "candidate" since
      And within 5 s of virtual time a new leader is elected

    @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: a follower that keeps hearing heartbeats never campaigns
      Given a 3-member store with a stable leader in term T
      When 60 s of virtual time pass
      Then no member has been "candidate" since
      And no member has been "pre-candidate" since
      And every member's term is still T

  Rule: RAFT-REJOIN-KEEPS-LEADER — a member cut off from the others rejoins without deposing the leader or moving the term
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议
    Claim: A Leader is whoever won votes from a majority, and a Follower campaigns when it hears no
      heartbeat within the election timeout. A member cut off alone hears no heartbeat, but it can
      never win a majority, so its elections are futile: they must not cost the majority the leader
      it has. When the member rejoins, the leader and the term it leads in are the ones from before
      the cut (PreVote, Raft dissertation §9.6: a member asks whether it could win before it raises
      its term, and is refused while the others still hear from their leader).
    Quote: "Candidate | 发起选举 | Follower 在 election timeout 内未收到心跳"
    Upstream: etcd's server runs Raft with PreVote on by default since v3.5 (etcd-io/etcd
      CHANGELOG/CHANGELOG-3.5.md: "Turned on --pre-vote by default", PR 12770; etcd-io/raft
      raft.go Config.PreVote: "This prevents disruption when a node that has been partitioned away
      rejoins the cluster"). etcd 3.4, the Debian package used by `--target etcd`, still ships it off
      (`etcd --help`: `--pre-vote 'false'`); that target cannot partition members anyway.

    @requires:kv.members @requires:net.partition
    Scenario: a follower cut off for several election timeouts rejoins; the leader and its term do not change
      Given a 3-member store with a stable leader
      When the leader and the term it leads in are noted
      And a follower is partitioned from the other two members
      And the store is left alone for 10 s
      And the partition is healed
      And the store is left alone for 3 s
      Then the noted leader still leads, in the noted term, and every live member is in that term

    @requires:kv.members @requires:net.partition
    Scenario: followers cut off and rejoining, again and again at every point of their timers, never move the leader or the term
      A member that rejoins just as its election timer fires asks the others for pre-votes before
      it hears the leader: the followers still hear the leader, so they must not say yes.

      Given a 3-member store with a stable leader
      When the leader and the term it leads in are noted
      And a follower is cut off for 3 s and then rejoins for 1 s, 30 times
      Then the noted leader still leads, in the noted term, and every live member is in that term

    @requires:kv @requires:kv.members @requires:net.partition @requires:clock.virtual
    Scenario: a stale member that rejoins while the leader is dead does not move the term: the next leader leads in the term after the old one
      Here the leader the member would disturb is gone. The member was cut off while a write
      committed, so it cannot win; its pre-votes reach a follower that has heard no leader for
      seconds, which refuses them (§5.4.1) and must stay in its term: a pre-vote is a question
      about the next term, not news of it (etcd-io/raft raft.go Step: a MsgPreVote, or a granted
      MsgPreVoteResp, of a higher term does not move the receiver's term). So the only member that
      can win campaigns once, in the term after the dead leader's. Ten rounds, each starting with
      three members, meet the rejoining member's first pre-vote before and after the follower's.

      Given a 3-member store with a stable leader
      When 10 times a follower is cut off, a key is put, the leader is killed and after 3 s the cut is healed
      Then each new leader leads in the term right after the one its predecessor led in
      And every key acknowledged in this scenario reads back with the value written
