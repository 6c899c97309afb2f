import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, truncate, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, encodeRecord, scanRecords, Wal, WAL_FILE_NAME, writeFileAtomic } from './wal.ts';

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'kubespec-wal-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function writeRecords(dir: string, payloads: string[]): Promise<void> {
  const { wal } = await Wal.open(dir);
  await Promise.all(payloads.map((p) => wal.append(p)));
  await wal.close();
}

test('crc32 matches the standard check value for "123456789"', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
});

test('records appended concurrently come back in order after reopening', async () => {
  await withDir(async (dir) => {
    const payloads = Array.from({ length: 200 }, (_, i) => `record-${i}`);
    await writeRecords(dir, payloads);
    const reopened = await Wal.open(dir);
    assert.deepEqual(reopened.records.map((r) => r.toString()), payloads);
    assert.equal(reopened.tornTail, undefined);
    assert.equal(reopened.wal.size, (await stat(join(dir, WAL_FILE_NAME))).size);
    await reopened.wal.close();
  });
});

test('a log cut inside its last record reports a torn tail at that record and is not used past it', async () => {
  await withDir(async (dir) => {
    await writeRecords(dir, ['one', 'two', 'three']);
    const path = join(dir, WAL_FILE_NAME);
    const size = (await stat(path)).size;
    await truncate(path, size - 2);
    const { wal, records, tornTail, repaired } = await Wal.open(dir);
    assert.deepEqual(records.map((r) => r.toString()), ['one', 'two']);
    assert.deepEqual(tornTail, { offset: size - 13, reason: 'truncated payload', kind: 'torn', droppedBytes: 11 });
    assert.equal(repaired, false);
    assert.equal((await stat(path)).size, size - 2, 'nothing is truncated unless asked');
    await assert.rejects(wal.append('four'), /bad tail at offset/);
    await wal.close();
  });
});

test('a flipped byte in a record is reported as a CRC mismatch', async () => {
  await withDir(async (dir) => {
    await writeRecords(dir, ['alpha', 'beta']);
    const path = join(dir, WAL_FILE_NAME);
    const bytes = await readFile(path);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    await writeFile(path, bytes);
    const { wal, records, tornTail } = await Wal.open(dir);
    assert.deepEqual(records.map((r) => r.toString()), ['alpha']);
    assert.equal(tornTail?.reason, 'crc mismatch');
    assert.equal(tornTail?.kind, 'corrupt');
    assert.equal(tornTail?.offset, 8 + 5);
    await wal.close();
  });
});

test('a tail of zeros is not read as empty records', async () => {
  await withDir(async (dir) => {
    await writeRecords(dir, ['x']);
    await appendFile(join(dir, WAL_FILE_NAME), Buffer.alloc(64));
    const { wal, records, tornTail } = await Wal.open(dir);
    assert.equal(records.length, 1);
    assert.equal(tornTail?.reason, 'zero length');
    await wal.close();
  });
});

test('repair truncates the bad tail, keeps a .broken copy, and the log accepts appends again', async () => {
  await withDir(async (dir) => {
    await writeRecords(dir, ['one', 'two']);
    const path = join(dir, WAL_FILE_NAME);
    const original = (await stat(path)).size;
    await appendFile(path, Buffer.from([7, 0, 0, 0, 1, 2]));
    const first = await Wal.open(dir, { repair: true });
    assert.equal(first.repaired, true);
    assert.equal(first.tornTail?.reason, 'truncated header');
    assert.equal((await stat(path)).size, original);
    assert.equal((await stat(`${path}.broken`)).size, original + 6);
    await first.wal.append('three');
    await first.wal.close();
    const second = await Wal.open(dir);
    assert.deepEqual(second.records.map((r) => r.toString()), ['one', 'two', 'three']);
    assert.equal(second.tornTail, undefined);
    await second.wal.close();
  });
});

test('reset empties the log atomically and later appends start a fresh log', async () => {
  await withDir(async (dir) => {
    const { wal } = await Wal.open(dir);
    await wal.append('old');
    await wal.reset();
    await wal.append('new');
    await wal.close();
    const reopened = await Wal.open(dir);
    assert.deepEqual(reopened.records.map((r) => r.toString()), ['new']);
    await reopened.wal.close();
  });
});

test('scanRecords and encodeRecord agree, and an empty payload is refused', async () => {
  const data = Buffer.concat([encodeRecord(Buffer.from('a')), encodeRecord(Buffer.from('bc'))]);
  assert.deepEqual(scanRecords(data).records.map((r) => r.toString()), ['a', 'bc']);
  await withDir(async (dir) => {
    const { wal } = await Wal.open(dir);
    await assert.rejects(wal.append(''), /1\.\./);
    await wal.close();
  });
});

test('writeFileAtomic replaces a file and leaves no temp file behind', async () => {
  await withDir(async (dir) => {
    await writeFileAtomic(dir, 'snap', 'first');
    await writeFileAtomic(dir, 'snap', 'second');
    assert.equal(await readFile(join(dir, 'snap'), 'utf8'), 'second');
    await assert.rejects(stat(join(dir, 'snap.tmp')), { code: 'ENOENT' });
  });
});
