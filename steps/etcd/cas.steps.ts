/**
 * Steps for compare-and-swap on the store (features/etcd/mvcc-watch.feature, MVCC-COMPARE-AND-SWAP):
 * a write conditioned on the key's modRevision, as the API server's optimistic concurrency uses it.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { revisionOf } from './support.ts';

function rev(world: KubespecWorld, expr: string): number {
  return revisionOf(expr, (label) => world.recall<number>(`revision ${label}`));
}

When('a compare-and-swap of {string} expecting modRevision {word} writes {string}', async function (this: KubespecWorld, key: string, expected: string, value: string) {
  this.note('cas', await this.kv().txn({ key, expectModRevision: rev(this, expected), value }));
});

When('a compare-and-swap of {string} expecting modRevision {word} deletes it', async function (this: KubespecWorld, key: string, expected: string) {
  this.note('cas', await this.kv().txn({ key, expectModRevision: rev(this, expected), value: null }));
});

When('the modRevision of key {string} is noted as revision {word}', async function (this: KubespecWorld, key: string, label: string) {
  const { kv } = await this.kv().get(key);
  assert.ok(kv, `key "${key}" does not exist`);
  this.note(`revision ${label}`, kv.modRevision);
});

Then(/^the compare-and-swap failed, and the store is still at revision (.+)$/, function (this: KubespecWorld, expr: string) {
  const result = this.recall<{ succeeded: boolean; revision: number }>('cas');
  assert.equal(result.succeeded, false, 'the compare-and-swap succeeded');
  assert.equal(result.revision, rev(this, expr), `the store's revision after a failed compare-and-swap, expected ${expr}`);
});

// The refused txn's failure branch reads the key (kubernetes/kubernetes
// staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go, GuaranteedUpdate: `.Else(clientv3.OpGet(key))`),
// so the API server retries from the key as it is now.
Then(/^the refused compare-and-swap saw "([^"]*)" at modRevision (\S+) with value "([^"]*)"$/, function (this: KubespecWorld, key: string, expr: string, value: string) {
  const result = this.recall<{ succeeded: boolean; current?: { key: string; modRevision: number; value: string } }>('cas');
  assert.equal(result.succeeded, false, 'the compare-and-swap succeeded');
  assert.deepEqual(result.current && { key: result.current.key, modRevision: result.current.modRevision, value: result.current.value }, { key, modRevision: rev(this, expr), value }, 'the key as the refused compare-and-swap saw it');
});

Then(/^the compare-and-swap succeeded at revision (.+)$/, function (this: KubespecWorld, expr: string) {
  const result = this.recall<{ succeeded: boolean; revision: number }>('cas');
  assert.equal(result.succeeded, true, 'the compare-and-swap failed');
  assert.equal(result.revision, rev(this, expr), `the compare-and-swap's revision, expected ${expr}`);
});

Then('key {string} does not exist', async function (this: KubespecWorld, key: string) {
  assert.equal((await this.kv().get(key)).kv, undefined, `key "${key}" still exists`);
});
