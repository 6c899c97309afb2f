/**
 * KvFacet over a real etcd, through the `etcd3` npm client's raw KV/Maintenance RPCs.
 *
 * Isolation: every session gets its own key prefix (`/kubespec/<scenario>/`) and the facet adds
 * and strips it transparently, so a scenario sees only its keys. The store's revision is global
 * and shared with every earlier scenario on the same cluster: scenarios must assert on revisions
 * relative to what they observed, never on absolute numbers. Compaction is global too (etcd has no
 * per-prefix compaction); that is harmless because a scenario only ever asks for revisions it saw
 * after the previous scenarios' compactions. A prefix costs nothing; a fresh cluster per scenario
 * would cost ~0.4–2 s each (measured here).
 *
 * snapshotRestore starts a fresh single-member cluster from the snapshot (`etcdctl snapshot
 * restore` + `etcd`) and points this facet at it for the rest of the session; the session's
 * MembersFacet keeps describing the original cluster. The restored cluster is stopped on close().
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Etcd3, IHashKVResponse, IKeyValue, IWatchResponse, Watcher } from 'etcd3';
import { newEtcd3 } from './etcd3.ts';
import { CompactedError, StoreUnavailableError } from '../../contract/contract.ts';
import type { CompareAndSwap, KeyValue, KvEvent, KvFacet, KvWatch } from '../../contract/contract.ts';
import { EtcdCluster, offlineSnapshotTool } from './cluster.ts';
import { pollUntil } from '../polling-waiter.ts';

const execFileAsync = promisify(execFile);

/** Bounds a single KV call: etcd gives up on a write without quorum after ~5 s, the client retries. */
export const KV_CALL_DEADLINE_MS = 15_000;
/** How long watch() waits for the server to cancel a watch that starts below the compact revision. */
export const WATCH_CANCEL_BUDGET_MS = 5_000;

/** etcd's words for a read below the compact revision (mvcc.ErrCompacted). */
const COMPACTED_MESSAGE = 'required revision has been compacted';

interface PoolExec {
  exec(service: string, method: string, request: unknown): Promise<unknown>;
}

export interface EtcdKvOptions {
  cluster: EtcdCluster;
  /** Prepended to every key; '' gives raw access to the whole keyspace. */
  prefix: string;
  /** Members of the cluster snapshotRestore starts (1 unless given). */
  restoreMembers?: number;
}

export function prefixRangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff (or empty): etcd reads range_end "\0" as "every key from `key` on".
  return Buffer.from([0]);
}

export function isCompactedError(err: unknown): boolean {
  return err instanceof Error && err.message.includes(COMPACTED_MESSAGE);
}

export function newKvClient(endpoints: string[]): Etcd3 {
  return newEtcd3({
    hosts: endpoints,
    // Streams (watch) must live on; unary calls get a deadline so no step hangs forever.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + KV_CALL_DEADLINE_MS }),
  });
}

export class EtcdKv implements KvFacet {
  private client: Etcd3;
  private readonly retiredClients: Etcd3[] = [];
  private readonly watches = new Set<EtcdWatch>();
  private restored?: EtcdCluster;
  private current: EtcdCluster;

  constructor(private readonly opts: EtcdKvOptions) {
    this.current = opts.cluster;
    this.client = newKvClient(opts.cluster.endpoints());
  }

  get prefix(): string {
    return this.opts.prefix;
  }

  /** The cluster this facet talks to now: the original, or the one snapshotRestore started. */
  get cluster(): EtcdCluster {
    return this.current;
  }

  async put(key: string, value: string): Promise<{ revision: number }> {
    const res = await unavailableAs(this.client.kv.put({ key: this.full(key), value: Buffer.from(value) }));
    return { revision: Number(res.header.revision) };
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<{ kv?: KeyValue; revision: number }> {
    const res = await this.read(opts.revision, () =>
      this.client.kv.range({ key: this.full(key), ...(opts.revision ? { revision: opts.revision } : {}) }));
    const first = res.kvs[0];
    return { ...(first ? { kv: this.toKeyValue(first) } : {}), revision: Number(res.header.revision) };
  }

  async range(prefix: string, opts: { revision?: number; limit?: number; fromKey?: string } = {}): Promise<{ kvs: KeyValue[]; revision: number; more: boolean }> {
    const start = this.full(prefix);
    // A later page starts at fromKey and still ends where the prefix does (the API server's continue).
    const from = opts.fromKey !== undefined && opts.fromKey > prefix ? this.full(opts.fromKey) : start;
    const res = await this.read(opts.revision, () => this.client.kv.range({
      key: from,
      range_end: prefixRangeEnd(start),
      ...(opts.revision ? { revision: opts.revision } : {}),
      ...(opts.limit ? { limit: opts.limit } : {}),
    }));
    return { kvs: res.kvs.map((kv) => this.toKeyValue(kv)), revision: Number(res.header.revision), more: res.more };
  }

  async delete(key: string): Promise<{ revision: number; deleted: number }> {
    const res = await unavailableAs(this.client.kv.deleteRange({ key: this.full(key) }));
    return { revision: Number(res.header.revision), deleted: Number(res.deleted) };
  }

  /** A missing key compares with mod_revision 0, so `expectModRevision: 0` means "create only". */
  async txn(cas: CompareAndSwap): Promise<{ succeeded: boolean; revision: number; current?: KeyValue }> {
    const key = this.full(cas.key);
    const res = await unavailableAs(this.client.kv.txn({
      compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: cas.expectModRevision }],
      success: [cas.value === null
        ? { request_delete_range: { key } }
        : { request_put: { key, value: Buffer.from(cas.value) } }],
      // The API server's GuaranteedUpdate reads the key in the failure branch: `.Else(clientv3.OpGet(key))`.
      failure: [{ request_range: { key } }],
    }));
    const current = res.succeeded ? undefined : res.responses[0]?.response_range?.kvs?.[0];
    return { succeeded: res.succeeded, revision: Number(res.header.revision), ...(current ? { current: this.toKeyValue(current) } : {}) };
  }

  async watch(prefix: string, fromRevision: number, opts: { onEvent?: (event: KvEvent) => void } = {}): Promise<KvWatch> {
    const start = this.full(prefix);
    const builder = this.client.watch().inRange({ start, end: prefixRangeEnd(start) }).withPreviousKV();
    if (fromRevision > 0) builder.startRevision(String(fromRevision));
    const watch = new EtcdWatch(builder.watcher(), fromRevision, (kv) => this.toKeyValue(kv), () => this.compactRevision(), opts.onEvent);
    this.watches.add(watch);
    await watch.ready();
    // etcd answers "created" first and cancels a compacted start just after: wait for that
    // cancellation so the caller sees a settled watch, as a single-process store would give it.
    if (fromRevision > 0 && fromRevision < (await this.compactRevision())) {
      await pollUntil(`etcd to cancel the watch from compacted revision ${fromRevision}`,
        () => watch.cancelled !== undefined, WATCH_CANCEL_BUDGET_MS);
    }
    return watch;
  }

  /** physical: true makes etcd answer only once the compaction is applied, so reads after see it. */
  async compact(revision: number): Promise<void> {
    await this.read(revision, () => this.client.kv.compact({ revision, physical: true }));
  }

  /**
   * The store's compact revision. Status in 3.4 lacks it; HashKV reports it as a side fact.
   * etcd3 1.1.2's `maintenance.hashKV` calls a method grpc never defined (the generated client
   * names it `HashKV`/`hashKv`), so the call goes through the connection pool by its proto name.
   */
  async compactRevision(): Promise<number> {
    const pool = (this.client as unknown as { pool: PoolExec }).pool;
    const res = await pool.exec('Maintenance', 'HashKV', { revision: 0 }) as IHashKVResponse;
    return Number(res.compact_revision);
  }

  /** `etcdctl snapshot save` from one live member, then `snapshot status` (etcdutl where installed) for its revision. */
  async snapshotSave(path: string): Promise<{ revision: number }> {
    const endpoint = this.current.liveEndpoints()[0];
    if (endpoint === undefined) throw new Error('snapshotSave: no live etcd member');
    const env = { ...process.env, ETCDCTL_API: '3' };
    const bin = this.current.etcdctlBin;
    await execFileAsync(bin, ['--endpoints', endpoint, 'snapshot', 'save', path], { timeout: 30_000, env });
    const offline = await offlineSnapshotTool(bin);
    const { stdout } = await execFileAsync(offline.bin, ['snapshot', 'status', path, '-w', 'json'], { timeout: 30_000, env: offline.env });
    return { revision: Number((JSON.parse(stdout) as { revision: number }).revision) };
  }

  async snapshotRestore(path: string): Promise<void> {
    const fresh = await EtcdCluster.start({ members: this.opts.restoreMembers ?? 1, restoreFrom: path, etcdctlBin: this.current.etcdctlBin });
    await this.restored?.stop();
    this.restored = fresh;
    this.current = fresh;
    this.retiredClients.push(this.client);
    this.client = newKvClient(fresh.endpoints());
  }

  describe(): Record<string, unknown> {
    return {
      prefix: this.opts.prefix,
      endpoints: this.current.endpoints(),
      ...(this.restored ? { restoredCluster: this.restored.describe() } : {}),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.watches].map((w) => w.cancel().catch(() => undefined)));
    this.watches.clear();
    for (const client of [this.client, ...this.retiredClients]) client.close();
    await this.restored?.stop();
  }

  private full(key: string): Buffer {
    return Buffer.from(this.opts.prefix + key);
  }

  private toKeyValue(kv: IKeyValue): KeyValue {
    return {
      key: kv.key.toString().slice(this.opts.prefix.length),
      value: kv.value.toString(),
      createRevision: Number(kv.create_revision),
      modRevision: Number(kv.mod_revision),
      version: Number(kv.version),
    };
  }

  /** Run a call that names a revision; etcd's "compacted" answer becomes CompactedError. */
  private async read<T>(revision: number | undefined, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!isCompactedError(err)) throw etcdUnavailable(err) ?? err;
      throw new CompactedError(revision ?? 0, await this.compactRevision());
    }
  }
}

/**
 * etcd's refusals in the contract's words. etcd answers a request it cannot commit with gRPC
 * Unavailable and one of its rpctypes messages (etcd-io/etcd api/v3rpc/rpctypes/error.go:
 * ErrGRPCTimeout "etcdserver: request timed out", ErrGRPCNoLeader "etcdserver: no leader",
 * ErrGRPCLeaderChanged "etcdserver: leader changed", ErrGRPCNotCapable / ErrGRPCStopped...);
 * a call that outlives the client's deadline ends DEADLINE_EXCEEDED; a dead member refuses the
 * connection, and once a member has refused a few calls etcd3's per-host circuit breaker (cockatiel's
 * BrokenCircuitError, whose name is plain "Error") refuses calls to it for a while without trying.
 * Anything else is not a refusal and passes through.
 */
export function etcdUnavailable(err: unknown): StoreUnavailableError | undefined {
  if (!(err instanceof Error)) return undefined;
  const text = `${err.name} ${err.message}`;
  if (/request timed out|deadline exceeded|DeadlineExceeded/i.test(text)) return new StoreUnavailableError('timeout', err.message, err);
  if (/no leader|leader changed|not leader/i.test(text)) return new StoreUnavailableError('no-leader', err.message, err);
  if (/ECONNREFUSED|ECONNRESET|connect failed|failed to connect|No connection established|BrokenCircuit|circuit breaker is open|UNAVAILABLE|server stopped/i.test(text)) {
    return new StoreUnavailableError('unreachable', err.message, err);
  }
  return undefined;
}

async function unavailableAs<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw etcdUnavailable(err) ?? err;
  }
}

/**
 * One etcd watch, collecting events in order. etcd3's Watcher reconnects by itself (it resumes
 * after the last revision it saw), and reports a server-side cancellation as an `error` event
 * whose text carries only cancel_reason — empty for compaction in 3.4 — so the compact revision
 * is asked for separately.
 */
class EtcdWatch implements KvWatch {
  readonly events: KvEvent[] = [];
  cancelled?: { reason: string; compactRevision?: number };
  private readonly connected: Promise<void>;
  private closedByClient = false;

  constructor(
    private readonly watcher: Watcher,
    /** The revision asked for; etcd3 moves request.start_revision on as events arrive. */
    private readonly fromRevision: number,
    toKeyValue: (kv: IKeyValue) => KeyValue,
    compactRevision: () => Promise<number>,
    onEvent?: (event: KvEvent) => void,
  ) {
    watcher.on('data', (res: IWatchResponse) => {
      for (const ev of res.events) {
        const event: KvEvent = {
          type: ev.type === 'Delete' ? 'DELETE' : 'PUT',
          kv: toKeyValue(ev.kv),
          ...(ev.prev_kv ? { prevKv: toKeyValue(ev.prev_kv) } : {}),
        };
        this.events.push(event);
        onEvent?.(event);
      }
    });
    this.connected = new Promise<void>((resolve) => {
      watcher.once('connected', () => resolve());
      watcher.on('error', (err: Error) => {
        void this.onCancelled(err, compactRevision).finally(resolve);
      });
    });
  }

  ready(): Promise<void> {
    return this.connected;
  }

  /** `cancelled` stays unset: it reports the store's cancellations, not the caller's own. */
  async cancel(): Promise<void> {
    // A watch the server cancelled is already gone; asking to cancel it again gets no answer.
    if (this.cancelled !== undefined || this.closedByClient) return;
    this.closedByClient = true;
    await this.watcher.cancel();
  }

  private async onCancelled(err: Error, compactRevision: () => Promise<number>): Promise<void> {
    const reason = err.message.replace(/^Watcher canceled:\s*/, '');
    let compact: number | undefined;
    try {
      compact = await compactRevision();
    } catch {
      compact = undefined;
    }
    const start = this.fromRevision;
    const compacted = compact !== undefined && start > 0 && start < compact;
    this.cancelled = {
      reason: reason || (compacted ? `mvcc: ${COMPACTED_MESSAGE}` : 'cancelled by the server'),
      ...(compacted ? { compactRevision: compact } : {}),
    };
  }
}
