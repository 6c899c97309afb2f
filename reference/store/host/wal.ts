/**
 * An append-only write-ahead log in one file, `<dir>/wal.log`. Each record is
 *
 *   [payload length: u32 LE][CRC-32 (IEEE) of the payload: u32 LE][payload bytes]
 *
 * `append` resolves only after the record's bytes were written and fdatasync'ed. Appends that
 * arrive while a sync is under way are written and synced together (group commit), in the
 * order they were called.
 *
 * Opening replays the file and checks every record. A bad tail — the file ends inside a
 * record (a torn write), a record's CRC does not match, or a length is impossible — is never
 * used and never silently dropped: `open` returns the good records and reports the tail's
 * offset and reason. Only with `repair: true` is the file truncated to the last good record
 * (after copying the original to `wal.log.broken`); without it the log stays read-only,
 * because appending after garbage would hide the new records from the next replay.
 * etcd's `wal.Repair` (etcd-io/etcd server/storage/wal/repair.go) likewise truncates to the
 * last good record's offset and keeps a `.broken` copy, but only for a torn tail
 * (io.ErrUnexpectedEOF); it refuses a CRC mismatch. Here `kind` tells the two apart and the
 * caller decides.
 */
import { copyFile, open, mkdir, readFile, rename, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './datadir.ts';

export const WAL_FILE_NAME = 'wal.log';
const HEADER_BYTES = 8;
/** A length above this cannot be one of ours: treat it as corruption rather than try to read it. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export interface TornTail {
  /** Byte offset where the first bad record starts; everything before it is good. */
  offset: number;
  /** What is wrong: 'truncated header', 'truncated payload', 'zero length', 'crc mismatch', 'length too large'. */
  reason: string;
  /** 'torn': the file ends inside a record or in zeros, as an interrupted append leaves it; 'corrupt': bytes are wrong. */
  kind: 'torn' | 'corrupt';
  /** Bytes from `offset` to the end of the file, which were not used. */
  droppedBytes: number;
}

export interface WalOpenOptions {
  /** Truncate a bad tail at its offset. Without this, a log with a bad tail opens read-only. */
  repair?: boolean;
}

export interface WalOpenResult {
  wal: Wal;
  records: Buffer[];
  /** Set when the file had a bad tail (whether or not it was repaired). */
  tornTail?: TornTail;
  repaired: boolean;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zlib and PNG use). */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function encodeRecord(payload: Uint8Array): Buffer {
  const record = Buffer.alloc(HEADER_BYTES + payload.length);
  record.writeUInt32LE(payload.length, 0);
  record.writeUInt32LE(crc32(payload), 4);
  record.set(payload, HEADER_BYTES);
  return record;
}

/** Splits a log's bytes into good records, stopping at the first bad one. */
export function scanRecords(data: Buffer): { records: Buffer[]; tornTail?: TornTail } {
  const records: Buffer[] = [];
  let offset = 0;
  const tail = (reason: string, kind: TornTail['kind']) => ({ records, tornTail: { offset, reason, kind, droppedBytes: data.length - offset } });
  while (offset < data.length) {
    if (data.length - offset < HEADER_BYTES) return tail('truncated header', 'torn');
    const length = data.readUInt32LE(offset);
    const expectedCrc = data.readUInt32LE(offset + 4);
    // A zero-filled tail (preallocated or never written) must not read as empty records.
    if (length === 0) return tail('zero length', 'torn');
    if (length > MAX_RECORD_BYTES) return tail('length too large', 'corrupt');
    if (data.length - offset - HEADER_BYTES < length) return tail('truncated payload', 'torn');
    const payload = data.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
    if (crc32(payload) !== expectedCrc) return tail('crc mismatch', 'corrupt');
    records.push(Buffer.from(payload));
    offset += HEADER_BYTES + length;
  }
  return { records };
}

/** fsyncs a directory so a created or renamed entry in it survives a crash. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `path` atomically: write a temp file, fsync it, rename it over, fsync the directory. */
export async function writeFileAtomic(dir: string, name: string, data: string | Uint8Array): Promise<void> {
  const temp = join(dir, `${name}.tmp`);
  // 0600 as etcd's fileutil.PrivateFileMode: the store's files hold every Secret. A temp file
  // left by a crash is removed first, since opening an existing file keeps its old mode.
  await unlink(temp).catch(() => {});
  const handle = await open(temp, 'w', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, name));
  await fsyncDir(dir);
}

interface PendingAppend {
  bytes: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class Wal {
  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | undefined;
  /** Set once a write or sync failed: the file's state is unknown, so nothing more is accepted. */
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private bytes: number,
    /** Why appends are refused (an unrepaired bad tail), if they are. */
    readonly readOnlyReason: string | undefined,
  ) {}

  static async open(dir: string, opts: WalOpenOptions = {}): Promise<WalOpenResult> {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const path = join(dir, WAL_FILE_NAME);
    const data = await readOrCreate(dir, path);
    const { records, tornTail } = scanRecords(data);
    let size = data.length;
    let readOnlyReason: string | undefined;
    if (tornTail !== undefined && opts.repair === true) {
      await copyFile(path, `${path}.broken`);
      await truncate(path, tornTail.offset);
      size = tornTail.offset;
    } else if (tornTail !== undefined) {
      readOnlyReason = `WAL ${path} has a bad tail at offset ${tornTail.offset} (${tornTail.reason}); reopen with repair: true to truncate it`;
    }
    const handle = await open(path, 'a');
    if (tornTail !== undefined && opts.repair === true) await handle.sync();
    const wal = new Wal(path, handle, size, readOnlyReason);
    return { wal, records, ...(tornTail ? { tornTail } : {}), repaired: tornTail !== undefined && opts.repair === true };
  }

  /** Bytes in the log file (good records only, once open). */
  get size(): number {
    return this.bytes;
  }

  /** Appends one record; resolves once it is on disk (fdatasync), rejects if it cannot be. */
  append(payload: Uint8Array | string): Promise<void> {
    const refusal = this.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    if (bytes.length === 0 || bytes.length > MAX_RECORD_BYTES) return Promise.reject(new Error(`WAL record must be 1..${MAX_RECORD_BYTES} bytes`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ bytes: encodeRecord(bytes), resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Waits until every append so far is on disk (or failed). */
  async drain(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
  }

  /** Atomically replaces the log with an empty one (after a snapshot made its records redundant). */
  async reset(): Promise<void> {
    await this.drain();
    const refusal = this.refusal();
    if (refusal !== undefined) throw refusal;
    const dir = join(this.path, '..');
    await writeFileAtomic(dir, WAL_FILE_NAME, new Uint8Array());
    await this.handle.close();
    this.handle = await open(this.path, 'a');
    this.bytes = 0;
  }

  async close(): Promise<void> {
    await this.drain();
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }

  private refusal(): Error | undefined {
    if (this.closed) return new Error('WAL is closed');
    if (this.readOnlyReason !== undefined) return new Error(this.readOnlyReason);
    return this.failure;
  }

  private async flushLoop(): Promise<void> {
    try {
      for (let batch = this.queue.splice(0); batch.length > 0; batch = this.queue.splice(0)) {
        await this.writeBatch(batch);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private async writeBatch(batch: PendingAppend[]): Promise<void> {
    if (this.failure !== undefined) {
      for (const p of batch) p.reject(this.failure);
      return;
    }
    try {
      const bytes = Buffer.concat(batch.map((p) => p.bytes));
      for (let written = 0; written < bytes.length; ) {
        written += (await this.handle.write(bytes, written, bytes.length - written)).bytesWritten;
      }
      await this.handle.datasync();
      this.bytes += bytes.length;
      for (const p of batch) p.resolve();
    } catch (error) {
      this.failure = new Error(`WAL write failed, log is now unusable: ${(error as Error).message}`);
      for (const p of batch) p.reject(this.failure);
    }
  }
}

async function readOrCreate(dir: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const handle = await open(path, 'wx', PRIVATE_FILE_MODE);
    await handle.sync();
    await handle.close();
    await fsyncDir(dir);
    return Buffer.alloc(0);
  }
}
