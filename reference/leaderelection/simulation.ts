/**
 * A deterministic simulation of leader election under faults, TigerBeetle-style: one seed draws
 * a fault schedule — crashes (and restarts), process pauses, partitions between an instance and
 * the API server, message loss and latency — and a constant clock offset per instance; the
 * instances run the real elector (elector.ts) against a model API server holding one Lease with
 * optimistic concurrency, all on virtual time. An observer records when each instance acts.
 *
 * What "acting" means: an instance acts while it is leading (between OnStartedLeading and
 * OnStoppedLeading), alive and not paused. A paused process executes nothing; when it resumes,
 * its overdue timers run first, then its component's first step is the guard every action
 * takes (`elector.acting()`), so it acts again only if the guard lets it.
 *
 * Pure: no timers, no I/O — promise continuations are drained as microtasks between events.
 */
import { Prng } from '../sim/prng.ts';
import type { Scheduler } from '../wiring/virtual-clock.ts';
import { DEFAULT_TIMINGS, LeaderElector, type ElectionTimings } from './elector.ts';
import type { LeaderElectionRecord, LeaseLock } from './record.ts';

// ---- the event loop ---------------------------------------------------------------------------

interface Event {
  due_ms: number;
  order: number;
  fn: () => void;
  cancelled: boolean;
}

/** Virtual time with a queue of events (a binary heap); `run` drains promise continuations after each event. */
export class SimLoop {
  now_ms = 0;
  private heap: Event[] = [];
  private order = 0;

  at(due_ms: number, fn: () => void): () => void {
    const event: Event = { due_ms: Math.max(due_ms, this.now_ms), order: this.order++, fn, cancelled: false };
    this.push(event);
    return () => {
      event.cancelled = true;
    };
  }

  async run(until_ms: number): Promise<void> {
    for (;;) {
      const next = this.heap[0];
      if (!next || next.due_ms > until_ms) break;
      this.pop();
      if (next.cancelled) continue;
      this.now_ms = next.due_ms;
      next.fn();
      await drainMicrotasks();
    }
    this.now_ms = until_ms;
  }

  private before(a: Event, b: Event): boolean {
    return a.due_ms < b.due_ms || (a.due_ms === b.due_ms && a.order < b.order);
  }

  private push(event: Event): void {
    const h = this.heap;
    h.push(event);
    for (let i = h.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.before(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

async function drainMicrotasks(): Promise<void> {
  for (let i = 0; i < 12; i++) await Promise.resolve();
}

// ---- the API server's Lease -------------------------------------------------------------------

/** One Lease with a resourceVersion, as the API server keeps it: create fails if it exists, update compares the version. */
export class LeaseStore {
  lease?: { record: LeaderElectionRecord; resourceVersion: number };
  private revision = 0;
  /** Every successful write, for the checker: who wrote what, when (server time). */
  readonly writes: { at_ms: number; record: LeaderElectionRecord }[] = [];

  get(): { record: LeaderElectionRecord; resourceVersion: string } | undefined {
    return this.lease && { record: { ...this.lease.record }, resourceVersion: String(this.lease.resourceVersion) };
  }
  create(record: LeaderElectionRecord, now_ms: number): string | false {
    if (this.lease) return false;
    return this.write(record, now_ms);
  }
  update(record: LeaderElectionRecord, resourceVersion: string, now_ms: number): string | false {
    if (!this.lease || String(this.lease.resourceVersion) !== resourceVersion) return false;
    return this.write(record, now_ms);
  }
  private write(record: LeaderElectionRecord, now_ms: number): string {
    this.lease = { record: { ...record }, resourceVersion: ++this.revision };
    this.writes.push({ at_ms: now_ms, record: { ...record } });
    return String(this.revision);
  }
}

// ---- an instance: a process with its own clock offset, pauses, crashes and a link to the API ----

export interface ActingInterval {
  instance: string;
  identity: string;
  from_ms: number;
  to_ms: number;
}

interface NetworkModel {
  latency_ms: [number, number];
  /** Probability a request or its answer is lost. */
  loss: number;
  /** The client gives up on a request after this long (the leader election client's timeout: RenewDeadline). */
  timeout_ms: number;
}

class Instance {
  paused = false;
  partitioned = false;
  private incarnation = 0;
  private held: { due_ms: number; order: number; incarnation: number; fn: () => void }[] = [];
  private heldOrder = 0;
  elector?: LeaderElector;
  private actingFrom?: number;
  private restarts = 0;

  constructor(
    readonly name: string,
    private readonly sim: ElectionSimulation,
    readonly offset_ms: number,
  ) {}

  /** The process's view of time: the shared clock, shifted by its constant offset. */
  scheduler(incarnation: number): Scheduler {
    return {
      now_ms: () => this.sim.loop.now_ms + this.offset_ms,
      after: (delay_ms, fn) => this.sim.loop.at(this.sim.loop.now_ms + delay_ms, () => this.deliver(incarnation, fn)),
    };
  }

  /** Run `fn` in this process unless it died since; hold it while paused. */
  deliver(incarnation: number, fn: () => void): void {
    if (incarnation !== this.incarnation) return;
    if (this.paused) {
      this.held.push({ due_ms: this.sim.loop.now_ms, order: this.heldOrder++, incarnation, fn });
      return;
    }
    fn();
  }

  start(): void {
    // A (re)start replaces whatever process ran before.
    if (this.elector && this.elector.phase !== 'stopped') this.crash();
    const incarnation = ++this.incarnation;
    const identity = `${this.name}_${this.restarts++}`;
    const elector = new LeaderElector({
      identity,
      lock: this.sim.lockFor(this, incarnation),
      clock: this.scheduler(incarnation),
      random: () => this.sim.random.next(),
      timings: this.sim.timings,
      callbacks: {
        onStartedLeading: () => this.beginActing(),
        onStoppedLeading: () => {
          this.endActing();
          // Upstream components exit when they lose the lease; the kubelet restarts them.
          this.sim.loop.at(this.sim.loop.now_ms + 1_000, () => this.deliver(incarnation, () => this.start()));
        },
      },
    });
    this.elector = elector;
    elector.start();
  }

  crash(): void {
    this.endActing();
    this.elector?.crash();
    this.incarnation++;
    this.held = [];
    this.paused = false;
  }

  pause(): void {
    if (this.paused) return;
    this.endActing();
    this.paused = true;
  }

  /** Held callbacks run at once, in the order they fell due; then the component's guard. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const held = this.held.sort((a, b) => a.due_ms - b.due_ms || a.order - b.order);
    this.held = [];
    const now_ms = this.sim.loop.now_ms;
    for (const h of held) this.sim.loop.at(now_ms, () => this.deliver(h.incarnation, h.fn));
    // The component's first step after resuming is the guard every action takes.
    this.sim.loop.at(now_ms, () => {
      if (!this.paused && this.elector?.acting()) this.beginActing();
    });
  }

  private beginActing(): void {
    this.actingFrom ??= this.sim.loop.now_ms;
  }

  endActing(): void {
    if (this.actingFrom === undefined) return;
    this.sim.intervals.push({ instance: this.name, identity: this.elector?.identity ?? '', from_ms: this.actingFrom, to_ms: this.sim.loop.now_ms });
    this.actingFrom = undefined;
  }

  get acting(): boolean {
    return this.actingFrom !== undefined;
  }
}

// ---- the simulation ---------------------------------------------------------------------------

export type Fault =
  | { at_ms: number; kind: 'crash'; instance: number; down_ms: number }
  | { at_ms: number; kind: 'pause'; instance: number; for_ms: number }
  | { at_ms: number; kind: 'partition'; instance: number; for_ms: number };

export interface Schedule {
  seed: number;
  instances: number;
  offsets_ms: number[];
  network: NetworkModel;
  faults: Fault[];
  /** Faults happen before this; then everything heals and the run goes on quietly for `quiet_ms`. */
  faulty_ms: number;
  quiet_ms: number;
}

/** Draw one fault schedule from a seed. */
export function drawSchedule(seed: number): Schedule {
  const rng = new Prng(seed);
  const instances = rng.intBetween(2, 3);
  const faulty_ms = 120_000;
  const faults: Fault[] = [];
  const count = rng.intBetween(3, 12);
  for (let i = 0; i < count; i++) {
    const at_ms = rng.intBetween(1_000, faulty_ms - 1_000);
    const instance = rng.intBelow(instances);
    const kind = (['crash', 'pause', 'partition'] as const)[rng.intBelow(3)]!;
    const span_ms = rng.intBetween(200, 40_000);
    faults.push(kind === 'crash' ? { at_ms, kind, instance, down_ms: span_ms } : { at_ms, kind, instance, for_ms: span_ms });
  }
  faults.sort((a, b) => a.at_ms - b.at_ms);
  return {
    seed,
    instances,
    // client-go tolerates any constant clock offset (it never compares clocks across machines).
    offsets_ms: Array.from({ length: instances }, () => rng.intBetween(-60_000, 60_000)),
    network: { latency_ms: [1, rng.intBetween(5, 800)], loss: rng.next() * 0.15, timeout_ms: DEFAULT_TIMINGS.renewDeadline_ms },
    faults,
    faulty_ms,
    quiet_ms: 60_000,
  };
}

export interface SimulationResult {
  schedule: Schedule;
  intervals: ActingInterval[];
  /** Instances acting when the run ended (after the quiet period). */
  actingAtEnd: string[];
  leaseWrites: number;
  /** Leadership changes, each with the time from the previous leader's last acting instant to the next's first. */
  handovers_ms: number[];
}

export class ElectionSimulation {
  readonly loop = new SimLoop();
  readonly random: Prng;
  readonly store = new LeaseStore();
  readonly intervals: ActingInterval[] = [];
  readonly instances: Instance[];

  constructor(
    readonly schedule: Schedule,
    readonly timings: ElectionTimings = DEFAULT_TIMINGS,
  ) {
    this.random = new Prng(schedule.seed ^ 0x5eed);
    this.instances = schedule.offsets_ms.map((offset, i) => new Instance(`i${i}`, this, offset));
  }

  /** The Lease as one incarnation of an instance reaches it: over a lossy, partitionable link. */
  lockFor(instance: Instance, incarnation: number): LeaseLock {
    const call = <T>(op: () => T): Promise<T> => this.request(instance, incarnation, op);
    return {
      get: () => call(() => this.store.get()),
      create: (record) => call(() => this.store.create(record, this.loop.now_ms)),
      update: (record, rv) => call(() => this.store.update(record, rv, this.loop.now_ms)),
    };
  }

  private request<T>(instance: Instance, incarnation: number, op: () => T): Promise<T> {
    const { latency_ms, loss, timeout_ms } = this.schedule.network;
    const delay = () => this.random.intBetween(latency_ms[0], latency_ms[1]);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => () => instance.deliver(incarnation, () => {
        if (settled) return;
        settled = true;
        fn();
      });
      this.loop.at(this.loop.now_ms + timeout_ms, settle(() => reject(new Error('request timed out'))));
      // Loss stops with the faults, so the quiet period can show liveness.
      const lost = () => instance.partitioned || (this.loop.now_ms < this.schedule.faulty_ms && this.random.chance(loss));
      if (lost()) return;
      this.loop.at(this.loop.now_ms + delay(), () => {
        if (instance.partitioned) return;
        const answer = op();
        if (lost()) return;
        this.loop.at(this.loop.now_ms + delay(), () => {
          if (!instance.partitioned) settle(() => resolve(answer))();
        });
      });
    });
  }

  async run(): Promise<SimulationResult> {
    for (const instance of this.instances) instance.start();
    for (const fault of this.schedule.faults) this.loop.at(fault.at_ms, () => this.inject(fault));
    await this.loop.run(this.schedule.faulty_ms);
    for (const instance of this.instances) {
      instance.partitioned = false;
      instance.resume();
    }
    await this.loop.run(this.schedule.faulty_ms + this.schedule.quiet_ms);
    const actingAtEnd = this.instances.filter((i) => i.acting).map((i) => i.name);
    for (const instance of this.instances) instance.endActing();
    return { schedule: this.schedule, intervals: this.intervals, actingAtEnd, leaseWrites: this.store.writes.length, handovers_ms: handovers(this.intervals) };
  }

  private inject(fault: Fault): void {
    const instance = this.instances[fault.instance]!;
    switch (fault.kind) {
      case 'crash':
        instance.crash();
        this.loop.at(this.loop.now_ms + fault.down_ms, () => instance.start());
        return;
      case 'pause':
        instance.pause();
        this.loop.at(this.loop.now_ms + fault.for_ms, () => instance.resume());
        return;
      case 'partition':
        instance.partitioned = true;
        this.loop.at(this.loop.now_ms + fault.for_ms, () => {
          instance.partitioned = false;
        });
    }
  }
}

function handovers(intervals: readonly ActingInterval[]): number[] {
  const sorted = [...intervals].sort((a, b) => a.from_ms - b.from_ms);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.identity !== sorted[i - 1]!.identity) gaps.push(sorted[i]!.from_ms - sorted[i - 1]!.to_ms);
  }
  return gaps;
}

/**
 * The safety invariant: no two instances act at the same instant. Acting intervals are
 * half-open [from, to); two of different instances must not intersect. Returns the first
 * overlap found, or undefined.
 */
export function findOverlap(intervals: readonly ActingInterval[]): [ActingInterval, ActingInterval] | undefined {
  const sorted = [...intervals].filter((i) => i.to_ms > i.from_ms).sort((a, b) => a.from_ms - b.from_ms);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j]!.from_ms < sorted[i]!.to_ms; j++) {
      if (sorted[j]!.instance !== sorted[i]!.instance) return [sorted[i]!, sorted[j]!];
    }
  }
  return undefined;
}
