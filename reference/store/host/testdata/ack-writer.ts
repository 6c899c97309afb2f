/**
 * Crash-test helper, run as a child process by durable.test.ts:
 *   node --import tsx ack-writer.ts <data-dir> <snapshot-every>
 * Writes /acked/<n> keys from several concurrent writers and prints "ack <key>" only after the
 * put's promise resolved (i.e. after the WAL fsync). Runs until killed. Every `snapshot-every`
 * acks (0: never) it also takes a snapshot, so a kill can land during one.
 */
import { DurableBackend } from '../durable.ts';

const dir = process.argv[2];
const snapshotEvery = Number(process.argv[3] ?? '0');
if (dir === undefined) throw new Error('usage: ack-writer.ts <data-dir> <snapshot-every>');

const { backend } = await DurableBackend.open(dir);
const WRITERS = 8;
let next = 0;
let acked = 0;

async function writer(): Promise<void> {
  for (;;) {
    const key = `/acked/${next++}`;
    await backend.put(key, key);
    // Pipes are synchronous on Linux in Node, so a printed ack reached the parent before the next write.
    process.stdout.write(`ack ${key}\n`);
    acked++;
    if (snapshotEvery > 0 && acked % snapshotEvery === 0) await backend.saveSnapshot();
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: WRITERS }, writer));
