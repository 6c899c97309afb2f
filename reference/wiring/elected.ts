/**
 * One control-plane process run under leader election, as kube-controller-manager,
 * kube-scheduler and cloud-controller-manager run with --leader-elect: the process starts,
 * campaigns for its Lease in kube-system (named after the component), starts its controllers
 * only in OnStartedLeading, and exits when it stops leading (upstream's OnStoppedLeading is
 * klog.Fatalf "leaderelection lost"); the kubelet then restarts it, here after a second, as a
 * fresh process with a fresh identity (upstream: hostname + "_" + a new UUID, e.g.
 * cmd/kube-controller-manager/app/controllermanager.go).
 *
 * The process reaches the API server through its own Link (link.ts) and runs its timers on its
 * own ProcessClock, so the HA control can kill, freeze or cut off one process and nothing else.
 */
import { LeaderElector, type ElectionTimings } from '../leaderelection/elector.ts';
import { httpLeaseLock, JsonClient } from './lease-lock.ts';
import { Link } from './link.ts';
import { ProcessClock } from './process-clock.ts';
import type { Scheduler } from './virtual-clock.ts';
import type { Faults } from '../faults.ts';

/** The leader's work: started when it starts leading, stopped when it stops. */
export interface Component {
  stop(): void;
  /** Whether it waits on an answer from the API server (the suite's clock lets it land first). */
  busy?(): boolean;
  /** Writes it sent to the API server so far (rest_client_requests_total, mutating verbs). */
  writes?(): number;
}

export interface ComponentContext {
  /** The API server as this process reaches it (through its link). */
  server: string;
  clock: Scheduler;
  random: () => number;
  log: (line: string) => void;
}

export interface ElectedInstanceOptions {
  /** The machine/instance name, e.g. "m1". */
  name: string;
  /** The component; also its Lease's name in kube-system (upstream's default --leader-elect-resource-name). */
  component: string;
  apiServer: { host: string; port: number; tls: boolean };
  token?: string;
  ca?: string | Buffer;
  clock: Scheduler;
  random: () => number;
  timings?: ElectionTimings;
  /** Starts the component's work once this process leads. */
  run(ctx: ComponentContext): Promise<Component>;
  log?: (line: string) => void;
  /** Fault models (reference/faults.ts) for the leader elector; default none. */
  faults?: Faults;
}

/** Upstream's --leader-elect-resource-namespace default. */
export const LEASE_NAMESPACE = 'kube-system';
/** How long the kubelet takes to restart an exited control-plane container, here. */
const RESTART_DELAY_MS = 1_000;

interface Process {
  clock: ProcessClock;
  client: JsonClient;
  elector: LeaderElector;
  component?: Component;
  leading: boolean;
}

export class ElectedInstance {
  private process?: Process;
  private restarts = 0;
  private killed = false;
  private cancelRestart: () => void = () => {};
  /** Times this instance started leading, for the HA observers. */
  leaderships = 0;
  /** Writes made by this instance's earlier processes' components. */
  private pastWrites = 0;

  private constructor(
    private readonly opts: ElectedInstanceOptions,
    private readonly link: Link,
  ) {}

  static async start(opts: ElectedInstanceOptions): Promise<ElectedInstance> {
    const link = await Link.open({ host: opts.apiServer.host, port: opts.apiServer.port });
    const instance = new ElectedInstance(opts, link);
    instance.spawn();
    return instance;
  }

  get name(): string {
    return this.opts.name;
  }

  /** The holderIdentity this process writes into the Lease. */
  get identity(): string {
    return this.process?.elector.identity ?? '';
  }

  get alive(): boolean {
    return this.process !== undefined;
  }

  /** leader_election_master_status: this process leads now (its guard says it may act). */
  get leading(): boolean {
    const p = this.process;
    if (!p || p.clock.isFrozen) return false;
    return p.leading && p.elector.acting();
  }

  /**
   * Whether this process is waiting on the API server with nothing in the way (not frozen, not
   * cut off): the suite's virtual clock lets such a request land before time moves on.
   */
  get awaitingAnswer(): boolean {
    const p = this.process;
    return p !== undefined && !p.clock.isFrozen && !this.link.cut_ && (p.client.inFlight > 0 || (p.component?.busy?.() ?? false));
  }

  /** Writes its components sent to the API server, over all its processes (leader election's own excluded). */
  get writes(): number {
    return this.pastWrites + (this.process?.component?.writes?.() ?? 0);
  }

  /** The process dies; it stays down until restart(). */
  kill(): void {
    this.killed = true;
    this.cancelRestart();
    this.exit(false);
    this.link.cut();
  }

  restart(): void {
    if (this.process) return;
    this.killed = false;
    this.link.heal();
    this.spawn();
  }

  /** SIGSTOP: no timer runs, no byte moves; SIGCONT: the held work runs late. */
  freeze(): void {
    this.process?.clock.freeze();
    this.link.hold();
  }

  thaw(): void {
    this.link.release();
    this.process?.clock.thaw();
  }

  /** A partition between this process and the API server. */
  disconnect(): void {
    this.link.cut();
  }

  reconnect(): void {
    this.link.heal();
  }

  async close(): Promise<void> {
    this.killed = true;
    this.cancelRestart();
    this.exit(false);
    await this.link.close();
  }

  private spawn(): void {
    const opts = this.opts;
    const clock = new ProcessClock(opts.clock);
    const server = `${opts.apiServer.tls ? 'https' : 'http'}://127.0.0.1:${this.link.port}`;
    const log = (line: string) => opts.log?.(`${opts.component} ${opts.name}: ${line}`);
    const client = new JsonClient({
      server,
      ...(opts.token ? { token: opts.token } : {}),
      ...(opts.ca ? { ca: opts.ca } : {}),
      userAgent: `${opts.component}/v1.31.0 (linux/amd64) kubespec-reference/leader-election`,
      timeout_ms: opts.timings?.renewDeadline_ms ?? 10_000,
    });
    const identity = `${opts.name}_${uuid(opts.random)}`;
    this.restarts++;
    const process: Process = { clock, client, leading: false, elector: undefined! };
    process.elector = new LeaderElector({
      identity,
      lock: httpLeaseLock(client, LEASE_NAMESPACE, opts.component),
      clock,
      random: opts.random,
      ...(opts.timings ? { timings: opts.timings } : {}),
      ...(opts.faults ? { faults: opts.faults } : {}),
      log,
      callbacks: {
        onStartedLeading: () => this.startLeading(process, { server, clock, random: opts.random, log }),
        onStoppedLeading: () => {
          log('leaderelection lost');
          this.exit(true);
        },
      },
    });
    this.process = process;
    process.elector.start();
  }

  private startLeading(process: Process, ctx: ComponentContext): void {
    process.leading = true;
    this.leaderships++;
    this.opts.run(ctx).then(
      (component) => {
        if (this.process === process && process.leading) process.component = component;
        else component.stop();
      },
      (error) => ctx.log(`could not start: ${(error as Error).message}`),
    );
  }

  /** The process ends; `restart`: the kubelet brings it back. */
  private exit(restart: boolean): void {
    const p = this.process;
    if (!p) return;
    this.process = undefined;
    p.leading = false;
    this.pastWrites += p.component?.writes?.() ?? 0;
    p.component?.stop();
    p.elector.crash();
    p.clock.kill();
    p.client.close();
    if (restart && !this.killed) this.cancelRestart = this.opts.clock.after(RESTART_DELAY_MS, () => this.restart());
  }
}

/** A version-4 UUID from the seeded randomness (upstream: uuid.NewUUID in the identity). */
export function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
