/**
 * A data dir that one process owns and only its user can read.
 *
 * Permissions, as etcd: the dir is created 0700 and files in it 0600 — etcd-io/etcd
 * client/pkg/fileutil/fileutil.go: `PrivateFileMode = 0600`, `PrivateDirMode = 0700`, and
 * `TouchDirAll` makes data dirs with `PrivateDirMode`. etcd only warns when an existing dir is
 * looser (`CheckDirPermission`); the store holds every Secret in the clear, so here a dir that
 * its group or others may read, write or enter is refused, with the fix (the CIS Kubernetes
 * benchmark 1.1.11 asks the same of etcd's data dir: 700 or more restrictive).
 *
 * The lock: etcd takes an exclusive `flock` (LOCK_EX|LOCK_NB) on its WAL files
 * (client/pkg/fileutil/lock_flock.go, server/storage/wal/wal.go), which the kernel drops when
 * the process dies. Node has no flock, so the lock is a file created with O_EXCL holding the
 * owner's pid and its start time (/proc/<pid>/stat field 22). A lock whose owner is gone — no
 * such pid, or that pid now belongs to a process started at another time (pid reuse after
 * `kill -9`, or a container restart that gets the same pid) — is stale and is taken over.
 */
import { readFileSync } from 'node:fs';
import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';

/** etcd's fileutil.PrivateFileMode: the owner reads and writes. */
export const PRIVATE_FILE_MODE = 0o600;
/** etcd's fileutil.PrivateDirMode: the owner makes/removes files inside. */
export const PRIVATE_DIR_MODE = 0o700;
export const LOCK_FILE_NAME = 'kubespec.lock';

/** Why a data dir cannot be used, with how to fix it (serve turns it into exit 2). */
export class DataDirError extends Error {
  constructor(message: string, readonly hint: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** What the lock file says about its owner. */
export interface LockOwner {
  pid: number;
  /** The owner's start time in clock ticks since boot; absent where /proc is not readable. */
  startTicks?: number;
  host: string;
  /** ISO time the lock was taken, for the message only. */
  since: string;
}

export interface DataDirLock {
  readonly dir: string;
  /** The stale owner whose lock this one replaced, if any (for the log). */
  readonly tookOverFrom?: LockOwner;
  release(): Promise<void>;
}

/**
 * Creates `dir` 0700 (parents too) or checks an existing one is not open to group or others.
 * Returns true when it created the dir.
 */
export async function preparePrivateDir(dir: string): Promise<boolean> {
  let mode: number;
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new DataDirError(`data dir ${dir} is not a directory`, `pass a directory to --data-dir`);
    mode = info.mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    return true;
  }
  if ((mode & 0o077) !== 0) {
    throw new DataDirError(
      `data dir ${dir} is open to its group or others (mode ${mode.toString(8).padStart(3, '0')}); it holds every Secret, so it must be 700`,
      `chmod 700 ${dir}`,
    );
  }
  return false;
}

/** Takes the dir's lock, taking over a stale one; a live owner is a DataDirError naming it. */
export async function lockDataDir(dir: string, self: LockOwner = currentProcess()): Promise<DataDirLock> {
  const path = join(dir, LOCK_FILE_NAME);
  const content = `${JSON.stringify(self)}\n`;
  let tookOverFrom: LockOwner | undefined;
  // Bounded: each round either creates the lock, meets a live owner, or removes one stale lock.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusive(path, content)) return heldLock(dir, path, content, tookOverFrom);
    const seen = await readLock(path);
    if (seen === undefined) continue; // released between our create and read: try again
    if (await isAlive(seen.owner)) throw heldError(dir, path, seen.owner);
    if (await removeIfUnchanged(path, seen.text)) tookOverFrom = seen.owner;
  }
  throw new DataDirError(`could not lock data dir ${dir}: another process keeps taking ${path}`, `is another kubespec serve starting on ${dir}? stop it and retry`);
}

function heldError(dir: string, path: string, owner: LockOwner): DataDirError {
  return new DataDirError(
    `data dir ${dir} is in use by process ${owner.pid} on ${owner.host} (locked since ${owner.since}); two servers on one data dir would lose acknowledged writes`,
    `stop process ${owner.pid} (kill ${owner.pid}) or use another --data-dir; if ${owner.pid} is not a kubespec serve, remove ${path}`,
  );
}

function heldLock(dir: string, path: string, content: string, tookOverFrom: LockOwner | undefined): DataDirLock {
  let released = false;
  return {
    dir,
    ...(tookOverFrom ? { tookOverFrom } : {}),
    async release() {
      if (released) return;
      released = true;
      // Only our own lock: never remove one another process took after ours went stale.
      const seen = await readLock(path);
      if (seen?.text === content) await unlink(path).catch(() => {});
    },
  };
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

async function readLock(path: string): Promise<{ text: string; owner: LockOwner } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { text, owner: parseOwner(text) };
}

/** A lock file that does not parse (a crash mid-write) names no live owner: pid 0 is stale. */
export function parseOwner(text: string): LockOwner {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && Number.isSafeInteger(o.pid) && o.pid > 0) {
      return { pid: o.pid, host: String(o.host ?? '?'), since: String(o.since ?? '?'), ...(typeof o.startTicks === 'number' ? { startTicks: o.startTicks } : {}) };
    }
  } catch {
    // fall through
  }
  return { pid: 0, host: '?', since: '?' };
}

/**
 * Removes the stale lock only if it still holds what we read: move it aside under a name of our
 * own, and if what we moved is not the stale content (another process locked in between), put
 * it back. Two processes taking over one stale lock at once: only one moves it.
 */
async function removeIfUnchanged(path: string, staleText: string): Promise<boolean> {
  const aside = `${path}.stale.${process.pid}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== staleText) {
    await link(aside, path).catch(() => {});
    await unlink(aside).catch(() => {});
    return false;
  }
  await unlink(aside);
  return true;
}

/** The owner runs if its pid exists and (where /proc tells) started when the lock says. */
export async function isAlive(owner: LockOwner): Promise<boolean> {
  if (owner.pid <= 0) return false;
  if (owner.host !== hostname()) return true; // another machine's pid cannot be checked: assume it runs
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.startTicks === undefined) return true;
  const started = await startTicksOf(owner.pid);
  return started === undefined || started === owner.startTicks;
}

export function currentProcess(): LockOwner {
  return { pid: process.pid, host: hostname(), since: new Date().toISOString(), ...startTicksField(startTicksOfSync(process.pid)) };
}

function startTicksField(ticks: number | undefined): { startTicks?: number } {
  return ticks === undefined ? {} : { startTicks: ticks };
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
export function parseStartTicks(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[22 - 3]);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}

async function startTicksOf(pid: number): Promise<number | undefined> {
  try {
    return parseStartTicks(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

function startTicksOfSync(pid: number): number | undefined {
  try {
    return parseStartTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
