/**
 * Steps for the ServiceAccount controller (features/overview/controller-manager.feature
 * SA-DEFAULT): namespaces made by the scenario, and ServiceAccounts the controller should make
 * in them, named "namespace/name". Waits use the target's waiter: virtual time on the
 * reference, real time elsewhere. Namespaces made here are deleted after the scenario.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess } from './api.ts';

function serviceAccountPath(world: KubespecWorld, ref: string): string {
  const [namespace, name, extra] = expandNs(world.kube(), ref).split('/');
  assert.ok(namespace && name && extra === undefined, `name the ServiceAccount as "namespace/name", not "${ref}"`);
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}`;
}

/** Waits until the ServiceAccount exists, then returns it. */
async function eventuallyServiceAccount(world: KubespecWorld, ref: string, seconds: number, accept: (sa: any) => boolean = () => true): Promise<any> {
  const path = serviceAccountPath(world, ref);
  let found: any;
  await world.eventually(`ServiceAccount ${ref}`, async () => {
    const res = await world.kube().request({ method: 'GET', path });
    found = res.status === 200 ? res.json : undefined;
    return found !== undefined && accept(found);
  }, seconds * 1000);
  return found;
}

When('I create Namespace {string}', async function (this: KubespecWorld, rawName: string) {
  const kube = this.kube();
  const name = expandNs(kube, rawName);
  expectSuccess(await kube.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } }), `create Namespace "${name}"`);
  this.onCleanup(() => kube.request({ method: 'DELETE', path: `/api/v1/namespaces/${encodeURIComponent(name)}` }));
});

Then('within {int} seconds ServiceAccount {string} exists', async function (this: KubespecWorld, seconds: number, ref: string) {
  const sa = await eventuallyServiceAccount(this, ref, seconds);
  this.note(`uid of ServiceAccount ${ref}`, sa.metadata.uid);
});

When('I delete ServiceAccount {string}', async function (this: KubespecWorld, ref: string) {
  const path = serviceAccountPath(this, ref);
  const current = expectSuccess(await this.kube().request({ method: 'GET', path }), `get ServiceAccount "${ref}"`);
  this.note(`uid of ServiceAccount ${ref}`, current.metadata.uid);
  expectSuccess(await this.kube().request({ method: 'DELETE', path }), `delete ServiceAccount "${ref}"`);
});

Then('within {int} seconds ServiceAccount {string} exists again with a new uid', async function (this: KubespecWorld, seconds: number, ref: string) {
  const oldUid = this.recall<string>(`uid of ServiceAccount ${ref}`);
  const sa = await eventuallyServiceAccount(this, ref, seconds, (found) => found.metadata.uid !== oldUid);
  assert.notEqual(sa.metadata.uid, oldUid);
});
