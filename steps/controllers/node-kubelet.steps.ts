/**
 * Steps about nodes with real kubelets behind them (features/controllers/node.feature NODE-COND-READY,
 * NODE-RESCHEDULE; practices PDB scenarios): kubelets started by the target, a node powered off
 * (`cluster.nodes`: stopNode), workloads placed on one node by cordoning the others meanwhile.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { get, labelsOf, list, nodePath, ownedBy, podsPath, rsPath } from './support.ts';
import { placedOn, sampled } from './placement.ts';

const isReady = (p: any) => !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

async function passSeconds(world: KubespecWorld, s: number): Promise<void> {
  if (world.session.clock) await world.session.clock.advance(s * 1000);
  else await new Promise((r) => setTimeout(r, s * 1000));
}

Given(/^a cluster with the controllers running and kubelets on nodes (.+)$/, async function (this: KubespecWorld, names: string) {
  assert.ok([...this.target.capabilities].some((c) => c.startsWith('controllers.')), 'this target runs no controllers');
  const nodes = [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  for (const node of nodes) await this.nodes().ensureNode(node);
  this.note('kubelet nodes', nodes);
});

Given('ReplicaSet {string} exists with {int} replicas, both on Node {string}', async function (this: KubespecWorld, name: string, replicas: number, node: string) {
  const kube = this.kube();
  const body = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }] } } } };
  await placedOn(this, node, async () => {
    const rs = expectSuccess(await kube.request({ method: 'POST', path: rsPath(kube), body }), `create ReplicaSet "${name}"`);
    await sampled(this, `${replicas} ready pods of ReplicaSet "${name}" on ${node}`, async () =>
      ownedBy(await list(this, podsPath(kube)), rs.metadata.uid).filter((p) => isReady(p) && p.spec?.nodeName === node).length === replicas, 60_000);
  });
});

When('Node {string} is stopped', async function (this: KubespecWorld, node: string) {
  const nodes = this.nodes();
  assert.ok(nodes.stopNode, 'this target declares cluster.nodes but offers no stopNode()');
  await nodes.stopNode(node);
});

Then('ReplicaSet {string} owns {int} pods that are not marked for deletion, both on Node {string}', async function (this: KubespecWorld, name: string, n: number, node: string) {
  const rs = await get(this, rsPath(this.kube(), name), `ReplicaSet "${name}"`);
  const live = ownedBy(await list(this, podsPath(this.kube())), rs.metadata.uid).filter((p) => !p.metadata.deletionTimestamp);
  assert.deepEqual(live.map((p) => p.spec?.nodeName), Array(n).fill(node), `live pods: ${live.map((p) => `${p.metadata.name}@${p.spec?.nodeName}`).join(', ')}`);
});

Then('after {int} minutes Node {string} still has condition Ready=True', async function (this: KubespecWorld, minutes: number, name: string) {
  await passSeconds(this, minutes * 60);
  const node = await get(this, nodePath(this.kube(), name), `Node "${name}"`);
  const ready = (node.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
  assert.equal(ready?.status, 'True', `Ready condition: ${JSON.stringify(ready)}`);
});

Then('Node {string} has no taint with key {string} or {string}', async function (this: KubespecWorld, name: string, a: string, b: string) {
  const node = await get(this, nodePath(this.kube(), name), `Node "${name}"`);
  const found = (node.spec?.taints ?? []).filter((t: any) => t.key === a || t.key === b);
  assert.deepEqual(found, []);
});

Then('a pod created requesting {int}m CPU is on Node {string} within {int} s', async function (this: KubespecWorld, milli: number, node: string, seconds: number) {
  const kube = this.kube();
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe-placement', labels: labelsOf('app=placement') },
    spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: `${milli}m` } } }] } };
  expectSuccess(await kube.request({ method: 'POST', path: podsPath(kube), body }), 'create the pod');
  let at: string | undefined;
  await sampled(this, `the pod to be bound to ${node}`, async () => (at = (await get(this, podsPath(kube, 'probe-placement'), 'the pod')).spec?.nodeName) === node, seconds * 1000)
    .catch((e) => assert.fail(`${(e as Error).message}; it is on "${at ?? ''}"`));
});
