/**
 * The leader-elected control plane of an HA reference cluster: several processes of each
 * component — kube-controller-manager, kube-scheduler (and cloud-controller-manager, whose
 * runner the cloud brings) — each campaigning for its component's Lease in kube-system, only
 * the leader running the component's work (elected.ts). Every process reaches the API server
 * over its own link, as its component's user, so killing, freezing or cutting off one process
 * touches nothing else. The suite runs this on virtual time; `kubespec serve --ha` in real time.
 */
import { selectControllers } from '../controllers/registry.ts';
import { ApiClient } from './api-client.ts';
import { SCHEDULER_AGENT, type ReferenceCluster } from './cluster.ts';
import { SchedulerHost } from './scheduler.ts';
import { ControllerManager } from './controllers.ts';
import { ElectedInstance, type Component, type ComponentContext } from './elected.ts';
import type { Scheduler } from './virtual-clock.ts';
import type { ElectionTimings } from '../leaderelection/elector.ts';
import type { Faults } from '../faults.ts';

/** How one component's leader does its work, given the process's link to the API server. */
export type ComponentRunner = (ctx: ComponentContext) => Promise<Component>;

export interface HaControlPlaneOptions {
  cluster: ReferenceCluster;
  clock: Scheduler;
  random: () => number;
  timings?: ElectionTimings;
  log?: (line: string) => void;
  /** Runners for components beyond kube-controller-manager (the CCM, the scheduler), by component name. */
  runners?: Record<string, ComponentRunner>;
  /** Where the processes reach the API server (default: the cluster's own listener); e.g. a load balancer. */
  apiServer?: { host: string; port: number };
  /** Credentials of those components' users, by component name (default: the controller manager's). */
  credentials?: Record<string, { token?: string; ca?: string | Buffer }>;
  /** Fault models (reference/faults.ts) for every elected process's leader elector; default none. */
  faults?: Faults;
}

export const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';
export const KUBE_SCHEDULER = 'kube-scheduler';

export class HaControlPlane {
  private readonly instances = new Map<string, Map<string, ElectedInstance>>();
  private readonly runners: Record<string, ComponentRunner>;

  constructor(private readonly opts: HaControlPlaneOptions) {
    this.runners = { [KUBE_CONTROLLER_MANAGER]: (ctx) => this.runControllerManager(ctx), [KUBE_SCHEDULER]: (ctx) => this.runScheduler(ctx), ...opts.runners };
  }

  get components(): string[] {
    return Object.keys(this.runners);
  }

  /**
   * Start processes of `component` named `names`. The cluster's own single controller manager
   * steps aside first: an HA cluster runs only elected ones.
   */
  async start(component: string, names: readonly string[]): Promise<void> {
    const runner = this.runners[component];
    if (!runner) throw new Error(`no component "${component}" runs here (have: ${this.components.join(', ')})`);
    if (component === KUBE_CONTROLLER_MANAGER) await this.opts.cluster.stopControllers();
    if (component === KUBE_SCHEDULER) this.opts.cluster.scheduler?.stop();
    const cluster = this.opts.cluster;
    const byName = this.instances.get(component) ?? new Map<string, ElectedInstance>();
    this.instances.set(component, byName);
    for (const name of names) {
      if (byName.has(name)) throw new Error(`${component} ${name} already runs`);
      byName.set(name, await ElectedInstance.start({
        name,
        component,
        apiServer: { ...(this.opts.apiServer ?? { host: '127.0.0.1', port: cluster.http.port }), tls: cluster.url.startsWith('https:') },
        ...this.credentials(component),
        clock: this.opts.clock,
        random: this.opts.random,
        ...(this.opts.timings ? { timings: this.opts.timings } : {}),
        run: runner,
        ...(this.opts.log ? { log: this.opts.log } : {}),
        ...(this.opts.faults ? { faults: this.opts.faults } : {}),
      }));
    }
  }

  instance(component: string, name: string): ElectedInstance {
    const instance = this.instances.get(component)?.get(name);
    if (!instance) throw new Error(`no ${component} instance "${name}" (have: ${[...(this.instances.get(component)?.keys() ?? [])].join(', ')})`);
    return instance;
  }

  list(component: string): ElectedInstance[] {
    return [...(this.instances.get(component)?.values() ?? [])];
  }

  /** Every process of every component on a machine. */
  onMachine(name: string): ElectedInstance[] {
    return [...this.instances.values()].flatMap((m) => (m.has(name) ? [m.get(name)!] : []));
  }

  async close(): Promise<void> {
    for (const byName of this.instances.values()) for (const instance of byName.values()) await instance.close();
    this.instances.clear();
  }

  /** The user a component's processes authenticate as. */
  private credentials(component: string): { token?: string; ca?: string | Buffer } {
    if (this.opts.credentials?.[component]) return this.opts.credentials[component]!;
    return component === KUBE_SCHEDULER ? this.opts.cluster.schedulerCredentials : this.opts.cluster.controllerManagerCredentials;
  }

  /** The leader's kube-scheduler: informers, queue and cycles, started afresh by each new leader. */
  private async runScheduler(ctx: ComponentContext): Promise<Component> {
    const creds = this.credentials(KUBE_SCHEDULER);
    const client = new ApiClient({ server: ctx.server, userAgent: SCHEDULER_AGENT, ...(creds.token ? { token: creds.token } : {}), ...(creds.ca ? { ca: creds.ca } : {}) });
    const counted = countingWrites(client);
    try {
      const host = await SchedulerHost.start({ client: counted.client, clock: ctx.clock, random: ctx.random, log: ctx.log });
      return { stop: () => { host.stop(); client.close(); }, writes: counted.writes, busy: () => host.busy };
    } catch (error) {
      client.close();
      throw error;
    }
  }

  private async runControllerManager(ctx: ComponentContext): Promise<Component> {
    const creds = this.opts.cluster.controllerManagerCredentials;
    const client = new ApiClient({
      server: ctx.server,
      userAgent: 'kube-controller-manager/v1.31.0 (linux/amd64) kubespec-reference',
      ...(creds.token ? { token: creds.token } : {}),
      ...(creds.ca ? { ca: creds.ca } : {}),
    });
    const counted = countingWrites(client);
    try {
      const manager = await ControllerManager.start({ client: counted.client, clock: ctx.clock, random: ctx.random, controllers: selectControllers(['*']), log: ctx.log });
      return { stop: () => { manager.stop(); client.close(); }, writes: counted.writes };
    } catch (error) {
      client.close();
      throw error;
    }
  }
}

/**
 * The client with every call but reads counted: what the process's rest_client_requests_total
 * would show for mutating verbs. (A Proxy, so verbs the controllers' client gains are counted too.)
 */
function countingWrites(client: ApiClient): { client: ApiClient; writes: () => number } {
  let writes = 0;
  const reads = new Set(['listWatcher', 'close', 'get', 'list', 'watch']);
  const proxy = new Proxy(client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (typeof key === 'string' && reads.has(key)) return value.bind(target);
      return (...args: unknown[]) => {
        writes++;
        return value.apply(target, args);
      };
    },
  });
  return { client: proxy, writes: () => writes };
}
