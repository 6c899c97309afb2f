import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../wiring/virtual-clock.ts';
import { ApiStatusError, Informer, type ListWatcher, type WatchOptions, type WatchStreamHandlers } from './informer.ts';
import type { CacheEvent, KubeObject } from './types.ts';

interface FakeWatch {
  options: WatchOptions;
  handlers: WatchStreamHandlers;
  cancelled: boolean;
}

/** A scripted API server for one resource: what the next list returns, and every watch opened. */
class FakeListWatcher implements ListWatcher {
  items: KubeObject[] = [];
  resourceVersion = '10';
  listError?: Error;
  lists = 0;
  readonly watches: FakeWatch[] = [];

  async list() {
    this.lists++;
    if (this.listError) throw this.listError;
    return { items: [...this.items], resourceVersion: this.resourceVersion };
  }

  watch(options: WatchOptions, handlers: WatchStreamHandlers) {
    const w: FakeWatch = { options, handlers, cancelled: false };
    this.watches.push(w);
    return () => void (w.cancelled = true);
  }

  get current(): FakeWatch {
    const w = this.watches.at(-1);
    assert.ok(w, 'no watch was opened');
    return w;
  }
}

const ns = (name: string, rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, resourceVersion: rv } });

function informer(lw: FakeListWatcher, random = 0.5) {
  const clock = new VirtualClock();
  const events: string[] = [];
  const log: string[] = [];
  const inf = new Informer({
    resource: 'namespaces',
    listWatcher: lw,
    timers: clock,
    random: () => random,
    onEvent: (e: CacheEvent) => events.push(`${e.type} ${e.object.metadata.name}`),
    log: (line) => log.push(line),
  });
  return { inf, clock, events, log };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('an informer lists once, then watches from exactly the resourceVersion its list returned, with bookmarks and a 5 to 10 minute timeout', async () => {
  const lw = new FakeListWatcher();
  lw.items = [ns('a', '7'), ns('b', '9')];
  const { inf, events } = informer(lw, 0.25);
  await inf.start();
  assert.equal(lw.lists, 1);
  assert.deepEqual(lw.current.options, { resourceVersion: '10', timeoutSeconds: 375, allowWatchBookmarks: true });
  assert.deepEqual(events, ['ADDED a', 'ADDED b']);
  assert.deepEqual(inf.list().map((o) => o.metadata.name), ['a', 'b']);
  assert.equal(inf.resourceVersion, '10');
});

test('watch events reach the handler as adds, updates and deletes, and the cache follows them', async () => {
  const lw = new FakeListWatcher();
  const { inf, events } = informer(lw);
  await inf.start();
  lw.current.handlers.onEvent({ type: 'ADDED', object: ns('a', '11') });
  lw.current.handlers.onEvent({ type: 'MODIFIED', object: { ...ns('a', '12'), status: { phase: 'Terminating' } } });
  lw.current.handlers.onEvent({ type: 'ADDED', object: ns('b', '13') });
  lw.current.handlers.onEvent({ type: 'DELETED', object: ns('a', '14') });
  assert.deepEqual(events, ['ADDED a', 'MODIFIED a', 'ADDED b', 'DELETED a']);
  assert.equal(inf.get('', 'a'), undefined);
  assert.equal(inf.get('', 'b')?.metadata.resourceVersion, '13');
  assert.equal(inf.resourceVersion, '14');
});

test('a watch the server ends is resumed from the last resourceVersion seen, a bookmark\'s included, without a list', async () => {
  const lw = new FakeListWatcher();
  const { inf } = informer(lw);
  await inf.start();
  lw.current.handlers.onEvent({ type: 'ADDED', object: ns('a', '11') });
  lw.current.handlers.onEvent({ type: 'BOOKMARK', object: { kind: 'Namespace', metadata: { resourceVersion: '20' } } });
  lw.current.handlers.onEnd();
  assert.equal(lw.lists, 1);
  assert.equal(lw.watches.length, 2);
  assert.equal(lw.current.options.resourceVersion, '20');
  assert.deepEqual(inf.counts, { lists: 1, watches: 2 });
});

test('410 Expired, as an ERROR event or as the watch\'s status, makes the informer list again and dispatch what it missed', async () => {
  const lw = new FakeListWatcher();
  lw.items = [ns('a', '5'), ns('b', '6')];
  const { inf, events } = informer(lw);
  await inf.start();
  const first = lw.current;
  lw.items = [ns('b', '6'), ns('c', '30')];
  lw.resourceVersion = '31';
  first.handlers.onEvent({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 10 (25)' } });
  await settle();
  assert.equal(first.cancelled, true, 'the expired watch is closed');
  assert.equal(lw.lists, 2);
  assert.deepEqual(events.slice(2), ['DELETED a', 'ADDED c'], 'b did not change, so it is not dispatched again');
  assert.equal(lw.current.options.resourceVersion, '31');
  first.handlers.onEvent({ type: 'ADDED', object: ns('late', '12') });
  assert.equal(inf.get('', 'late'), undefined, 'a closed watch no longer feeds the cache');
  lw.current.handlers.onEnd(new ApiStatusError(410, 'Gone', 'gone'));
  await settle();
  assert.equal(lw.lists, 3);
});

test('a broken connection is retried by watching again after 800 ms, then 1600 ms of backoff', async () => {
  const lw = new FakeListWatcher();
  const { inf, clock, log } = informer(lw);
  await inf.start();
  lw.current.handlers.onEnd(new Error('ECONNRESET'));
  clock.advance(799);
  assert.equal(lw.watches.length, 1);
  clock.advance(1);
  assert.equal(lw.watches.length, 2);
  lw.current.handlers.onEnd(new Error('ECONNRESET'));
  clock.advance(1599);
  assert.equal(lw.watches.length, 2);
  clock.advance(1);
  assert.equal(lw.watches.length, 3);
  assert.equal(lw.lists, 1, 'a connection failure does not cost a list');
  assert.match(log[0]!, /namespaces: watch broken: ECONNRESET; retrying in 800 ms/);
});

test('a failing re-list is retried with backoff until it succeeds', async () => {
  const lw = new FakeListWatcher();
  const { inf, clock } = informer(lw);
  await inf.start();
  lw.listError = new Error('503');
  lw.current.handlers.onEvent({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  await settle();
  assert.equal(lw.lists, 2);
  clock.advance(800);
  await settle();
  assert.equal(lw.lists, 3);
  lw.listError = undefined;
  clock.advance(1600);
  await settle();
  assert.equal(lw.lists, 4);
  assert.equal(lw.watches.length, 2);
});

test('a first list that fails rejects start, so a misconfigured manager says so instead of waiting', async () => {
  const lw = new FakeListWatcher();
  lw.listError = new ApiStatusError(403, 'Forbidden', 'namespaces is forbidden');
  const { inf } = informer(lw);
  await assert.rejects(inf.start(), /namespaces is forbidden/);
  assert.equal(lw.watches.length, 0);
});

test('a stopped informer closes its watch and ignores whatever still arrives', async () => {
  const lw = new FakeListWatcher();
  const { inf, events, clock } = informer(lw);
  await inf.start();
  const w = lw.current;
  inf.stop();
  assert.equal(w.cancelled, true);
  w.handlers.onEvent({ type: 'ADDED', object: ns('a', '11') });
  w.handlers.onEnd(new Error('closed'));
  clock.advance(60_000);
  assert.deepEqual(events, []);
  assert.equal(lw.watches.length, 1);
});

test('an update files the object under its new index values and no longer under the old ones; an unchanged value keeps it', async () => {
  const lw = new FakeListWatcher();
  const pod = (rv: string, nodeName: string, owner: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'a', resourceVersion: rv, ownerReferences: [{ uid: owner, controller: true }] }, spec: { nodeName } } as KubeObject);
  lw.items = [pod('1', 'n1', 'rs-1')];
  const { inf } = informer(lw);
  inf.start();
  await settle();
  const names = (index: 'node' | 'owner' | 'namespace', value: string) => inf.byIndex(index, value).map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
  lw.current.handlers.onEvent({ type: 'MODIFIED', object: pod('2', 'n2', 'rs-1') });
  assert.deepEqual(names('node', 'n1'), []);
  assert.deepEqual(names('node', 'n2'), ['p@2']);
  assert.deepEqual(names('owner', 'rs-1'), ['p@2'], 'an index whose value did not change holds the object at its new version');
  assert.deepEqual(names('namespace', 'a'), ['p@2']);
  lw.current.handlers.onEvent({ type: 'MODIFIED', object: pod('3', 'n2', 'rs-2') });
  assert.deepEqual(names('owner', 'rs-1'), []);
  assert.deepEqual(names('owner', 'rs-2'), ['p@3']);
  lw.current.handlers.onEvent({ type: 'DELETED', object: pod('4', 'n2', 'rs-2') });
  assert.deepEqual([...names('node', 'n2'), ...names('owner', 'rs-2'), ...names('namespace', 'a')], []);
  inf.stop();
});
