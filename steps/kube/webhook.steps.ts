/**
 * Steps for admission webhooks (features/apiserver/pipeline.feature): a hook on the test webhook
 * server (steps/support/webhook-server.ts), registered with the target through a
 * Mutating/ValidatingWebhookConfiguration whose namespaceSelector confines it to the scenario's
 * namespace, so that it never sees another scenario's requests on a shared cluster.
 *
 * A webhook named "observer" in a feature is "observer.kubespec.test" on the cluster: upstream
 * requires webhook names to be fully qualified, with at least three segments
 * (pkg/apis/admissionregistration/validation/validation.go, validateWebhook).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { webhookServer, type HookBehaviour, type JsonPatchOp, type RegisteredHook } from '../support/webhook-server.ts';
import { expectSuccess } from './api.ts';

type Phase = 'mutating' | 'validating';
export type Kind = 'configmap' | 'pod' | 'serviceaccount' | 'deployment';

const ADMISSION = '/apis/admissionregistration.k8s.io/v1';
const RESOURCES: Record<Kind, { resource: string; kind: string; group?: string }> = {
  configmap: { resource: 'configmaps', kind: 'ConfigMap' },
  pod: { resource: 'pods', kind: 'Pod' },
  serviceaccount: { resource: 'serviceaccounts', kind: 'ServiceAccount' },
  deployment: { resource: 'deployments', kind: 'Deployment', group: 'apps' },
};

export function webhookName(name: string): string {
  return `${name}.kubespec.test`;
}

async function registerWebhook(world: KubespecWorld, phase: Phase, name: string, kind: Kind, behaviour: HookBehaviour): Promise<void> {
  const kube = world.kube();
  const server = await webhookServer();
  const id = `${kube.namespace}/${name}`;
  const hook = server.register(id, behaviour);
  world.onCleanup(async () => server.unregister(id));
  world.note(`webhook ${name}`, hook);
  const configName = `${name}-${kube.namespace}`;
  const collection = `${ADMISSION}/${phase}webhookconfigurations`;
  const body = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name: configName },
    webhooks: [{
      name: webhookName(name),
      clientConfig: { url: hook.url, caBundle: server.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [RESOURCES[kind].group ?? ''], apiVersions: ['v1'], resources: [RESOURCES[kind].resource], scope: 'Namespaced' }],
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': kube.namespace } },
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      timeoutSeconds: 5,
      ...(phase === 'mutating' ? { reinvocationPolicy: 'Never' } : {}),
    }],
  };
  expectSuccess(await kube.request({ method: 'POST', path: collection, body }), `register ${phase} webhook "${name}"`);
  world.onCleanup(() => kube.request({ method: 'DELETE', path: `${collection}/${configName}` }));
}

/** JSON Patch adding one label; `/` and `~` in a key are escaped as RFC 6901 says. */
function addLabel(key: string, value: string): (object: any) => JsonPatchOp[] {
  return (object) => object?.metadata?.labels
    ? [{ op: 'add', path: `/metadata/labels/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, value }]
    : [{ op: 'add', path: '/metadata/labels', value: { [key]: value } }];
}

Given(/^a validating webhook "([^"]*)" that admits every (configmap|pod|serviceaccount) create and records it$/, async function (this: KubespecWorld, name: string, kind: Kind) {
  await registerWebhook(this, 'validating', name, kind, {});
});

Given(/^a validating webhook "([^"]*)" that refuses every (configmap|pod|serviceaccount|deployment) create with message "([^"]*)"$/, async function (this: KubespecWorld, name: string, kind: Kind, message: string) {
  await registerWebhook(this, 'validating', name, kind, { deny: message });
});

Given(/^a mutating webhook "([^"]*)" that adds label "([^"=]*)=([^"]*)" to every (configmap|pod|serviceaccount) create and records it$/, async function (this: KubespecWorld, name: string, key: string, value: string, kind: Kind) {
  await registerWebhook(this, 'mutating', name, kind, { patch: addLabel(key, value) });
});

/** The sidecar a mutating webhook injects: one more container, appended (JSON Patch "add" at "/-"). */
Given('a mutating webhook {string} that adds a container named {string} to every pod create', async function (this: KubespecWorld, name: string, container: string) {
  await registerWebhook(this, 'mutating', name, 'pod', { patch: () => [{ op: 'add', path: '/spec/containers/-', value: { name: container, image: 'registry.k8s.io/pause:3.9' } }] });
});

export function creates(world: KubespecWorld, name: string, kind: Kind) {
  const hook = world.recall<RegisteredHook>(`webhook ${name}`);
  return hook.records.filter((r) => r.operation === 'CREATE' && r.kind?.kind === RESOURCES[kind].kind);
}

Then(/^webhook "([^"]*)" has recorded exactly (\d+) (configmap|pod|serviceaccount) creates?$/, function (this: KubespecWorld, name: string, count: string, kind: Kind) {
  // Zero alone also passes when the webhook never matched anything: say it with a positive control.
  assert.ok(Number(count) > 0, `"exactly 0" proves nothing on its own: use 'webhook "${name}" has recorded no ${kind} create, though it records the client's create of ConfigMap "…"'`);
  const seen = creates(this, name, kind);
  assert.equal(seen.length, Number(count), `webhook "${name}" saw: ${JSON.stringify(seen.map((r) => r.object?.metadata?.name))}`);
});

Then('the configmap recorded by webhook {string} has label {string}', function (this: KubespecWorld, name: string, label: string) {
  const [key, value] = label.split('=') as [string, string];
  const seen = creates(this, name, 'configmap');
  assert.equal(seen.length, 1, `webhook "${name}" should have seen one configmap create, saw ${seen.length}`);
  assert.equal(seen[0]!.object?.metadata?.labels?.[key], value, `labels the webhook saw: ${JSON.stringify(seen[0]!.object?.metadata?.labels)}`);
});

// The positive control beside a "none": the same webhook, in the same scenario, does see an
// ordinary create — so its silence about the earlier request means it was not called, not that
// it was never reachable or never matched.
Then(/^webhook "([^"]*)" has recorded no configmap create, though it records the client's create of ConfigMap "([^"]*)"$/, async function (this: KubespecWorld, name: string, control: string) {
  const before = creates(this, name, 'configmap');
  assert.deepEqual(before.map((r) => r.object?.metadata?.name), [], `webhook "${name}" saw creates it should not have`);
  const kube = this.kube();
  const res = await kube.request({ method: 'POST', path: `/api/v1/namespaces/${kube.namespace}/configmaps`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: control } } });
  expectSuccess(res, `the control create of ConfigMap "${control}"`);
  const after = creates(this, name, 'configmap').map((r) => r.object?.metadata?.name);
  assert.deepEqual(after, [control], `webhook "${name}" should have recorded exactly the control create of "${control}"`);
});

// A gate: the webhook answers nothing until the scenario releases it, so the requests it holds
// stay in flight on the API server.
Given(/^a validating webhook "([^"]*)" that holds every configmap create until released$/, async function (this: KubespecWorld, name: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  this.note(`gate ${name}`, release);
  this.onCleanup(async () => release()); // never leave a request hanging past the scenario
  await registerWebhook(this, 'validating', name, 'configmap', { hold: () => gate });
});

When('webhook {string} releases the held creates', function (this: KubespecWorld, name: string) {
  this.recall<() => void>(`gate ${name}`)();
});

// ---- a TokenReview service for webhook token authentication (PIPE-AUTHN-EXTERNAL) ----------------

Given('a TokenReview service {string} that authenticates token {string} as user {string} in group {string}', async function (this: KubespecWorld, name: string, token: string, user: string, group: string) {
  const kube = this.kube();
  assert.ok(kube.configureTokenWebhook, 'this target declares kube.authn.webhook but offers no configureTokenWebhook()');
  const server = await webhookServer();
  const id = `${kube.namespace}/token-${name}`;
  const hook = server.register(id, { tokenReview: (t) => (t === token ? { username: user, uid: `${user}-uid`, groups: [group] } : undefined) });
  this.onCleanup(async () => server.unregister(id));
  this.note(`token service ${name}`, hook);
  await kube.configureTokenWebhook({ url: hook.url, caBundle: server.caBundle });
});

Then('TokenReview service {string} was asked about token {string}', function (this: KubespecWorld, name: string, token: string) {
  const hook = this.recall<RegisteredHook>(`token service ${name}`);
  const reviews = hook.records as unknown as Array<{ apiVersion?: string; kind?: string; spec?: { token?: string } }>;
  assert.ok(reviews.some((r) => r.kind === 'TokenReview' && r.apiVersion === 'authentication.k8s.io/v1' && r.spec?.token === token), `reviews the service got: ${JSON.stringify(reviews.map((r) => r.spec?.token))}`);
});
