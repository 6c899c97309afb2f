/**
 * Steps for what a store watch carries besides the change itself (features/etcd/mvcc-watch.feature):
 * each event's previous version of its key, where a watch that names no revision starts, and
 * that a watch the client cancelled hears nothing more.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KvWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { describeEvents, parseEvents } from './support.ts';

/** `none, "1", "2"` → [undefined, '1', '2']. */
function parsePreviousValues(text: string): (string | undefined)[] {
  const items = text.split(/,\s*/).map((item) => item.trim());
  return items.map((item) => {
    if (item === 'none') return undefined;
    const m = /^"([^"]*)"$/.exec(item);
    if (!m) throw new Error(`cannot read previous value "${item}": write none or "value"`);
    return m[1];
  });
}

Then(/^the watch's events carry as previous values: (.+)$/, function (this: KubespecWorld, list: string) {
  const expected = parsePreviousValues(list);
  const events = this.recall<KvWatch>('watch').events;
  assert.equal(events.length, expected.length, `events delivered: ${describeEvents(events)}`);
  // "none" is no previous key-value at all (etcd leaves Event.prev_kv unset), not an empty one.
  const actual = events.map((e) => (e.prevKv === undefined ? undefined : (e.prevKv.value ?? `a previous key-value without a value: ${JSON.stringify(e.prevKv)}`)));
  assert.deepEqual(actual, expected, `previous values of ${describeEvents(events)} (undefined = none)`);
});

When('a watch on prefix {string} starts from now', async function (this: KubespecWorld, prefix: string) {
  // Revision 0: etcd's "no start_revision", i.e. changes after the watch is created.
  this.note('watch', await this.kv().watch(prefix, 0));
});

Then('the watch was not cancelled', function (this: KubespecWorld) {
  assert.equal(this.recall<KvWatch>('watch').cancelled, undefined, 'the watch was cancelled by the store');
});

When('the first watch is cancelled once it has delivered {int} event(s)', async function (this: KubespecWorld, count: number) {
  const watch = this.recall<KvWatch>('watch');
  await this.eventually(`${count} events on the first watch`, () => watch.events.length >= count, 2_000);
  await watch.cancel();
});

Then(/^within (\d+) s the second watch has delivered exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const watch = this.recall<KvWatch>('second watch');
  const expected = parseEvents(list);
  await this.eventually(`${expected.length} events on the second watch`, () => watch.events.length >= expected.length, Number(seconds) * 1000);
  assert.equal(describeEvents(watch.events), describeEvents(expected), 'the events the second watch delivered');
});

Then(/^the cancelled watch has delivered only: (.+)$/, function (this: KubespecWorld, list: string) {
  assert.equal(describeEvents(this.recall<KvWatch>('watch').events), describeEvents(parseEvents(list)), 'the events the cancelled watch delivered');
});

// A client that reacts to an event by writing and by opening another watch from that event's
// revision (a controller starting an informer for what it just saw): the new watch must get each
// change from that revision once — etcd replays history to a new watcher and then sends it live
// events, never one twice (etcd-io/etcd server/storage/mvcc/watchable_store.go: an unsynced
// watcher is moved to the synced group once caught up, and its minRev moves past each event sent).
When('a watch on prefix {string} starts from the next revision, and on the event for {string} puts {string} and opens another watch from that event\'s revision', async function (this: KubespecWorld, prefix: string, trigger: string, next: string) {
  const failures: unknown[] = [];
  const from = (await this.kv().get('/.kubespec-revision-probe')).revision + 1;
  const watch = await this.kv().watch(prefix, from, {
    onEvent: (event) => {
      if (event.type !== 'PUT' || event.kv.key !== trigger) return;
      // Both from inside the delivery, without waiting: the store must cope with it.
      this.kv().put(next, 'from the handler').catch((e: unknown) => failures.push(e));
      this.kv().watch(prefix, event.kv.modRevision).then((w) => this.note('watch opened in the handler', w), (e: unknown) => failures.push(e));
    },
  });
  this.note('watch', watch);
  this.note('writing watch failures', failures);
});

Then(/^within (\d+) s the watch opened in the handler has delivered exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const expected = parseEvents(list);
  const opened = (): KvWatch | undefined => this.recallOr<KvWatch | undefined>('watch opened in the handler', undefined);
  await this.eventually(`${expected.length} events on the watch opened in the handler`, () => (opened()?.events.length ?? 0) >= expected.length, Number(seconds) * 1000);
  assert.deepEqual(this.recall<unknown[]>('writing watch failures').map(String), [], 'the calls made from the watch handler');
  assert.equal(describeEvents(opened()!.events), describeEvents(expected), 'the events the watch opened in the handler delivered');
});
