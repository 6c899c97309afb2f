/**
 * Steps for Pod Security admission (features/apiserver/pod-security.feature): namespace labels,
 * pods at each level, the Warning headers an answer carries, and the audit annotations in the
 * request trace (`kube.audit`).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expandNs, expectSuccess, LAST_RESPONSE, traceSinceMark } from './api.ts';

const PAUSE = 'registry.k8s.io/pause:3.9';

async function createPod(world: KubespecWorld, name: string, spec: any): Promise<void> {
  const kube = world.kube();
  world.note(LAST_RESPONSE, await kube.request({ method: 'POST', path: collectionPath('', 'pods', kube.namespace), body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec } }));
}

function labelNamespace(world: KubespecWorld, key: string, value: string): Promise<KubeResponse> {
  const kube = world.kube();
  return kube.request({ method: 'PATCH', path: `/api/v1/namespaces/${kube.namespace}`, headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: { [key]: value } } } });
}

Given(/^the scenario's namespace has label "([^"]*)" set to "([^"]*)"$/, async function (this: KubespecWorld, key: string, value: string) {
  expectSuccess(await labelNamespace(this, key, value), `label namespace ${key}=${value}`);
});

When(/^the client sets label "([^"]*)" on the scenario's namespace to "([^"]*)"$/, async function (this: KubespecWorld, key: string, value: string) {
  this.note(LAST_RESPONSE, await labelNamespace(this, key, value));
});

When('the client creates a privileged Pod {string} with a hostPath volume {string}', async function (this: KubespecWorld, name: string, volume: string) {
  await createPod(this, name, {
    containers: [{ name: 'c', image: PAUSE, securityContext: { privileged: true }, volumeMounts: [{ name: volume, mountPath: '/host' }] }],
    volumes: [{ name: volume, hostPath: { path: '/' } }],
  });
});

When('the client creates a plain Pod {string}', async function (this: KubespecWorld, name: string) {
  await createPod(this, name, { containers: [{ name: 'c', image: PAUSE }] });
});

When('the client creates a plain Pod {string} on the host network', async function (this: KubespecWorld, name: string) {
  await createPod(this, name, { hostNetwork: true, containers: [{ name: 'c', image: PAUSE }] });
});

When('the client creates a Pod {string} that meets restricted', async function (this: KubespecWorld, name: string) {
  await createPod(this, name, {
    securityContext: { runAsNonRoot: true, runAsUser: 65535, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'c', image: PAUSE, securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
  });
});

When('the client creates a Deployment {string} whose pod template is privileged', async function (this: KubespecWorld, name: string) {
  const kube = this.kube();
  const labels = { app: name };
  const body = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: PAUSE, securityContext: { privileged: true } }] } } },
  };
  this.note(LAST_RESPONSE, await kube.request({ method: 'POST', path: collectionPath('apps', 'deployments', kube.namespace), body }));
});

Then('Pod {string} was not created', async function (this: KubespecWorld, name: string) {
  const kube = this.kube();
  const res = await kube.request({ method: 'GET', path: `${collectionPath('', 'pods', kube.namespace)}/${name}` });
  assert.equal(res.status, 404, `Pod ${name} exists: ${res.text.slice(0, 300)}`);
});

/** The texts of the Warning headers (RFC 7234: `299 - "text"`, several joined by ", "). */
function warnings(res: KubeResponse): string[] {
  const header = res.headers['warning'];
  if (!header) return [];
  return [...header.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

Then('the response carries the warning {string}', function (this: KubespecWorld, text: string) {
  assert.deepEqual(warnings(this.recall<KubeResponse>(LAST_RESPONSE)), [text]);
});

Then('the response carries a warning containing {string}', function (this: KubespecWorld, text: string) {
  const all = warnings(this.recall<KubeResponse>(LAST_RESPONSE));
  const wanted = expandNs(this.kube(), text);
  assert.ok(all.some((w) => w.includes(wanted)), `warnings: ${JSON.stringify(all)}`);
});

Then('the response carries no warning', function (this: KubespecWorld) {
  assert.deepEqual(warnings(this.recall<KubeResponse>(LAST_RESPONSE)), []);
});

Then(/^the last (POST|PUT|PATCH) to "([^"]*)" in the request trace has annotation "([^"]*)" set to '([^']*)'$/, async function (this: KubespecWorld, method: string, rawPath: string, key: string, value: string) {
  const path = expandNs(this.kube(), rawPath);
  const entry = (await traceSinceMark(this)).filter((t) => t.method === method && t.path === path).at(-1);
  assert.ok(entry, `no ${method} ${path} in the request trace`);
  assert.equal(entry.annotations?.[key], value, `annotations: ${JSON.stringify(entry.annotations ?? {})}`);
});
