/**
 * Steps for etcd's own metrics (PITFALL-ETCD-DISK): every member's /metrics, scraped through the
 * `kv.metrics` facet and compared between two scrapes. The names are etcd's
 * (server/storage/wal/metrics.go, server/etcdserver/metrics.go).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { StoreUnavailableError } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { parseExposition } from '../kube/metrics.steps.ts';

type Samples = ReturnType<typeof parseExposition>['samples'];
/** One scrape: each answering member's samples, by member id. */
type MemberScrapes = Map<string, Samples>;

function value(samples: Samples | undefined, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples?.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

function scrape(world: KubespecWorld, label: string): MemberScrapes {
  return world.recall<MemberScrapes>(`etcd metrics ${label}`);
}

/** The member whose etcd_server_is_leader is 1 in a scrape. */
function leaderIn(scrapes: MemberScrapes, label: string): string {
  const leaders = [...scrapes].filter(([, s]) => value(s, 'etcd_server_is_leader') === 1).map(([id]) => id);
  assert.equal(leaders.length, 1, `members reporting etcd_server_is_leader 1 in "${label}": ${JSON.stringify(leaders)}`);
  return leaders[0]!;
}

/** A counter's growth on one member between two scrapes (both must have it). */
function growth(world: KubespecWorld, from: string, to: string, id: string, name: string, labels: Record<string, string> = {}): number {
  const before = value(scrape(world, from).get(id), name, labels);
  const after = value(scrape(world, to).get(id), name, labels);
  assert.ok(before !== undefined && after !== undefined, `member ${id} has no ${name}${JSON.stringify(labels)} in "${from}" (${before}) or "${to}" (${after})`);
  return after - before;
}

Given("etcd's metrics are scraped as {string}", async function (this: KubespecWorld, label: string) {
  const texts = await this.kvMetrics().scrape();
  assert.ok(texts.size > 0, 'no member answered /metrics');
  this.note(`etcd metrics ${label}`, new Map([...texts].map(([id, text]) => [id, parseExposition(text).samples])));
});

When('{int} keys are put one at a time', async function (this: KubespecWorld, count: number) {
  for (let i = 1; i <= count; i++) await this.kv().put(`/metrics/${i}`, String(i));
});

Then('on the member that leads in {string} and {string}, etcd_disk_wal_fsync_duration_seconds_count grew by at least {int}', function (this: KubespecWorld, from: string, to: string, count: number) {
  const leader = leaderIn(scrape(this, to), to);
  assert.equal(leaderIn(scrape(this, from), from), leader, 'the leader changed between the scrapes');
  const grown = growth(this, from, to, leader, 'etcd_disk_wal_fsync_duration_seconds_count');
  assert.ok(grown >= count, `the leader ${leader} timed ${grown} WAL fsyncs for ${count} acknowledged writes`);
});

Then('every member in {string} exposes {word}, {word} and {word}', function (this: KubespecWorld, label: string, a: string, b: string, c: string) {
  for (const [id, samples] of scrape(this, label)) {
    const missing = [a, b, c].filter((name) => value(samples, name) === undefined);
    assert.deepEqual(missing, [], `member ${id} does not expose these`);
  }
});

Then('from {string} to {string} every WAL fsync of the slowed member took longer than {float} s', function (this: KubespecWorld, from: string, to: string, seconds: number) {
  const id = this.recall<string>('slowed member');
  const all = growth(this, from, to, id, 'etcd_disk_wal_fsync_duration_seconds_count');
  const fast = growth(this, from, to, id, 'etcd_disk_wal_fsync_duration_seconds_bucket', { le: String(seconds) });
  assert.ok(all > 0, `member ${id} observed no WAL fsync between the scrapes`);
  assert.equal(fast, 0, `member ${id}: ${fast} of its ${all} WAL fsyncs took at most ${seconds} s`);
});

Then('from {string} to {string} etcd_server_leader_changes_seen_total grew on every member', function (this: KubespecWorld, from: string, to: string) {
  const ids = [...scrape(this, to).keys()];
  const still = ids.filter((id) => growth(this, from, to, id, 'etcd_server_leader_changes_seen_total') < 1);
  assert.deepEqual(still, [], 'members that saw no leader change');
});

Then(/^within (\d+) s every member's etcd_server_proposals_committed_total equals the leader's$/, async function (this: KubespecWorld, seconds: string) {
  const alive = (await this.members().list()).filter((m) => m.alive).map((m) => m.id);
  let last = '';
  await this.eventually('every live member to report the leader\'s committed index', async () => {
    const scrapes = new Map([...(await this.kvMetrics().scrape())].map(([id, text]) => [id, parseExposition(text).samples]));
    const leaders = [...scrapes].filter(([, s]) => value(s, 'etcd_server_is_leader') === 1).map(([id]) => id);
    const committed = Object.fromEntries(alive.map((id) => [id, value(scrapes.get(id), 'etcd_server_proposals_committed_total')]));
    last = `leaders ${JSON.stringify(leaders)}, committed ${JSON.stringify(committed)}`;
    if (leaders.length !== 1) return false;
    const target = committed[leaders[0]!];
    return target !== undefined && target > 0 && alive.every((id) => committed[id] === target);
  }, Number(seconds) * 1000).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last scrape: ${last}`);
  });
});

Then('at least one of the puts was refused by the store', function (this: KubespecWorld) {
  const refused = this.recall<StoreUnavailableError[]>('refused puts');
  assert.ok(refused.length >= 1, 'every put was acknowledged: the slow disk cost the clients nothing');
});
