import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvEvent } from '../../contract/contract.ts';
import type { Backend, WatchHandlers } from '../store/backend.ts';
import { LocalBackend } from '../store/local.ts';
import { registryKey } from '../store/registry.ts';
import { CachedStoreReader } from './cached-reader.ts';

/** A LocalBackend that counts reads and can hold back watch delivery (as a replicated store might). */
class CountingBackend extends LocalBackend {
  reads = 0;
  holdEvents = false;
  private held: Array<() => void> = [];

  override async range(...args: Parameters<Backend['range']>) {
    this.reads++;
    return super.range(...args);
  }

  override async get(...args: Parameters<Backend['get']>) {
    this.reads++;
    return super.get(...args);
  }

  override watch(prefix: string, fromRevision: number, handlers: WatchHandlers): () => void {
    return super.watch(prefix, fromRevision, {
      onEvents: (events: KvEvent[], revision: number) => {
        if (this.holdEvents) this.held.push(() => handlers.onEvents(events, revision));
        else handlers.onEvents(events, revision);
      },
      onCancel: (reason, compactRevision) => handlers.onCancel(reason, compactRevision),
    });
  }

  release(): void {
    this.holdEvents = false;
    for (const deliver of this.held.splice(0)) deliver();
  }
}

const binding = (ns: string, name: string, user: string) => JSON.stringify({ metadata: { name, namespace: ns }, subjects: [{ kind: 'User', name: user }], roleRef: { kind: 'ClusterRole', name: 'view' } });
const key = (resource: string, name: string, namespace?: string) => registryKey({ resource, name, ...(namespace ? { namespace } : {}) });

test('a list is read from the store once, then served from memory while nothing under it changes', async () => {
  const backend = new CountingBackend();
  await backend.put(key('rolebindings', 'a', 'team'), binding('team', 'a', 'alice'));
  const reader = new CachedStoreReader(backend);
  const first = await reader.all('rolebindings', 'team');
  await backend.put(key('configmaps', 'unrelated', 'team'), '{}');
  const second = await reader.all('rolebindings', 'team');
  assert.equal(second, first);
  assert.equal(backend.reads, 1);
  assert.deepEqual(second.map((b) => b.metadata.name), ['a']);
});

test('a binding created just now is in the very next list, with no propagation delay', async () => {
  const backend = new CountingBackend();
  const reader = new CachedStoreReader(backend);
  assert.deepEqual(await reader.all('rolebindings', 'team'), []);
  await backend.put(key('rolebindings', 'b', 'team'), binding('team', 'b', 'bob'));
  assert.deepEqual((await reader.all('rolebindings', 'team')).map((b) => b.subjects[0].name), ['bob']);
  await backend.delete(key('rolebindings', 'b', 'team'));
  assert.deepEqual(await reader.all('rolebindings', 'team'), []);
});

test('a write in one namespace leaves the cached lists of other namespaces alone', async () => {
  const backend = new CountingBackend();
  const reader = new CachedStoreReader(backend);
  await reader.all('roles', 'a');
  await reader.all('roles', 'b');
  await backend.put(key('roles', 'r', 'a'), JSON.stringify({ metadata: { name: 'r' } }));
  const readsBefore = backend.reads;
  assert.equal((await reader.all('roles', 'a')).length, 1);
  assert.equal((await reader.all('roles', 'b')).length, 0);
  assert.equal(backend.reads, readsBefore + 1);
});

test('an absent object is remembered as absent until it is created, and a changed one is read again', async () => {
  const backend = new CountingBackend();
  const reader = new CachedStoreReader(backend);
  assert.equal(await reader.one('namespaces', '', 'dev'), undefined);
  assert.equal(await reader.one('namespaces', '', 'dev'), undefined);
  assert.equal(backend.reads, 1);
  await backend.put(key('namespaces', 'dev'), JSON.stringify({ metadata: { name: 'dev' }, status: { phase: 'Active' } }));
  assert.equal((await reader.one('namespaces', '', 'dev')).status.phase, 'Active');
  await backend.put(key('namespaces', 'dev'), JSON.stringify({ metadata: { name: 'dev' }, status: { phase: 'Terminating' } }));
  assert.equal((await reader.one('namespaces', '', 'dev')).status.phase, 'Terminating');
  assert.equal(backend.reads, 3);
});

test('cached objects are frozen, so no caller can change what the next caller sees', async () => {
  const backend = new CountingBackend();
  await backend.put(key('rolebindings', 'a', 'team'), binding('team', 'a', 'alice'));
  const reader = new CachedStoreReader(backend);
  const [b] = await reader.all('rolebindings', 'team');
  assert.throws(() => {
    b.subjects[0].name = 'mallory';
  }, TypeError);
  assert.throws(() => (b.subjects as unknown[]).push({}), TypeError);
  const list = await reader.all('rolebindings', 'team');
  assert.ok(Object.isFrozen(list), 'the list itself is frozen too');
  assert.equal(await reader.all('rolebindings', 'team'), list, 'and served as the same list until a write');
});

test('while the watch has not heard of a write, reads go to the store, and once it has, the cache follows', async () => {
  const backend = new CountingBackend();
  const reader = new CachedStoreReader(backend);
  await reader.all('clusterrolebindings', '');
  backend.holdEvents = true;
  await backend.put(key('clusterrolebindings', 'admins'), binding('', 'admins', 'root'));
  assert.equal((await reader.all('clusterrolebindings', '')).length, 1, 'the write shows although its event is held back');
  backend.release();
  const reads = backend.reads;
  assert.equal((await reader.all('clusterrolebindings', '')).length, 1);
  assert.equal((await reader.all('clusterrolebindings', '')).length, 1);
  assert.equal(backend.reads, reads + 1, 'read once more after the event, then cached');
});

test('a read that a write overtook is answered but not kept', async () => {
  const backend = new CountingBackend();
  const reader = new CachedStoreReader(backend);
  await reader.all('roles', 'x');
  const inFlight = reader.all('roles', 'y');
  await backend.put(key('roles', 'r', 'y'), JSON.stringify({ metadata: { name: 'r' } }));
  await inFlight;
  assert.equal((await reader.all('roles', 'y')).length, 1);
});

test('after close every read goes to the store', async () => {
  const backend = new CountingBackend();
  const reader = new CachedStoreReader(backend);
  await reader.all('roles', 'x');
  reader.close();
  await reader.all('roles', 'x');
  await reader.all('roles', 'x');
  assert.equal(backend.reads, 3);
});
