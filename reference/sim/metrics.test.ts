import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EtcdMemberMetrics, WAL_FSYNC_BUCKETS_S } from './metrics.ts';

const gauges = { hasLeader: true, isLeader: false, committedIndex: 7 };

function sample(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  assert.ok(found, `no sample ${line}`);
  return Number(found.split(' ').pop());
}

test("the WAL fsync buckets are etcd's ExponentialBuckets(0.001, 2, 14): 1 ms to 8.192 s", () => {
  assert.equal(WAL_FSYNC_BUCKETS_S.length, 14);
  assert.equal(WAL_FSYNC_BUCKETS_S[0], 0.001);
  assert.ok(Math.abs(WAL_FSYNC_BUCKETS_S[13]! - 8.192) < 1e-12);
});

test('a 2 s fsync lands above the 1.024 s bucket and in the 2.048 s one; an instant one in every bucket', () => {
  const m = new EtcdMemberMetrics(100);
  m.observeFsync(2000);
  m.observeFsync(0);
  const text = m.exposition(gauges);
  assert.equal(sample(text, 'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.001"}'), 1);
  assert.equal(sample(text, 'etcd_disk_wal_fsync_duration_seconds_bucket{le="1.024"}'), 1);
  assert.equal(sample(text, 'etcd_disk_wal_fsync_duration_seconds_bucket{le="2.048"}'), 2);
  assert.equal(sample(text, 'etcd_disk_wal_fsync_duration_seconds_bucket{le="+Inf"}'), 2);
  assert.equal(sample(text, 'etcd_disk_wal_fsync_duration_seconds_sum'), 2);
  assert.equal(sample(text, 'etcd_disk_wal_fsync_duration_seconds_count'), 2);
});

test('a leader change is counted when a Ready names a leader other than the last one known, none counts nothing', () => {
  const m = new EtcdMemberMetrics(100);
  m.noteLeader('1', false);
  m.noteLeader('1', false);
  m.noteLeader(null, false);
  m.noteLeader('1', false); // the same leader after an interval without one: etcd counts it again
  m.noteLeader('2', false);
  assert.equal(sample(m.exposition(gauges), 'etcd_server_leader_changes_seen_total'), 3);
});

test('a heartbeat more than two heartbeat intervals after the previous one to that member is a send failure', () => {
  const m = new EtcdMemberMetrics(100);
  m.noteLeader('1', true);
  m.noteHeartbeatSent('2', 0);
  m.noteHeartbeatSent('2', 200);
  m.noteHeartbeatSent('3', 200);
  m.noteHeartbeatSent('2', 900);
  assert.equal(sample(m.exposition(gauges), 'etcd_server_heartbeat_send_failures_total'), 1);
  m.noteLeader('1', true); // a new leadership starts the detector afresh
  m.noteHeartbeatSent('2', 5000);
  assert.equal(sample(m.exposition(gauges), 'etcd_server_heartbeat_send_failures_total'), 1);
});

test('the gauges say whether there is a leader, whether this member is it, and the committed index', () => {
  const text = new EtcdMemberMetrics(100).exposition({ hasLeader: false, isLeader: false, committedIndex: 12 });
  assert.equal(sample(text, 'etcd_server_has_leader'), 0);
  assert.equal(sample(text, 'etcd_server_is_leader'), 0);
  assert.equal(sample(text, 'etcd_server_proposals_committed_total'), 12);
  assert.match(text, /# TYPE etcd_disk_wal_fsync_duration_seconds histogram/);
});
