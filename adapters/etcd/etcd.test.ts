/**
 * The etcd adapter against real etcd processes. Needs the `etcd` and `etcdctl` binaries
 * (Debian: apt-get install etcd-server etcd-client); without them these tests are skipped
 * and say so. Takes ~10 s.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CompactedError } from '../../contract/contract.ts';
import { EtcdCluster, binaryAvailable } from './cluster.ts';
import { EtcdKv, etcdUnavailable, prefixRangeEnd } from './kv.ts';
import { createEtcdTarget, parseEndpoints, retentionFromTags } from './index.ts';
import { measureKv } from './measure.ts';
import { pollUntil } from '../polling-waiter.ts';

const SKIP = 'etcd not installed: apt-get install etcd-server etcd-client';
const haveEtcd = (await binaryAvailable('etcd')) && (await binaryAvailable('etcdctl'));

describe('the etcd adapter without a cluster', () => {
  test('a prefix range ends just past the last key that starts with the prefix', () => {
    assert.deepEqual(prefixRangeEnd(Buffer.from('/a/')), Buffer.from('/a0'));
    assert.deepEqual(prefixRangeEnd(Buffer.from([0x61, 0xff])), Buffer.from([0x62]));
    assert.deepEqual(prefixRangeEnd(Buffer.from([0xff])), Buffer.from([0]));
  });

  test("etcd's refusals become the contract's: timed out, no leader, member unreachable; anything else passes through", () => {
    assert.equal(etcdUnavailable(new Error('etcdserver: request timed out'))?.reason, 'timeout');
    assert.equal(etcdUnavailable(new Error('4 DEADLINE_EXCEEDED: Deadline exceeded'))?.reason, 'timeout');
    assert.equal(etcdUnavailable(new Error('etcdserver: no leader'))?.reason, 'no-leader');
    assert.equal(etcdUnavailable(new Error('etcdserver: leader changed'))?.reason, 'no-leader');
    assert.equal(etcdUnavailable(new Error('14 UNAVAILABLE: connect ECONNREFUSED 127.0.0.1:2379'))?.reason, 'unreachable');
    // cockatiel's BrokenCircuitError (etcd3's per-host breaker) keeps the plain name "Error".
    assert.equal(etcdUnavailable(new Error('Execution prevented because the circuit breaker is open'))?.reason, 'unreachable');
    assert.equal(etcdUnavailable(new Error('etcdserver: mvcc: required revision has been compacted')), undefined);
    assert.equal(etcdUnavailable(new TypeError('x is not a function')), undefined);
  });

  test('a retention tag picks the etcd flag value', () => {
    assert.equal(retentionFromTags(['@slow', '@auto-compaction-retention:3s']), '3s');
    assert.equal(retentionFromTags(['@members:5']), undefined);
  });

  test('an endpoints flag is split on commas and blanks are dropped', () => {
    assert.deepEqual(parseEndpoints('http://a:2379, http://b:2379,'), ['http://a:2379', 'http://b:2379']);
  });

  test('a target over existing endpoints declares no member control and never net.partition', () => {
    const attached = createEtcdTarget({ endpoints: ['http://127.0.0.1:2379'] });
    assert.equal(attached.capabilities.has('kv.members'), false);
    assert.equal(attached.capabilities.has('kv.snapshot'), true);
    const owned = createEtcdTarget({});
    assert.equal(owned.capabilities.has('kv.members.5'), true);
    assert.equal(owned.capabilities.has('net.partition'), false);
    assert.equal(owned.knownDeviations.size, 0);
  });
});

describe('the etcd adapter on a real 3-member cluster', () => {
  let cluster: EtcdCluster | undefined;
  let kv: EtcdKv | undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-etcd-test-'));

  before(async () => {
    if (!haveEtcd) return;
    cluster = await EtcdCluster.start({ members: 3 });
    kv = new EtcdKv({ cluster, prefix: '/kubespec/test/' });
  });

  after(async () => {
    await kv?.close();
    await cluster?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('a put is read back with its revisions, and a get at an older revision sees the older value', async (t) => {
    if (!kv) return t.skip(SKIP);
    const first = await kv.put('greeting', 'hello');
    const second = await kv.put('greeting', 'hi');
    const now = await kv.get('greeting');
    assert.deepEqual(now.kv, { key: 'greeting', value: 'hi', createRevision: first.revision, modRevision: second.revision, version: 2 });
    assert.equal((await kv.get('greeting', { revision: first.revision })).kv?.value, 'hello');
    const cas = await kv.txn({ key: 'greeting', expectModRevision: first.revision, value: 'stale' });
    assert.equal(cas.succeeded, false);
    assert.equal((await kv.txn({ key: 'greeting', expectModRevision: second.revision, value: null })).succeeded, true);
    assert.equal((await kv.get('greeting')).kv, undefined);
  });

  test('a range lists only this prefix, in key order, and honours the limit', async (t) => {
    if (!kv || !cluster) return t.skip(SKIP);
    const other = new EtcdKv({ cluster, prefix: '/kubespec/other/' });
    await other.put('r/x', 'theirs');
    await other.close();
    await kv.put('r/b', '2');
    await kv.put('r/a', '1');
    assert.deepEqual((await kv.range('r/')).kvs.map((e) => e.key), ['r/a', 'r/b']);
    assert.deepEqual((await kv.range('r/', { limit: 1 })).kvs.map((e) => e.key), ['r/a']);
  });

  test('a watch from an old revision replays the changes since then and goes on with live ones', async (t) => {
    if (!kv) return t.skip(SKIP);
    const from = (await kv.put('w/one', '1')).revision;
    await kv.put('w/one', '2');
    const watch = await kv.watch('w/', from);
    await kv.delete('w/one');
    await pollUntil('three watch events', () => watch.events.length >= 3, 5_000);
    assert.deepEqual(watch.events.map((e) => `${e.type} ${e.kv.key}=${e.kv.value}`), ['PUT w/one=1', 'PUT w/one=2', 'DELETE w/one=']);
    assert.equal(watch.events[2]?.prevKv?.value, '2');
    await watch.cancel();
  });

  test('after a compaction a get below it fails as compacted and a watch from there is cancelled', async (t) => {
    if (!kv) return t.skip(SKIP);
    const old = (await kv.put('c/k', 'v1')).revision;
    const kept = (await kv.put('c/k', 'v2')).revision;
    await kv.compact(kept);
    await assert.rejects(kv.get('c/k', { revision: old }), (err: unknown) =>
      err instanceof CompactedError && err.requestedRevision === old && err.compactRevision === kept);
    const watch = await kv.watch('c/', old);
    assert.deepEqual(watch.cancelled?.compactRevision, kept);
    assert.match(watch.cancelled?.reason ?? '', /compacted/);
    const fromKept = await kv.watch('c/', kept);
    await pollUntil('the kept revision replayed', () => fromKept.events.length >= 1, 5_000);
    assert.equal(fromKept.events[0]?.kv.value, 'v2');
    await fromKept.cancel();
  });

  test('killing the leader elects a different leader, and the killed member rejoins after restart', async (t) => {
    if (!kv || !cluster) return t.skip(SKIP);
    const leader = await cluster.waitForLeader(5_000);
    await cluster.kill(leader);
    const next = await cluster.waitForLeader(10_000, leader);
    assert.notEqual(next, leader);
    await kv.put('after-kill', 'ok');
    await cluster.restart(leader);
    await pollUntil(`${leader} answers again`, async () => (await cluster!.status(leader)) !== undefined, 10_000);
    // Whoever leads now, all three members must agree on it again.
    assert.ok(await cluster.waitForLeader(10_000));
    assert.equal(cluster.members().filter((m) => m.alive).length, 3);
  });

  test('a saved snapshot restores into a fresh member holding the same keys and revision', async (t) => {
    if (!kv) return t.skip(SKIP);
    await kv.put('s/kept', 'yes');
    const file = path.join(tmp, 'snap.db');
    const saved = await kv.snapshotSave(file);
    await kv.put('s/after', 'not in the snapshot');
    await kv.snapshotRestore(file);
    assert.equal((await kv.get('s/kept')).kv?.value, 'yes');
    assert.equal((await kv.get('s/after')).kv, undefined);
    const { revision } = await kv.get('s/kept');
    assert.equal(revision, saved.revision);
    assert.equal((await kv.put('s/new', '1')).revision, saved.revision + 1);
  });

  test('measureKv reports positive throughput for sequential and concurrent callers', async (t) => {
    if (!kv) return t.skip(SKIP);
    const m = await measureKv(kv, 40, 8);
    assert.ok(m.put_ops_per_s > 0 && m.get_ops_per_s > 0);
  });
});

describe('the etcd target', () => {
  test('sessions are isolated by prefix, a killed member is healed on close, and @members:5 gets five', async (t) => {
    if (!haveEtcd) return t.skip(SKIP);
    const target = createEtcdTarget({});
    await target.start();
    try {
      const a = await target.openSession({ seed: 1, name: 'first scenario', tags: [] });
      await a.kv!.put('k', 'a');
      const victim = await a.members!.leader();
      assert.ok(victim);
      await a.members!.kill(victim);
      assert.equal((await a.members!.list()).find((m) => m.id === victim)?.alive, false);
      await a.close();
      const b = await target.openSession({ seed: 2, name: 'second scenario', tags: ['@members:3'] });
      assert.equal((await b.kv!.get('k')).kv, undefined);
      const members = await b.members!.list();
      assert.equal(members.length, 3);
      assert.ok(members.every((m) => m.alive));
      assert.equal(members.filter((m) => m.role === 'leader').length, 1);
      assert.ok(JSON.stringify(b.describe()).includes('dataDir'));
      await b.close();
      const five = await target.openSession({ seed: 3, name: 'five', tags: ['@members:5'] });
      assert.equal((await five.members!.list()).length, 5);
      await five.close();
    } finally {
      await target.stop();
    }
  });
});
