/**
 * The reference cluster: the pure cores wired together over one clock — the store, the API
 * server in front of it (served on loopback, so real clients talk to it as to any cluster), and
 * the controller manager acting through that API server. The reference target builds one per
 * scenario; `kubespec serve` builds one for people.
 */
import type { Backend } from '../store/backend.ts';
import { LocalBackend } from '../store/local.ts';
import { createApiServer, seededRandom, type ApiServer } from '../apiserver/server.ts';
import { listen, type Listening, type TlsOptions } from '../apiserver/host/listen.ts';
import { selectControllers } from '../controllers/registry.ts';
import { ControllerManager } from './controllers.ts';
import type { Scheduler } from './virtual-clock.ts';
import { referenceSecurity, type Security, type SecurityOptions } from './security.ts';

export interface ReferenceClusterOptions {
  seed: number;
  /** Virtual time for the suite, real time for `kubespec serve`. */
  clock: Scheduler;
  backend?: Backend;
  port?: number;
  host?: string;
  tls?: TlsOptions;
  /**
   * Run the full pipeline: authentication, RBAC, admission (see security.ts). Without it every
   * request is an allowed admin and only defaulting happens — the bare REST layer.
   */
  secure?: Pick<SecurityOptions, 'tokenCsv' | 'anonymous' | 'signingKey'>;
  /**
   * kube-controller-manager's --controllers list: default `['*']` (every controller);
   * `['*', '-serviceaccount']` runs all but that one; `[]` runs none.
   */
  controllers?: readonly string[];
  /** Where the controller manager reports failed reconciles. */
  log?: (line: string) => void;
}

export class ReferenceCluster {
  private constructor(
    readonly backend: Backend,
    readonly api: ApiServer,
    readonly http: Listening,
    readonly controllers: ControllerManager,
    readonly security?: Security,
  ) {}

  static async start(opts: ReferenceClusterOptions): Promise<ReferenceCluster> {
    const controllers = selectControllers(opts.controllers);
    const backend = opts.backend ?? new LocalBackend();
    const random = seededRandom(opts.seed);
    const security = opts.secure ? referenceSecurity({ backend, clock: opts.clock, random, ...opts.secure }) : undefined;
    const api = createApiServer({
      backend,
      clock: opts.clock,
      timers: { after: (ms, fn) => opts.clock.after(ms, fn) },
      random,
      ...security?.options,
    });
    await api.ready;
    const manager = await ControllerManager.start({ backend, api, clock: opts.clock, controllers, ...(opts.log ? { log: opts.log } : {}) });
    // The first clients find what the controllers make of the bootstrap objects (`default` in
    // each system namespace) already there, as on a cluster that has been up for a moment.
    await manager.settled();
    const http = await listen(api.handler, { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1', tls: opts.tls });
    return new ReferenceCluster(backend, api, http, manager, security);
  }

  get url(): string {
    return this.http.url;
  }

  async stop(): Promise<void> {
    this.controllers.stop();
    await this.http.close();
  }
}
