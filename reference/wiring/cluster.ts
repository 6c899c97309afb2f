/**
 * The reference cluster: the pure cores wired together over one clock — the store, the API
 * server in front of it (served on loopback, so real clients talk to it as to any cluster).
 * The reference target builds one per scenario; `kubespec serve` builds one for people.
 */
import type { Backend } from '../store/backend.ts';
import { LocalBackend } from '../store/local.ts';
import { createApiServer, seededRandom, type ApiServer } from '../apiserver/server.ts';
import { listen, type Listening, type TlsOptions } from '../apiserver/host/listen.ts';
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
}

export class ReferenceCluster {
  private constructor(
    readonly backend: Backend,
    readonly api: ApiServer,
    readonly http: Listening,
    readonly security?: Security,
  ) {}

  static async start(opts: ReferenceClusterOptions): Promise<ReferenceCluster> {
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
    const http = await listen(api.handler, { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1', tls: opts.tls });
    return new ReferenceCluster(backend, api, http, security);
  }

  get url(): string {
    return this.http.url;
  }

  async stop(): Promise<void> {
    await this.http.close();
  }
}
