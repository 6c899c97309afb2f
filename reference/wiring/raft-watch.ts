/**
 * A watch on the Raft-backed store, served by one member's MvccStore at a time. Every member
 * applies the same commands, so any member's store can serve it; the backend asks for the
 * leader's. When the serving member crashes (its store is gone) or restarts (a fresh store
 * replaying the log), the watch re-attaches to the member the backend serves from now and
 * resumes at the revision after the last event it delivered — what an etcd client does when
 * its watch stream breaks and it reconnects to another member. No event is delivered twice:
 * the resume revision only ever moves forward.
 */
import type { WatchHandlers } from '../store/backend.ts';
import type { MvccStore } from '../store/mvcc.ts';

export class ReplicatedWatch {
  private nextRevision: number;
  private servedBy?: { id: string; store: MvccStore; stop: () => void };
  private cancelled = false;

  constructor(
    private readonly prefix: string,
    fromRevision: number,
    private readonly handlers: WatchHandlers,
    private readonly servingMember: () => string | undefined,
  ) {
    this.nextRevision = fromRevision;
  }

  /** (Re-)attach to the serving member if the current one is gone or is not in its current life. */
  attach(storeOf: (id: string) => MvccStore | undefined): void {
    if (this.cancelled) return;
    const current = this.servedBy;
    // Stay while the member is alive in the same life and still the one to serve (the leader,
    // when there is one): a watch left on a follower would see acknowledged writes late.
    const serving = this.servingMember();
    if (current !== undefined && storeOf(current.id) === current.store && (serving === undefined || serving === current.id)) return;
    current?.stop();
    this.servedBy = undefined;
    const id = serving;
    const store = id === undefined ? undefined : storeOf(id);
    if (id === undefined || store === undefined) return;
    // 0 means "from now on": fix "now" at the first attach, so a later re-attach cannot skip events.
    if (this.nextRevision <= 0) this.nextRevision = store.currentRevision() + 1;
    const stop = store.watch(this.prefix, this.nextRevision, {
      onEvents: (events, revision) => {
        const last = events[events.length - 1];
        if (last !== undefined) this.nextRevision = Math.max(this.nextRevision, last.kv.modRevision + 1);
        this.handlers.onEvents(events, revision);
      },
      onCancel: (reason, compactRevision) => {
        this.cancelled = true;
        this.handlers.onCancel(reason, compactRevision);
      },
    });
    this.servedBy = { id, store, stop };
  }

  cancel(): void {
    this.cancelled = true;
    this.servedBy?.stop();
    this.servedBy = undefined;
  }
}
