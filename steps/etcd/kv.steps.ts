/**
 * Steps for etcd's key-value contract: revisions, history, watch (features/etcd/mvcc-watch.feature,
 * backup-restore.feature). On a real etcd the revision is shared with every other scenario (each
 * scenario owns a key prefix, not a store), so every assertion on a revision is relative to one
 * this scenario noted.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KvWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { acknowledge, currentRevision, describeEvents, keyRange, parseEvents, revisionOf } from './support.ts';

function rev(world: KubespecWorld, expr: string): number {
  return revisionOf(expr, (label) => world.recall<number>(`revision ${label}`));
}

function noteRevision(world: KubespecWorld, label: string, revision: number): void {
  world.note(`revision ${label}`, revision);
}

Given('a store', async function (this: KubespecWorld) {
  this.note('store start revision', await currentRevision(this.kv()));
});

Given('a store at revision {word}', async function (this: KubespecWorld, label: string) {
  noteRevision(this, label, await currentRevision(this.kv()));
});

Given('key {string} is put with value {string}', async function (this: KubespecWorld, key: string, value: string) {
  this.note(`put ${key}`, await this.kv().put(key, value));
  this.note('last put key', key);
  acknowledge(this, key, value);
});

Given('key {string} is put with value {string} at revision {word}', async function (this: KubespecWorld, key: string, value: string, label: string) {
  noteRevision(this, label, (await this.kv().put(key, value)).revision);
});

Given('key {string} is put with value {string} and then {string}', async function (this: KubespecWorld, key: string, first: string, second: string) {
  await this.kv().put(key, first);
  await this.kv().put(key, second);
});

Given('key {string} is put', async function (this: KubespecWorld, key: string) {
  await this.kv().put(key, `value of ${key}`);
});

Given('keys {names} are put', async function (this: KubespecWorld, keys: string[]) {
  for (const key of keys) {
    await this.kv().put(key, `value of ${key}`);
    acknowledge(this, key, `value of ${key}`);
  }
});

When('{int} keys are put', async function (this: KubespecWorld, count: number) {
  const keys = Array.from({ length: count }, (_, i) => `/keys/${String(i + 1).padStart(3, '0')}`);
  for (const key of keys) {
    await this.kv().put(key, `value of ${key}`);
    acknowledge(this, key, `value of ${key}`);
  }
  this.note('put keys', keys);
});

Given('{int} keys {string} … {string} are put', async function (this: KubespecWorld, count: number, first: string, last: string) {
  const keys = keyRange(first, last);
  assert.equal(keys.length, count, `"${first}" … "${last}" names ${keys.length} keys, not ${count}`);
  for (const key of keys) await this.kv().put(key, `value of ${key}`);
});

When('keys {names} are put and key {string} is deleted', async function (this: KubespecWorld, keys: string[], deleted: string) {
  for (const key of keys) await this.kv().put(key, `value of ${key}`);
  const result = await this.kv().delete(deleted);
  assert.equal(result.deleted, 1, `deleting "${deleted}" should delete one key`);
});

When('key {string} is deleted', async function (this: KubespecWorld, key: string) {
  const result = await this.kv().delete(key);
  assert.equal(result.deleted, 1, `deleting "${key}" should delete one key`);
});

When('every key under {string} is deleted', async function (this: KubespecWorld, prefix: string) {
  const { kvs } = await this.kv().range(prefix);
  assert.ok(kvs.length > 0, `there is nothing under "${prefix}" to delete`);
  for (const kv of kvs) await this.kv().delete(kv.key);
  assert.deepEqual((await this.kv().range(prefix)).kvs, [], `keys under "${prefix}" after deleting them all`);
});

When('key {string} is read at revision {word}', async function (this: KubespecWorld, key: string, label: string) {
  this.note('read', (await this.kv().get(key, { revision: rev(this, label) })).kv);
});

Then('the value is {string} with modRevision {word} and version {int}', function (this: KubespecWorld, value: string, label: string, version: number) {
  const kv = this.recall<{ value: string; modRevision: number; version: number } | undefined>('read');
  assert.ok(kv, 'the read found no key');
  assert.deepEqual({ value: kv.value, modRevision: kv.modRevision, version: kv.version }, { value, modRevision: rev(this, label), version });
});

Then('reading key {string} now returns {string} with createRevision {word}, modRevision {word} and version {int}', async function (this: KubespecWorld, key: string, value: string, create: string, mod: string, version: number) {
  const { kv } = await this.kv().get(key);
  assert.ok(kv, `key "${key}" does not exist`);
  assert.deepEqual(
    { value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version },
    { value, createRevision: rev(this, create), modRevision: rev(this, mod), version },
  );
});

Then(/^the store's revision is (.+)$/, async function (this: KubespecWorld, expr: string) {
  assert.equal(await currentRevision(this.kv()), rev(this, expr), `the store's revision, expected ${expr}`);
});

Then('reading key {string} now returns {string}', async function (this: KubespecWorld, key: string, value: string) {
  assert.equal((await this.kv().get(key)).kv?.value, value, `value of "${key}"`);
});

Then('key {string} reads {string} and key {string} reads {string}', async function (this: KubespecWorld, k1: string, v1: string, k2: string, v2: string) {
  assert.deepEqual([(await this.kv().get(k1)).kv?.value, (await this.kv().get(k2)).kv?.value], [v1, v2], `values of "${k1}" and "${k2}"`);
});

// ---- watch -------------------------------------------------------------------------------

When('a watch on prefix {string} starts from revision {word}', async function (this: KubespecWorld, prefix: string, label: string) {
  this.note('watch', await this.kv().watch(prefix, rev(this, label)));
});

// A start revision the store has not reached yet is allowed: etcd's watcher then gets only the
// events at or above it (etcd-io/etcd server/storage/mvcc/watchable_store.go, newWatcherBatch:
// `if ev.Kv.ModRevision >= w.minRev`).
When('a watch on prefix {string} starts from revision {word} + {int}', async function (this: KubespecWorld, prefix: string, label: string, offset: number) {
  this.note('watch', await this.kv().watch(prefix, rev(this, label) + offset));
});

When('a watch on prefix {string} starts from the next revision', async function (this: KubespecWorld, prefix: string) {
  const next = (await currentRevision(this.kv())) + 1;
  this.note('watch', await this.kv().watch(prefix, next));
});

Then(/^within (\d+) s the watch has delivered exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const watch = this.recall<KvWatch>('watch');
  const expected = parseEvents(list);
  await this.eventually(`${expected.length} watch events`, () => watch.events.length >= expected.length, Number(seconds) * 1000);
  assert.equal(describeEvents(watch.events), describeEvents(expected), 'the events the watch delivered');
});

Then("the DELETE event's modRevision is the store's revision, with version 0 and an empty value", async function (this: KubespecWorld) {
  const deletes = this.recall<KvWatch>('watch').events.filter((e) => e.type === 'DELETE');
  assert.equal(deletes.length, 1, 'one DELETE event');
  const { modRevision, version, value } = deletes[0]!.kv;
  assert.deepEqual({ modRevision, version, value }, { modRevision: await currentRevision(this.kv()), version: 0, value: '' }, "the DELETE event's kv");
});

Then(/^the events' modRevisions strictly increase, the first being (\S+(?: \+ \d+)?)$/, function (this: KubespecWorld, expr: string) {
  const revisions = this.recall<KvWatch>('watch').events.map((e) => e.kv.modRevision);
  assert.equal(revisions[0], rev(this, expr), `first event's modRevision, expected ${expr} (all: ${revisions.join(', ')})`);
  assert.ok(revisions.every((r, i) => i === 0 || r > revisions[i - 1]!), `modRevisions must strictly increase: ${revisions.join(', ')}`);
});

// ---- changes that are not changes, and watchers that write ------------------------------------

When('key {string} is deleted although it does not exist', async function (this: KubespecWorld, key: string) {
  const result = await this.kv().delete(key);
  assert.equal(result.deleted, 0, `"${key}" did not exist, yet the delete reports ${result.deleted} deleted`);
  // Its response header still carries the store's revision (etcd-io/etcd api/etcdserverpb/rpc.proto,
  // ResponseHeader.revision: "the key-value store revision when the request was applied"), unmoved.
  assert.equal(result.revision, await currentRevision(this.kv()), "the revision a delete of a missing key answers with");
});

When('a watch on prefix {string} starts from the next revision, and on each event for {string} with n below {int} puts {string}', async function (this: KubespecWorld, prefix: string, pattern: string, last: number, next: string) {
  const failures: unknown[] = [];
  const from = (await currentRevision(this.kv())) + 1;
  const watch = await this.kv().watch(prefix, from, {
    onEvent: (event) => {
      const n = Number(/(\d+)$/.exec(event.kv.key)?.[1]);
      if (event.type !== 'PUT' || event.kv.key !== pattern.replace('<n>', String(n)) || n >= last) return;
      // Written from inside the delivery, without waiting: the store must cope with it.
      this.kv().put(next.replace('<n+1>', String(n + 1)), String(n + 1)).catch((e: unknown) => failures.push(e));
    },
  });
  this.note('watch', watch);
  this.note('writing watch failures', failures);
});

When('a second watch on prefix {string} starts from the next revision', async function (this: KubespecWorld, prefix: string) {
  this.note('second watch', await this.kv().watch(prefix, (await currentRevision(this.kv())) + 1));
});

Then(/^within (\d+) s both watches have delivered exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const expected = describeEvents(parseEvents(list));
  const watches = [this.recall<KvWatch>('watch'), this.recall<KvWatch>('second watch')];
  const count = parseEvents(list).length;
  await this.eventually(`${count} events on both watches`, () => watches.every((w) => w.events.length >= count), Number(seconds) * 1000);
  assert.deepEqual(this.recall<unknown[]>('writing watch failures').map(String), [], 'the writes made from the watch handler');
  watches.forEach((w, i) => assert.equal(describeEvents(w.events), expected, `the events watch ${i + 1} delivered`));
});

Then("in both watches the events' modRevisions strictly increase", function (this: KubespecWorld) {
  for (const name of ['watch', 'second watch']) {
    const revisions = this.recall<KvWatch>(name).events.map((e) => e.kv.modRevision);
    assert.ok(revisions.every((r, i) => i === 0 || r > revisions[i - 1]!), `${name}: modRevisions ${revisions.join(', ')}`);
  }
});
