/**
 * Steps for RAFT-LINEARIZABLE: run seeded fault schedules against a replicated store
 * (`kv.fault-schedules`) and judge what the clients saw with the suite's Wing–Gong
 * linearizability checker (lincheck/), and what the members did with the one-leader-per-term
 * rule. The schedules are the scenario's seed onwards, so a failure replays.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { FaultScheduleRun, FaultSchedulesFacet } from '../../contract/contract.ts';
import { checkKvHistory, explainKvResult } from '../../lincheck/kv-model.ts';
import type { KubespecWorld } from '../support/world.ts';

function schedules(world: KubespecWorld): FaultSchedulesFacet {
  const facet = world.session.faultSchedules;
  if (facet === undefined) throw new Error('this scenario uses the "kv.fault-schedules" facet but is not tagged @requires:kv.fault-schedules');
  return facet;
}

function runs(world: KubespecWorld): FaultScheduleRun[] {
  return world.recall<FaultScheduleRun[]>('fault schedule runs');
}

When('{int} seeded fault schedules run against the store with concurrent clients', async function (this: KubespecWorld, count: number) {
  const done: FaultScheduleRun[] = [];
  // Seeds from the scenario's own: a different run seed explores different schedules.
  for (let i = 0; i < count; i++) done.push(await schedules(this).run(((this.session.seed + i) >>> 0) || 1));
  this.note('fault schedule runs', done);
});

Then('every history the clients saw is linearizable', function (this: KubespecWorld) {
  for (const run of runs(this)) {
    const result = checkKvHistory(run.history);
    assert.equal(result.outcome, 'ok', `seed ${run.seed} (${run.members} members): ${explainKvResult(result)}\nreplay: ${run.replay}`);
  }
});

Then('in no schedule did a term have more than one leader', function (this: KubespecWorld) {
  for (const run of runs(this)) {
    const twice = [...run.leadersByTerm].filter(([, ids]) => ids.length > 1).map(([t, ids]) => `term ${t}: ${ids.join(', ')}`);
    assert.deepEqual(twice, [], `seed ${run.seed} (${run.members} members); replay: ${run.replay}`);
  }
});

Then('the clients got at least {int} answers and the faults forced at least {int} elections in all', function (this: KubespecWorld, answers: number, elections: number) {
  const all = runs(this);
  const answered = all.reduce((n, r) => n + r.history.filter((op) => op.return_ms !== undefined).length, 0);
  const terms = all.reduce((n, r) => n + r.leadersByTerm.size, 0);
  assert.ok(answered >= answers, `only ${answered} answers: a property that held because nothing happened proves nothing`);
  assert.ok(terms >= elections, `only ${terms} terms had a leader: the faults did not force enough elections`);
  this.log(`${all.length} schedules: ${answered} answered calls, ${terms} terms with a leader`);
});
