/**
 * One `kubespec run` at a time per reports/<target>/. A run streams its messages into that
 * directory and then builds its reports from them; a second run against the same target started
 * meanwhile truncates and rewrites the same files, and each run then reports a mixture — seen in a
 * flake hunt (`--repeat`), whose run read a stream another run was still writing and counted its
 * unfinished scenarios as failures. So a run holds `run.lock` (its pid) while it runs, and a second
 * one is refused with a message saying which process holds it. A lock whose process is gone (a run
 * that was killed) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../usage.ts';

export const LOCK_FILE = 'run.lock';

/** Takes the directory's lock, or throws a UsageError naming the run that holds it. Returns the release. */
export function lockReportsDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => releaseIfOurs(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder !== undefined && isAlive(holder)) {
      throw new UsageError(
        `another kubespec run (pid ${holder}) is writing ${dir}${path.sep}`,
        `wait for it to end, or run from another checkout; if no run is going on, delete ${file}`,
      );
    }
    // The holder is gone (killed before it could release): the lock is stale.
    fs.rmSync(file, { force: true });
  }
  throw new UsageError(`could not take ${file}: another run took it at the same moment`, 'try again');
}

function releaseIfOurs(file: string): void {
  if (readHolder(file) === process.pid) fs.rmSync(file, { force: true });
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Signal 0 checks that a process exists; EPERM means it exists but is not ours to signal. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
