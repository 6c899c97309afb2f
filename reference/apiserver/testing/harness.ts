/**
 * In-process helpers for the API server's tests: a server over a fresh in-memory backend, a
 * `call` that speaks JSON, and a watch that collects its events.
 */
import { LocalBackend } from '../../store/local.ts';
import type { Backend } from '../../store/backend.ts';
import { createApiServer, type ApiServer, type ApiServerOptions } from '../server.ts';
import type { Timers, WatchSink } from '../types.ts';
import { decodeWatchFrames } from '../protobuf/codec.ts';
import { serviceAccountTokens } from '../authn/serviceaccount.ts';

export interface TestClock {
  now_ms(): number;
  advance(ms: number): void;
}

export function testClock(start_ms = Date.UTC(2024, 0, 1)): TestClock {
  let now = start_ms;
  return { now_ms: () => now, advance: (ms) => void (now += ms) };
}

/** Timers fired by hand: `fire()` runs everything due by the test clock. */
export class ManualTimers implements Timers {
  private pending: { at: number; fn: () => void; live: boolean }[] = [];
  constructor(private readonly clock: TestClock) {}
  after(ms: number, fn: () => void): () => void {
    const t = { at: this.clock.now_ms() + ms, fn, live: true };
    this.pending.push(t);
    return () => void (t.live = false);
  }
  advance(ms: number): void {
    this.clock.advance(ms);
    const due = this.pending.filter((t) => t.live && t.at <= this.clock.now_ms());
    this.pending = this.pending.filter((t) => !due.includes(t));
    for (const t of due) t.fn();
  }
}

export interface Harness {
  server: ApiServer;
  backend: Backend;
  clock: TestClock;
  timers: ManualTimers;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any; headers: Record<string, string> }>;
  watch(path: string, headers?: Record<string, string>): Promise<CollectedWatch>;
}

export interface CollectedWatch {
  status: number;
  events: { type: string; object: any }[];
  ended: boolean;
  stop(): void;
  body?: any;
}

export async function harness(opts: Partial<ApiServerOptions> = {}): Promise<Harness> {
  const backend = opts.backend ?? new LocalBackend();
  const clock = testClock();
  const timers = new ManualTimers(clock);
  const server = createApiServer({ backend, clock, timers, ...opts });
  await server.ready;
  const call: Harness['call'] = async (method, path, body, headers = {}) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const hdrs = body !== undefined && !headers['content-type'] ? { 'content-type': 'application/json', ...headers } : headers;
    const r = await server.handle({ method, url: path, headers: hdrs, body: Buffer.from(text) });
    if (r.answer.kind !== 'reply') throw new Error(`expected a reply, got a stream for ${method} ${path}`);
    const raw = r.answer.body;
    return { status: r.status, json: typeof raw === 'string' ? raw : JSON.parse(JSON.stringify(raw)), headers: { ...(r.answer.headers ?? {}), ...r.headers } };
  };
  const watch: Harness['watch'] = async (path, headers = {}) => {
    const r = await server.handle({ method: 'GET', url: path, headers, body: Buffer.alloc(0) });
    if (r.answer.kind === 'reply') return { status: r.status, events: [], ended: true, stop() {}, body: r.answer.body };
    const w: CollectedWatch = { status: 200, events: [], ended: false, stop: () => {} };
    const sink: WatchSink = {
      write: (line) => void (typeof line === 'string' ? w.events.push(JSON.parse(line)) : w.events.push(...decodeWatchFrames(line))),
      end: () => void (w.ended = true),
    };
    w.stop = r.answer.start(sink);
    return w;
  };
  return { server, backend, clock, timers, call, watch };
}

export function pod(name: string, extra: Record<string, unknown> = {}): any {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...extra }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };
}

export function deployment(name: string, replicas = 1): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } },
    },
  };
}

/** A harness whose server mints ServiceAccount tokens (TokenRequest), signed with a fixed HS256 key on the harness's clock. */
export async function harnessWithTokens(): Promise<Harness> {
  let h: Harness | undefined;
  const tokens = serviceAccountTokens({
    issuer: 'https://kubernetes.default.svc.cluster.local',
    key: { alg: 'HS256', secret: Buffer.alloc(32, 1) },
    clock: { now_ms: () => h!.clock.now_ms() },
    getServiceAccount: () => undefined,
  });
  h = await harness({ serviceAccountTokens: { mint: (req) => tokens.mintToken(req) } });
  return h;
}
