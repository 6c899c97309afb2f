/**
 * A Service with a selector and the pods it selects (SVC-SELECTOR): the EndpointSlice controller
 * keeps the Service's slices listing the ready pods that match. Needs a scheduler and kubelets
 * to make the pods run and become ready.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expectSuccess } from '../kube/api.ts';

const labelsOf = (text: string) => Object.fromEntries(text.split(',').map((kv) => kv.split('=') as [string, string]));

Given('a Service {string} selecting {string} on port {int}', async function (this: KubespecWorld, name: string, selector: string, port: number) {
  const kube = this.kube();
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: labelsOf(selector), ports: [{ port, targetPort: port, protocol: 'TCP' }] } };
  expectSuccess(await kube.request({ method: 'POST', path: collectionPath('', 'services', kube.namespace), body }), `create Service "${name}"`);
});

Given(/^backend pods ((?:"[^"]+" labelled "[^"]+"(?:, | and )?)+) are running$/, async function (this: KubespecWorld, list: string) {
  const kube = this.kube();
  const pods = [...list.matchAll(/"([^"]+)" labelled "([^"]+)"/g)].map((m) => ({ name: m[1]!, labels: labelsOf(m[2]!) }));
  for (const p of pods) {
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: p.name, labels: p.labels }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }] } };
    expectSuccess(await kube.request({ method: 'POST', path: collectionPath('', 'pods', kube.namespace), body }), `create Pod "${p.name}"`);
  }
  await this.eventually('the backend pods to run', async () => {
    const list = await kube.request({ method: 'GET', path: collectionPath('', 'pods', kube.namespace) });
    return pods.every((p) => list.json?.items?.some((i: any) => i.metadata.name === p.name && i.status?.phase === 'Running'));
  }, 120_000);
});

When('I relabel backend pod {string} to {string}', async function (this: KubespecWorld, name: string, labels: string) {
  const kube = this.kube();
  const path = `${collectionPath('', 'pods', kube.namespace)}/${name}`;
  const pod = expectSuccess(await kube.request({ method: 'GET', path }), `get Pod "${name}"`);
  pod.metadata.labels = labelsOf(labels);
  expectSuccess(await kube.request({ method: 'PUT', path, body: pod }), `relabel Pod "${name}"`);
});

Then('within {int} seconds the EndpointSlices of Service {string} list exactly the pods {string}', async function (this: KubespecWorld, secs: number, service: string, names: string) {
  const kube = this.kube();
  const want = names.split(/,\s*/).sort().join(',');
  let seen = '';
  await this.eventually(`the slices of "${service}" to list ${want} (seen ${seen})`, async () => {
    const res = await kube.request({ method: 'GET', path: `${collectionPath('discovery.k8s.io', 'endpointslices', kube.namespace)}?labelSelector=kubernetes.io%2Fservice-name%3D${service}` });
    seen = (res.json?.items ?? []).flatMap((s: any) => (s.endpoints ?? []).filter((e: any) => e.conditions?.ready !== false).map((e: any) => e.targetRef?.name)).sort().join(',');
    return seen === want;
  }, secs * 1000);
  assert.equal(seen, want);
});
