import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionDenied } from '../../pipeline.ts';
import { mutatingWebhookPlugin, validatingWebhookPlugin, type WebhookCallEvent } from './dispatcher.ts';
import type { Webhook, WebhookCall, WebhookCaller, WebhookConfiguration } from './types.ts';
import { podAttrs } from '../testutil.ts';

type Reply = (review: any, call: WebhookCall) => { status?: number; response?: any; raw?: string } | Error;

function hook(name: string, extra: Partial<Webhook> = {}): Webhook {
  return {
    name,
    clientConfig: { url: `https://hooks.test/${name}` },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

function harness(configs: WebhookConfiguration[], replies: Record<string, Reply>) {
  const calls: WebhookCall[] = [];
  const events: WebhookCallEvent[] = [];
  let n = 0;
  const call: WebhookCaller = async (c) => {
    calls.push(c);
    const review = JSON.parse(c.body);
    const name = new URL(c.url).pathname.slice(1);
    const out = replies[name]!(review, c);
    if (out instanceof Error) throw out;
    if (out.raw !== undefined) return { status: out.status ?? 200, body: out.raw };
    const body = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...out.response } };
    return { status: out.status ?? 200, body: JSON.stringify(body) };
  };
  const opts = {
    lister: {
      mutatingWebhookConfigurations: () => configs,
      validatingWebhookConfigurations: () => configs,
      namespaceLabels: () => ({ env: 'prod' }),
    },
    call,
    newUid: () => `uid-${++n}`,
    onCall: (e: WebhookCallEvent) => events.push(e),
  };
  return { calls, events, mutating: mutatingWebhookPlugin(opts), validating: validatingWebhookPlugin(opts) };
}

const patch = (ops: unknown) => Buffer.from(JSON.stringify(ops)).toString('base64');
const newPod = () => ({ metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } });

test('a mutating webhook receives an admission.k8s.io/v1 AdmissionReview of the request', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('inject')] }], { inject: () => ({ response: { allowed: true } }) });
  await h.mutating.admit(podAttrs(newPod()));
  const review = JSON.parse(h.calls[0]!.body);
  assert.equal(review.apiVersion, 'admission.k8s.io/v1');
  assert.equal(review.kind, 'AdmissionReview');
  assert.deepEqual(review.request.resource, { group: '', version: 'v1', resource: 'pods' });
  assert.equal(review.request.operation, 'CREATE');
  assert.equal(review.request.namespace, 'default');
  assert.equal(review.request.userInfo.username, 'alice');
  assert.equal(review.request.object.metadata.name, 'web');
  assert.equal(h.calls[0]!.url, 'https://hooks.test/inject?timeout=10s');
  assert.equal(h.calls[0]!.timeout_ms, 10_000);
});

test('a JSONPatch from a mutating webhook is applied to the object in place, then defaults again', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('inject')] }], {
    inject: () => ({
      response: {
        allowed: true,
        patchType: 'JSONPatch',
        patch: patch([
          { op: 'add', path: '/metadata/labels/injected', value: 'yes' },
          { op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'envoy' } },
        ]),
      },
    }),
  });
  const obj: any = newPod();
  await h.mutating.admit(podAttrs(obj));
  assert.equal(obj.metadata.labels.injected, 'yes');
  assert.equal(obj.spec.containers[1].name, 'sidecar');
  assert.equal(obj.spec.containers[1].imagePullPolicy, 'Always', 'the sidecar was defaulted after the patch');
  assert.equal(h.events[0]!.outcome, 'allowed');
  assert.equal(h.events[1]!.outcome, 'patched');
});

test('mutating webhooks run in configuration name order and each sees the previous patch', async () => {
  const seen: string[] = [];
  const h = harness(
    [
      { metadata: { name: 'b-second' }, webhooks: [hook('second')] },
      { metadata: { name: 'a-first' }, webhooks: [hook('first')] },
    ],
    {
      first: () => ({ response: { allowed: true, patchType: 'JSONPatch', patch: patch([{ op: 'add', path: '/metadata/labels/first', value: '1' }]) } }),
      second: (review) => {
        seen.push(review.request.object.metadata.labels.first);
        return { response: { allowed: true } };
      },
    },
  );
  await h.mutating.admit(podAttrs(newPod()));
  assert.deepEqual(seen, ['1']);
});

test('a validating webhook denial carries upstream message and the webhook status code', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('policy.example.com')] }], {
    'policy.example.com': () => ({ response: { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'images must be pinned' } } }),
  });
  await assert.rejects(h.validating.validate(podAttrs(newPod())), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.message, 'admission webhook "policy.example.com" denied the request: images must be pinned');
    assert.equal(e.code, 403);
    assert.equal(e.reason, 'Forbidden');
    assert.equal(e.plugin, 'ValidatingAdmissionWebhook');
    return true;
  });
});

test('a denial without a status is 400 "denied the request without explanation"', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('terse')] }], { terse: () => ({ response: { allowed: false } }) });
  await assert.rejects(h.validating.validate(podAttrs(newPod())), {
    message: 'admission webhook "terse" denied the request without explanation',
    code: 400,
  });
});

test('an unreachable webhook fails the request closed under failurePolicy Fail', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('down')] }], { down: () => new Error('connect ECONNREFUSED 127.0.0.1:9') });
  await assert.rejects(h.validating.validate(podAttrs(newPod())), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.code, 500);
    assert.equal(e.reason, 'InternalError');
    assert.equal(
      e.message,
      'Internal error occurred: failed calling webhook "down": failed to call webhook: Post "https://hooks.test/down?timeout=10s": connect ECONNREFUSED 127.0.0.1:9',
    );
    return true;
  });
});

test('an unreachable webhook is skipped under failurePolicy Ignore', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('down', { failurePolicy: 'Ignore' })] }], {
    down: () => new Error('context deadline exceeded'),
  });
  await h.validating.validate(podAttrs(newPod()));
  assert.equal(h.events[0]!.outcome, 'failed-open');
});

test('a webhook answering with the wrong uid is a call failure', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('liar')] }], {
    liar: () => ({ raw: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'other', allowed: true } }) }),
  });
  await assert.rejects(h.validating.validate(podAttrs(newPod())), /received invalid webhook response: expected response.uid="uid-1", got "other"/);
});

test('timeoutSeconds is passed to the call and in the URL', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('fast', { timeoutSeconds: 2 })] }], { fast: () => ({ response: { allowed: true } }) });
  await h.validating.validate(podAttrs(newPod()));
  assert.equal(h.calls[0]!.timeout_ms, 2000);
  assert.match(h.calls[0]!.url, /\?timeout=2s$/);
});

test('a webhook with a service clientConfig is reported as not supported, under its failurePolicy', async () => {
  const svcHook = hook('svc', { clientConfig: { service: { namespace: 'x', name: 'y' } } });
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [svcHook] }], {});
  await assert.rejects(h.validating.validate(podAttrs(newPod())), /clientConfig.service is not supported/);
});

test('webhooks whose rules, objectSelector or namespaceSelector do not match are not called', async () => {
  const h = harness(
    [
      {
        metadata: { name: 'cfg' },
        webhooks: [
          hook('deploys', { rules: [{ operations: ['*'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] }),
          hook('db-only', { objectSelector: { matchLabels: { app: 'db' } } }),
          hook('dev-only', { namespaceSelector: { matchLabels: { env: 'dev' } } }),
        ],
      },
    ],
    {},
  );
  await h.validating.validate(podAttrs(newPod()));
  assert.equal(h.calls.length, 0);
});

test('a dry-run request is refused by a webhook with side effects', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('effects', { sideEffects: 'Some' })] }], {});
  await assert.rejects(h.validating.validate(podAttrs(newPod(), { dryRun: true })), {
    message: 'admission webhook "effects" does not support dry run',
    code: 400,
  });
});

test('an unsupported patch type fails the call', async () => {
  const h = harness([{ metadata: { name: 'cfg' }, webhooks: [hook('merge')] }], {
    merge: () => ({ response: { allowed: true, patchType: 'MergePatch', patch: patch({}) } }),
  });
  await assert.rejects(h.mutating.admit(podAttrs(newPod())), { message: 'Internal error occurred: failed calling webhook "merge": unsupported patch type "MergePatch"' });
});
