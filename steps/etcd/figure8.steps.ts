/**
 * Steps for RAFT-COMMIT-OWN-TERM, the situation of the Raft paper's Figure 8: a new leader holds
 * entries of an earlier term that a majority may come to hold before any entry of its own term
 * does. It must not commit them by counting replicas (§5.4.2). The scenario builds the
 * situation with partitions and crashes only; the check reads the `raft.observe` transcript.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { commitsOntoEarlierTerms, parseTrace } from './raft-trace.ts';

When('the leader and one follower are cut off from the rest, and each of the other three from every member', async function (this: KubespecWorld) {
  let leader: string | undefined;
  await this.eventually('a leader', async () => (leader = await this.members().leader()) !== undefined, 10_000);
  const ids = (await this.members().list()).map((m) => m.id);
  const pair = [leader!, ids.find((id) => id !== leader)!];
  const alone = ids.filter((id) => !pair.includes(id));
  await this.members().partition!.call(this.members(), [pair, ...alone.map((id) => [id])]);
  this.note('minority', pair);
  this.note('alone', alone);
});

When('{int} puts are sent to the store without waiting for their answers', function (this: KubespecWorld, count: number) {
  const outcomes: string[] = [];
  const refused = new Set<number>();
  for (let i = 1; i <= count; i++) {
    // They cannot commit (two of five hold them); each ends as the store's refusal, noted for the report.
    this.kv().put(`/unanswered/${i}`, String(i)).then(() => outcomes.push(`put ${i} acknowledged`), (e: unknown) => {
      outcomes.push(String(e));
      refused.add(i);
    });
  }
  this.note('unanswered puts', outcomes);
  this.note('refused unanswered puts', refused);
});

/**
 * Raft's State Machine Safety (§5.4.3): once an entry is committed at an index, no member ever
 * applies another there. The unanswered puts sat at indexes where the next leader committed its
 * own entries, so none may ever be applied — by any member, even after crashes and a change of
 * leader back to the member that held them. Only puts the store refused are checked: a put
 * still open could yet be acknowledged (a client may retry it elsewhere).
 */
Then('none of the refused unanswered puts is in the store', async function (this: KubespecWorld) {
  const refused = [...this.recall<Set<number>>('refused unanswered puts')].sort((a, b) => a - b);
  assert.ok(refused.length > 0, 'the store refused none of the unanswered puts');
  const present: string[] = [];
  for (const i of refused) {
    const got = await this.kv().get(`/unanswered/${i}`);
    if (got.kv !== undefined) present.push(`/unanswered/${i}`);
  }
  assert.deepEqual(present, [], `refused puts whose entries were replaced came back: ${present.join(', ')}`);
});

When('all but one of the members cut off alone are killed', async function (this: KubespecWorld) {
  const alone = this.recall<string[]>('alone');
  for (const id of alone.slice(1)) await this.members().kill(id);
});

Then('the leader is one of the two members that held the unanswered puts', async function (this: KubespecWorld) {
  const leader = await this.members().leader();
  assert.ok(leader !== undefined && this.recall<string[]>('minority').includes(leader),
    `the leader is ${leader}, not one of ${this.recall<string[]>('minority').join(', ')}: the scenario did not build Figure 8's situation`);
  const acknowledged = this.recall<string[]>('unanswered puts').filter((o) => o.endsWith('acknowledged'));
  assert.deepEqual(acknowledged, [], 'puts held by two of five members were acknowledged');
});

Then('no leader ever advanced its commit index onto an entry of an earlier term', function (this: KubespecWorld) {
  const broken = commitsOntoEarlierTerms(parseTrace(this.raft().trace()));
  assert.deepEqual(broken, [], 'commits a leader made by counting replicas of an earlier term\'s entry');
});
