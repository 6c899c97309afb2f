/**
 * The World: one scenario's state and the helpers steps call. Steps stay 1–10 lines and speak
 * only to the target's facets, through these accessors.
 */
import { World, setWorldConstructor, type IWorldOptions } from '@cucumber/cucumber';
import type {
  ClockFacet, CloudFacet, HaFacet, KubeFacet, KvFacet, KvMetricsFacet, MembersFacet, NodesFacet, RaftObserver, Session, Target,
} from '../../contract/contract.ts';

export class KubespecWorld extends World {
  target!: Target;
  session!: Session;
  /** Values a scenario names and reads back later ("the noted revision"). */
  private readonly noted = new Map<string, unknown>();
  /** What to undo after the scenario, for things made outside its own namespace. */
  readonly cleanups: Array<() => Promise<unknown>> = [];

  constructor(options: IWorldOptions) {
    super(options);
  }

  kv(): KvFacet {
    return required(this.session.kv, 'kv');
  }
  kube(): KubeFacet {
    return required(this.session.kube, 'kube.api');
  }
  members(): MembersFacet {
    return required(this.session.members, 'kv.members');
  }
  kvMetrics(): KvMetricsFacet {
    return required(this.session.kvMetrics, 'kv.metrics');
  }
  clock(): ClockFacet {
    return required(this.session.clock, 'clock.virtual');
  }
  cloud(): CloudFacet {
    return required(this.session.cloud, 'cluster.cloud');
  }
  ha(): HaFacet {
    return required(this.session.ha, 'cluster.ha');
  }
  raft(): RaftObserver {
    return required(this.session.raft, 'raft.observe');
  }
  nodes(): NodesFacet {
    return required(this.session.nodes, 'kubelet');
  }

  note(name: string, value: unknown): void {
    this.noted.set(name, value);
  }
  /** What was noted as `name`, or `fallback` when nothing was. */
  recallOr<T>(name: string, fallback: T): T {
    return this.noted.has(name) ? (this.noted.get(name) as T) : fallback;
  }
  recall<T>(name: string): T {
    if (!this.noted.has(name)) throw new Error(`nothing was noted as "${name}" earlier in this scenario`);
    return this.noted.get(name) as T;
  }

  /** Run `fn` after the scenario (last registered first), while its session is still open. */
  onCleanup(fn: () => Promise<unknown>): void {
    this.cleanups.push(fn);
  }

  /** Wait for a condition within a budget: virtual time on the reference, real time elsewhere. */
  async eventually(what: string, condition: () => Promise<boolean> | boolean, budget_ms = 10_000): Promise<void> {
    await this.session.waiter.until(what, condition, budget_ms);
  }

  /**
   * Check that a condition holds at every sample over the whole budget (virtual time on the
   * reference, real time elsewhere): what "never" and "none within N s" mean. A wait for a
   * count of 0 would otherwise end at its first sample.
   */
  async holdsFor(what: string, condition: () => Promise<boolean> | boolean, budget_ms: number): Promise<void> {
    let broken: string | undefined;
    let samples = 0;
    try {
      await this.session.waiter.until(what, async () => {
        samples++;
        try {
          if (!(await condition())) broken = `${what} stopped holding at sample ${samples}`;
        } catch (error) {
          broken = `${what}: checking it failed at sample ${samples}: ${(error as Error).message}`;
        }
        return broken !== undefined;
      }, budget_ms);
    } catch (timeout) {
      // The budget ran out with the condition holding at every sample: what we wanted.
      if (broken === undefined && samples > 0) return;
      throw timeout;
    }
    throw new Error(broken ?? `${what}: never sampled`);
  }
}

function required<T>(facet: T | undefined, capability: string): T {
  if (facet === undefined) {
    // The hooks only run a scenario whose @requires tags the target declares, so this means a
    // scenario uses a facet without tagging the capability: a bug in the feature file.
    throw new Error(`this scenario uses the "${capability}" facet but is not tagged @requires:${capability}`);
  }
  return facet;
}

setWorldConstructor(KubespecWorld);
