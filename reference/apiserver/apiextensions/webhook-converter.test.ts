import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertByWebhook, type ConversionHost } from './webhook-converter.ts';
import type { WebhookCall } from '../admission/webhook/types.ts';
import { ApiError } from '../status.ts';

const WEBHOOK = { clientConfig: { url: 'https://hook.test/convert' }, conversionReviewVersions: ['v1'] };
const stored = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { a: '1' } }, spec: { size: 1 } });

/** A host whose webhook answers with `respond(request)`; the calls are recorded. */
function host(respond: (request: any) => unknown, calls: WebhookCall[] = []): ConversionHost {
  return {
    newUid: () => 'review-1',
    call: async (call) => {
      calls.push(call);
      return { status: 200, body: JSON.stringify(respond(JSON.parse(call.body).request)) };
    },
  };
}

/** What a correct webhook does: move spec.size to spec.replicas and set the desired apiVersion. */
function goodAnswer(request: any): unknown {
  const convertedObjects = request.objects.map((o: any) => ({ ...o, apiVersion: request.desiredAPIVersion, spec: { replicas: o.spec.size } }));
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: request.uid, convertedObjects, result: { status: 'Success' } } };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `not an ApiError: ${e}`);
    return e;
  }
  assert.fail('the conversion succeeded');
}

test('objects go in one v1 ConversionReview and come back converted, metadata kept', async () => {
  const calls: WebhookCall[] = [];
  const out = await convertByWebhook(WEBHOOK, [stored('a'), stored('b')], 'example.com/v2', host(goodAnswer, calls));
  assert.equal(calls.length, 1);
  const review = JSON.parse(calls[0]!.body);
  assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
  assert.equal(review.kind, 'ConversionReview');
  assert.deepEqual({ uid: review.request.uid, desired: review.request.desiredAPIVersion, n: review.request.objects.length }, { uid: 'review-1', desired: 'example.com/v2', n: 2 });
  assert.deepEqual(out.map((o) => [o.apiVersion, o.metadata.name, o.spec.replicas]), [['example.com/v2', 'a', 1], ['example.com/v2', 'b', 1]]);
});

test('a response for another uid fails the conversion with 500 and upstream\'s message', async () => {
  const e = await failure(convertByWebhook(WEBHOOK, [stored('a')], 'example.com/v2', host((r) => ({ ...(goodAnswer(r) as any), response: { ...(goodAnswer(r) as any).response, uid: 'other' } }))));
  assert.equal(e.code, 500);
  assert.equal(e.reason, '');
  assert.equal(e.message, 'conversion webhook for example.com/v1, Kind=Widget failed: expected response.uid="review-1", got "other"');
});

test('a converted object in the wrong apiVersion, or renamed, or too few objects, is refused', async () => {
  const wrongVersion = await failure(convertByWebhook(WEBHOOK, [stored('a')], 'example.com/v2', host((r) => {
    const a = goodAnswer(r) as any;
    a.response.convertedObjects[0].apiVersion = 'example.com/v1';
    return a;
  })));
  assert.match(wrongVersion.message, /returned invalid object at index 0: invalid groupVersion \(expected example\.com\/v2, received example\.com\/v1\)/);
  const renamed = await failure(convertByWebhook(WEBHOOK, [stored('a')], 'example.com/v2', host((r) => {
    const a = goodAnswer(r) as any;
    a.response.convertedObjects[0].metadata = { ...a.response.convertedObjects[0].metadata, name: 'z' };
    return a;
  })));
  assert.match(renamed.message, /returned invalid object: must have the same name: a != z/);
  const short = await failure(convertByWebhook(WEBHOOK, [stored('a'), stored('b')], 'example.com/v2', host((r) => {
    const a = goodAnswer(r) as any;
    a.response.convertedObjects.pop();
    return a;
  })));
  assert.equal(short.message, 'conversion webhook for example.com/v1, Kind=Widget returned 1 objects, expected 2');
});

test('a failed result and an unreachable webhook fail the conversion', async () => {
  const refused = await failure(convertByWebhook(WEBHOOK, [stored('a')], 'example.com/v2', host((r) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: r.uid, result: { status: 'Failure', message: 'cannot convert' } } }))));
  assert.equal(refused.message, 'conversion webhook for example.com/v1, Kind=Widget failed: cannot convert');
  const down: ConversionHost = { newUid: () => 'u', call: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')) };
  const e = await failure(convertByWebhook(WEBHOOK, [stored('a')], 'example.com/v2', down));
  assert.equal(e.message, 'conversion webhook for example.com/v1, Kind=Widget failed: Post "https://hook.test/convert": connect ECONNREFUSED 127.0.0.1:1');
});

test('labels and annotations come from the webhook, the rest of metadata from the original', async () => {
  const [out] = await convertByWebhook(WEBHOOK, [stored('a')], 'example.com/v2', host((r) => {
    const a = goodAnswer(r) as any;
    a.response.convertedObjects[0].metadata = { name: 'a', namespace: 'ns', uid: 'uid-a', labels: { b: '2' }, resourceVersion: 'changed' };
    return a;
  }));
  assert.deepEqual(out.metadata, { name: 'a', namespace: 'ns', uid: 'uid-a', labels: { b: '2' } });
});
