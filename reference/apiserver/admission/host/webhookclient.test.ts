import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdmissionDenied } from '../../pipeline.ts';
import { createCa, issueServerCert, type CertAndKey } from '../../pki/host/openssl.ts';
import { httpWebhookCaller } from './webhookclient.ts';
import { mutatingWebhookPlugin, validatingWebhookPlugin } from '../webhook/dispatcher.ts';
import type { WebhookConfiguration } from '../webhook/types.ts';
import { podAttrs } from '../testutil.ts';

let ca: CertAndKey;
let https: Server;
let http: Server;
let httpsUrl: string;
let httpUrl: string;
const timers = new Set<NodeJS.Timeout>();

/** The webhook: denies pods using :latest, labels the rest, and stalls on /slow. */
function handler(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (req.url?.startsWith('/slow')) {
      timers.add(setTimeout(() => res.end(), 3000));
      return;
    }
    const image: string = review.request.object.spec.containers[0].image;
    const response = image.endsWith(':latest')
      ? { uid: review.request.uid, allowed: false, status: { code: 403, message: 'images must not use :latest' } }
      : {
          uid: review.request.uid,
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { checked: req.url?.split('?')[0] ?? '' } }])).toString('base64'),
        };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
  });
}

before(async () => {
  ca = await createCa();
  const serving = await issueServerCert(ca);
  https = createHttpsServer({ key: serving.keyPem, cert: serving.certPem }, handler);
  http = createHttpServer(handler);
  await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  httpsUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

after(async () => {
  for (const t of timers) clearTimeout(t);
  https.closeAllConnections();
  http.closeAllConnections();
  await new Promise<void>((r) => https.close(() => r()));
  await new Promise<void>((r) => http.close(() => r()));
});

function config(url: string, extra: Record<string, unknown> = {}): WebhookConfiguration {
  return {
    metadata: { name: 'images' },
    webhooks: [
      {
        name: 'images.example.com',
        clientConfig: { url, caBundle: Buffer.from(ca.certPem).toString('base64') },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        ...extra,
      },
    ],
  };
}

function plugins(cfg: WebhookConfiguration) {
  let n = 0;
  const opts = {
    lister: { mutatingWebhookConfigurations: () => [cfg], validatingWebhookConfigurations: () => [cfg], namespaceLabels: () => ({}) },
    call: httpWebhookCaller(),
    newUid: () => `uid-${++n}`,
  };
  return { mutating: mutatingWebhookPlugin(opts), validating: validatingWebhookPlugin(opts) };
}

const pod = (image: string) => ({ metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image }] } });

test('an HTTPS webhook trusted through its caBundle patches the pod', async () => {
  const obj: any = pod('nginx:1.25');
  await plugins(config(`${httpsUrl}/mutate`)).mutating.admit(podAttrs(obj));
  assert.deepEqual(obj.metadata.labels, { checked: '/mutate' });
});

test('an HTTPS webhook denies with its message', async () => {
  await assert.rejects(plugins(config(`${httpsUrl}/validate`)).validating.validate(podAttrs(pod('nginx:latest'))), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.message, 'admission webhook "images.example.com" denied the request: images must not use :latest');
    assert.equal(e.code, 403);
    return true;
  });
});

test('a plain HTTP webhook URL works too', async () => {
  const obj: any = pod('nginx:1.25');
  await plugins(config(`${httpUrl}/mutate`)).mutating.admit(podAttrs(obj));
  assert.equal(obj.metadata.labels.checked, '/mutate');
});

test('an HTTPS webhook whose certificate the caBundle does not vouch for is a call failure', async () => {
  const other = await createCa({ commonName: 'other' });
  const cfg = config(`${httpsUrl}/validate`);
  cfg.webhooks![0]!.clientConfig.caBundle = Buffer.from(other.certPem).toString('base64');
  await assert.rejects(plugins(cfg).validating.validate(podAttrs(pod('nginx:1'))), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.code, 500);
    assert.match(e.message, /^Internal error occurred: failed calling webhook "images.example.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/validate\?timeout=10s": /);
    return true;
  });
});

test('a webhook slower than timeoutSeconds fails closed, or open with failurePolicy Ignore', { timeout: 10_000 }, async () => {
  const t0 = performance.now();
  await assert.rejects(
    plugins(config(`${httpsUrl}/slow`, { timeoutSeconds: 1 })).validating.validate(podAttrs(pod('nginx:1'))),
    /context deadline exceeded/,
  );
  const elapsed_ms = performance.now() - t0;
  assert.ok(elapsed_ms >= 900 && elapsed_ms < 2500, `gave up after ${elapsed_ms} ms`);
  await plugins(config(`${httpsUrl}/slow`, { timeoutSeconds: 1, failurePolicy: 'Ignore' })).validating.validate(podAttrs(pod('nginx:1')));
});
