@component:etcd
Feature: etcd — revisions, history and watch
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性

  etcd watches by revision. Its MVCC store keeps past versions, so a watch can start at any retained
  revision and replay what happened since; that is what the API server's resourceVersion rests on.
  (What happens below the retained history — compaction — is in backup-restore.feature and WATCH-410.)

  Rule: MVCC-WATCH-BY-REVISION — a watch from revision r delivers every change with revision ≥ r, in revision order
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性
    Claim: etcd natively supports revision-based watches.
    Quote: "etcd 原生支持基于 revision 的 Watch。"

    @requires:kv @requires:kv.watch
    Scenario: a prefix watch from a past revision replays, then goes live
      Given a store
      And key "/w/a" is put with value "1" at revision r
      And key "/w/b" is put with value "2"
      And key "/wx" is put with value "outside the prefix"
      And key "/w/a" is deleted
      When a watch on prefix "/w/" starts from revision r
      And key "/w/c" is put with value "3"
      Then within 2 s the watch has delivered exactly: PUT "/w/a"="1", PUT "/w/b"="2", DELETE "/w/a", PUT "/w/c"="3"
      And the events' modRevisions strictly increase, the first being r

    @requires:kv @requires:kv.watch
    Scenario: a watch from the revision of the latest write replays that write, then goes live
      The start revision is inclusive (etcd-io/etcd api/etcdserverpb/rpc.proto, WatchCreateRequest:
      "start_revision is an optional revision to watch from (inclusive)"), the store's current
      revision too: a client that read at r and watches from r misses nothing written at r.

      Given a store
      And key "/wl/a" is put with value "1"
      And key "/wl/b" is put with value "2" at revision r
      When a watch on prefix "/wl/" starts from revision r
      And key "/wl/c" is put with value "3"
      Then within 2 s the watch has delivered exactly: PUT "/wl/b"="2", PUT "/wl/c"="3"
      And the events' modRevisions strictly increase, the first being r

    @requires:kv @requires:kv.watch
    Scenario: a watch from a revision the store has not reached yet delivers the changes from that revision on
      A start revision ahead of the store is accepted; the watcher then hears only events at or above
      it (etcd-io/etcd server/storage/mvcc/watchable_store.go, newWatcherBatch:
      `if ev.Kv.ModRevision >= w.minRev`) — "every change with revision ≥ r", for an r still to come.

      Given a store at revision r
      When a watch on prefix "/wf/" starts from revision r + 3
      And key "/wf/a" is put with value "1"
      And key "/wf/b" is put with value "2"
      And key "/wf/c" is put with value "3"
      And key "/wf/d" is put with value "4"
      Then within 2 s the watch has delivered exactly: PUT "/wf/c"="3", PUT "/wf/d"="4"
      And the events' modRevisions strictly increase, the first being r + 3

    @requires:kv @requires:kv.watch
    Scenario: a watch from a past revision after which nothing under its prefix changed replays nothing, then goes live
      The revisions from r on hold only writes to other keys: the watch has nothing to catch up on,
      and that is no reason to fail or to end it (etcd's syncWatchers finds no events for it and
      moves it to the synced group, server/storage/mvcc/watchable_store.go).

      Given a store
      And key "/wq/a" is put with value "1"
      And key "/wqx" is put with value "outside the prefix" at revision r
      And key "/other" is put with value "x"
      When a watch on prefix "/wq/" starts from revision r
      And key "/wq/b" is put with value "2"
      Then within 2 s the watch has delivered exactly: PUT "/wq/b"="2"
      And the watch was not cancelled

    @requires:kv @requires:kv.watch
    Scenario: a watch does not deliver changes to keys outside its prefix
      Given a store
      When a watch on prefix "/w/" starts from the next revision
      And key "/other" is put with value "x"
      And key "/w/x" is put with value "y"
      Then within 2 s the watch has delivered exactly: PUT "/w/x"="y"

    @requires:kv @requires:kv.watch @requires:kv.compaction
    Scenario: a watch that names no revision delivers only what is written after it starts, even after a compaction
      A watch without a start revision begins "now" (etcd-io/etcd api/etcdserverpb/rpc.proto,
      WatchCreateRequest: "start_revision is an optional revision to watch from (inclusive). No
      start_revision is "now"."): it replays nothing, and a compaction behind it is no reason to
      cancel it.

      Given a store
      And key "/wn/a" is put with value "1"
      And the store is compacted at its current revision
      When a watch on prefix "/wn/" starts from now
      And key "/wn/b" is put with value "2"
      Then within 2 s the watch has delivered exactly: PUT "/wn/b"="2"
      And the watch was not cancelled

    @requires:kv @requires:kv.watch
    Scenario: a watch the client cancelled hears nothing more, while another on the same prefix goes on
      The API server stops its etcd watch when its own client goes away (kubernetes/kubernetes
      staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go, watchChan.Stop cancels the
      context); etcd then sends that watch no more events (etcd-io/etcd api/etcdserverpb/rpc.proto,
      WatchResponse.canceled: "No further events will be sent to the canceled watcher.").

      Given a store
      And a watch on prefix "/cw/" starts from the next revision
      And a second watch on prefix "/cw/" starts from the next revision
      When key "/cw/a" is put with value "1"
      And the first watch is cancelled once it has delivered 1 event
      And key "/cw/b" is put with value "2"
      Then within 2 s the second watch has delivered exactly: PUT "/cw/a"="1", PUT "/cw/b"="2"
      And the cancelled watch has delivered only: PUT "/cw/a"="1"

  Rule: MVCC-WATCH-PREVIOUS-VALUE — a watch event carries its key's previous version, so a delete still says what was deleted
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性
    Claim: The API server's watch is built on etcd's watch, and a Kubernetes DELETED event carries the
      object as it was last stored. The API server watches etcd asking for each event's previous
      key-value (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go,
      startWatching: `clientv3.WithPrevKV()`; prepareObjs decodes the previous value of a delete),
      and etcd attaches to every event but a key's creation the version the key had just before
      it (etcd-io/etcd server/etcdserver/api/v3rpc/watch.go: a range at ModRevision − 1, skipped
      when IsCreateEvent) — whether the event is replayed from history or delivered live.
    Quote: "API Server 的 Watch 机制正是建立在 etcd Watch 之上。"

    @requires:kv @requires:kv.watch
    Scenario: replayed and live events carry the version before them; a key's creation carries none
      Given a store
      And key "/pv/k" is put with value "1" at revision r
      And key "/pv/k" is put with value "2"
      And key "/pv/k" is deleted
      And key "/pv/k" is put with value "3"
      When a watch on prefix "/pv/" starts from revision r
      And key "/pv/k" is put with value "4"
      And key "/pv/k" is deleted
      Then within 2 s the watch has delivered exactly: PUT "/pv/k"="1", PUT "/pv/k"="2", DELETE "/pv/k", PUT "/pv/k"="3", PUT "/pv/k"="4", DELETE "/pv/k"
      And the watch's events carry as previous values: none, "1", "2", none, "3", "4"

    @requires:kv @requires:kv.watch
    Scenario: a DELETE event names the deleted key at the revision of the delete, with no value
      etcd-io/etcd api/mvccpb/kv.proto, Event.kv: "A DELETE/EXPIRE event contains the deleted key
      with its modification revision set to the revision of deletion." The key has no live version
      there, so the event's own kv has version 0 and no value; what was deleted is in its previous
      value.

      Given a store
      And key "/wd/k" is put with value "1"
      When a watch on prefix "/wd/" starts from the next revision
      And key "/wd/k" is deleted
      Then within 2 s the watch has delivered exactly: DELETE "/wd/k"
      And the DELETE event's modRevision is the store's revision, with version 0 and an empty value
      And the watch's events carry as previous values: "1"

  Rule: MVCC-HISTORY — past versions stay readable at their revision until compacted
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性
    Claim: etcd keeps historical versions with MVCC, so any retained revision can be read and replayed.
    Quote: "etcd 使用 MVCC 保留历史版本，支持从任意 revision 回放事件"

    @requires:kv
    Scenario: a get at an old revision returns the value as it was then
      Given a store
      And key "/h" is put with value "v1" at revision r1
      And key "/h" is put with value "v2" at revision r2
      When key "/h" is read at revision r1
      Then the value is "v1" with modRevision r1 and version 1
      And reading key "/h" now returns "v2" with createRevision r1, modRevision r2 and version 2

    @requires:kv
    Scenario: every write advances the single global revision by exactly one
      Given a store at revision r
      When keys "/a", "/b" and "/c" are put and key "/a" is deleted
      Then the store's revision is r + 4

    @requires:kv @requires:kv.compaction
    Scenario: the revision a compaction was made at stays readable; only older ones are gone
      The edge of the retained history is the compaction's own revision: etcd refuses only revisions
      below it (etcd-io/etcd server/storage/mvcc/kvstore_txn.go, rangeKeys: `rev < compactMainRev` →
      ErrCompacted; measured on etcd 3.4.23 here: after `compact 5` a watch from 5 replays 5 and 6).

      Given a store
      And key "/hc" is put with value "v1" at revision r1
      And key "/hc" is put with value "v2" at revision r2
      And key "/hc" is put with value "v3"
      When the store is compacted at revision r2
      Then reading key "/hc" at revision r2 returns "v2"
      And reading key "/hc" at revision r1 fails as compacted

    @requires:kv @requires:kv.compaction
    Scenario: a compaction keeps every later version of a key, also of one created before it or exactly at it
      A compaction removes only what no read at or above its revision can see: of each key, the
      versions older than the last one at or before the compact revision (etcd-io/etcd
      server/storage/mvcc/key_index.go, keyIndex.compact: it keeps the revision "which is the largest
      one that is smaller than or equal to the given atRev" and everything after it). Versions written
      after the compaction's revision are untouched, whether the key was created before the
      compaction's revision or at it.

      Given a store
      And key "/hk/a" is put with value "a1"
      And key "/hk/b" is put with value "b1" at revision r1
      And key "/hk/a" is put with value "a2" at revision r2
      And key "/hk/b" is put with value "b2" at revision r3
      And key "/hk/a" is put with value "a3"
      And key "/hk/b" is put with value "b3"
      When the store is compacted at revision r1
      Then reading key "/hk/a" at revision r1 returns "a1"
      And reading key "/hk/a" at revision r2 returns "a2"
      And reading key "/hk/b" at revision r1 returns "b1"
      And reading key "/hk/b" at revision r3 returns "b2"

    @requires:kv @requires:kv.compaction
    Scenario: a compaction never moves the edge of the history back, nor past the present
      etcd refuses a compaction at or below the current compact revision ("mvcc: required revision
      has been compacted") and above the current revision ("mvcc: required revision is a future
      revision"): etcd-io/etcd server/storage/mvcc/kvstore.go, updateCompactRev and compact.

      Given a store
      And key "/ce/k" is put with value "v1" at revision r1
      And key "/ce/k" is put with value "v2" at revision r2
      When the store is compacted at revision r2
      Then compacting the store at revision r2 fails as compacted
      And compacting the store at revision r1 fails as compacted
      And compacting the store at the revision after the store's fails as a future revision
      And reading key "/ce/k" at revision r2 returns "v2"

    @requires:kv @requires:kv.watch @requires:kv.compaction
    Scenario: a watch from the revision a compaction was made at replays from there
      Given a store
      And key "/wc/k" is put with value "v1" at revision r1
      And key "/wc/k" is put with value "v2" at revision r2
      And key "/wc/k" is put with value "v3"
      When the store is compacted at revision r2
      And a watch on prefix "/wc/" starts from revision r2
      Then within 2 s the watch has delivered exactly: PUT "/wc/k"="v2", PUT "/wc/k"="v3"

    @requires:kv
    Scenario: a key put again after its deletion starts a new life: a new createRevision and version 1
      A delete ends the key's generation and the next put starts a new one (etcd-io/etcd
      server/storage/mvcc/key_index.go, keyIndex.tombstone/put: a new generation with `created` at
      that revision); api/mvccpb/kv.proto, KeyValue.version: "A deletion resets the version to zero
      and any modification of the key increases its version." The old life stays readable at its revisions.

      Given a store
      And key "/hl/k" is put with value "1" at revision r1
      And key "/hl/k" is put with value "2" at revision r2
      And key "/hl/k" is deleted
      When key "/hl/k" is put with value "3" at revision r3
      Then reading key "/hl/k" now returns "3" with createRevision r3, modRevision r3 and version 1
      When key "/hl/k" is read at revision r2
      Then the value is "2" with modRevision r2 and version 2

    @requires:kv
    Scenario: a range at an old revision returns the keys as they were then, a key deleted since included
      A range reads at the revision it names (etcd-io/etcd api/etcdserverpb/rpc.proto,
      RangeRequest.revision: "the point-in-time of the key-value store to use for the range"), and a
      limit counts the keys live then.

      Given a store
      And key "/rr/a" is put with value "1"
      And key "/rr/b" is put with value "2" at revision r
      When key "/rr/a" is deleted
      And key "/rr/c" is put with value "3"
      And key "/rr/b" is put with value "4"
      Then a range over prefix "/rr/" at revision r holds: "/rr/a"="1", "/rr/b"="2"
      And a range over prefix "/rr/" at revision r limited to 1 holds: "/rr/a"="1", with more left
      And a range over prefix "/rr/" now holds: "/rr/b"="4", "/rr/c"="3"

    @requires:kv @requires:kv.watch @requires:kv.compaction @requires:kv.snapshot @etcd:>=3.6
    Scenario: a delete made at the compaction's revision is still replayed to a watch from there, also after a restore
      The compaction's own revision stays in the history, a deletion made at it too: etcd keeps a
      key's tombstone at the compact revision (etcd-io/etcd server/storage/mvcc/key_index.go,
      keyIndex.compact: "compact(5): ... key SHOULD NOT be removed"; compact(6) removes it), so a
      watch from there hears of the delete — on a store restored from a snapshot taken then too, the
      snapshot being the same MVCC database. Older etcd dropped that DELETE from the watch — upstream
      bug etcd-io/etcd#18089, fixed by #18274 ("keep tombstone if revision == compactAtRev",
      e2e TestDeleteEventDrop_Issue18089); etcd 3.4.23 here still drops it. The tag names the
      first minor release certain to have the fix (it was backported to later 3.5 and 3.4 patches).

      Given a store
      And key "/td/k" is put with value "1"
      And key "/td/k" is deleted
      And a store at revision d
      When the store is compacted at revision d
      And a watch on prefix "/td/" starts from revision d
      And key "/td/k" is put with value "2"
      Then within 2 s the watch has delivered exactly: DELETE "/td/k", PUT "/td/k"="2"
      When a snapshot is saved
      And the snapshot is restored into a fresh store
      And a watch on prefix "/td/" starts from revision d
      Then within 2 s the watch has delivered exactly: DELETE "/td/k", PUT "/td/k"="2"

    @requires:kv @requires:kv.watch @requires:kv.compaction
    Scenario: an event replayed at the compaction's revision carries no previous value; the ones after it do
      etcd does not store an event's previous value: its watch server reads it at the event's
      revision − 1 and sends none when that read fails (etcd-io/etcd
      server/etcdserver/api/v3rpc/watch.go, sendLoop: a Range at `ModRevision - 1`, prev_kv set
      only `if err == nil`). Below the compact revision the read fails as compacted, so the event
      at the compact revision comes without one (measured on etcd 3.4.23).

      Given a store
      And key "/wp/k" is put with value "v1"
      And key "/wp/k" is put with value "v2" at revision r2
      And key "/wp/k" is put with value "v3"
      When the store is compacted at revision r2
      And a watch on prefix "/wp/" starts from revision r2
      Then within 2 s the watch has delivered exactly: PUT "/wp/k"="v2", PUT "/wp/k"="v3"
      And the watch's events carry as previous values: none, "v2"

    @requires:kv
    Scenario: a get at the store's current revision, named explicitly, returns the latest value
      Only a revision past the store's is a future one (etcd-io/etcd server/storage/mvcc/kvstore_txn.go,
      rangeKeys: `rev > curRev` → ErrFutureRev); the current revision is a revision like any other.

      Given a store
      And key "/hn" is put with value "v1"
      And key "/hn" is put with value "v2" at revision r
      Then reading key "/hn" at revision r returns "v2"

    @requires:kv @requires:kv.compaction
    Scenario: a read at revision 0 reads the newest revision, even after a compaction
      etcd-io/etcd api/etcdserverpb/rpc.proto, RangeRequest.revision: "If the revision is less or
      equal to zero, the range is over the newest key-value store." 0 is no revision, so it is
      neither a compacted one nor an empty past.

      Given a store
      And key "/h0/k" is put with value "v1"
      And key "/h0/k" is put with value "v2"
      When the store is compacted at its current revision
      Then reading key "/h0/k" at revision 0 returns "v2"
      And a range over prefix "/h0/" at revision 0 holds: "/h0/k"="v2"

    @requires:kv
    Scenario: a get at a revision the store has not reached fails as a future revision
      A revision the store has not reached holds no version yet: etcd refuses it with
      "mvcc: required revision is a future revision" (ErrFutureRev, server/storage/mvcc/kvstore.go).

      Given a store
      And key "/hf" is put with value "v1"
      Then reading key "/hf" at the revision after the store's fails as a future revision

  Rule: MVCC-DELETE-MISSING-NO-REVISION — deleting a key that does not exist is not a change: the revision stays and no watcher hears of it
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性
    Claim: The revision a watch and a resourceVersion rest on counts changes to the store. A delete
      that finds no key changes nothing, so it takes no revision and produces no event (etcd bumps
      its revision only when a transaction changed something: etcd-io/etcd
      server/storage/mvcc/kvstore_txn.go, storeTxnWrite.End, `if len(tw.changes) != 0`).
    Quote: "etcd 原生支持基于 revision 的 Watch。"

    @requires:kv @requires:kv.watch
    Scenario: a delete of a missing key takes no revision and no watcher sees it
      Given a store at revision r
      And a watch on prefix "/d/" starts from the next revision
      When key "/d/never-written" is deleted although it does not exist
      And key "/d/written" is put with value "1"
      Then the store's revision is r + 1
      And within 2 s the watch has delivered exactly: PUT "/d/written"="1"

    @requires:kv
    Scenario: deleting a key that was already deleted takes no revision either
      Given key "/d2/k" is put with value "1"
      And key "/d2/k" is deleted
      And a store at revision r
      When key "/d2/k" is deleted although it does not exist
      Then the store's revision is r

  Rule: MVCC-COMPARE-AND-SWAP — a write conditioned on a key's modRevision happens only while the key is still at that revision; a refused one changes nothing
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 与 etcd 的交互
    Claim: The API server's optimistic concurrency rests on etcd's MVCC: an update is a transaction
      that writes only if the key's mod_revision is still the one the object was read at, and a
      create only if the key does not exist (mod_revision 0) (kubernetes/kubernetes
      staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go, GuaranteedUpdate:
      `clientv3.Compare(clientv3.ModRevision(key), "=", origState.rev)`; Create: `notFound(key)`).
      A refused transaction changes nothing, so it takes no revision (etcd-io/etcd
      server/storage/mvcc/kvstore_txn.go, storeTxnWrite.End). The API-level claim is
      API-OPTIMISTIC-CONCURRENCY; this is the store's half of it.
    Quote: "API Server 使用 etcd 的 MVCC（Multi-Version Concurrency Control）实现乐观并发控制，通过 resourceVersion 字段做冲突检测。"

    @requires:kv
    Scenario: a write from a stale revision is refused and takes no revision; one from the current revision goes through
      Given a store
      And key "/cas/k" is put with value "1" at revision r1
      And key "/cas/k" is put with value "2" at revision r2
      When a compare-and-swap of "/cas/k" expecting modRevision r1 writes "stale"
      Then the compare-and-swap failed, and the store is still at revision r2
      And the refused compare-and-swap saw "/cas/k" at modRevision r2 with value "2"
      And reading key "/cas/k" now returns "2"
      When a compare-and-swap of "/cas/k" expecting modRevision r2 writes "3"
      Then the compare-and-swap succeeded at revision r2 + 1
      And reading key "/cas/k" now returns "3"

    @requires:kv
    Scenario: modRevision 0 creates only a missing key, and a conditional delete removes the key it saw
      Given a store
      When a compare-and-swap of "/cas/new" expecting modRevision 0 writes "x"
      And the modRevision of key "/cas/new" is noted as revision c
      Then the compare-and-swap succeeded at revision c
      When a compare-and-swap of "/cas/new" expecting modRevision 0 writes "y"
      Then the compare-and-swap failed, and the store is still at revision c
      And the refused compare-and-swap saw "/cas/new" at modRevision c with value "x"
      And reading key "/cas/new" now returns "x"
      When a compare-and-swap of "/cas/new" expecting modRevision c deletes it
      Then the compare-and-swap succeeded at revision c + 1
      And key "/cas/new" does not exist

  Rule: MVCC-WATCH-ORDER-UNDER-WRITES — every watcher gets every event once, in revision order, even when watchers write as events arrive
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性
    Claim: A watch delivers changes by revision. Clients commonly write in reaction to what they see
      (a controller updating an object it watches); delivery must stay in revision order for every
      watcher regardless, and no event may be skipped or repeated.
    Quote: "etcd 原生支持基于 revision 的 Watch。"

    @requires:kv @requires:kv.watch
    Scenario: one watcher writes the next key on each event; another watcher still sees all of them in order
      Given a store
      And a watch on prefix "/chain/" starts from the next revision, and on each event for "/chain/<n>" with n below 5 puts "/chain/<n+1>"
      And a second watch on prefix "/chain/" starts from the next revision
      When key "/chain/1" is put with value "1"
      Then within 2 s both watches have delivered exactly: PUT "/chain/1"="1", PUT "/chain/2"="2", PUT "/chain/3"="3", PUT "/chain/4"="4", PUT "/chain/5"="5"
      And in both watches the events' modRevisions strictly increase

    @requires:kv @requires:kv.watch
    Scenario: a watch opened from a watcher's handler, at the revision of the event it got, hears each change once
      A watch from revision r replays what is retained from r and then goes live; a change made just
      as it starts is delivered once, whether it reaches the new watch as history or as a live event
      (etcd-io/etcd server/storage/mvcc/watchable_store.go: an unsynced watcher catches up from the
      backend, then joins the synced group; each watcher's minRev moves past what it was sent).

      Given a store
      And a watch on prefix "/nest/" starts from the next revision, and on the event for "/nest/a" puts "/nest/b" and opens another watch from that event's revision
      When key "/nest/a" is put with value "1"
      Then within 2 s the watch opened in the handler has delivered exactly: PUT "/nest/a"="1", PUT "/nest/b"="from the handler"

  Rule: MVCC-RESOURCEVERSION — an object's resourceVersion is the etcd modRevision of its key
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Watch 特性
    Claim: etcd's revisions are the underlying basis of the resourceVersion mechanism, and the API
      server's watch is built on the etcd watch.
    Quote: "这也是 resourceVersion 机制的底层基础。"

    @requires:kube.api @requires:kube.storage @requires:kv
    Scenario: create and update responses carry the key's modRevision
      Given a cluster whose store is also reachable directly
      When ConfigMap "rv" is created and its resourceVersion is noted as "R1"
      Then the store key "/registry/configmaps/{ns}/rv" has modRevision "R1"
      When ConfigMap "rv" is updated and its resourceVersion is noted as "R2"
      Then the store key "/registry/configmaps/{ns}/rv" has modRevision "R2"
      And "R2" is greater than "R1"

    @requires:kube.api @requires:kube.watch @requires:kv
    Scenario: each API watch event's resourceVersion equals the store revision of that change
      Given a cluster whose store is also reachable directly
      And a client watches ConfigMaps from the current resourceVersion
      When ConfigMap "w" is created and then deleted
      Then within 5 s the watch delivers ADDED "w" and DELETED "w"
      And the ADDED event's resourceVersion equals the store's createRevision of "/registry/configmaps/{ns}/w"
      And the DELETED event's resourceVersion equals the store revision of the delete

  Rule: MVCC-RANGE-KEY-ORDER — a range over a prefix returns its keys in byte order, and a limited range the first of them
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / etcd / Key-Value 结构
    Claim: etcd keeps one flat key space in which every object is a key under /registry/<resource>/<namespace>/<name>, so listing a resource
      is a range over its key prefix. etcd's key index is a B-tree walked in ascending key order
      (etcd-io/etcd server/storage/mvcc/index.go, treeIndex), so a range returns the keys in byte
      order whatever order they were written in, stops at the end of the prefix, and a range with a
      limit returns the first keys — what a paginated list (limit and continue) rests on.
    Quote: "etcd 以扁平的 Key 空间存储数据"

    @requires:kv
    Scenario: keys written out of order come back from a prefix range in byte order
      Given a store
      When keys "/r/b", "/r/a/2" and "/s/x" are put
      Then a range over prefix "/r/" returns the keys "/r/a/2" and "/r/b"
      When keys "/r/c", "/r/a/10", "/q" and "/r/a" are put
      Then a range over prefix "/r/" returns the keys "/r/a", "/r/a/10", "/r/a/2", "/r/b" and "/r/c"
      And a range over prefix "/r/a/" returns the keys "/r/a/10" and "/r/a/2"
      And a range over prefix "/r/" limited to 2 returns the keys "/r/a" and "/r/a/10"

    @requires:kv
    Scenario: a key equal to the prefix itself is the first key of the prefix's range
      A prefix range is the key range [prefix, the prefix with its last byte incremented)
      (etcd-io/etcd client/v3/op.go, WithPrefix → GetPrefixRangeEnd; api/etcdserverpb/rpc.proto,
      RangeRequest.range_end: "the key range [key, range_end)"), so it starts at the prefix itself:
      a key spelled exactly like the prefix is in it, and comes first.

      Given a store
      When keys "/rq/a", "/rqa", "/rq/" and "/rq" are put
      Then a range over prefix "/rq/" returns the keys "/rq/" and "/rq/a"
      And a range over prefix "/rq" returns the keys "/rq", "/rq/", "/rq/a" and "/rqa"

    @requires:kv
    Scenario: a range limited to 0 returns every key of the prefix: 0 means no limit
      etcd-io/etcd api/etcdserverpb/rpc.proto, RangeRequest.limit: "limit is a limit on the number
      of keys returned for the request. When limit is set to 0, it is treated as no limit." A
      Kubernetes list without `limit` reaches etcd so.

      Given a store
      When keys "/rz/b", "/rz/a" and "/rz/c" are put
      Then a range over prefix "/rz/" limited to 0 returns the keys "/rz/a", "/rz/b" and "/rz/c"

    @requires:kv
    Scenario: a limited range says whether it left keys out, and a deleted key takes no place under the limit
      etcd sets `more` on a range its limit cut short (etcd-io/etcd api/etcdserverpb/rpc.proto,
      RangeResponse.more: "more indicates if there are more keys to return in the requested range";
      server/etcdserver/apply.go, applierV3backend.Range); the API server's paginated list hands out
      a continue token exactly then. A deleted key is not in the range, so it uses none of the limit.

      Given a store
      When keys "/rm/a", "/rm/b", "/rm/c" and "/rm/d" are put
      Then a range over prefix "/rm/" limited to 2 returns the keys "/rm/a" and "/rm/b", with more left
      And a range over prefix "/rm/" limited to 4 returns the keys "/rm/a", "/rm/b", "/rm/c" and "/rm/d", with none left
      When key "/rm/b" is deleted
      Then a range over prefix "/rm/" limited to 2 returns the keys "/rm/a" and "/rm/c", with more left
      And a range over prefix "/rm/" limited to 3 returns the keys "/rm/a", "/rm/c" and "/rm/d", with none left

    @requires:kv
    Scenario: a limited range continued from just past its last key returns the next page, at the first page's revision
      The API server pages a list so (kubernetes/kubernetes
      staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go, GetList): the continue token holds the
      last key returned and the list's revision; the next page is a range from that key + "\x00" to
      the end of the prefix, at that revision, so writes made in between do not shift the pages.

      Given a store
      And keys "/rp/a", "/rp/b", "/rp/c", "/rp/d" and "/rp/e" are put
      And a store at revision r
      When key "/rp/c" is deleted
      And key "/rp/cc" is put
      Then a range over prefix "/rp/" at revision r limited to 2, continued after key "/rp/b", returns the keys "/rp/c" and "/rp/d", with more left
      And a range over prefix "/rp/" at revision r limited to 2, continued after key "/rp/d", returns the keys "/rp/e", with none left
      And a range over prefix "/rp/" limited to 2, continued after key "/rp/b", returns the keys "/rp/cc" and "/rp/d", with more left
