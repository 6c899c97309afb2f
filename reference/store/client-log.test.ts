import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalBackend } from './local.ts';
import { MvccStore } from './mvcc.ts';
import { CLIENT_LOG_SIZE, loggedBackend, StoreClientLog } from './client-log.ts';

test('each request through a logged handle is recorded under its holder, in order, and reaches the same store', async () => {
  const store = new LocalBackend(new MvccStore());
  const log = new StoreClientLog();
  const api = loggedBackend(store, 'kube-apiserver', log);
  const other = loggedBackend(store, 'intruder', log);
  await api.put('/registry/pods/ns/a', '{}');
  assert.equal((await other.get('/registry/pods/ns/a'))?.value, '{}');
  const cancel = api.watch('/registry/pods/', 0, { onEvents() {}, onCancel() {} });
  cancel();
  assert.deepEqual(log.entries().map((r) => `${r.id} ${r.client} ${r.op} ${r.key}`), [
    '1 kube-apiserver put /registry/pods/ns/a',
    '2 intruder get /registry/pods/ns/a',
    '3 kube-apiserver watch /registry/pods/',
  ]);
});

test('the log keeps the newest requests once it is past its bound', () => {
  const log = new StoreClientLog();
  for (let i = 0; i < CLIENT_LOG_SIZE * 2; i++) log.record('c', 'get', `/k/${i}`);
  const entries = log.entries();
  assert.ok(entries.length <= CLIENT_LOG_SIZE * 1.25);
  assert.equal(entries.at(-1)!.key, `/k/${CLIENT_LOG_SIZE * 2 - 1}`);
});
