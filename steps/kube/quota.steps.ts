/**
 * Steps for ResourceQuota admission (PIPE-VALIDATING): a quota sized from what the namespace
 * already holds (a real cluster may publish ConfigMaps such as kube-root-ca.crt in every
 * namespace), creates that retry while a quota controller has not yet reported usage
 * (upstream refuses with "status unknown for quota" until it has), and absence checks.
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath, expectSuccess } from './api.ts';

function quotasPath(world: KubespecWorld): string {
  return `/api/v1/namespaces/${world.kube().namespace}/resourcequotas`;
}

Given('a ResourceQuota {string} in the scenario\'s namespace that leaves room for {int} more ConfigMaps', async function (this: KubespecWorld, name: string, room: number) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: configMapsPath(this.kube()) }), 'list ConfigMaps');
  const hard = { configmaps: String(list.items.length + room) };
  expectSuccess(await this.kube().request({ method: 'POST', path: quotasPath(this), body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard } } }), `create ResourceQuota "${name}"`);
});

Given('ConfigMaps {names} are created while the quota allows them', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '0' } };
    let last = '';
    await this.eventually(`ConfigMap "${name}" is created (${last})`, async () => {
      const res = await this.kube().request({ method: 'POST', path: configMapsPath(this.kube()), body });
      last = `HTTP ${res.status} ${res.text.slice(0, 300)}`;
      if (res.status === 403 && String(res.json?.message).includes('status unknown for quota')) return false;
      expectSuccess(res, `create ConfigMap "${name}"`);
      return true;
    });
  }
});

Then('ConfigMap {string} does not exist', async function (this: KubespecWorld, name: string) {
  const res = await this.kube().request({ method: 'GET', path: configMapsPath(this.kube(), name) });
  assert.equal(res.status, 404, `ConfigMap "${name}" should not exist: HTTP ${res.status} ${res.text.slice(0, 300)}`);
});

Given('a ResourceQuota {string} in the scenario\'s namespace with hard {string}', async function (this: KubespecWorld, name: string, pair: string) {
  const [resource, value] = pair.split('=') as [string, string];
  const body = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { [resource]: value } } };
  expectSuccess(await this.kube().request({ method: 'POST', path: quotasPath(this), body }), `create ResourceQuota "${name}"`);
});

Given('Pod {string} requesting {word} CPU is created while the quota allows it', async function (this: KubespecWorld, name: string, cpu: string) {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu } } }] } };
  const path = `/api/v1/namespaces/${this.kube().namespace}/pods`;
  let last = '';
  await this.eventually(`Pod "${name}" is created (${last})`, async () => {
    const res = await this.kube().request({ method: 'POST', path, body });
    last = `HTTP ${res.status} ${res.text.slice(0, 300)}`;
    if (res.status === 403 && String(res.json?.message).includes('status unknown for quota')) return false;
    expectSuccess(res, `create Pod "${name}"`);
    return true;
  });
});
