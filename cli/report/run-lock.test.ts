import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { LOCK_FILE, lockReportsDir } from './run-lock.ts';
import { UsageError } from '../usage.ts';

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-lock-'));
}

test('a second run on the same reports directory is refused with the holder named, and may run once the first released', () => {
  const dir = path.join(scratch(), 'reference');
  const release = lockReportsDir(dir);
  assert.equal(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'), `${process.pid}\n`);
  assert.throws(() => lockReportsDir(dir), (e: unknown) => e instanceof UsageError && e.message.includes(`pid ${process.pid}`) && /delete .*run\.lock/.test(e.hint ?? ''));
  release();
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false);
  lockReportsDir(dir)();
});

test('a lock left by a process that is gone is taken over', () => {
  const dir = scratch();
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  fs.writeFileSync(path.join(dir, LOCK_FILE), `${gone.stdout}\n`);
  const release = lockReportsDir(dir);
  assert.equal(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'), `${process.pid}\n`);
  release();
});

test('a release leaves alone a lock that another run holds by then', () => {
  const dir = scratch();
  const release = lockReportsDir(dir);
  fs.writeFileSync(path.join(dir, LOCK_FILE), '1\n'); // pid 1 is alive
  release();
  assert.equal(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'), '1\n');
});
