/**
 * Steps for ranges and the edges of the retained history (features/etcd/mvcc-watch.feature):
 * what a prefix range returns and in which order, and which revisions a compaction keeps.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { CompactedError } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { currentRevision, revisionOf } from './support.ts';

function rev(world: KubespecWorld, expr: string): number {
  return revisionOf(expr, (label) => world.recall<number>(`revision ${label}`));
}

Then('a range over prefix {string} returns the keys {names}', async function (this: KubespecWorld, prefix: string, keys: string[]) {
  const { kvs } = await this.kv().range(prefix);
  assert.deepEqual(kvs.map((kv) => kv.key), keys);
});

Then('a range over prefix {string} limited to {int} returns the keys {names}', async function (this: KubespecWorld, prefix: string, limit: number, keys: string[]) {
  const { kvs } = await this.kv().range(prefix, { limit });
  assert.deepEqual(kvs.map((kv) => kv.key), keys);
});

When('the store is compacted at revision {word}', async function (this: KubespecWorld, label: string) {
  const at = rev(this, label);
  await this.kv().compact(at);
  this.note('compacted at', at);
});

Then('reading key {string} at the revision after the store\'s fails as a future revision', async function (this: KubespecWorld, key: string) {
  const ahead = (await currentRevision(this.kv())) + 1;
  await assert.rejects(this.kv().get(key, { revision: ahead }), /required revision is a future revision/);
});

Then('compacting the store at revision {word} fails as compacted', async function (this: KubespecWorld, label: string) {
  await assert.rejects(this.kv().compact(rev(this, label)), (err: unknown) => {
    assert.ok(err instanceof CompactedError, `expected CompactedError, got ${String(err)}`);
    return true;
  });
});

Then('compacting the store at the revision after the store\'s fails as a future revision', async function (this: KubespecWorld) {
  const ahead = (await currentRevision(this.kv())) + 1;
  await assert.rejects(this.kv().compact(ahead), /required revision is a future revision/);
});
