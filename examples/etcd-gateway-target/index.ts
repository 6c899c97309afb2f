/**
 * A kubespec target from outside the project: the `kv` contract over etcd's JSON gRPC-gateway.
 *
 * It is written only against `kubespec/contract` (no other kubespec import) and speaks plain
 * HTTP + JSON to the gateway etcd 3.4 serves on its client URL — a different protocol from the
 * built-in etcd target, which uses gRPC through the etcd3 client. The gateway's shapes are the
 * protobuf JSON mapping of etcd's rpc.proto (etcd-io/etcd api/etcdserverpb/rpc.proto, with the
 * paths in its google.api.http options): bytes are base64, int64s are strings, fields at their
 * default (false, 0, type PUT) are left out.
 *
 * Options: { endpoint?: 'http://127.0.0.1:2379', etcdBin?: 'etcd' }. Without an endpoint the
 * target starts one etcd member on loopback in a temporary directory, and stops it at the end.
 *
 * Run it:   npx kubespec run --target ./examples/etcd-gateway-target/index.ts
 *           npx kubespec run --target ./examples/etcd-gateway-target/index.ts --loader ts-node
 *           npx kubespec check-target ./examples/etcd-gateway-target/index.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  CONTRACT_VERSION,
  CompactedError,
  type Capability,
  type CompareAndSwap,
  type KeyValue,
  type KvEvent,
  type KvFacet,
  type KvWatch,
  type ScenarioContext,
  type Session,
  type Target,
  type Waiter,
} from 'kubespec/contract';

export interface GatewayTargetOptions {
  /** A running etcd's client URL; omitted: the target starts its own member. */
  endpoint?: string;
  etcdBin?: string;
}

/** How long the started member may take to answer (it is up in well under a second here). */
const STARTUP_BUDGET_MS = 15_000;
/** One gateway call; etcd gives up on an uncommitted write after ~5 s. */
const CALL_TIMEOUT_MS = 15_000;

export function createTarget(options: GatewayTargetOptions = {}): Target {
  return new GatewayTarget(options);
}
export default createTarget;

// ---- the gateway's JSON ----

interface WireKv {
  key: string;
  value?: string;
  create_revision?: string;
  mod_revision?: string;
  version?: string;
}
interface Header {
  revision?: string;
}
interface WireEvent {
  type?: 'PUT' | 'DELETE';
  kv: WireKv;
  prev_kv?: WireKv;
}
interface WatchResult {
  header?: Header;
  created?: boolean;
  canceled?: boolean;
  compact_revision?: string;
  cancel_reason?: string;
  events?: WireEvent[];
}

const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');
const unb64 = (text: string | undefined): string => Buffer.from(text ?? '', 'base64').toString('utf8');
const num = (text: string | undefined): number => Number(text ?? 0);

/** The range end that covers every key starting with `prefix` (etcd's "prefix end"). */
function prefixEnd(prefix: string): string {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return b64(end.subarray(0, i + 1));
    }
  }
  return b64(Buffer.from([0]));
}

class GatewayError extends Error {
  constructor(readonly status: number, readonly body: { error?: string; message?: string; code?: number }) {
    super(`etcd gateway answered ${status}: ${body.message ?? body.error ?? JSON.stringify(body)}`);
  }
  get compacted(): boolean {
    return /required revision has been compacted/.test(this.body.message ?? this.body.error ?? '');
  }
}

class Gateway {
  constructor(readonly endpoint: string) {}

  async call<T>(route: string, body: unknown): Promise<T> {
    const res = await fetch(`${this.endpoint}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const json = (await res.json()) as T & { error?: string };
    if (!res.ok || json.error) throw new GatewayError(res.status, json);
    return json;
  }

  /** POST /v3/watch: one create_request, then a stream of JSON lines, one WatchResponse each. */
  async watch(create: Record<string, unknown>, onResult: (r: WatchResult) => void): Promise<AbortController> {
    const abort = new AbortController();
    const res = await fetch(`${this.endpoint}/v3/watch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ create_request: create }),
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new GatewayError(res.status, { message: await res.text() });
    void readLines(res.body, (line) => onResult((JSON.parse(line) as { result: WatchResult }).result)).catch(() => undefined);
    return abort;
  }
}

async function readLines(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line) onLine(line);
    }
  }
}

// ---- the kv facet ----

/** Every session gets its own key prefix, added and stripped here; revisions stay the store's. */
class GatewayKv implements KvFacet {
  private readonly watches = new Set<GatewayWatch>();

  constructor(private readonly gw: Gateway, private readonly prefix: string) {}

  async put(key: string, value: string): Promise<{ revision: number }> {
    const res = await this.gw.call<{ header: Header }>('/v3/kv/put', { key: b64(this.prefix + key), value: b64(value) });
    return { revision: num(res.header.revision) };
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<{ kv?: KeyValue; revision: number }> {
    const res = await this.read(opts.revision, { key: b64(this.prefix + key), ...(opts.revision ? { revision: String(opts.revision) } : {}) });
    const first = res.kvs?.[0];
    return { ...(first ? { kv: this.keyValue(first) } : {}), revision: num(res.header.revision) };
  }

  async range(prefix: string, opts: { revision?: number; limit?: number; fromKey?: string } = {}): Promise<{ kvs: KeyValue[]; revision: number; more: boolean }> {
    const from = opts.fromKey !== undefined && opts.fromKey > prefix ? opts.fromKey : prefix;
    const res = await this.read(opts.revision, {
      key: b64(this.prefix + from),
      range_end: prefixEnd(this.prefix + prefix),
      ...(opts.revision ? { revision: String(opts.revision) } : {}),
      ...(opts.limit ? { limit: String(opts.limit) } : {}),
    });
    // The gateway's JSON leaves a false `more` out (proto3 defaults are not emitted).
    return { kvs: (res.kvs ?? []).map((kv) => this.keyValue(kv)), revision: num(res.header.revision), more: res.more === true };
  }

  async delete(key: string): Promise<{ revision: number; deleted: number }> {
    const res = await this.gw.call<{ header: Header; deleted?: string }>('/v3/kv/deleterange', { key: b64(this.prefix + key) });
    return { revision: num(res.header.revision), deleted: num(res.deleted) };
  }

  /** A missing key has mod_revision 0, so expectModRevision 0 means "only if absent". */
  async txn(cas: CompareAndSwap): Promise<{ succeeded: boolean; revision: number; current?: KeyValue }> {
    const key = b64(this.prefix + cas.key);
    const res = await this.gw.call<{ header: Header; succeeded?: boolean; responses?: { response_range?: { kvs?: WireKv[] } }[] }>('/v3/kv/txn', {
      compare: [{ key, target: 'MOD', result: 'EQUAL', mod_revision: String(cas.expectModRevision) }],
      success: [cas.value === null ? { request_delete_range: { key } } : { request_put: { key, value: b64(cas.value) } }],
      failure: [{ request_range: { key } }],
    });
    const current = res.succeeded === true ? undefined : res.responses?.[0]?.response_range?.kvs?.[0];
    return { succeeded: res.succeeded === true, revision: num(res.header.revision), ...(current ? { current: this.keyValue(current) } : {}) };
  }

  async watch(prefix: string, fromRevision: number, opts: { onEvent?: (event: KvEvent) => void } = {}): Promise<KvWatch> {
    const watch = new GatewayWatch((kv) => this.keyValue(kv), opts.onEvent);
    this.watches.add(watch);
    const start = this.prefix + prefix;
    await watch.open(this.gw, {
      key: b64(start),
      range_end: prefixEnd(start),
      prev_kv: true,
      ...(fromRevision > 0 ? { start_revision: String(fromRevision) } : {}),
    });
    return watch;
  }

  /** physical: the answer comes once the compaction is applied, so later reads see it. */
  async compact(revision: number): Promise<void> {
    try {
      await this.gw.call('/v3/kv/compaction', { revision: String(revision), physical: true });
    } catch (error) {
      if (error instanceof GatewayError && error.compacted) throw new CompactedError(revision, await compactRevision(this.gw));
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.watches].map((w) => w.cancel()));
  }

  private async read(revision: number | undefined, body: Record<string, unknown>): Promise<{ header: Header; kvs?: WireKv[]; more?: boolean }> {
    try {
      return await this.gw.call('/v3/kv/range', body);
    } catch (error) {
      if (error instanceof GatewayError && error.compacted) throw new CompactedError(revision ?? 0, await compactRevision(this.gw));
      throw error;
    }
  }

  private keyValue(kv: WireKv): KeyValue {
    return {
      key: unb64(kv.key).slice(this.prefix.length),
      value: unb64(kv.value),
      createRevision: num(kv.create_revision),
      modRevision: num(kv.mod_revision),
      version: num(kv.version),
    };
  }
}

/**
 * The store's compact revision. The gateway's range error names no revision, and Status in 3.4
 * lacks it; a watch from revision 1 is cancelled at once with compact_revision when anything
 * was compacted (and is simply created when nothing was).
 */
async function compactRevision(gw: Gateway): Promise<number> {
  let settle!: (n: number) => void;
  const answer = new Promise<number>((resolve) => (settle = resolve));
  const abort = await gw.watch({ key: b64('\0kubespec-compact-probe'), start_revision: '1' }, (r) => {
    if (r.canceled) settle(num(r.compact_revision));
    else if (r.created) setTimeout(() => settle(0), 200); // a cancel follows "created" at once
  });
  const revision = await answer;
  abort.abort();
  return revision;
}

class GatewayWatch implements KvWatch {
  readonly events: KvEvent[] = [];
  cancelled?: { reason: string; compactRevision?: number };
  private abort?: AbortController;

  constructor(private readonly toKv: (kv: WireKv) => KeyValue, private readonly onEvent?: (event: KvEvent) => void) {}

  /** Resolves once etcd created the watch, or cancelled it (a compacted start revision). */
  async open(gw: Gateway, create: Record<string, unknown>): Promise<void> {
    let settled!: () => void;
    const ready = new Promise<void>((resolve) => (settled = resolve));
    let created = false;
    this.abort = await gw.watch(create, (r) => {
      if (r.canceled) {
        // etcd 3.4 cancels a compacted start just after "created", with an empty cancel_reason.
        this.cancelled = {
          reason: r.cancel_reason || (r.compact_revision ? 'mvcc: required revision has been compacted' : 'cancelled by the server'),
          ...(r.compact_revision ? { compactRevision: num(r.compact_revision) } : {}),
        };
        settled();
        return;
      }
      for (const e of r.events ?? []) this.deliver(e);
      if (r.created && !created) {
        created = true;
        // Give a cancellation that follows "created" a moment to arrive, so the caller sees a settled watch.
        setTimeout(settled, create.start_revision ? 100 : 0);
      }
    });
    await ready;
  }

  async cancel(): Promise<void> {
    this.abort?.abort();
  }

  private deliver(e: WireEvent): void {
    const event: KvEvent = { type: e.type === 'DELETE' ? 'DELETE' : 'PUT', kv: this.toKv(e.kv), ...(e.prev_kv ? { prevKv: this.toKv(e.prev_kv) } : {}) };
    this.events.push(event);
    this.onEvent?.(event);
  }
}

// ---- the target ----

/**
 * A scenario tagged `@auto-compaction-retention:3s` needs a store that compacts itself on that
 * period (etcd's --auto-compaction-mode=periodic); the target starts one member per retention.
 */
function retentionOf(tags: readonly string[]): string | undefined {
  return tags.find((t) => t.startsWith('@auto-compaction-retention:'))?.split(':')[1];
}

interface Member {
  process: ChildProcess;
  dir: string;
  gateway: Gateway;
}

class GatewayTarget implements Target {
  readonly name = 'etcd-gateway';
  readonly contractVersion = CONTRACT_VERSION;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['kv', 'kv.watch', 'kv.compaction']);
  readonly knownDeviations: ReadonlyMap<string, string> = new Map();
  private gw?: Gateway;
  /** Members this target started, by retention ('' for the main one). */
  private readonly members = new Map<string, Promise<Member>>();
  private readonly runId = Math.random().toString(16).slice(2, 10);
  private sessions = 0;

  constructor(private readonly options: GatewayTargetOptions) {}

  async start(): Promise<void> {
    this.gw = this.options.endpoint ? new Gateway(this.options.endpoint) : (await this.member('')).gateway;
    await waitForGateway(this.gw);
  }

  async versions(): Promise<Record<string, string>> {
    const res = await fetch(`${this.gateway().endpoint}/version`);
    const body = (await res.json()) as { etcdserver: string; etcdcluster: string };
    return { etcd: body.etcdserver };
  }

  async openSession(ctx: ScenarioContext): Promise<Session> {
    const retention = retentionOf(ctx.tags);
    if (retention && this.options.endpoint) throw new Error(`this scenario needs a store with a ${retention} auto-compaction retention; an attached endpoint cannot be restarted with one`);
    const gw = retention ? (await this.member(retention)).gateway : this.gateway();
    const prefix = `/kubespec-gateway/${this.runId}/${++this.sessions}/`;
    const kv = new GatewayKv(gw, prefix);
    return {
      seed: ctx.seed,
      waiter: realTimeWaiter,
      kv,
      describe: () => ({ endpoint: gw.endpoint, prefix, ...(retention ? { retention } : {}) }),
      close: () => kv.close(),
    };
  }

  async stop(): Promise<void> {
    const members = await Promise.all(this.members.values());
    this.members.clear();
    await Promise.all(members.map(stopMember));
  }

  private gateway(): Gateway {
    if (!this.gw) throw new Error('the etcd-gateway target was not started');
    return this.gw;
  }

  private member(retention: string): Promise<Member> {
    let member = this.members.get(retention);
    if (!member) {
      member = startMember(this.options.etcdBin ?? 'etcd', retention);
      this.members.set(retention, member);
    }
    return member;
  }
}

/** One member on loopback, on two free ports, in a directory of its own. */
async function startMember(etcdBin: string, retention: string): Promise<Member> {
  const [client, peer] = [await freePort(), await freePort()];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-gateway-'));
  const clientUrl = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const child = spawn(etcdBin, [
    '--name', 'gw1', '--data-dir', path.join(dir, 'data'),
    '--listen-client-urls', clientUrl, '--advertise-client-urls', clientUrl,
    '--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl,
    '--initial-cluster', `gw1=${peerUrl}`, '--initial-cluster-state', 'new',
    ...(retention ? ['--auto-compaction-mode=periodic', `--auto-compaction-retention=${retention}`] : []),
  ], { stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'etcd.log'), 'w')] });
  child.on('error', () => undefined); // a missing binary shows as the startup wait failing
  const member = { process: child, dir, gateway: new Gateway(clientUrl) };
  await waitForGateway(member.gateway);
  return member;
}

async function stopMember({ process: child, dir }: Member): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.race([exited, delay(5_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
}

function waitForGateway(gw: Gateway): Promise<void> {
  const answers = async () => (await fetch(`${gw.endpoint}/version`).catch(() => undefined))?.ok === true;
  return pollUntil(`etcd's gateway at ${gw.endpoint} to answer /version`, answers, STARTUP_BUDGET_MS);
}

const realTimeWaiter: Waiter = {
  until: (what, condition, budget_ms) => pollUntil(what, condition, budget_ms),
};

async function pollUntil(what: string, condition: () => Promise<boolean> | boolean, budget_ms: number): Promise<void> {
  const deadline = Date.now() + budget_ms;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${budget_ms} ms waiting for ${what}`);
    await delay(50);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
