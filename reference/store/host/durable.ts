/**
 * A LocalBackend that survives a crash: every write command is appended to the write-ahead log
 * and fsynced before it is applied, so a write whose promise resolved is on disk.
 *
 * Data dir layout:
 *   wal.log        — records `{"i": <index>, "c": <StoreCommand>}`, indexes strictly increasing
 *   snapshot.mvcc  — optional: a header line `{"format", "walIndex", "revision", "crc32", "bytes"}`
 *                    then the MvccStore snapshot (all retained revisions); written temp+fsync+rename
 *
 * Opening restores the snapshot, then replays the WAL records whose index is above the
 * snapshot's `walIndex` (a crash between writing a snapshot and emptying the WAL leaves such
 * older records behind; they are skipped). Commands, not results, are logged: MvccStore.apply
 * is deterministic, so replaying them in log order rebuilds the same revisions.
 *
 * Order: the WAL order is the apply order. Commands are appended in the order `submit` reaches
 * the log, and each is applied only after its own append and every earlier apply finished.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalBackend, type LocalBackendOptions } from '../local.ts';
import { decodeCommand, MvccStore, type StoreCommand, type StoreResult } from '../mvcc.ts';
import { crc32, Wal, writeFileAtomic, type TornTail } from './wal.ts';

export const SNAPSHOT_FILE_NAME = 'snapshot.mvcc';
const SNAPSHOT_FORMAT = 'kubespec-durable-snapshot/1';

export interface DurableOpenOptions extends LocalBackendOptions {
  /** Truncate a bad WAL tail instead of opening read-only (see wal.ts). */
  repair?: boolean;
}

export interface DurableOpenResult {
  backend: DurableBackend;
  /** The WAL's bad tail, if it had one; when not repaired, the backend refuses writes. */
  tornTail?: TornTail;
  /** WAL records applied on top of the snapshot. */
  replayedRecords: number;
  /** Index of the last WAL record covered by the snapshot (0 without a snapshot). */
  snapshotWalIndex: number;
}

interface SnapshotHeader {
  format: string;
  walIndex: number;
  revision: number;
  crc32: number;
  bytes: number;
}

export class DurableBackend extends LocalBackend {
  private lastIndex: number;
  private appliedIndex: number;
  /** Resolves when every command accepted so far was applied (never rejects). */
  private applyChain: Promise<void> = Promise.resolve();
  /** While a snapshot is being taken, new commands wait here so none lands in a WAL about to be emptied. */
  private snapshotGate: Promise<void> | undefined;

  private constructor(
    readonly dir: string,
    private readonly wal: Wal,
    store: MvccStore,
    walIndex: number,
    options: LocalBackendOptions,
  ) {
    super(store, options);
    this.lastIndex = walIndex;
    this.appliedIndex = walIndex;
  }

  static async open(dir: string, opts: DurableOpenOptions = {}): Promise<DurableOpenResult> {
    const snapshot = await readSnapshotFile(dir);
    const store = snapshot ? MvccStore.restore(snapshot.body) : new MvccStore();
    const snapshotWalIndex = snapshot?.header.walIndex ?? 0;
    const opened = await Wal.open(dir, { repair: opts.repair ?? false });
    const lastIndex = replayRecords(store, opened.records, snapshotWalIndex, opened.wal.path);
    const backend = new DurableBackend(dir, opened.wal, store, lastIndex.index, opts);
    return { backend, ...(opened.tornTail ? { tornTail: opened.tornTail } : {}), replayedRecords: lastIndex.replayed, snapshotWalIndex };
  }

  /** Why writes are refused (an unrepaired WAL tail), if they are. */
  get readOnlyReason(): string | undefined {
    return this.wal.readOnlyReason;
  }

  /**
   * Writes a snapshot of everything applied so far, then empties the WAL. Writes submitted
   * meanwhile wait and are logged after it.
   */
  async saveSnapshot(): Promise<{ revision: number; walIndex: number }> {
    while (this.snapshotGate !== undefined) await this.snapshotGate;
    let release!: () => void;
    this.snapshotGate = new Promise<void>((resolve) => (release = resolve));
    try {
      await this.applyChain;
      const body = this.mvcc.snapshot();
      const header: SnapshotHeader = {
        format: SNAPSHOT_FORMAT,
        walIndex: this.appliedIndex,
        revision: this.mvcc.currentRevision(),
        crc32: crc32(Buffer.from(body, 'utf8')),
        bytes: Buffer.byteLength(body, 'utf8'),
      };
      await writeFileAtomic(this.dir, SNAPSHOT_FILE_NAME, `${JSON.stringify(header)}\n${body}`);
      await this.wal.reset();
      return { revision: header.revision, walIndex: header.walIndex };
    } finally {
      this.snapshotGate = undefined;
      release();
    }
  }

  /** Waits for writes under way, then closes the log. */
  async close(): Promise<void> {
    while (this.snapshotGate !== undefined) await this.snapshotGate;
    await this.applyChain;
    await this.wal.close();
  }

  protected override async submit(command: StoreCommand): Promise<StoreResult> {
    // A malformed command changes nothing: answer it without logging it.
    if ('error' in decodeCommand(command)) return this.mvcc.apply(command);
    while (this.snapshotGate !== undefined) await this.snapshotGate;
    return this.logThenApply(command);
  }

  /** Synchronous up to the append, so the index, the WAL order and the apply order agree. */
  private logThenApply(command: StoreCommand): Promise<StoreResult> {
    const index = ++this.lastIndex;
    const appended = this.wal.append(JSON.stringify({ i: index, c: command }));
    const applied = this.applyChain
      .then(() => appended)
      .then(() => {
        this.appliedIndex = index;
        return this.mvcc.apply(command);
      });
    this.applyChain = applied.then(
      () => undefined,
      () => undefined,
    );
    return applied;
  }
}

/** Applies the records above the snapshot's index; any record that does not decode is an error, never skipped. */
function replayRecords(store: MvccStore, records: Buffer[], snapshotWalIndex: number, path: string): { index: number; replayed: number } {
  let index = snapshotWalIndex;
  let replayed = 0;
  records.forEach((record, position) => {
    const parsed = JSON.parse(record.toString('utf8')) as { i?: unknown; c?: unknown };
    if (typeof parsed.i !== 'number') throw new Error(`${path}: record ${position} has no index`);
    if (parsed.i <= snapshotWalIndex) return;
    if (parsed.i <= index) throw new Error(`${path}: record ${position} index ${parsed.i} does not follow ${index}`);
    const decoded = decodeCommand(parsed.c);
    if ('error' in decoded) throw new Error(`${path}: record ${position}: ${decoded.error}`);
    store.apply(decoded.command);
    index = parsed.i;
    replayed++;
  });
  return { index, replayed };
}

async function readSnapshotFile(dir: string): Promise<{ header: SnapshotHeader; body: string } | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, SNAPSHOT_FILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const newline = text.indexOf('\n');
  const header = JSON.parse(newline < 0 ? text : text.slice(0, newline)) as SnapshotHeader;
  const body = text.slice(newline + 1);
  const bytes = Buffer.from(body, 'utf8');
  if (header.format !== SNAPSHOT_FORMAT || header.bytes !== bytes.length || header.crc32 !== crc32(bytes)) {
    throw new Error(`${join(dir, SNAPSHOT_FILE_NAME)} is damaged (format, length or CRC does not match its header)`);
  }
  return { header, body };
}
