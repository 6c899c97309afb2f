@component:etcd
Feature: etcd — the write path
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程

  The notes list five steps: the write goes to the leader; the leader appends a log entry locally;
  replicates it to every follower; commits it once a majority has acknowledged; then tells the
  followers to commit, and the state machines apply it. Each step is a rule. The order of steps is
  visible in the reference's protocol trace (`raft.observe`); the majority rule is visible on any
  replicated store by killing members.

  Rule: RAFT-WRITE-TO-LEADER — a client write is proposed to the leader, wherever the client sent it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程
    Claim: Step 1: the client's write request is sent to the Leader.
    Quote: "客户端写请求发送至 Leader。"

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: a client's put enters the log at the leader, and a follower's log only through the leader
      The target contract has no way to send a write to a chosen member, so the scenario checks the
      claim from the log's side: a client's write enters the log at the leader, and reaches a
      follower's log only in an append the leader sent.

      Given a 3-member store with a stable leader
      When key "/to-leader" is put with value "1"
      Then the entry for "/to-leader" was appended first by the leader
      And every follower appended it only after receiving a "MsgApp" from the leader carrying it

  Rule: RAFT-APPEND-BEFORE-REPLICATE — the leader appends the entry to its own log before sending it to followers
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程
    Claim: Step 2: the Leader appends the Log Entry to its local log.
    Quote: "Leader 将日志条目（Log Entry）追加到本地日志。"

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: in the trace, the leader's append precedes every MsgApp carrying the entry
      Given a 3-member store with a stable leader
      When key "/k" is put with value "v"
      Then in the trace the line "append leader=<leader> index=<i>" comes before every "MsgApp" carrying index <i>

  Rule: RAFT-REPLICATE-TO-ALL — the leader sends each new entry to every follower, not just a majority
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程
    Claim: Step 3: the Leader replicates the log to all Followers.
    Quote: "Leader 将日志复制到所有 Follower。"

    @requires:kv @requires:kv.members @requires:kv.members.5 @requires:raft.observe @members:5
    Scenario: in a 5-member store one put sends an append to each of the 4 followers
      Given a 5-member store with a stable leader
      When key "/k" is put with value "v"
      Then the trace shows a "MsgApp" carrying the entry sent to each of the 4 followers
      And within 1 s of virtual time all 5 members have the entry in their log

    @requires:kv @requires:kv.members @requires:kv.metrics
    Scenario: a follower that was down while writes committed gets them once it is back, without another write
      "All followers" includes one that missed the appends: the leader keeps replicating to it, and
      does not wait for the next client write to do so. A heartbeat answer from a follower whose
      match is behind the leader's log makes the leader send it the missing entries (etcd-io/raft
      raft.go, stepLeader, MsgHeartbeatResp: `if pr.Match < r.raftLog.lastIndex()` → sendAppend;
      Raft §5.3: the leader "retries AppendEntries indefinitely"). With a heartbeat every 100 ms,
      a follower back within the bound has every entry and the leader's commit index, which etcd
      reports per member as etcd_server_proposals_committed_total (server/etcdserver/raft.go sets
      it from each Ready's HardState.Commit).

      Given a 3-member store
      When a follower is killed
      And 100 keys are put
      And 2 seconds pass
      And it is restarted
      Then within 5 s every member's etcd_server_proposals_committed_total equals the leader's

    @requires:kv @requires:kv.members @requires:kv.metrics
    Scenario: a member whose unacknowledged entries the new leader replaced keeps the replacement across a restart
      "Replicates the log to all followers" includes one whose log holds entries no one else has:
      the leader forces the follower's log to duplicate its own (Raft §5.3), and the log is
      persistent state, on stable storage before the member answers (Figure 2). etcd-io/raft puts
      the replacement in the unstable log (log_unstable.go, truncateAndAppend) and hands it to the
      host in the next Ready's Entries, which etcd writes to its WAL; a member that wrote only the
      entries past its old log would come back from a crash with the replaced entries, under a
      commit index that covers them, and either never match the leader's log again or, once it
      leads, serve the writes that were replaced. The old leader takes puts while its followers
      are down (it leads until CheckQuorum ends its term); the other two then elect a leader of
      their own and commit fewer entries than it holds. The store is left alone for a second
      before the old leader dies, so that no append it sent is still on its way to the restarted
      members: they never hold its writes, which therefore can never be applied (Raft §5.4.3, State
      Machine Safety) — a member that came back with the replaced entries under its commit index
      would apply them, and serve them once it leads.

      Given a 3-member store
      When 2 followers are killed
      And 50 puts are sent to the store without waiting for their answers
      And the store is left alone for 1 s
      And the last live member is killed, and the others restarted
      Then within 10 s a put of key "/acked/1" succeeds
      And a put of key "/acked/2" succeeds
      When it is restarted
      Then within 5 s every member's etcd_server_proposals_committed_total equals the leader's
      When it is killed and restarted again
      Then within 10 s a put of key "/after" succeeds
      And within 5 s every member's etcd_server_proposals_committed_total equals the leader's
      When the leader is killed and restarted until it leads, at most 10 times
      Then every key acknowledged in this scenario reads back with the value written
      And none of the refused unanswered puts is in the store

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: a member whose log diverged is sent what it lacks, not the log again
      Replicating to all followers costs one copy of each entry per follower — the cost the notes
      count when they say an extra member adds replication overhead. A follower that comes back
      with a log that went its own way is no exception: the leader finds where the two logs agree
      and sends from there (Raft §5.3). etcd-io/raft probes one MsgApp at a time, jumping back by
      the follower's conflict hint, then streams (tracker/progress.go: StateProbe, MaybeDecrTo,
      StateReplicate). A leader that resent its log from the start, or stepped back one index per
      refusal with a full batch each time, would send many times what the follower lacked. Here
      the old leader holds 50 writes no one else has (it sits alone for a second first, so that no
      append it sent is still on its way to the members restarted next); two leaders later, the
      leader of the day knows nothing of its log and starts its probe at its own last index.

      Given a 3-member store with a stable leader
      And 400 keys are put
      When 2 followers are killed
      And 50 puts are sent to the store without waiting for their answers
      And the store is left alone for 1 s
      And the last live member is killed, and the others restarted
      Then within 10 s a put of key "/acked/1" succeeds
      When 100 keys are put
      And the leader is killed and at once restarted
      Then within 10 s a put of key "/acked/2" succeeds
      When it is restarted
      And 100 keys are put
      Then within 5 s of virtual time its last log index equals the leader's
      And the entries sent to it since its restart number at most twice those it lacked

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: under a burst of writes each follower is sent each entry once
      Every follower gets a copy of every entry — one copy: once the leader knows where a
      follower's log stands it streams new entries past what it has already sent (etcd-io/raft
      StateReplicate), and on a network that loses nothing it never sends an entry twice.

      Given a 3-member store with a stable leader
      When 300 puts are sent to the store without waiting for their answers
      And 2 s of virtual time pass
      Then each follower was sent each of the unanswered puts' entries exactly once

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: a member that does not answer is probed at most once per heartbeat, however fast the writes come
      The leader replicates to every follower, but it cannot know where a silent member's log
      stands: etcd-io/raft probes such a follower with one MsgApp at a time, "at most one
      replication message per heartbeat interval" (tracker/progress.go, StateProbe), and streams
      only once an append is accepted. A leader that sent each new write to a dead member as it
      does to a live one would spend on it what the notes count as replication cost, for nothing.
      The follower dies before the current leader's term begins, so that leader never hears from it.

      Given a 3-member store with a stable leader
      When a follower is killed
      And the leader is killed and at once restarted
      Then within 10 s a put of key "/k" succeeds
      When 300 puts are sent to the store without waiting for their answers
      And 2 s of virtual time pass
      Then the leader sent the killed member at most one MsgApp per heartbeat interval

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: once every follower holds the log, the leader sends only heartbeats
      Replication is of new entries: with none, and every follower up to date, a leader that kept
      sending appends would spend replication cost on nothing. The heartbeat alone remains — it
      is what keeps the followers from campaigning.

      Given a 3-member store with a stable leader
      When 50 keys are put
      And 1 s of virtual time passes
      Then over the next 5 s of virtual time the leader sends nothing but heartbeats

  Rule: RAFT-MAJORITY-COMMIT — an entry commits once a majority of members hold it, and not before
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程
    Claim: Step 4: after a majority acknowledges, the Leader commits the entry.
    Quote: "多数派（majority）确认后，Leader 提交（commit）该条目。"

    @requires:kv @requires:kv.members
    Scenario: with one of three members down, writes still commit
      Given a 3-member store
      When a follower is killed
      Then a put of key "/k" succeeds within 5 s
      And a linearizable get of "/k" returns the value written

    @requires:kv @requires:kv.members @slow
    Scenario: with two of three members down a write is not acknowledged; once they return, no acknowledged write is lost
      A write that was never acknowledged may still commit later (the leader may have appended it
      before it lost its majority, and win the next election with it), so the scenario asserts
      what Raft promises: no acknowledged write is lost.

      Given a 3-member store
      And keys "/acked/1", "/acked/2" and "/acked/3" are put
      When 2 followers are killed
      Then a put of key "/lost" does not succeed within 10 s
      When both killed members are restarted
      Then within 10 s a put of key "/after" succeeds
      And every key acknowledged in this scenario reads back with the value written

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: the leader's commit index moves only after the first follower's acknowledgement
      Given a 3-member store with a stable leader
      When key "/k" is put with value "v"
      Then in the trace the first "MsgAppResp" for the entry's index comes before "commit leader=<leader> index=<i>"

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: a follower counts an entry as committed only after the leader has
      Holding an entry is not committing it: only the leader counts the replicas, and a follower
      learns the commit index from the leader's later appends and heartbeats (Raft §5.3). A
      follower that took an entry as committed on receipt would apply a write that a new leader
      may still replace.

      Given a 3-member store with a stable leader
      When 10 keys are put
      And 1 s of virtual time passes
      Then in the trace every follower's commit index reaches an index only after a leader's did

  Rule: RAFT-COMMIT-OWN-TERM — a leader commits by counting replicas only entries of its own term
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程
    Claim: Step 4 says the Leader commits an entry once a majority acknowledged it. Raft restricts
      that counting to entries of the leader's current term; an earlier term's entry is committed only
      indirectly, by committing a later entry of the current term (Raft §5.4.2, Figure 8: an
      old-term entry on a majority can still be overwritten by a member elected with a later-term
      entry). etcd's raftLog.maybeCommit checks the term the same way.
    Quote: "多数派（majority）确认后，Leader 提交（commit）该条目。"

    @requires:kv @requires:kv.members @requires:kv.members.5 @requires:net.partition @requires:raft.observe @requires:clock.virtual @members:5
    Scenario: a new leader catching a member up on an earlier term's entries does not commit them by counting (Figure 8)
      The old leader and one follower hold 100 entries no one else has; the new leader comes from
      those two, and must bring the third live member up in several appends (at most 64 entries
      each), so a majority holds some of the old entries before it holds the new leader's no-op.

      Given a 5-member store with a stable leader
      When the leader and one follower are cut off from the rest, and each of the other three from every member
      And 100 puts are sent to the store without waiting for their answers
      And 3 s of virtual time pass
      And all but one of the members cut off alone are killed
      And the partition is healed
      Then within 10 s a put of key "/after" succeeds
      And the leader is one of the two members that held the unanswered puts
      And no leader ever advanced its commit index onto an entry of an earlier term

  Rule: RAFT-COMMIT-PROPAGATES — followers learn the commit index from the leader and apply the entry
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Raft 一致性协议 / 写入流程
    Claim: Step 5: the Leader notifies the Followers to commit, and each state machine applies the change.
    Quote: "Leader 通知 Follower 提交，状态机应用变更。"

    @requires:kv @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: after a put and one heartbeat interval, every member's commit index covers the entry
      Given a 3-member store with a stable leader
      When key "/k" is put with value "v" and its entry index is i
      And 1 s of virtual time passes
      Then every member's commit index is at least i

    @requires:kv @requires:kv.members @requires:raft.observe @requires:clock.virtual
    Scenario: a member's commit index never moves back, through writes and a change of leader
      What a member has learned is committed stays committed: its commit index only grows (Raft
      Figure 2, commitIndex "increases monotonically"), whatever commit index a leader's later
      message carries. A leader's heartbeat carries the commit index only up to what it knows the
      follower holds, and a new leader may know less than a follower does.

      Given a 3-member store with a stable leader
      When 20 keys are put
      And the leader is killed
      Then within 5 s a new leader is elected
      And a put of key "/after" succeeds
      When it is restarted
      And 2 s of virtual time pass
      Then no member's commit index ever moved back

    @requires:kv @requires:kv.members
    Scenario: each committed write is applied once: 10 puts move the store's revision by exactly 10
      The state machine applies each committed entry once, in log order (Raft §5.3: "the leader
      applies the entry to its state machine"; a member keeps lastApplied, Figure 2). A store that
      applied an entry again would take a revision for a put no client made.

      Given a 3-member store with a stable leader
      And a store at revision r
      When 10 keys are put
      Then the store's revision is r + 10

    @requires:kv @requires:kv.members @requires:raft.observe
    Scenario: every member's state machine applies a committed entry
      Given a 3-member store with a stable leader
      When key "/k" is put with value "v"
      Then within 2 s of virtual time every member applies the entry
