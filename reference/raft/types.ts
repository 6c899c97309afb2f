/**
 * The vocabulary of the Raft core: log entries, the state a member must keep on stable
 * storage, the messages members exchange and the Ready batch the host drains.
 *
 * Shapes follow etcd-io/raft's raftpb (Entry, HardState, Message) and rawnode.go (Ready),
 * with member ids as strings because the rest of kubespec names members by string.
 */

/** One log entry. `data === null` marks the no-op a new leader appends (Raft §5.4.2, §8). */
export interface Entry {
  readonly term: number;
  readonly index: number;
  readonly data: string | null;
}

/**
 * What must be on stable storage before any message built from it leaves the member
 * (Raft Figure 2, "Persistent state on all servers"). `commit` is kept too, as etcd does,
 * so a restarted member can replay its committed prefix into a fresh state machine.
 */
export interface HardState {
  readonly term: number;
  readonly vote: string | null;
  readonly commit: number;
}

/** What a crashed member comes back with: nothing but its stable storage. */
export interface PersistedState {
  readonly hardState: HardState;
  readonly entries: readonly Entry[];
}

/**
 * `pre-candidate` is etcd-io/raft's StatePreCandidate: a member that asks whether it could win
 * before it starts a real election (PreVote, Raft dissertation §9.6).
 */
export type Role = 'leader' | 'follower' | 'pre-candidate' | 'candidate';

/**
 * Message types on the wire, named as in etcd-io/raft's raftpb so that message counts read
 * the same as etcd's metrics. `MsgHup` is local: stepping it makes the member campaign.
 */
export type MessageType =
  | 'MsgHup'
  | 'MsgVote'
  | 'MsgVoteResp'
  | 'MsgPreVote'
  | 'MsgPreVoteResp'
  | 'MsgApp'
  | 'MsgAppResp'
  | 'MsgHeartbeat'
  | 'MsgHeartbeatResp';

export interface Message {
  readonly type: MessageType;
  readonly from: string;
  readonly to: string;
  readonly term: number;
  /** MsgApp: index of the entry before `entries`. MsgAppResp: highest index now matching. MsgVote, MsgPreVote: candidate's last index. */
  readonly index: number;
  /** MsgApp: term at `index`. MsgVote, MsgPreVote: candidate's last term. MsgAppResp reject: the follower's term at the conflict. */
  readonly logTerm: number;
  readonly entries: readonly Entry[];
  /** Leader's commit index (MsgApp, MsgHeartbeat). */
  readonly commit: number;
  /** MsgVoteResp, MsgPreVoteResp: vote refused. MsgAppResp: consistency check failed. */
  readonly reject: boolean;
  /** MsgAppResp reject: first index the follower holds of term `logTerm`, or its last index + 1 (§5.3 fast backtracking). */
  readonly rejectHint: number;
  /** ReadIndex request id carried by a heartbeat and echoed in its response (etcd's Context). */
  readonly context: string;
}

/** A linearizable read confirmed by a quorum: serve it once the state machine has applied `index`. */
export interface ReadState {
  readonly context: string;
  readonly index: number;
}

export interface SoftState {
  readonly role: Role;
  readonly leaderId: string | null;
}

/**
 * Work the host must do, in this order (as etcd-io/raft's rawnode.go states for Ready):
 *   1. write `hardState` (when present) and `entriesToPersist` to stable storage; an entry
 *      at an index already stored replaces it and every entry after it;
 *   2. send `messages` — only now, since they may promise what step 1 made durable;
 *   3. apply `committedEntries` to the state machine, in order;
 *   4. answer `readStates` once the state machine has applied their index;
 *   5. call `advance(ready)`.
 */
export interface Ready {
  readonly softState: SoftState;
  readonly hardState?: HardState;
  readonly entriesToPersist: readonly Entry[];
  readonly messages: readonly Message[];
  readonly committedEntries: readonly Entry[];
  readonly readStates: readonly ReadState[];
}

/** Seeded randomness, injected so an election timeout is a function of the seed alone. */
export interface RandomSource {
  /** A uniformly drawn integer in [0, n). */
  intBelow(n: number): number;
}
