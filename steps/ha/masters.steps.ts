/**
 * Several masters, each running an API server (behind the load balancer), a scheduler and a
 * controller manager, with workers whose kubelets reach the API servers through the load
 * balancer (HA-MULTI-MASTER). Killing a master powers off everything on it.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { componentOfLease } from './support.ts';

const names = (text: string) => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
const readyCondition = (node: any) => (node?.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
const readyOf = (node: any) => readyCondition(node)?.status;

Given(/^an HA cluster with masters (.+) behind a load balancer and worker nodes (.+)$/, async function (this: KubespecWorld, masters: string, workers: string) {
  const machines = await this.ha().machines?.();
  assert.ok(machines, 'this target does not show its machines');
  for (const m of names(masters)) assert.ok(machines.some((x) => x.name === m && x.alive && x.apiServer), `no live master ${m}: ${JSON.stringify(machines)}`);
  for (const w of names(workers)) await this.nodes().ensureNode(w);
  for (const w of names(workers)) {
    await this.eventually(`worker ${w} Ready`, async () => readyOf((await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${w}` })).json) === 'True', 30_000);
  }
  // A Ready condition that flipped (Unknown while unreachable, then True) carries a new lastTransitionTime.
  const since: Record<string, string> = {};
  for (const w of names(workers)) since[w] = readyCondition((await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${w}` })).json)?.lastTransitionTime;
  this.note('workers Ready since', since);
});

Given(/^master "([^"]*)" holds the leases (.+)$/, async function (this: KubespecWorld, master: string, leases: string) {
  const components = names(leases).map(componentOfLease);
  const machines = (await this.ha().machines!()).filter((m) => m.apiServer).map((m) => m.name);
  for (const c of components) await this.ha().start(c, [master]);
  for (const c of components) await this.eventually(`${c} on ${master} leads`, async () => (await this.ha().process(c, master)).leading, 30_000);
  for (const c of components) await this.ha().start(c, machines.filter((m) => m !== master));
});

When(/^master "([^"]*)" is killed$/, async function (this: KubespecWorld, name: string) {
  const kill = this.ha().killMachine;
  assert.ok(kill, 'this target cannot kill machines');
  await kill(name);
});

When(/^I create the web Deployment with (\d+) replicas through the load balancer$/, async function (this: KubespecWorld, replicas: string) {
  const labels = { app: 'web' };
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: Number(replicas), selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.9' }] } } } };
  // The session's API client is pointed at the load balancer.
  expectSuccess(await this.kube().request({ method: 'POST', path: `/apis/apps/v1/namespaces/${this.kube().namespace}/deployments`, body }), 'create Deployment "web"');
});

Then(/^within (\d+) seconds Deployment "([^"]*)" has status\.availableReplicas (\d+)$/, async function (this: KubespecWorld, seconds: string, name: string, replicas: string) {
  let seen: unknown;
  await this.eventually(`Deployment "${name}" available`, async () => {
    const res = await this.kube().request({ method: 'GET', path: `/apis/apps/v1/namespaces/${this.kube().namespace}/deployments/${name}` });
    seen = res.json?.status;
    return res.status === 200 && res.json?.status?.availableReplicas === Number(replicas);
  }, Number(seconds) * 1000).catch((e) => {
    throw new Error(`${(e as Error).message}; status: ${JSON.stringify(seen)}`);
  });
});

Then(/^nodes (.+) stayed Ready throughout$/, async function (this: KubespecWorld, list: string) {
  const since = this.recall<Record<string, string>>('workers Ready since');
  for (const w of names(list)) {
    const ready = readyCondition((await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${w}` })).json);
    assert.equal(ready?.status, 'True', `worker ${w}: ${JSON.stringify(ready)}`);
    assert.equal(ready?.lastTransitionTime, since[w], `worker ${w}'s Ready condition changed meanwhile: ${JSON.stringify(ready)}`);
  }
});
