/**
 * The practices' Rules that rest on the scheduler alone (features/practices/): a
 * system-cluster-critical pod preempting a low-priority one. Their wording differs from the
 * scheduler features', so they get their own phrases here, over the same helpers.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { createNode, createPod, finishDeletionWithoutKubelet, getPod, podObject, podPath } from './objects.ts';

Given(/^a cluster with one node "([^"]*)" with allocatable cpu "([^"]*)"(?: and memory "([^"]*)")?$/, async function (this: KubespecWorld, name: string, cpu: string, memory?: string) {
  await createNode(this, name, cpu, memory ?? '8Gi');
});

Given(/^a running pod "([^"]*)" with priorityClassName "([^"]*)" requesting cpu "([^"]*)" on node "([^"]*)"$/, async function (this: KubespecWorld, name: string, pc: string, cpu: string, node: string) {
  await createPod(this, name, `with priorityClassName "${pc}" requesting ${cpu} CPU with spec.nodeName "${node}"`);
});

function path(namespace: string, name = ''): string {
  return `/api/v1/namespaces/${namespace}/pods${name ? `/${name}` : ''}`;
}

When(/^I create pod "([^"]*)" in namespace "([^"]*)" with priorityClassName "([^"]*)" requesting cpu "([^"]*)"$/, async function (this: KubespecWorld, name: string, namespace: string, pc: string, cpu: string) {
  const body = podObject(this, name, `with priorityClassName "${pc}" requesting ${cpu} CPU`);
  const res = await this.kube().request({ method: 'POST', path: path(namespace), body });
  expectSuccess(res, `create Pod ${namespace}/${name}`);
  this.onCleanup(() => this.kube().request({ method: 'DELETE', path: `${path(namespace, name)}?gracePeriodSeconds=0` }));
  this.note(`namespace of ${name}`, namespace);
});

Then(/^within (\d+) seconds pod "([^"]*)" is deleted$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await this.eventually(`pod "${name}" marked for deletion`, async () => {
    const p = await getPod(this, name);
    return !p || Boolean(p.metadata.deletionTimestamp);
  }, Number(seconds) * 1000);
  await finishDeletionWithoutKubelet(this, podPath(this, name));
  await this.eventually(`pod "${name}" gone`, async () => !(await getPod(this, name)), Number(seconds) * 1000);
});

Then(/^pod "([^"]*)" has status\.nominatedNodeName "([^"]*)" or spec\.nodeName "([^"]*)"$/, async function (this: KubespecWorld, name: string, nominated: string, bound: string) {
  const p = await getPod(this, name);
  assert.ok(p?.status?.nominatedNodeName === nominated || p?.spec?.nodeName === bound, `pod "${name}": ${JSON.stringify({ nominated: p?.status?.nominatedNodeName, node: p?.spec?.nodeName })}`);
});

// ---- PITFALL-NO-REQUESTS: the scheduler fits pods by their requests only ---------------------

When(/^I create (\d+) pods with no resource requests$/, async function (this: KubespecWorld, count: string) {
  const names = Array.from({ length: Number(count) }, (_, i) => `no-requests-${i + 1}`);
  for (const name of names) await createPod(this, name);
  this.note('pods without requests', names);
});

Then(/^within (\d+) seconds all (\d+) pods are bound to node "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, count: string, node: string) {
  const names = this.recall<string[]>('pods without requests');
  assert.equal(names.length, Number(count));
  let where: string[] = [];
  await this.eventually(`${count} pods bound`, async () => (where = await Promise.all(names.map(async (n) => (await getPod(this, n))?.spec?.nodeName ?? ''))).every((w) => w !== ''), Number(seconds) * 1000).catch((e) => {
    throw new Error(`${(e as Error).message}: bound to ${JSON.stringify(where)}`);
  });
  assert.deepEqual([...new Set(where)], [node]);
});

When(/^I create pod "([^"]*)" requesting cpu "([^"]*)"$/, async function (this: KubespecWorld, name: string, cpu: string) {
  await createPod(this, name, `requesting ${cpu} CPU`);
});

When(/^I create pod "([^"]*)" whose container "([^"]*)" has limits cpu "([^"]*)" and memory "([^"]*)" and no requests$/, async function (this: KubespecWorld, name: string, container: string, cpu: string, memory: string) {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: container, image: 'registry.k8s.io/pause:3.9', resources: { limits: { cpu, memory } } }] } };
  expectSuccess(await this.kube().request({ method: 'POST', path: podPath(this), body }), `create Pod "${name}"`);
});

Then(/^pod "([^"]*)" has container "([^"]*)" requests cpu "([^"]*)" and memory "([^"]*)"$/, async function (this: KubespecWorld, name: string, container: string, cpu: string, memory: string) {
  const c = ((await getPod(this, name))?.spec?.containers ?? []).find((x: any) => x.name === container);
  assert.deepEqual(c?.resources?.requests, { cpu, memory });
});
