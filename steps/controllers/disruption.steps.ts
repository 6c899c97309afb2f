/**
 * Steps about PodDisruptionBudgets and the Eviction API (features/practices/best-practices.feature
 * PRACTICE-PDB-*): a Deployment whose pods really run on kubelets, a budget over them, evictions
 * through `pods/eviction`, and a node drain done the way `kubectl drain` does it (cordon, then an
 * eviction per pod, a refused one retried every 5 s — kubectl/pkg/drain's EvictionPolicy loop)
 * so it runs on virtual time; e2e/jobs.test.ts runs the real `kubectl drain` against serve.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { deployPath, labelsOf, list, mergePatch, nodePath, path, podsPath, recorder } from './support.ts';
import { placedOn, sampled } from './placement.ts';

const pdbPath = (world: KubespecWorld, name?: string) => path(world.kube(), 'policy', 'poddisruptionbudgets', name);
const isReady = (p: any) => !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
const hasLabels = (p: any, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => p.metadata.labels?.[k] === v);

async function passSeconds(world: KubespecWorld, s: number): Promise<void> {
  if (world.session.clock) await world.session.clock.advance(s * 1000);
  else await new Promise((r) => setTimeout(r, s * 1000));
}

Given(/^the web Deployment with (\d+) ready replicas(?:, all on node "([^"]*)")?$/, async function (this: KubespecWorld, replicas: string, onNode?: string) {
  await recorder(this);
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: Number(replicas), selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.9' }] } } } };
  const place = async () => {
    expectSuccess(await this.kube().request({ method: 'POST', path: deployPath(this.kube()), body }), 'create Deployment "web"');
    await sampled(this, `${replicas} ready web pods`, async () => (await list(this, podsPath(this.kube()))).filter((p) => hasLabels(p, { app: 'web' }) && isReady(p) && (!onNode || p.spec?.nodeName === onNode)).length === Number(replicas), 60_000);
  };
  // "All on n1": the other nodes are cordoned while the pods are placed, then opened again.
  if (onNode) await placedOn(this, onNode, place);
  else await place();
});

Given('a PodDisruptionBudget {string} with minAvailable {int} selecting {string}', async function (this: KubespecWorld, name: string, min: number, selector: string) {
  const body = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: min, selector: { matchLabels: labelsOf(selector) } } };
  expectSuccess(await this.kube().request({ method: 'POST', path: pdbPath(this), body }), `create PodDisruptionBudget "${name}"`);
});

Given('within {int} seconds PodDisruptionBudget {string} has status.disruptionsAllowed {int}', async function (this: KubespecWorld, seconds: number, name: string, n: number) {
  let status: any;
  await sampled(this, `PodDisruptionBudget "${name}" to allow ${n}`, async () => {
    status = expectSuccess(await this.kube().request({ method: 'GET', path: pdbPath(this, name) }), `get PodDisruptionBudget "${name}"`).status;
    return status?.disruptionsAllowed === n;
  }, seconds * 1000).catch((e) => assert.fail(`${(e as Error).message}; status: ${JSON.stringify(status)}`));
});

async function evict(world: KubespecWorld, pod: string): Promise<{ status: number; message: string }> {
  const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: world.kube().namespace } };
  const res = await world.kube().request({ method: 'POST', path: `${podsPath(world.kube(), pod)}/eviction`, body });
  return { status: res.status, message: String(res.json?.message ?? res.text) };
}

When(/^I (?:immediately )?evict (?:one|another) pod labelled "([^"]*)"$/, async function (this: KubespecWorld, selector: string) {
  const done = this.recallOr<string[]>('evicted', []);
  const pod = (await list(this, podsPath(this.kube()))).find((p) => hasLabels(p, labelsOf(selector)) && isReady(p) && !done.includes(p.metadata.name));
  assert.ok(pod, `no ready pod labelled ${selector} left to evict`);
  this.note('evicted', [...done, pod.metadata.name]);
  this.note('eviction', await evict(this, pod.metadata.name));
});

Then(/^the eviction is answered (\d+)(?: with a message containing "([^"]*)")?$/, function (this: KubespecWorld, code: string, text?: string) {
  const answer = this.recall<{ status: number; message: string }>('eviction');
  assert.equal(answer.status, Number(code), `eviction answered ${answer.status}: ${answer.message}`);
  if (text) assert.ok(answer.message.includes(text), `message: ${answer.message}`);
});

When(/^node "([^"]*)" is drained as kubectl drain does it, within (\d+) s$/, async function (this: KubespecWorld, node: string, seconds: string) {
  const { pods: watch } = await recorder(this);
  this.note('drain started at event', watch.events.length);
  const deadline = (this.session.clock?.now_ms() ?? Date.now()) + Number(seconds) * 1000;
  const now = () => this.session.clock?.now_ms() ?? Date.now();
  await mergePatch(this, nodePath(this.kube(), node), { spec: { unschedulable: true } }, `cordon ${node}`);
  const victims = (await list(this, podsPath(this.kube()))).filter((p) => p.spec?.nodeName === node && !p.metadata.deletionTimestamp);
  for (const pod of victims) {
    for (;;) {
      const answer = await evict(this, pod.metadata.name);
      if (answer.status === 201 || answer.status === 404) break;
      assert.equal(answer.status, 429, `evicting ${pod.metadata.name}: ${answer.status} ${answer.message}`);
      assert.ok(now() < deadline, `draining ${node}: ${pod.metadata.name} still refused after ${seconds} s: ${answer.message}`);
      await passSeconds(this, 5);
    }
  }
  // kubectl drain then waits for every evicted pod to be gone.
  const uids = new Set(victims.map((p) => p.metadata.uid));
  await sampled(this, `the pods evicted from ${node} to be gone`, async () => !(await list(this, podsPath(this.kube()))).some((p) => uids.has(p.metadata.uid)), Math.max(1, deadline - now()));
});

Then('at every moment of the drain at least {int} pods labelled {string} were Ready', async function (this: KubespecWorld, n: number, selector: string) {
  const { pods: watch } = await recorder(this);
  const from = this.recall<number>('drain started at event');
  const ready = new Set<string>();
  let least = Infinity;
  watch.events.forEach((e, i) => {
    if (!hasLabels(e.object, labelsOf(selector))) return;
    if (e.type !== 'DELETED' && isReady(e.object)) ready.add(e.object.metadata.uid);
    else ready.delete(e.object.metadata.uid);
    if (i >= from) least = Math.min(least, ready.size);
  });
  assert.ok(least !== Infinity, 'no pod event was seen during the drain');
  assert.ok(least >= n, `at one moment of the drain only ${least} pods labelled ${selector} were Ready`);
});

Then('at the end no pod labelled {string} is on node {string}', async function (this: KubespecWorld, selector: string, node: string) {
  const left = (await list(this, podsPath(this.kube()))).filter((p) => hasLabels(p, labelsOf(selector)) && p.spec?.nodeName === node);
  assert.deepEqual(left.map((p) => p.metadata.name), []);
});
