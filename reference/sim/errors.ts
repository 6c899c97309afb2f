/**
 * Why a simulated client call failed. `indeterminate` is what a history recorder needs:
 * false means the operation certainly had no effect; true means it may or may not have
 * taken effect (a linearizability checker must then allow both).
 */
export class SimClientError extends Error {
  constructor(
    message: string,
    readonly indeterminate: boolean,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The chosen member does not lead (or no member does right now). Nothing was proposed. */
export class NotLeaderError extends SimClientError {
  constructor(
    readonly member: string | undefined,
    readonly leaderHint: string | undefined,
  ) {
    super(member === undefined ? 'no member is leader right now' : `member ${member} is not the leader${leaderHint ? ` (it follows ${leaderHint})` : ''}`, false);
  }
}

/** The chosen member is crashed: nothing was sent to it. */
export class MemberDownError extends SimClientError {
  constructor(member: string) {
    super(`member ${member} is down`, false);
  }
}

/** The entry was replaced by another leader's entry at the same index, so it can never commit. */
export class ProposalDroppedError extends SimClientError {
  constructor(index: number, term: number) {
    super(`the entry at index ${index} of term ${term} was overwritten by a newer leader`, false);
  }
}

/** No answer within the budget. The operation may still commit later. */
export class ProposalTimeoutError extends SimClientError {
  constructor(what: string, timeout_ms: number) {
    super(`${what} got no answer within ${timeout_ms} ms; it may or may not take effect`, true);
  }
}

/** The member holding the request crashed before answering. It may still commit via others. */
export class MemberCrashedError extends SimClientError {
  constructor(member: string) {
    super(`member ${member} crashed before answering; the operation may or may not take effect`, true);
  }
}
