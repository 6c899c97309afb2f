/**
 * Probes: one worker per container instance and probe kind, after upstream's
 * pkg/kubelet/prober/worker.go and prober.go.
 *
 * - Initial results: readiness Failure until a probe succeeds; liveness Success; startup Unknown
 *   (prober_manager.go / worker.go newWorker).
 * - The worker probes when created, then every periodSeconds; a probe is skipped while the
 *   container has run less than initialDelaySeconds; liveness and readiness are skipped until
 *   the container has started (its startup probe succeeded); startup stops once it has.
 * - A result flips only after failureThreshold consecutive failures / successThreshold
 *   consecutive successes. A failed liveness or startup result puts the worker on hold: the
 *   pod worker kills the container, and its replacement gets new workers.
 * - Mechanisms (prober.go runProbe): exec through CRI ExecSync, exit 0 succeeds; httpGet, a
 *   status in [200, 400) succeeds, redirects followed only to the same host (a redirect to
 *   another host is not followed and counts as success with a warning: pkg/probe/http/http.go);
 *   tcpSocket, a connection opens; grpc, the gRPC health service answers SERVING.
 *   A probe that outlasts timeoutSeconds fails.
 */
import type { CriRuntime } from '../../contract/cri.ts';
import { CriError, GRPC_DEADLINE_EXCEEDED } from '../../contract/cri.ts';
import type { Scheduler } from '../wiring/virtual-clock.ts';
import type { ProbeNetwork } from './types.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';

export type ProbeKind = 'liveness' | 'readiness' | 'startup';
export type ProbeResult = 'success' | 'failure' | 'unknown';

export interface ProbeOutcome {
  result: 'success' | 'failure';
  /** Why it failed (or the warning of a success), as the Unhealthy event says. */
  output: string;
}

export interface ProbeTarget {
  containerId: string;
  podIp: string;
  /** container.ports, to resolve a named port. */
  ports: { name?: string; containerPort: number }[];
  startedAt_ms: number;
}

export interface ProbeSpec {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string; httpHeaders?: { name: string; value: string }[] };
  tcpSocket?: { port: number | string; host?: string };
  grpc?: { port: number; service?: string };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

/** Upstream's defaults (k8s.io/api core/v1 Probe; pkg/apis/core/v1/defaults.go SetDefaults_Probe). */
export function probeTiming(spec: ProbeSpec) {
  return {
    initialDelay_s: spec.initialDelaySeconds ?? 0,
    timeout_s: spec.timeoutSeconds ?? 1,
    period_s: spec.periodSeconds ?? 10,
    success: spec.successThreshold ?? 1,
    failure: spec.failureThreshold ?? 3,
  };
}

export interface ProbeWorkerEvents {
  /** The result changed: the pod worker should sync. */
  onChange(kind: ProbeKind, result: ProbeResult): void;
  /** One probe failed (the Unhealthy event). */
  onFailure(kind: ProbeKind, outcome: ProbeOutcome): void;
  /** Liveness/readiness gate on this; startup ignores it. */
  started(): boolean;
}

export class ProbeWorker {
  result: ProbeResult;
  private run = 0;
  private lastRaw?: 'success' | 'failure';
  private onHold = false;
  private stopped = false;
  private cancel?: () => void;
  /** Probes actually run (not skipped). */
  runs = 0;

  constructor(
    readonly kind: ProbeKind,
    private readonly spec: ProbeSpec,
    private readonly target: ProbeTarget,
    private readonly deps: { clock: Scheduler; runtime: CriRuntime; network: ProbeNetwork; faults?: Faults },
    private readonly events: ProbeWorkerEvents,
  ) {
    this.result = kind === 'readiness' ? 'failure' : kind === 'liveness' ? 'success' : 'unknown';
    this.tick();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  private get faults(): Faults {
    return this.deps.faults ?? NO_FAULTS;
  }

  private tick(): void {
    if (this.stopped) return;
    void this.probeOnce().finally(() => {
      if (!this.stopped) this.cancel = this.deps.clock.after(probeTiming(this.spec).period_s * 1000, () => this.tick());
    });
  }

  private async probeOnce(): Promise<void> {
    const t = probeTiming(this.spec);
    if (this.onHold) return;
    if (this.kind === 'startup' && this.result === 'success') return;
    // Fault startup-not-gating: liveness and readiness probe before the startup probe has succeeded.
    if (this.kind !== 'startup' && !this.events.started() && !this.faults.has('startup-not-gating')) return;
    if (this.deps.clock.now_ms() - this.target.startedAt_ms < t.initialDelay_s * 1000) return;
    this.runs++;
    const outcome = await runProbe(this.spec, this.target, this.deps, this.faults);
    if (this.stopped) return;
    if (outcome.result === 'failure') this.events.onFailure(this.kind, outcome);
    this.run = this.lastRaw === outcome.result ? this.run + 1 : 1;
    this.lastRaw = outcome.result;
    // Fault success-threshold-ignored: one success is enough.
    const threshold = outcome.result === 'failure' ? t.failure : this.faults.has('success-threshold-ignored') ? 1 : t.success;
    if (this.run < threshold) return;
    if (this.result !== outcome.result) {
      this.result = outcome.result;
      this.events.onChange(this.kind, outcome.result);
    }
    if (outcome.result === 'failure' && this.kind !== 'readiness') {
      this.onHold = true;
      this.run = 0;
    }
  }
}

/** Runs one probe with its timeout. */
export async function runProbe(spec: ProbeSpec, target: ProbeTarget, deps: { clock: Scheduler; runtime: CriRuntime; network: ProbeNetwork }, faults: Faults = NO_FAULTS): Promise<ProbeOutcome> {
  const timeout_s = probeTiming(spec).timeout_s;
  if (spec.exec) return execProbe(spec.exec.command ?? [], target, deps.runtime, timeout_s);
  let abort = () => {};
  const onAbort = (fn: () => void) => (abort = fn);
  let cancelTimer = () => {};
  const timedOut = new Promise<ProbeOutcome>((resolve) => {
    cancelTimer = deps.clock.after(timeout_s * 1000, () => {
      abort();
      resolve({ result: 'failure', output: 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)' });
    });
  });
  const attempt = spec.httpGet ? httpProbe(spec.httpGet, target, deps.network, onAbort, faults)
    : spec.tcpSocket ? tcpProbe(spec.tcpSocket, target, deps.network, onAbort)
    : spec.grpc ? grpcProbe(spec.grpc, target, deps.network, onAbort, timeout_s)
    : Promise.resolve<ProbeOutcome>({ result: 'failure', output: 'missing probe handler' });
  try {
    return await Promise.race([attempt, timedOut]);
  } finally {
    cancelTimer();
  }
}

/**
 * pkg/probe/grpc/grpc.go: Health/Check on the pod IP and the probe's port, plaintext; SERVING is
 * success, anything else failure with upstream's wording.
 */
async function grpcProbe(probe: { port: number; service?: string }, target: ProbeTarget, network: ProbeNetwork, onAbort: (abort: () => void) => void, timeout_s: number): Promise<ProbeOutcome> {
  const address = `${target.podIp}:${probe.port}`;
  if (!network.grpcHealthCheck) return { result: 'failure', output: 'grpc probes are not supported by this kubelet' };
  const answer = await network.grpcHealthCheck(target.podIp, probe.port, probe.service ?? '', onAbort);
  if ('error' in answer) {
    const { code, details } = answer.error;
    if (code === 14) return { result: 'failure', output: `timeout: failed to connect service "${address}" within ${timeout_s}s: ${details}` };
    if (code === 12) return { result: 'failure', output: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${details}` };
    if (code === 4) return { result: 'failure', output: `timeout: health rpc did not complete within ${timeout_s}s` };
    return { result: 'failure', output: `error: health rpc probe failed: rpc error: code = ${code} desc = ${details}` };
  }
  if (answer.status !== 1) return { result: 'failure', output: `service unhealthy (responded with "${SERVING_STATUS_NAMES[answer.status] ?? answer.status}")` };
  return { result: 'success', output: 'service healthy' };
}

/** health.proto ServingStatus. */
const SERVING_STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

async function execProbe(command: string[], target: ProbeTarget, runtime: CriRuntime, timeout_s: number): Promise<ProbeOutcome> {
  try {
    const res = await runtime.execSync({ containerId: target.containerId, cmd: command, timeout: timeout_s });
    if (res.exitCode === 0) return { result: 'success', output: res.stdout };
    return { result: 'failure', output: `${res.stdout}${res.stderr}`.trim() || `command ${JSON.stringify(command.join(' '))} exited with ${res.exitCode}` };
  } catch (error) {
    if (error instanceof CriError && error.code === GRPC_DEADLINE_EXCEEDED) return { result: 'failure', output: `command "${command.join(' ')}" timed out` };
    return { result: 'failure', output: (error as Error).message };
  }
}

function resolvePort(port: number | string, target: ProbeTarget): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return target.ports.find((p) => p.name === port)?.containerPort;
}

const MAX_REDIRECTS = 10;

async function httpProbe(h: NonNullable<ProbeSpec['httpGet']>, target: ProbeTarget, network: ProbeNetwork, onAbort: (fn: () => void) => void, faults: Faults): Promise<ProbeOutcome> {
  const port = resolvePort(h.port, target);
  if (port === undefined) return { result: 'failure', output: `unknown port ${JSON.stringify(h.port)}` };
  const scheme = (h.scheme ?? 'HTTP').toLowerCase();
  const host = h.host || target.podIp;
  let url = new URL(`${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${h.path?.startsWith('/') ? h.path : `/${h.path ?? ''}`}`);
  // prober/http: a User-Agent of kube-probe/<major.minor> and Accept */* unless the probe sets them.
  const headers: Record<string, string> = { 'user-agent': 'kube-probe/1.31', accept: '*/*' };
  for (const x of h.httpHeaders ?? []) headers[x.name.toLowerCase()] = x.value;
  for (let hop = 0; ; hop++) {
    let res: { status: number; location?: string };
    try {
      res = await network.httpGet(url.toString(), headers, onAbort);
    } catch (error) {
      return { result: 'failure', output: `Get "${url}": ${(error as Error).message}` };
    }
    // Fault probe-3xx-fails: only 2xx succeeds; a redirect is neither followed nor accepted.
    if (faults.has('probe-3xx-fails') && res.status >= 300) return { result: 'failure', output: `HTTP probe failed with statuscode: ${res.status}` };
    if (res.status >= 300 && res.status < 400 && res.location && hop < MAX_REDIRECTS) {
      const next = new URL(res.location, url);
      if (next.hostname === url.hostname) {
        url = next;
        continue;
      }
      return { result: 'success', output: `Probe terminated redirects, Response: ${res.status}` };
    }
    if (res.status >= 200 && res.status < 400) return { result: 'success', output: '' };
    return { result: 'failure', output: `HTTP probe failed with statuscode: ${res.status}` };
  }
}

async function tcpProbe(t: NonNullable<ProbeSpec['tcpSocket']>, target: ProbeTarget, network: ProbeNetwork, onAbort: (fn: () => void) => void): Promise<ProbeOutcome> {
  const port = resolvePort(t.port, target);
  if (port === undefined) return { result: 'failure', output: `unknown port ${JSON.stringify(t.port)}` };
  const host = t.host || target.podIp;
  try {
    await network.tcpConnect(host, port, onAbort);
    return { result: 'success', output: '' };
  } catch (error) {
    return { result: 'failure', output: `dial tcp ${host}:${port}: ${(error as Error).message}` };
  }
}
