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
  const actual = events.map((e) => e.prevKv?.value);
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
