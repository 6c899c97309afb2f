@component:etcd
Feature: etcd — backup, compaction and restore
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / 备份与恢复策略

  The notes' strategy: take consistent snapshots regularly with `etcdctl snapshot save`; bound history
  with `--auto-compaction-retention`; restore with `etcdctl snapshot restore` into a new data directory
  and restart etcd. The disk tip (SSD, no shared disk, check with `fio`) is advice and recorded as untestable.

  Rule: ETCD-SNAPSHOT-CONSISTENT — a snapshot holds exactly the store as of one revision
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / 备份与恢复策略
    Claim: `etcdctl snapshot save` creates a consistent snapshot.
    Quote: "定期快照：etcdctl snapshot save 创建一致性快照。"

    @requires:kv @requires:kv.snapshot
    Scenario: writes made after the snapshot are not in it
      Given a store
      And 100 keys "/s/000" … "/s/099" are put
      When a snapshot is saved and reports revision r
      And key "/s/late" is put
      And the snapshot is restored into a fresh store
      Then the fresh store holds exactly the 100 keys "/s/000" … "/s/099" under "/s/"
      And the fresh store's revision is r

    @requires:kv @requires:kv.snapshot
    Scenario: a snapshot taken while writes are running holds a prefix of them, with no gaps
      Given a store
      When keys "/seq/0001" … "/seq/1000" are put in order while a snapshot is saved
      And the snapshot is restored into a fresh store
      Then the fresh store holds keys "/seq/0001" … "/seq/n" for some n, and no other "/seq/" key

    @requires:kv @requires:kv.snapshot
    Scenario: a snapshot taken after reads and writes interleaved holds exactly the keys written before it
      Reads change nothing in the store, so they change nothing in a snapshot either: it holds every
      key written before it, in key order, and nothing else.

      Given a store
      And keys "/si/b" and "/si/a" are put
      And a range over prefix "/si/" returns the keys "/si/a" and "/si/b"
      And keys "/si/d" and "/si/c" are put
      And a range over prefix "/si/" returns the keys "/si/a", "/si/b", "/si/c" and "/si/d"
      When a snapshot is saved and reports revision r
      And the snapshot is restored into a fresh store
      Then a range over prefix "/si/" returns the keys "/si/a", "/si/b", "/si/c" and "/si/d"
      And the fresh store holds keys "/si/a", "/si/b", "/si/c" and "/si/d"
      And the fresh store's revision is r

  @erratum
  Rule: ETCD-RESTORE — a restored store serves the snapshot's data and accepts new writes
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / 备份与恢复策略
    Claim: Recovery: `etcdctl snapshot restore` restores the data into a new directory, then the etcd
      process is restarted on it.
    Quote: "恢复流程：etcdctl snapshot restore 恢复数据到新目录 → 重启 etcd 进程。"
    Upstream: the tool changed: since etcd 3.5 offline restore is `etcdutl snapshot restore`;
      `etcdctl snapshot restore` was deprecated in 3.5 and slated for removal in 3.6
      (etcd-io/etcd etcdutl/README.md; kubernetes/website
      content/en/docs/tasks/administer-cluster/configure-upgrade-etcd.md). The restore itself — a new
      data directory with the snapshot's data, then a restart — is unchanged and is what the scenarios
      check; the etcd adapter restores with etcdutl where the installed etcd has it, etcdctl on 3.4.

    @requires:kv @requires:kv.snapshot
    Scenario: after restore, old keys read back and new writes continue the revision sequence
      Given a store
      And key "/r/a" is put with value "1"
      And a snapshot is saved and reports revision r
      When the snapshot is restored into a fresh store
      Then key "/r/a" reads "1" from the fresh store
      And a put of key "/r/b" to the fresh store returns a revision greater than r

    @requires:kv @requires:kv.snapshot
    Scenario: deleting everything after the snapshot is undone by restoring it
      Given a store
      And keys "/r/a" and "/r/b" are put
      And a snapshot is saved
      When every key under "/r/" is deleted
      And the snapshot is restored into a fresh store
      Then the fresh store holds keys "/r/a" and "/r/b"

    @requires:kv @requires:kv.snapshot @requires:kv.watch
    Scenario: the restored store keeps the history the snapshot held: old revisions read back and a watch replays them
      etcd's snapshot is its whole MVCC database, every retained revision included, and a restore
      keeps them (etcd-io/etcd etcdutl/snapshot/v3_snapshot.go: the snapshot's db file becomes the
      new member's backend; only the membership is rewritten). The history is what a watch by
      revision replays ("etcd 使用 MVCC 保留历史版本，支持从任意 revision 回放事件").

      Given a store
      And key "/rh/a" is put with value "1" at revision r
      And key "/rh/a" is put with value "2"
      And key "/rh/b" is put with value "3"
      And key "/rh/a" is deleted
      And a snapshot is saved
      When the snapshot is restored into a fresh store
      And a watch on prefix "/rh/" starts from revision r
      Then within 2 s the watch has delivered exactly: PUT "/rh/a"="1", PUT "/rh/a"="2", PUT "/rh/b"="3", DELETE "/rh/a"
      And the watch's events carry as previous values: none, "1", none, "2"
      And reading key "/rh/a" at revision r returns "1"

    @requires:kv @requires:kv.snapshot @requires:kv.compaction @requires:kv.watch
    Scenario: a snapshot taken after a compaction restores with the compaction's edge and the history above it
      etcd's snapshot is its MVCC database, compact revision included (etcd-io/etcd
      server/storage/mvcc/kvstore.go, restore: the finished compact revision read back from the
      meta bucket becomes `compactMainRev`), so the restored store refuses what was compacted and
      serves what was kept, as the store it was taken from would.

      Given a store
      And key "/rk/a" is put with value "1" at revision r1
      And key "/rk/a" is put with value "2" at revision r2
      And key "/rk/b" is put with value "3" at revision r3
      And key "/rk/b" is deleted
      And the store is compacted at revision r2
      And a snapshot is saved
      When the snapshot is restored into a fresh store
      Then reading key "/rk/a" at revision r1 fails as compacted
      And reading key "/rk/a" at revision r2 returns "2"
      And compacting the store at revision r2 fails as compacted
      When a watch on prefix "/rk/" starts from revision r2
      Then within 2 s the watch has delivered exactly: PUT "/rk/a"="2", PUT "/rk/b"="3", DELETE "/rk/b"

  Rule: ETCD-AUTO-COMPACTION — with periodic auto-compaction, history older than the retention is discarded
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / 备份与恢复策略
    Claim: `--auto-compaction-retention` sets how long historical versions are kept, preventing unbounded
      growth of the store.
    Quote: "自动 compaction：通过 --auto-compaction-retention 配置历史版本保留时间，防止存储无限增长。"

    @requires:kv @requires:kv.compaction @requires:clock.virtual @auto-compaction-retention:1h
    Scenario: with a 1-hour retention, a revision from 2 hours ago can no longer be read
      Given a store with periodic auto-compaction retention of 1 hour
      And key "/c" is put with value "old" at revision r
      And key "/c" is put with value "new"
      When 2 hours of virtual time pass
      Then reading key "/c" at revision r fails as compacted
      And reading key "/c" now returns "new"

    @requires:kv @requires:kv.compaction @requires:clock.virtual @auto-compaction-retention:1h
    Scenario: within the retention window history is still there
      Given a store with periodic auto-compaction retention of 1 hour
      And key "/c" is put with value "old" at revision r
      And key "/c" is put with value "new"
      When 10 minutes of virtual time pass
      Then reading key "/c" at revision r returns "old"

    @requires:kv @requires:kv.compaction @requires:clock.virtual @auto-compaction-retention:1h
    Scenario: after compactions have run, the last hour's revisions are still readable
      A compaction runs at the first hour (removing the first revisions) and again at the second;
      the second must compact only to what was current an hour before, not to what is current.

      Given a store with periodic auto-compaction retention of 1 hour
      And key "/c" is put with value "old" at revision r0
      And key "/c" is put with value "newer"
      When 80 minutes of virtual time pass
      And key "/c" is put with value "recent" at revision r1
      And key "/c" is put with value "latest"
      And 50 minutes of virtual time pass
      Then reading key "/c" at revision r0 fails as compacted
      And reading key "/c" at revision r1 returns "recent"
      And reading key "/c" now returns "latest"

    @requires:kv @requires:kv.compaction @auto-compaction-retention:3s @slow
    Scenario: in real time, with a 3-second retention, older history is compacted away and the last seconds stay readable
      The same claim on a clock a real etcd runs on: `--auto-compaction-mode=periodic
      --auto-compaction-retention=3s`. etcd compacts every retention period (at most every hour)
      to the revision it sampled one retention earlier.

      Given a store with periodic auto-compaction retention of 3 s
      And key "/c" is put with value "old" at revision r0
      And key "/c" is put with value "newer"
      When the store is left alone for 6 s
      And key "/c" is put with value "recent" at revision r1
      And key "/c" is put with value "latest"
      And the store is left alone for 1 s
      Then reading key "/c" at revision r0 fails as compacted
      And reading key "/c" at revision r1 returns "recent"
      And reading key "/c" now returns "latest"

    @requires:kv @requires:kv.compaction @requires:kv.watch
    Scenario: compaction keeps the latest value of every key, including ones last written before it
      Given a store
      And key "/c/a" is put with value "1"
      And key "/c/b" is put with value "2" and then "3"
      When the store is compacted at its current revision
      Then key "/c/a" reads "1" and key "/c/b" reads "3"
      And a watch on prefix "/c/" from a revision below the compaction is cancelled as compacted

    @requires:kv @requires:kv.compaction
    Scenario: after a compaction, a key deleted before it stays gone, the others range in order, and the deleted key can be created again
      etcd's compaction drops a key whose last version before the compact revision is a deletion
      (etcd-io/etcd server/storage/mvcc/key_index.go, keyIndex.compact; its doc: "compact(6) ...
      key SHOULD be removed"); the live keys keep their latest version, and a new put of the
      dropped key starts from scratch.

      Given a store
      And keys "/cr/a", "/cr/b" and "/cr/c" are put
      And key "/cr/b" is deleted
      And key "/cr/d" is put
      When the store is compacted at its current revision
      Then a range over prefix "/cr/" returns the keys "/cr/a", "/cr/c" and "/cr/d"
      When key "/cr/b" is put with value "again" at revision r
      Then a range over prefix "/cr/" returns the keys "/cr/a", "/cr/b", "/cr/c" and "/cr/d"
      And reading key "/cr/b" now returns "again" with createRevision r, modRevision r and version 1

  @untestable
  Rule: ETCD-BACKUP-PERIODIC — snapshots should be taken on a regular schedule
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / 备份与恢复策略
    Claim: Backups should be regular ("定期") snapshots.
    Quote: "定期快照"
    Untestable: an operational practice (a schedule outside etcd); what a snapshot contains is ETCD-SNAPSHOT-CONSISTENT.

  Rule: ETCD-DISK-LATENCY — etcd is very sensitive to disk latency: a disk slower than the election timeout costs the cluster its leader
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / 备份与恢复策略 / etcd 的磁盘性能至关重要
    Claim: etcd is extremely sensitive to disk latency. A member must sync its write-ahead log before
      it acts on what it wrote, and while it syncs it sends no heartbeats; a leader whose syncs take
      longer than the followers' election timeout is deposed again and again, and writes stall
      (the notes' pitfalls section: slow disk I/O makes leader elections frequent). The advice that
      follows — SSDs, no shared disk, measure with fio — is for operators and is not checked here.
    Quote: "etcd 对磁盘延迟极其敏感。生产环境应使用 SSD，避免与其他 I/O 密集型应用共享磁盘。"

    @requires:kv @requires:kv.members @requires:disk.latency @requires:raft.observe @requires:clock.virtual
    Scenario: while the leader's disk takes 2 s per sync, writes cost it its leadership
      Given a 3-member store with a stable leader
      And the leader of every term is recorded from now on
      When the leader's disk starts taking 2000 ms per sync
      And keys are put one after another for 10 s
      Then leaders were recorded in at least 2 different terms

    @requires:kv @requires:kv.members @requires:disk.latency @requires:raft.observe @requires:clock.virtual
    Scenario: with a 10 ms disk the same writes keep one leader
      Given a 3-member store with a stable leader
      And the leader of every term is recorded from now on
      When the leader's disk starts taking 10 ms per sync
      And keys are put one after another for 10 s
      Then leaders were recorded in exactly 1 term
      And at least 10 of the puts were acknowledged
