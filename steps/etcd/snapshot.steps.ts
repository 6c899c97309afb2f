/**
 * Steps for snapshot save and restore (features/etcd/backup-restore.feature). The snapshot file
 * lives in a temporary directory of the scenario's own, removed afterwards. After a restore the
 * kv facet speaks to the fresh store (the contract's snapshotRestore), so "the fresh store" is
 * simply `kv` from then on.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KvFacet } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { currentRevision, keyRange, rangeShape, revisionOf } from './support.ts';

const SNAPSHOT_DIR_NOTE = 'snapshot dir';

function snapshotPath(world: KubespecWorld): string {
  let dir: string;
  try {
    dir = world.recall<string>(SNAPSHOT_DIR_NOTE);
  } catch {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-snapshot-'));
    world.note(SNAPSHOT_DIR_NOTE, dir);
    world.onCleanup(async () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return path.join(dir, 'snapshot.db');
}

function snapshots(world: KubespecWorld): Required<Pick<KvFacet, 'snapshotSave' | 'snapshotRestore'>> {
  const kv = world.kv();
  assert.ok(kv.snapshotSave && kv.snapshotRestore, 'this target declares kv.snapshot but its kv facet cannot save or restore');
  return { snapshotSave: kv.snapshotSave.bind(kv), snapshotRestore: kv.snapshotRestore.bind(kv) };
}

async function save(world: KubespecWorld): Promise<number> {
  const { revision } = await snapshots(world).snapshotSave(snapshotPath(world));
  world.note('snapshot revision', revision);
  return revision;
}

Given('a snapshot is saved and reports revision {word}', async function (this: KubespecWorld, label: string) {
  const before = await currentRevision(this.kv());
  const revision = await save(this);
  // Nothing else writes to this scenario's keys, but a real store's revision is shared: the
  // snapshot's revision is at least the one this scenario last saw.
  assert.ok(revision >= before, `snapshot revision ${revision} is below the revision ${before} seen before saving`);
  this.note(`revision ${label}`, revision);
});

Given('a snapshot is saved', async function (this: KubespecWorld) {
  await save(this);
});

When('the snapshot is restored into a fresh store', async function (this: KubespecWorld) {
  await snapshots(this).snapshotRestore(snapshotPath(this));
});

When('keys {string} … {string} are put in order while a snapshot is saved', async function (this: KubespecWorld, first: string, last: string) {
  const keys = keyRange(first, last);
  const startSaveAfter = Math.ceil(keys.length / 10);
  let issued = 0;
  let saving: Promise<number> | undefined;
  let ackedBeforeSave = 0;
  let issuedWhenSaved = 0;
  for (const key of keys) {
    // The writer itself starts the save once a tenth is written, and keeps writing while it runs.
    if (saving === undefined && issued === startSaveAfter) {
      ackedBeforeSave = issued;
      saving = save(this).then((revision) => ((issuedWhenSaved = issued), revision));
    }
    issued++;
    await this.kv().put(key, `value of ${key}`);
  }
  assert.ok(saving, 'the save was never started');
  await saving;
  this.note('sequence bounds', { ackedBeforeSave, issuedWhenSaved });
});

Then('the fresh store holds exactly the {int} keys {string} … {string} under {string}', async function (this: KubespecWorld, count: number, first: string, last: string, prefix: string) {
  const expected = keyRange(first, last);
  assert.equal(expected.length, count);
  const { kvs } = await this.kv().range(prefix);
  assert.deepEqual(kvs.map((kv) => kv.key), expected, `keys under "${prefix}" in the fresh store`);
  assert.ok(kvs.every((kv) => kv.value === `value of ${kv.key}`), 'every restored key keeps its value');
});

Then("the fresh store's revision is {word}", async function (this: KubespecWorld, label: string) {
  assert.equal(await currentRevision(this.kv()), revisionOf(label, (l) => this.recall<number>(`revision ${l}`)));
});

Then('the fresh store holds keys {string} … {string} for some n, and no other {string} key', async function (this: KubespecWorld, first: string, _last: string, prefix: string) {
  const { prefix: keyPrefix, width, from } = rangeShape(first);
  const { kvs } = await this.kv().range(prefix);
  const n = kvs.length;
  const expected = Array.from({ length: n }, (_, i) => `${keyPrefix}${String(from + i).padStart(width, '0')}`);
  assert.deepEqual(kvs.map((kv) => kv.key), expected, `the restored "${prefix}" keys must be a gapless prefix of the sequence`);
  const { ackedBeforeSave, issuedWhenSaved } = this.recall<{ ackedBeforeSave: number; issuedWhenSaved: number }>('sequence bounds');
  this.log(`snapshot holds ${n} keys; ${ackedBeforeSave} were acknowledged before the save began, ${issuedWhenSaved} issued when it ended`);
  assert.ok(n >= ackedBeforeSave, `every write acknowledged before the save began (${ackedBeforeSave}) must be in the snapshot; it holds ${n}`);
  assert.ok(n <= issuedWhenSaved, `no write issued after the save finished (${issuedWhenSaved} issued by then) may be in it; it holds ${n}`);
});

Then('key {string} reads {string} from the fresh store', async function (this: KubespecWorld, key: string, value: string) {
  assert.equal((await this.kv().get(key)).kv?.value, value, `value of "${key}" in the fresh store`);
});

Then('a put of key {string} to the fresh store returns a revision greater than {word}', async function (this: KubespecWorld, key: string, label: string) {
  const snapshotRevision = revisionOf(label, (l) => this.recall<number>(`revision ${l}`));
  const { revision } = await this.kv().put(key, 'after restore');
  assert.ok(revision > snapshotRevision, `put after restore got revision ${revision}, not above the snapshot's ${snapshotRevision}`);
  // The fresh store is this scenario's alone: its first write is the very next revision.
  assert.equal(revision, snapshotRevision + 1, 'the first write after the restore continues the sequence');
});

Then('the fresh store holds keys {names}', async function (this: KubespecWorld, keys: string[]) {
  for (const key of keys) assert.equal((await this.kv().get(key)).kv?.value, `value of ${key}`, `"${key}" in the fresh store`);
});

Then('the fresh store has no key {string}', async function (this: KubespecWorld, key: string) {
  const { kv } = await this.kv().get(key);
  assert.equal(kv, undefined, `"${key}" was written after the snapshot, yet the fresh store holds it (value ${JSON.stringify(kv?.value)})`);
});

/** Where the API server keeps a namespaced object (kube.storage's layout: /registry/<resource>/<ns>/<name>). */
function registryKey(world: KubespecWorld, resource: string, name: string): string {
  return `/registry/${resource}/${world.kube().namespace}/${name}`;
}

Then("the fresh store holds ConfigMap {string} of the scenario's namespace with data {string}", async function (this: KubespecWorld, name: string, text: string) {
  const key = registryKey(this, 'configmaps', name);
  const value = (await this.kv().get(key)).kv?.value;
  assert.ok(value !== undefined, `the fresh store has no ${key}`);
  const expected = Object.fromEntries(text.split(',').map((pair) => pair.split('=') as [string, string]));
  if (value.startsWith('k8s\u0000')) {
    // The protobuf envelope (a real API server's default): its strings are plain UTF-8 bytes.
    for (const part of [name, ...Object.entries(expected).flat()]) assert.ok(value.includes(part), `${key} does not hold "${part}"`);
    return;
  }
  const object = JSON.parse(value) as { metadata?: { name?: string }; data?: Record<string, string> };
  assert.equal(object.metadata?.name, name, `the object at ${key}`);
  assert.deepEqual(object.data, expected, `the data of ConfigMap "${name}" in the fresh store`);
});

Then("the fresh store holds no ConfigMap {string} of the scenario's namespace", async function (this: KubespecWorld, name: string) {
  const key = registryKey(this, 'configmaps', name);
  const { kv } = await this.kv().get(key);
  assert.equal(kv, undefined, `ConfigMap "${name}" was created after the snapshot, yet the fresh store holds ${key}`);
});
