/**
 * Pods for the leader-elected schedulers to place (HA-SCHEDULER-LEADER): plain pods with no
 * node, created through the API; which instance placed them is read from the instances' own
 * write counts (lease.steps.ts).
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';

const podsPath = (world: KubespecWorld) => `/api/v1/namespaces/${world.kube().namespace}/pods`;

When(/^I create (\d+) pods with no node$/, async function (this: KubespecWorld, count: string) {
  const made = this.recallOr<string[]>('pods with no node', []);
  for (let i = 0; i < Number(count); i++) {
    const name = `unplaced-${made.length + 1}`;
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '10m' } } }] } };
    expectSuccess(await this.kube().request({ method: 'POST', path: podsPath(this), body }), `create Pod "${name}"`);
    made.push(name);
  }
  this.note('pods with no node', made);
  this.note('pods with no node, last batch', made.slice(-Number(count)));
});

Then(/^within (\d+) seconds all (\d+) pods are bound$/, async function (this: KubespecWorld, seconds: string, count: string) {
  const names = this.recall<string[]>('pods with no node, last batch');
  assert.equal(names.length, Number(count));
  let unbound: string[] = [];
  await this.eventually(`${count} pods bound`, async () => {
    const items = expectSuccess(await this.kube().request({ method: 'GET', path: podsPath(this) }), 'list pods').items as any[];
    const bound = new Set(items.filter((p) => p.spec?.nodeName).map((p) => p.metadata.name));
    unbound = names.filter((n) => !bound.has(n));
    return unbound.length === 0;
  }, Number(seconds) * 1000).catch((e) => {
    throw new Error(`${(e as Error).message}; unbound: ${unbound.join(', ')}`);
  });
});
