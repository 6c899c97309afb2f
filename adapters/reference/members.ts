/**
 * The `kv.members` (+ `net.partition`) facet over the Raft-backed reference store. Member ids
 * are the simulator's ('1', '2', …). Faults take effect at once, at the current virtual
 * instant; nothing here moves time — the next client call or wait does.
 */
import type { RaftBackend } from '../../reference/wiring/raft-backend.ts';
import type { MemberInfo, MembersFacet } from '../../contract/contract.ts';
import type { ReferenceRaftObserver } from './raft-observer.ts';

export class ReferenceMembers implements MembersFacet {
  constructor(
    private readonly backend: RaftBackend,
    /** Present when the scenario observes Raft: faults then appear in its trace. */
    private readonly observer?: ReferenceRaftObserver,
  ) {}

  async list(): Promise<MemberInfo[]> {
    return this.backend.sim.ids.map((id) => {
      const s = this.backend.sim.status(id);
      if (!s.alive) return { id, alive: false };
      return { id, alive: true, ...(s.role ? { role: s.role } : {}), ...(s.term !== undefined ? { term: s.term } : {}) };
    });
  }

  /**
   * The leader as the members report it, as the etcd adapter reads it: a live member in the
   * leader role that every live member able to reach it names as leader — and those are a
   * majority of all members. During an election, or while a follower has not yet heard from
   * a new leader, there is none. (A member cut off by a partition cannot name anyone; it is
   * not asked.)
   */
  async leader(): Promise<string | undefined> {
    const sim = this.backend.sim;
    const candidate = sim.leader();
    if (candidate === undefined) return undefined;
    const reachable = sim.ids.filter((id) => sim.isAlive(id) && sim.connected(id, candidate));
    const allName = reachable.every((id) => sim.status(id).leaderId === candidate);
    return allName && reachable.length >= Math.floor(sim.ids.length / 2) + 1 ? candidate : undefined;
  }

  async kill(id: string): Promise<void> {
    this.requireMember(id);
    this.observer?.note(`kill member=${id}`);
    this.backend.sim.kill(id);
  }

  async restart(id: string): Promise<void> {
    this.requireMember(id);
    this.observer?.note(`restart member=${id}`);
    this.backend.sim.restart(id);
    this.observer?.instrumentAll();
  }

  async partition(groups: string[][]): Promise<void> {
    for (const id of groups.flat()) this.requireMember(id);
    this.observer?.note(`partition ${groups.map((g) => `[${g.join(',')}]`).join(' ')}`);
    this.backend.sim.partition(groups);
  }

  async heal(): Promise<void> {
    this.observer?.note('heal');
    this.backend.sim.heal();
  }

  async setDiskLatency(id: string, latency_ms: number): Promise<void> {
    this.requireMember(id);
    this.observer?.note(`disk member=${id} latency=${latency_ms}ms`);
    this.backend.sim.setDiskLatency(id, latency_ms);
  }

  private requireMember(id: string): void {
    if (!this.backend.sim.ids.includes(id)) throw new Error(`no member ${id}; members are ${this.backend.sim.ids.join(', ')}`);
  }
}
