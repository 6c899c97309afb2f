/**
 * The replicated state machine a SimCluster drives: one instance per member life, fed the
 * committed commands in log order. A crashed member loses its instance; the restarted one
 * gets a fresh instance and is fed the committed log again from index 1.
 */
export interface StateMachine {
  /** Apply one committed command; the result is what the proposing client receives. Must be deterministic. */
  apply(command: string): unknown;
  /** Answer a read without changing state; used for ReadIndex reads. Without it reads go through the log. */
  query?(command: string): unknown;
  /** A serialised copy of the state, for comparing members. */
  snapshot?(): string;
}

export type StateMachineFactory = (memberId: string) => StateMachine;
