/**
 * The store side of one reference session: which store the `kv` facet speaks to, sized from
 * the scenario's tags, and the waiter and clock that drive it.
 *
 * - A scenario about one store's contract (MVCC, watch, compaction, snapshots) gets the
 *   API server's own single-member store, so `kv` and `kube` see the same keys.
 * - `@auto-compaction-retention:<n>h` turns on etcd's periodic auto-compaction for it
 *   (reference/store/retention.ts), ticking on the session's virtual clock.
 * - A scenario about replication (it requires `kv.members`, `raft.observe` or
 *   `net.partition`, or names `@members:N`) gets its own Raft-replicated store
 *   (reference/wiring/raft-backend.ts) of N members, 3 unless the tag says otherwise, with
 *   the `members` and `raft` facets. Its simulated time is the session's time: the waiter
 *   and the clock facet drive the simulator, and the session's VirtualClock follows it.
 *   The API server keeps its own single store (it is not replicated here).
 */
import type { Backend } from '../../reference/store/backend.ts';
import { RetentionCompactor, tickRetention } from '../../reference/store/retention.ts';
import type { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import type { ClockFacet, KvMetricsFacet, MembersFacet, RaftObserver, Waiter } from '../../contract/contract.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { RaftBackend } from '../../reference/wiring/raft-backend.ts';
import type { Faults } from '../../reference/faults.ts';
import { ReferenceKv } from './kv.ts';
import { ReferenceMembers } from './members.ts';
import { ReferenceRaftObserver } from './raft-observer.ts';
import { passTime, virtualWaiter } from './waiter.ts';

export interface StoreSessionOptions {
  seed: number;
  tags: readonly string[];
  clock: VirtualClock;
  /** The API server's store: what `kv` speaks to when the scenario needs no replication. */
  backend: Backend;
  /** Fault models for the replicated store (reference/faults.ts). */
  faults?: Faults;
  /** When the API servers themselves run over a replicated store (HA topologies), that store. */
  replicated?: RaftBackend;
}

export interface StoreSession {
  readonly kv: ReferenceKv;
  readonly members?: MembersFacet;
  readonly kvMetrics?: KvMetricsFacet;
  readonly raft?: RaftObserver;
  readonly waiter: Waiter;
  readonly clock: ClockFacet;
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

const RETENTION_TAG = /^@auto-compaction-retention:(\d+)([smh])$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `@auto-compaction-retention:1h` → 3 600 000 (`s` and `m` too); undefined without the tag. */
export function retentionFromTags(tags: readonly string[]): number | undefined {
  for (const tag of tags) {
    const m = RETENTION_TAG.exec(tag);
    if (m) return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  }
  return undefined;
}

// A store's own metrics are its members' (etcd serves them per member): the replicated store.
const REPLICATION_TAGS = ['@requires:kv.members', '@requires:raft.observe', '@requires:net.partition', '@requires:kv.metrics'];

/** Members of the replicated store the scenario wants, or undefined for the single store. */
export function membersFromTags(tags: readonly string[]): number | undefined {
  for (const tag of tags) {
    const m = /^@members:(\d+)$/.exec(tag);
    if (m) return Number(m[1]);
  }
  return tags.some((t) => REPLICATION_TAGS.includes(t)) ? 3 : undefined;
}

export function openStoreSession(opts: StoreSessionOptions): StoreSession {
  const members = opts.replicated ? opts.replicated.sim.ids.length : membersFromTags(opts.tags);
  return members === undefined ? openLocalStoreSession(opts) : openRaftStoreSession(opts, members);
}

function openLocalStoreSession(opts: StoreSessionOptions): StoreSession {
  const { clock, backend } = opts;
  const kv = new ReferenceKv(backend);
  const retention_ms = retentionFromTags(opts.tags);
  const retention = retention_ms === undefined ? undefined : startRetention(clock, () => kv.backend, retention_ms);
  return {
    kv,
    waiter: virtualWaiter(clock),
    clock: { now_ms: () => clock.now_ms(), advance: (ms) => passTime(clock, ms) },
    describe: () => ({
      store: 'local',
      revision: kv.backend.currentRevision(),
      compactRevision: kv.backend.compactRevision(),
      ...(retention ? { autoCompactionRetention_ms: retention_ms, autoCompactionError: retention.lastError() } : {}),
    }),
    async close() {
      retention?.stop();
      kv.close();
    },
  };
}

/**
 * Ticks the retention compactor every sample interval of virtual time, as etcd's periodic
 * compactor polls (server/etcdserver/api/v3compactor/periodic.go). A failed compaction is
 * kept for the failure report rather than thrown from inside the clock.
 */
function startRetention(clock: VirtualClock, backend: () => Backend, retention_ms: number) {
  const compactor = new RetentionCompactor({ retention_ms, clock });
  let cancel = (): void => {};
  let failure: string | undefined;
  const arm = (): void => {
    cancel = clock.after(compactor.sampleInterval_ms, () => {
      tickRetention(compactor, backend()).catch((error: unknown) => (failure = String(error)));
      arm();
    });
  };
  arm();
  return { stop: () => cancel(), lastError: () => failure };
}

/** Virtual ms a waiter moves the simulator per step: a tenth of etcd's heartbeat interval. */
const RAFT_WAIT_STEP_MS = 10;

function openRaftStoreSession(opts: StoreSessionOptions, members: number): StoreSession {
  const { clock } = opts;
  const backend = opts.replicated ?? new RaftBackend({ seed: opts.seed, members, onAdvance: (ms) => clock.advance(ms), ...(opts.faults && opts.faults.size > 0 ? { faults: opts.faults } : {}) });
  // Tracing every message costs a third of the throughput: only a scenario that reads Raft's
  // internals gets the observer.
  const raft = opts.tags.includes('@requires:raft.observe') ? new ReferenceRaftObserver(backend) : undefined;
  const kv = new ReferenceKv(backend);
  return {
    kv,
    members: new ReferenceMembers(backend, raft),
    kvMetrics: { scrape: async () => scrapeMembers(backend) },
    ...(raft ? { raft } : {}),
    waiter: raftWaiter(backend),
    clock: { now_ms: () => clock.now_ms(), advance: (ms) => backend.advance(ms) },
    describe: () => ({
      store: `raft, ${members} members`,
      seed: opts.seed,
      virtual_ms: backend.now_ms(),
      fingerprint: backend.sim.fingerprint(),
      members: backend.sim.ids.map((id) => backend.sim.status(id)),
      revision: kv.backend.currentRevision(),
      lastTraceLines: (raft?.trace() ?? backend.sim.trace()).slice(-40),
    }),
    async close() {
      kv.close();
    },
  };
}

/**
 * Waiting on a replicated reference store: check, then run the simulator a small step, until
 * the condition holds or the budget of virtual time is spent. An event-loop turn between
 * steps lets any real I/O a condition started land first.
 */
export function raftWaiter(backend: RaftBackend): Waiter {
  return {
    async until(what, condition, budget_ms) {
      const deadline_ms = backend.now_ms() + budget_ms;
      for (;;) {
        if (await condition()) return;
        if (backend.now_ms() >= deadline_ms) throw new Error(`timed out after ${budget_ms} ms of virtual time waiting for ${what}`);
        await nextTurn();
        await backend.advance(Math.min(RAFT_WAIT_STEP_MS, deadline_ms - backend.now_ms()));
      }
    },
  };
}

/** Every live member's /metrics text (reference/sim/metrics.ts: etcd's names), by member id. */
function scrapeMembers(backend: RaftBackend): Map<string, string> {
  const texts = new Map<string, string>();
  for (const id of backend.sim.ids) {
    const text = backend.sim.metricsText(id);
    if (text !== undefined) texts.set(id, text);
  }
  return texts;
}
