import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirError, isAlive, LOCK_FILE_NAME, lockDataDir, parseOwner, parseStartTicks, preparePrivateDir } from './datadir.ts';
import { DurableBackend } from './durable.ts';

function temp(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'kubespec-datadir-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** The pid of a process that has exited (so no process has it, unless the kernel reused it). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test('a new data dir is created 0700 (parents too), whatever the umask', async () => {
  const t = temp();
  const old = process.umask(0o022);
  try {
    const dir = join(t.path, 'a', 'data');
    assert.equal(await preparePrivateDir(dir), true);
    assert.equal(mode(dir), 0o700);
    assert.equal(await preparePrivateDir(dir), false, 'an existing private dir is used as it is');
  } finally {
    process.umask(old);
    t.remove();
  }
});

test('an existing data dir its group or others can read, write or enter is refused with the chmod that fixes it', async () => {
  const t = temp();
  try {
    for (const loose of [0o755, 0o750, 0o701, 0o710, 0o777]) {
      chmodSync(t.path, loose);
      await assert.rejects(preparePrivateDir(t.path), (e: unknown) => e instanceof DataDirError && e.hint === `chmod 700 ${t.path}` && e.message.includes(loose.toString(8)), loose.toString(8));
    }
    chmodSync(t.path, 0o700);
    assert.equal(await preparePrivateDir(t.path), false);
    const file = join(t.path, 'f');
    writeFileSync(file, '');
    await assert.rejects(preparePrivateDir(file), DataDirError);
  } finally {
    t.remove();
  }
});

test('the store\'s WAL and snapshot are 0600 files', async () => {
  const t = temp();
  const old = process.umask(0o022);
  try {
    const { backend } = await DurableBackend.open(join(t.path, 'store'));
    await backend.put('/registry/secrets/default/s', 'password');
    await backend.saveSnapshot();
    await backend.close();
    assert.equal(mode(join(t.path, 'store')), 0o700);
    assert.equal(mode(join(t.path, 'store', 'wal.log')), 0o600);
    assert.equal(mode(join(t.path, 'store', 'snapshot.mvcc')), 0o600);
  } finally {
    process.umask(old);
    t.remove();
  }
});

test('a second lock on a held data dir is refused, naming the holder\'s pid and how to fix it; after release it can be taken', async () => {
  const t = temp();
  try {
    const first = await lockDataDir(t.path);
    assert.equal(mode(join(t.path, LOCK_FILE_NAME)), 0o600);
    await assert.rejects(lockDataDir(t.path), (e: unknown) => {
      assert.ok(e instanceof DataDirError);
      assert.match(e.message, new RegExp(`in use by process ${process.pid}\\b`));
      assert.match(e.hint, new RegExp(`kill ${process.pid}`));
      return true;
    });
    await first.release();
    assert.equal(existsSync(join(t.path, LOCK_FILE_NAME)), false);
    const second = await lockDataDir(t.path);
    assert.equal(second.tookOverFrom, undefined);
    await second.release();
  } finally {
    t.remove();
  }
});

test('a lock left by a process that died (kill -9) is stale and is taken over', async () => {
  const t = temp();
  try {
    const pid = deadPid();
    writeFileSync(join(t.path, LOCK_FILE_NAME), JSON.stringify({ pid, host: hostname(), since: 'earlier' }));
    const lock = await lockDataDir(t.path);
    assert.equal(lock.tookOverFrom?.pid, pid);
    assert.equal(parseOwner(readFileSync(join(t.path, LOCK_FILE_NAME), 'utf8')).pid, process.pid);
    await lock.release();
  } finally {
    t.remove();
  }
});

test('a lock whose pid now belongs to a process started at another time (pid reuse) is stale; an unreadable lock file too', async () => {
  const t = temp();
  try {
    // Our own pid, but a start time that is not ours: the process that wrote it is gone.
    writeFileSync(join(t.path, LOCK_FILE_NAME), JSON.stringify({ pid: process.pid, startTicks: 1, host: hostname(), since: 'earlier' }));
    const lock = await lockDataDir(t.path);
    assert.equal(lock.tookOverFrom?.pid, process.pid);
    await lock.release();
    writeFileSync(join(t.path, LOCK_FILE_NAME), '{"pid": 12');
    const again = await lockDataDir(t.path);
    assert.equal(again.tookOverFrom?.pid, 0);
    await again.release();
  } finally {
    t.remove();
  }
});

test('a live process that holds the lock is not taken over, whoever asks', async () => {
  const t = temp();
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const owner = { pid: child.pid!, startTicks: parseStartTicks(stat)!, host: hostname(), since: 'now' };
    assert.equal(await isAlive(owner), true);
    writeFileSync(join(t.path, LOCK_FILE_NAME), JSON.stringify(owner));
    await assert.rejects(lockDataDir(t.path), new RegExp(`in use by process ${child.pid}\\b`));
  } finally {
    child.kill('SIGKILL');
    t.remove();
  }
});

test('the start time is field 22 of /proc/<pid>/stat, even when the command name has spaces and parentheses', () => {
  const fields = Array.from({ length: 30 }, (_, i) => String(i + 3)).join(' ');
  assert.equal(parseStartTicks(`77 (a (b) c) ${fields}`), 22);
});

test('releasing a lock that another process took over after ours went stale leaves theirs alone', async () => {
  const t = temp();
  try {
    const lock = await lockDataDir(t.path);
    const theirs = JSON.stringify({ pid: 1, host: hostname(), since: 'later' });
    writeFileSync(join(t.path, LOCK_FILE_NAME), theirs);
    await lock.release();
    assert.equal(readFileSync(join(t.path, LOCK_FILE_NAME), 'utf8'), theirs);
  } finally {
    t.remove();
  }
});
