/**
 * Steps for compaction (features/etcd/backup-restore.feature, ETCD-AUTO-COMPACTION): what a
 * client gets on reading or watching below the compact revision, and periodic auto-compaction
 * on a virtual clock.
 */
import assert from 'node:assert/strict';
import { Before, Given, Then, When } from '@cucumber/cucumber';
import { CompactedError } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { currentRevision, revisionOf } from './support.ts';

/** The scenario's tags, for steps that must agree with how the target sized itself from them. */
Before(function (this: KubespecWorld, { pickle }) {
  this.note('scenario tags', pickle.tags.map((t) => t.name));
});

function rev(world: KubespecWorld, expr: string): number {
  return revisionOf(expr, (label) => world.recall<number>(`revision ${label}`));
}

/**
 * The target turns retention on from the scenario's `@auto-compaction-retention:<n>h` tag, as
 * it sizes a cluster from `@members:N` (the contract has no call to reconfigure a store); this
 * step only checks the tag says what the sentence says, so the two cannot drift apart.
 */
Given(/^a store with periodic auto-compaction retention of (\d+) (s|hours?)$/, async function (this: KubespecWorld, amount: string, unit: string) {
  const tags = this.recall<string[]>('scenario tags');
  const tag = `@auto-compaction-retention:${amount}${unit[0]}`;
  assert.ok(tags.includes(tag), `this step needs the scenario tag ${tag}, so the target starts its store with that retention`);
  this.note('store start revision', await currentRevision(this.kv()));
});

When('the store is compacted at its current revision', async function (this: KubespecWorld) {
  const revision = await currentRevision(this.kv());
  await this.kv().compact(revision);
  this.note('compacted at', revision);
});

Then('a watch on prefix {string} from a revision below the compaction is cancelled as compacted', async function (this: KubespecWorld, prefix: string) {
  const compactedAt = this.recall<number>('compacted at');
  const watch = await this.kv().watch(prefix, compactedAt - 1);
  try {
    await this.eventually('the watch to be cancelled', () => watch.cancelled !== undefined, 5_000);
    assert.match(watch.cancelled!.reason, /compacted/, 'the cancellation reason');
    assert.equal(watch.cancelled!.compactRevision, compactedAt, 'the compact revision the cancellation reports');
    assert.deepEqual(watch.events, [], 'a cancelled watch delivers no events');
  } finally {
    await watch.cancel();
  }
});

Then('reading key {string} at revision {word} fails as compacted', async function (this: KubespecWorld, key: string, label: string) {
  const at = rev(this, label);
  await assert.rejects(this.kv().get(key, { revision: at }), (err: unknown) => {
    assert.ok(err instanceof CompactedError, `expected CompactedError, got ${String(err)}`);
    assert.equal(err.requestedRevision, at);
    assert.ok(err.compactRevision > at, `compact revision ${err.compactRevision} should be above ${at}`);
    return true;
  });
});

Then('reading key {string} at revision {word} returns {string}', async function (this: KubespecWorld, key: string, label: string, value: string) {
  const { kv } = await this.kv().get(key, { revision: rev(this, label) });
  assert.equal(kv?.value, value, `value of "${key}" at revision ${label}`);
});
