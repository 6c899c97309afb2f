/**
 * One member's own Prometheus metrics, under etcd's names, fed by the simulator acting as the
 * member's host (its raft loop and write-ahead log) — what etcd serves on /metrics of its client
 * URL, for the metrics the notes tell operators to watch:
 *
 * - `etcd_disk_wal_fsync_duration_seconds`: a histogram of WAL fsyncs, buckets
 *   ExponentialBuckets(0.001, 2, 14) = 1 ms … 8.192 s (etcd-io/etcd server/storage/wal/metrics.go);
 *   one observation per sync of a Ready that carries entries or a new hard state, taken when the
 *   sync returns (a member that crashes mid-sync never observes it).
 * - `etcd_server_leader_changes_seen_total`: counted when a Ready names a leader other than the
 *   last one this member knew (server/etcdserver/raft.go: `newLeader := rd.SoftState.Lead !=
 *   raft.None && rh.getLead() != rd.SoftState.Lead`), `etcd_server_has_leader`,
 *   `etcd_server_is_leader` and `etcd_server_proposals_committed_total` (server/etcdserver/metrics.go).
 * - `etcd_server_heartbeat_send_failures_total`: a leader's heartbeat to a member that leaves more
 *   than two heartbeat intervals after the previous one (etcd's TimeoutDetector of 2 × heartbeat,
 *   "leader failed to send out heartbeat on time; … likely overloaded from slow disk").
 *
 * Counters live as long as the member's process: a restart starts them at zero, as etcd's do.
 * Times are the simulator's virtual milliseconds.
 */

/** ExponentialBuckets(0.001, 2, 14): etcd's WAL fsync buckets, in seconds. */
export const WAL_FSYNC_BUCKETS_S: readonly number[] = Array.from({ length: 14 }, (_, i) => 0.001 * 2 ** i);

export interface MemberGauges {
  hasLeader: boolean;
  isLeader: boolean;
  committedIndex: number;
}

export class EtcdMemberMetrics {
  private readonly fsyncCounts = WAL_FSYNC_BUCKETS_S.map(() => 0);
  private fsyncSum_s = 0;
  private fsyncCount = 0;
  private leaderChanges = 0;
  private heartbeatSendFailures = 0;
  /** The leader this member last knew of (null: none), as etcd's raftNode remembers `lead`. */
  private lastLead: string | null = null;
  /** When this member, as leader, last sent a heartbeat to each member. */
  private readonly lastHeartbeat_ms = new Map<string, number>();

  constructor(private readonly heartbeatInterval_ms: number) {}

  observeFsync(duration_ms: number): void {
    const seconds = duration_ms / 1000;
    WAL_FSYNC_BUCKETS_S.forEach((le, i) => {
      if (seconds <= le) this.fsyncCounts[i]!++;
    });
    this.fsyncSum_s += seconds;
    this.fsyncCount++;
  }

  /** After each Ready: the leader it names (null: none) and whether this member now leads. */
  noteLeader(lead: string | null, becameLeader: boolean): void {
    if (lead !== null && lead !== this.lastLead) this.leaderChanges++;
    this.lastLead = lead;
    // etcd resets its heartbeat detector when the member becomes leader.
    if (becameLeader) this.lastHeartbeat_ms.clear();
  }

  /** A heartbeat this member sends as leader, at `now_ms`. */
  noteHeartbeatSent(to: string, now_ms: number): void {
    const last = this.lastHeartbeat_ms.get(to);
    this.lastHeartbeat_ms.set(to, now_ms);
    if (last !== undefined && now_ms - last > 2 * this.heartbeatInterval_ms) this.heartbeatSendFailures++;
  }

  /** Prometheus text exposition (format 0.0.4), as etcd's /metrics serves it. */
  exposition(gauges: MemberGauges): string {
    const lines: string[] = [];
    const family = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('etcd_disk_wal_fsync_duration_seconds', 'histogram', 'The latency distributions of fsync called by WAL.');
    WAL_FSYNC_BUCKETS_S.forEach((le, i) => lines.push(`etcd_disk_wal_fsync_duration_seconds_bucket{le="${formatFloat(le)}"} ${this.fsyncCounts[i]}`));
    lines.push(`etcd_disk_wal_fsync_duration_seconds_bucket{le="+Inf"} ${this.fsyncCount}`);
    lines.push(`etcd_disk_wal_fsync_duration_seconds_sum ${formatFloat(this.fsyncSum_s)}`);
    lines.push(`etcd_disk_wal_fsync_duration_seconds_count ${this.fsyncCount}`);
    family('etcd_server_has_leader', 'gauge', 'Whether or not a leader exists. 1 is existence, 0 is not.');
    lines.push(`etcd_server_has_leader ${gauges.hasLeader ? 1 : 0}`);
    family('etcd_server_heartbeat_send_failures_total', 'counter', 'The total number of leader heartbeat send failures (likely overloaded from slow disk).');
    lines.push(`etcd_server_heartbeat_send_failures_total ${this.heartbeatSendFailures}`);
    family('etcd_server_is_leader', 'gauge', 'Whether or not this member is a leader. 1 if is, 0 otherwise.');
    lines.push(`etcd_server_is_leader ${gauges.isLeader ? 1 : 0}`);
    family('etcd_server_leader_changes_seen_total', 'counter', 'The number of leader changes seen.');
    lines.push(`etcd_server_leader_changes_seen_total ${this.leaderChanges}`);
    family('etcd_server_proposals_committed_total', 'gauge', 'The total number of consensus proposals committed.');
    lines.push(`etcd_server_proposals_committed_total ${gauges.committedIndex}`);
    return `${lines.join('\n')}\n`;
  }
}

/** Go's %g-like shortest form, as client_golang prints bucket bounds and sums (0.001, 8.192). */
function formatFloat(x: number): string {
  return String(Number(x.toPrecision(15)));
}
