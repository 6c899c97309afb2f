/**
 * A tiny synchronous in-memory network for the Raft unit tests, after the `network` in
 * etcd-io/raft's raft_test.go: members exchange messages instantly until nothing is left,
 * and links can be cut, members isolated, crashed and restarted from their stable storage.
 */
import { Prng } from '../sim/prng.ts';
import { RaftNode, type RaftBugs } from './raft.ts';
import type { Entry, HardState, Message, Ready } from './types.ts';

export interface TestNetworkOptions {
  seed?: number;
  electionTicks?: number;
  heartbeatTicks?: number;
  checkQuorum?: boolean;
  /** Off by default here, as in etcd-io/raft's own Config, so the transcripts show the bare protocol. */
  preVote?: boolean;
  bugs?: RaftBugs;
}

interface Storage {
  hardState: HardState;
  entries: Entry[];
}

/** Enough rounds for any exchange these tests provoke; reaching it means a livelock. */
const MAX_DRAIN_ROUNDS = 10_000;

export class TestNetwork {
  readonly ids: string[];
  readonly nodes = new Map<string, RaftNode>();
  readonly storage = new Map<string, Storage>();
  /** Data of the entries each member applied, in order (no-ops left out). */
  readonly applied = new Map<string, string[]>();
  /** Read states each member released, as `context@index`. */
  readonly readStates = new Map<string, string[]>();
  private readonly cutLinks = new Set<string>();
  private readonly rng: Prng;
  private inFlight: Message[] = [];

  constructor(
    size: number,
    private readonly opts: TestNetworkOptions = {},
  ) {
    this.ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
    this.rng = new Prng(opts.seed ?? 1);
    for (const id of this.ids) this.start(id);
  }

  node(id: string): RaftNode {
    const n = this.nodes.get(id);
    if (n === undefined) throw new Error(`member ${id} is down`);
    return n;
  }

  /** (Re)start a member from whatever its storage holds; its state machine starts empty. */
  start(id: string, persisted?: Storage): void {
    const stored = persisted ?? this.storage.get(id);
    if (persisted !== undefined) this.storage.set(id, { hardState: persisted.hardState, entries: [...persisted.entries] });
    this.applied.set(id, []);
    this.readStates.set(id, []);
    const node = new RaftNode({
      id,
      voters: this.ids,
      rng: this.rng.fork(),
      electionTicks: this.opts.electionTicks ?? 10,
      heartbeatTicks: this.opts.heartbeatTicks ?? 1,
      checkQuorum: this.opts.checkQuorum ?? false,
      preVote: this.opts.preVote ?? false,
      ...(stored ? { persisted: stored } : {}),
      ...(this.opts.bugs ? { bugs: this.opts.bugs } : {}),
    });
    this.nodes.set(id, node);
  }

  crash(id: string): void {
    this.nodes.delete(id);
    this.inFlight = this.inFlight.filter((m) => m.to !== id && m.from !== id);
  }

  cut(a: string, b: string): void {
    this.cutLinks.add(`${a}>${b}`).add(`${b}>${a}`);
  }

  isolate(id: string): void {
    for (const other of this.ids) if (other !== id) this.cut(id, other);
  }

  recover(): void {
    this.cutLinks.clear();
  }

  /** Tick every live member `times` times, draining after each round. */
  tickAll(times = 1): void {
    for (let i = 0; i < times; i++) {
      for (const n of this.nodes.values()) n.tick();
      this.drain();
    }
  }

  campaign(id: string): void {
    this.node(id).step(hup(id));
    this.drain();
  }

  propose(id: string, data: string): { index: number; term: number } | null {
    const at = this.node(id).propose(data);
    this.drain();
    return at;
  }

  leaders(): string[] {
    return [...this.nodes.values()].filter((n) => n.role === 'leader').map((n) => n.id);
  }

  /** Process every Ready and deliver every message until the network is quiet. */
  drain(): void {
    for (let round = 0; round < MAX_DRAIN_ROUNDS; round++) {
      for (const n of this.nodes.values()) this.handleReady(n);
      if (this.inFlight.length === 0) return;
      const batch = this.inFlight;
      this.inFlight = [];
      for (const m of batch) this.nodes.get(m.to)?.step(m);
    }
    throw new Error(`network did not quiesce within ${MAX_DRAIN_ROUNDS} rounds`);
  }

  private handleReady(n: RaftNode): void {
    while (n.hasReady()) {
      const rd = n.ready();
      this.persist(n.id, rd);
      for (const m of rd.messages) if (!this.cutLinks.has(`${m.from}>${m.to}`)) this.inFlight.push(m);
      const applied = this.applied.get(n.id) ?? [];
      for (const e of rd.committedEntries) if (e.data !== null) applied.push(e.data);
      this.applied.set(n.id, applied);
      for (const r of rd.readStates) this.readStates.get(n.id)?.push(`${r.context}@${r.index}`);
      n.advance(rd);
    }
  }

  private persist(id: string, rd: Ready): void {
    const s = this.storage.get(id) ?? { hardState: { term: 0, vote: null, commit: 0 }, entries: [] };
    if (rd.hardState) s.hardState = rd.hardState;
    const first = rd.entriesToPersist[0];
    if (first !== undefined) s.entries = [...s.entries.slice(0, first.index - 1), ...rd.entriesToPersist];
    this.storage.set(id, s);
  }
}

export function hup(id: string): Message {
  return { type: 'MsgHup', from: id, to: id, term: 0, index: 0, logTerm: 0, entries: [], commit: 0, reject: false, rejectHint: 0, context: '' };
}
