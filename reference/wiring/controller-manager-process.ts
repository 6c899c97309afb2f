/**
 * The cluster's one kube-controller-manager process with --leader-elect (upstream's default):
 * before any controller runs, the process holds the Lease kube-system/kube-controller-manager,
 * and that one Lease covers the work of every controller it runs — the controllers are not
 * elected one by one (cmd/kube-controller-manager/app/controllermanager.go: Run calls
 * leaderElectAndRun once, with OnStartedLeading starting every enabled controller; the lock is
 * named by --leader-elect-resource-name, default "kube-controller-manager", in
 * --leader-elect-resource-namespace, default "kube-system").
 *
 * Losing the Lease ends the process (upstream: klog.Fatalf "leaderelection lost"); the kubelet
 * restarts it a second later with a fresh identity, as elected.ts does for HA processes. A
 * stop on purpose (the harness's stop, serve's shutdown) releases the Lease first, as
 * client-go's ReleaseOnCancel does, so the next process need not wait out 15 s.
 *
 * The identity is "<host>_<uuid>" like upstream's (hostname + "_" + uuid.NewUUID()).
 */
import type { ApiHandle } from './in-process.ts';
import { LeaderElector } from '../leaderelection/elector.ts';
import { httpLeaseLock, JsonClient } from './lease-lock.ts';
import { uuid, LEASE_NAMESPACE } from './elected.ts';
import type { ControllerManager } from './controllers.ts';
import type { Scheduler } from './virtual-clock.ts';

/** --leader-elect-resource-name's default. */
export const KCM_LEASE_NAME = 'kube-controller-manager';
/** How long the kubelet takes to restart an exited control-plane container (elected.ts uses the same). */
const RESTART_DELAY_MS = 1_000;

export interface ControllerManagerProcessOptions {
  server: string;
  /** The API server's own entry, for leader election in process (in-process.ts). */
  inProcess?: ApiHandle;
  token?: string;
  ca?: string | Buffer;
  clock: Scheduler;
  random: () => number;
  /** Starts the controllers (a fresh ControllerManager: new caches, new expectations). */
  startControllers(): Promise<ControllerManager>;
  log?: (line: string) => void;
}

export class ControllerManagerProcess {
  private elector?: LeaderElector;
  private client?: JsonClient;
  private manager?: ControllerManager;
  private stopped = false;
  private cancelRestart: () => void = () => {};

  private constructor(private readonly opts: ControllerManagerProcessOptions) {}

  /** Starts the process and resolves once it leads and its controllers run (or rejects if they cannot start). */
  static async start(opts: ControllerManagerProcessOptions): Promise<ControllerManagerProcess> {
    const process = new ControllerManagerProcess(opts);
    await process.spawn();
    return process;
  }

  /** The controllers of the process now leading (the last one, stopped, while none leads). */
  get controllers(): ControllerManager {
    if (!this.manager) throw new Error('the controller manager has not started leading');
    return this.manager;
  }

  /** The holderIdentity this process writes into the Lease. */
  get identity(): string {
    return this.elector?.identity ?? '';
  }

  /** Stops the controllers and releases the Lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelRestart();
    this.manager?.stop();
    await this.elector?.release();
    this.client?.close();
  }

  private spawn(): Promise<void> {
    const opts = this.opts;
    const client = new JsonClient({
      server: opts.server,
      ...(opts.token ? { token: opts.token } : {}),
      ...(opts.ca ? { ca: opts.ca } : {}),
      userAgent: 'kube-controller-manager/v1.31.0 (linux/amd64) kubespec-reference/leader-election',
      timeout_ms: 10_000,
      ...(opts.inProcess ? { inProcess: opts.inProcess } : {}),
    });
    const identity = `kubespec-reference_${uuid(opts.random)}`;
    const log = (line: string) => opts.log?.(`kube-controller-manager: ${line}`);
    return new Promise<void>((resolve, reject) => {
      const elector = new LeaderElector({
        identity,
        lock: httpLeaseLock(client, LEASE_NAMESPACE, KCM_LEASE_NAME),
        clock: opts.clock,
        random: opts.random,
        log,
        callbacks: {
          onStartedLeading: () => {
            opts.startControllers().then((manager) => {
              if (this.stopped || this.elector !== elector || elector.phase !== 'leading') manager.stop();
              else this.manager = manager;
              resolve();
            }, (error) => {
              log(`could not start the controllers: ${(error as Error).message}`);
              reject(error);
            });
          },
          onStoppedLeading: () => {
            log('leaderelection lost');
            this.manager?.stop();
            client.close();
            if (!this.stopped) this.cancelRestart = opts.clock.after(RESTART_DELAY_MS, () => void this.spawn().catch(() => undefined));
          },
        },
      });
      this.client = client;
      this.elector = elector;
      elector.start();
    });
  }
}
