/**
 * Steps about Jobs (features/controllers/job.feature): Jobs whose pods really run — scheduled by
 * the cluster's scheduler onto a node with a kubelet, their containers exiting with a code after
 * a time (the fake runtime's `kubespec/exit:CODE:AFTER_S` image) — and what the Job and its pods
 * show through the API. The pods' history comes from a watch opened before the Job is created.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { get, list, ownedBy, path, podsPath, podWatchCaughtUp, recorder } from './support.ts';
import { sampled } from './placement.ts';

const jobPath = (world: KubespecWorld, name?: string) => path(world.kube(), 'batch', 'jobs', name);

async function getJob(world: KubespecWorld, name: string): Promise<any> {
  return get(world, jobPath(world, name), `Job "${name}"`);
}

async function tryGetJob(world: KubespecWorld, name: string): Promise<any | undefined> {
  const res = await world.kube().request({ method: 'GET', path: jobPath(world, name) });
  if (res.status === 404) return undefined;
  return expectSuccess(res, `get Job "${name}"`);
}

/** The Job spec a scenario's words describe: "completions 5, parallelism 2 and a container that exits 0 after 1 s". */
function jobSpec(words: string): any {
  const num = (field: string) => new RegExp(`\\b${field} (\\d+)`).exec(words)?.[1];
  const exit = /a container that exits (\d+) after (\d+) s/.exec(words);
  const spec: any = { template: { spec: { restartPolicy: /restartPolicy (\w+)/.exec(words)?.[1] ?? 'Never', containers: [{ name: 'work', image: `kubespec/exit:${exit?.[1] ?? 0}:${exit?.[2] ?? 1}` }] } } };
  for (const field of ['completions', 'parallelism', 'backoffLimit', 'ttlSecondsAfterFinished']) if (num(field) !== undefined) spec[field] = Number(num(field));
  return spec;
}

Given(/^a cluster with the controllers running and a kubelet on node "([^"]*)"$/, async function (this: KubespecWorld, node: string) {
  assert.ok([...this.target.capabilities].some((c) => c.startsWith('controllers.')), 'this target runs no controllers');
  await this.nodes().ensureNode(node);
});

When(/^Job "([^"]*)" is created (?:with|without) (.+)$/, async function (this: KubespecWorld, name: string, words: string) {
  await recorder(this);
  const body = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: jobSpec(words) };
  const job = expectSuccess(await this.kube().request({ method: 'POST', path: jobPath(this), body }), `create Job "${name}"`);
  this.note(`job ${name}`, job);
});

/** Pods the watch saw created for the Job. */
async function podsCreatedFor(world: KubespecWorld, name: string): Promise<any[]> {
  const uid = world.recall<any>(`job ${name}`).metadata.uid;
  const pods = await podWatchCaughtUp(world);
  return pods.events.filter((e) => e.type === 'ADDED' && ownedBy([e.object], uid).length > 0).map((e) => e.object);
}

/** Replaying the watch: the most pods of the Job that were running or about to at one moment. */
async function mostActiveAtOnce(world: KubespecWorld, name: string): Promise<number> {
  const uid = world.recall<any>(`job ${name}`).metadata.uid;
  const { pods } = await recorder(world);
  const active = new Set<string>();
  let most = 0;
  for (const e of pods.events) {
    if (ownedBy([e.object], uid).length === 0) continue;
    const p = e.object;
    const isActive = e.type !== 'DELETED' && !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';
    if (isActive) active.add(p.metadata.uid);
    else active.delete(p.metadata.uid);
    most = Math.max(most, active.size);
  }
  return most;
}

function condition(job: any, type: string): any {
  return (job?.status?.conditions ?? []).find((c: any) => c.type === type);
}

Then(/^within (\d+) (s|minutes of virtual time) Job "([^"]*)" has condition (\w+)=(\w+)(?: with reason "([^"]*)")?(?: with status\.succeeded (\d+))?$/,
  async function (this: KubespecWorld, amount: string, unit: string, name: string, type: string, status: string, reason?: string, succeeded?: string) {
    const budget_ms = Number(amount) * (unit === 's' ? 1000 : 60_000);
    let job: any;
    await sampled(this, `Job "${name}" to have ${type}=${status}`, async () => condition((job = await getJob(this, name)), type)?.status === status, budget_ms);
    if (reason) assert.equal(condition(job, type).reason, reason, `the ${type} condition: ${JSON.stringify(condition(job, type))}`);
    if (succeeded) assert.equal(job.status?.succeeded, Number(succeeded), `status: ${JSON.stringify(job.status)}`);
  });

Then('Job {string} reports status.succeeded {int}', async function (this: KubespecWorld, name: string, n: number) {
  assert.equal((await getJob(this, name)).status?.succeeded, n);
});

Then(/^exactly (\d+) pods? (?:was|were) created for Job "([^"]*)"(, all Failed)?$/, async function (this: KubespecWorld, n: string, name: string, allFailed?: string) {
  const created = await podsCreatedFor(this, name);
  assert.equal(created.length, Number(n), `pods created: ${created.map((p) => p.metadata.name).join(', ')}`);
  if (!allFailed) return;
  const uid = this.recall<any>(`job ${name}`).metadata.uid;
  const phases = ownedBy(await list(this, podsPath(this.kube())), uid).map((p) => `${p.metadata.name}=${p.status?.phase}`);
  assert.deepEqual(phases.filter((p) => !p.endsWith('=Failed')), [], `pods of Job "${name}": ${phases.join(', ')}`);
});

Then(/^Job "([^"]*)" as read back has spec\.completions (\d+) and spec\.parallelism (\d+)$/, async function (this: KubespecWorld, name: string, c: string, p: string) {
  const { spec } = await getJob(this, name);
  assert.deepEqual([spec.completions, spec.parallelism], [Number(c), Number(p)]);
});

Then('Job {string} as read back has no spec.completions', async function (this: KubespecWorld, name: string) {
  const { spec } = await getJob(this, name);
  assert.ok(spec.completions === undefined || spec.completions === null, `spec.completions is ${spec.completions}`);
});

Then('Job {string} as read back has spec.backoffLimit {int}', async function (this: KubespecWorld, name: string, n: number) {
  assert.equal((await getJob(this, name)).spec.backoffLimit, n);
});

Then('at every observed moment Job {string} had at most {int} active pods', async function (this: KubespecWorld, name: string, n: number) {
  const most = await mostActiveAtOnce(this, name);
  assert.ok(most >= 1 && most <= n, `at one moment ${most} pods of Job "${name}" were active`);
});

Then('within {int} s Job {string} had {int} active pods at one observed moment', async function (this: KubespecWorld, seconds: number, name: string, n: number) {
  await this.eventually(`${n} pods of Job "${name}" active at once`, async () => (await mostActiveAtOnce(this, name)) >= n, seconds * 1000);
});

// ---- TTL after finished --------------------------------------------------------------------

When(/^Job "([^"]*)" completes(?: at virtual time C)?$/, async function (this: KubespecWorld, name: string) {
  let job: any;
  await sampled(this, `Job "${name}" to complete`, async () => condition((job = await getJob(this, name)), 'Complete')?.status === 'True', 60_000);
  this.note('C', Date.parse(condition(job, 'Complete').lastTransitionTime));
});

async function untilC(world: KubespecWorld, offset_s: number): Promise<number> {
  const clock = world.clock();
  return world.recall<number>('C') + offset_s * 1000 - clock.now_ms();
}

Then('at C + {int} s Job {string} still exists', async function (this: KubespecWorld, offset: number, name: string) {
  const wait_ms = await untilC(this, offset);
  assert.ok(wait_ms > 0, `C + ${offset} s has already passed`);
  await this.clock().advance(wait_ms);
  assert.ok(await tryGetJob(this, name), `Job "${name}" was deleted before C + ${offset} s`);
});

Then('by C + {int} s Job {string} and its pods no longer exist', async function (this: KubespecWorld, offset: number, name: string) {
  const uid = this.recall<any>(`job ${name}`).metadata.uid;
  let left = '';
  const gone = async () => {
    const job = await tryGetJob(this, name);
    const pods = ownedBy(await list(this, podsPath(this.kube())), uid);
    left = `${job ? `Job (finalizers ${JSON.stringify(job.metadata.finalizers ?? [])}) ` : ''}${pods.map((p) => `${p.metadata.name} ${p.status?.phase} finalizers ${JSON.stringify(p.metadata.finalizers ?? [])}${p.metadata.deletionTimestamp ? ' deleting' : ''}`).join('; ')}`;
    return !job && pods.length === 0;
  };
  // Let the time up to C + offset pass (what it sets off happens along the way), then look.
  const wait_ms = await untilC(this, offset);
  if (wait_ms > 0) await this.clock().advance(wait_ms);
  try {
    await this.eventually(`Job "${name}" and its pods to be gone`, gone, 1);
  } catch (error) {
    throw new Error(`${(error as Error).message}; still there: ${left}`);
  }
});

Then('Job {string} still exists', async function (this: KubespecWorld, name: string) {
  assert.ok(await tryGetJob(this, name), `Job "${name}" is gone`);
});
