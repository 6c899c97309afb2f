import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from '../testing/harness.ts';
import { decodeObject } from '../storage/codec.ts';
import type { WebhookCall, WebhookCaller } from '../admission/webhook/types.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } };
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2', served: true, storage: false, schema }],
    conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://hook.test/convert' }, conversionReviewVersions: ['v1'] } },
  },
};

/** v1 spec.size <-> v2 spec.replicas, as a conversion webhook would answer; every call recorded. */
function converter(calls: WebhookCall[]): WebhookCaller {
  return async (call) => {
    calls.push(call);
    const { request } = JSON.parse(call.body);
    const toV2 = request.desiredAPIVersion.endsWith('/v2');
    const convertedObjects = request.objects.map((o: any) => ({
      ...o, apiVersion: request.desiredAPIVersion,
      spec: toV2 ? { replicas: o.spec.size } : { size: o.spec.replicas },
    }));
    return { status: 200, body: JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: request.uid, convertedObjects, result: { status: 'Success' } } }) };
  };
}

test('a write at v2 is stored at v1 by the webhook; reads at the storage version never call it', async () => {
  const calls: WebhookCall[] = [];
  const h = await harness({ conversionWebhook: converter(calls) });
  assert.equal((await h.call('POST', CRDS, crd)).status, 201);
  const created = await h.call('POST', '/apis/example.com/v2/namespaces/default/widgets', { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 4 } });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  assert.deepEqual([created.json.apiVersion, created.json.spec], ['example.com/v2', { replicas: 4 }]);
  const stored = decodeObject((await h.backend.get('/registry/example.com/widgets/default/w'))!);
  assert.deepEqual([stored.apiVersion, stored.spec], ['example.com/v1', { size: 4 }]);
  const before = calls.length;
  const atV1 = await h.call('GET', '/apis/example.com/v1/namespaces/default/widgets/w');
  assert.deepEqual([atV1.status, atV1.json.spec], [200, { size: 4 }]);
  assert.equal(calls.length, before, 'a read in the stored version needs no conversion');
});

test('a CRD with strategy Webhook needs a webhook and a ConversionReview version this server knows', async () => {
  const h = await harness();
  const noHook = await h.call('POST', CRDS, { ...crd, spec: { ...crd.spec, conversion: { strategy: 'Webhook' } } });
  assert.equal(noHook.status, 422);
  assert.deepEqual(noHook.json.details.causes.map((c: any) => `${c.reason} ${c.field}`), [
    'FieldValueRequired spec.conversion.webhookClientConfig', 'FieldValueRequired spec.conversion.conversionReviewVersions',
  ]);
  const v3 = await h.call('POST', CRDS, { ...crd, spec: { ...crd.spec, conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://x.test/' }, conversionReviewVersions: ['v3'] } } } });
  assert.equal(v3.status, 422);
  assert.match(v3.json.message, /must include at least one of v1, v1beta1/);
});
