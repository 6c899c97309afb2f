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

// etcd refuses a compaction at or below its compact revision with ErrCompacted (etcd-io/etcd
// server/storage/mvcc/kvstore.go, updateCompactRev); the error names the revision asked for and,
// where the scenario compacted, the compact revision it is stuck at.
Then('compacting the store at revision {word} fails as compacted', async function (this: KubespecWorld, label: string) {
  const at = rev(this, label);
  const compactedAt = this.recallOr<number | undefined>('compacted at', undefined);
  await assert.rejects(this.kv().compact(at), (err: unknown) => {
    assert.ok(err instanceof CompactedError, `expected CompactedError, got ${String(err)}`);
    assert.equal(err.requestedRevision, at, 'the revision the refused compaction asked for');
    if (compactedAt !== undefined) assert.equal(err.compactRevision, compactedAt, "the store's compact revision");
    return true;
  });
});

Then('compacting the store at the revision after the store\'s fails as a future revision', async function (this: KubespecWorld) {
  const ahead = (await currentRevision(this.kv())) + 1;
  await assert.rejects(this.kv().compact(ahead), /required revision is a future revision/);
});

/** `"/r/a"="1", "/r/b"="2"` (or `… and …`) → [['/r/a', '1'], ['/r/b', '2']]. */
function parsePairs(text: string): [string, string][] {
  const pattern = /"([^"]*)"="([^"]*)"/g;
  const pairs = [...text.matchAll(pattern)].map((m): [string, string] => [m[1]!, m[2]!]);
  const rest = text.replace(pattern, '').replace(/(,|\band\b|\s)/g, '');
  if (pairs.length === 0 || rest !== '') throw new Error(`cannot read the key-value list: ${text}`);
  return pairs;
}

// etcd-io/etcd api/etcdserverpb/rpc.proto, RangeResponse.more: "more indicates if there are more
// keys to return in the requested range"; server/etcdserver/apply.go, applierV3backend.Range asks
// the store for limit + 1 keys and `if r.Limit > 0 && len(rr.KVs) > int(r.Limit)` cuts them to
// the limit and sets More. The API server's list turns `more` into its continue token.
Then('a range over prefix {string} limited to {int} returns the keys {names}, with more left', async function (this: KubespecWorld, prefix: string, limit: number, keys: string[]) {
  const { kvs, more } = await this.kv().range(prefix, { limit });
  assert.deepEqual({ keys: kvs.map((kv) => kv.key), more }, { keys, more: true });
});

Then('a range over prefix {string} limited to {int} returns the keys {names}, with none left', async function (this: KubespecWorld, prefix: string, limit: number, keys: string[]) {
  const { kvs, more } = await this.kv().range(prefix, { limit });
  assert.deepEqual({ keys: kvs.map((kv) => kv.key), more }, { keys, more: false });
});

// A range names the revision to read at (etcd-io/etcd api/etcdserverpb/rpc.proto,
// RangeRequest.revision: "the point-in-time of the key-value store to use for the range"): the
// keys live then, with the values they had then — a key deleted since is still there, one
// created since is not.
Then(/^a range over prefix "([^"]*)" at revision (\S+) holds: (.+)$/, async function (this: KubespecWorld, prefix: string, label: string, list: string) {
  const { kvs } = await this.kv().range(prefix, { revision: rev(this, label) });
  assert.deepEqual(kvs.map((kv) => [kv.key, kv.value]), parsePairs(list), `the range over "${prefix}" at revision ${label}`);
});

Then(/^a range over prefix "([^"]*)" at revision (\S+) limited to (\d+) holds: (.+), with more left$/, async function (this: KubespecWorld, prefix: string, label: string, limit: string, list: string) {
  const { kvs, more } = await this.kv().range(prefix, { revision: rev(this, label), limit: Number(limit) });
  assert.deepEqual({ kvs: kvs.map((kv) => [kv.key, kv.value]), more }, { kvs: parsePairs(list), more: true }, `the range over "${prefix}" at revision ${label}, limited to ${limit}`);
});

Then(/^a range over prefix "([^"]*)" now holds: (.+)$/, async function (this: KubespecWorld, prefix: string, list: string) {
  const { kvs } = await this.kv().range(prefix);
  assert.deepEqual(kvs.map((kv) => [kv.key, kv.value]), parsePairs(list), `the range over "${prefix}" now`);
});

// The API server's next page (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/etcd3/
// store.go, GetList and storage.EncodeContinue/DecodeContinue): the continue token carries the
// last key returned and the first page's revision; the next range starts at that key + "\x00"
// with the prefix's range end, at that revision.
Then(/^a range over prefix "([^"]*)"(?: at revision (\S+))? limited to (\d+), continued after key "([^"]*)", returns the keys (.+), with (more|none) left$/, async function (this: KubespecWorld, prefix: string, label: string | undefined, limit: string, after: string, list: string, left: string) {
  const keys = [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const { kvs, more } = await this.kv().range(prefix, { limit: Number(limit), fromKey: `${after}\u0000`, ...(label ? { revision: rev(this, label) } : {}) });
  assert.deepEqual({ keys: kvs.map((kv) => kv.key), more }, { keys, more: left === 'more' }, `the page after "${after}"${label ? ` at revision ${label}` : ''}`);
});
