import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRequest } from '../apiserver/types.ts';
import { ReferenceCluster } from './cluster.ts';
import { VirtualClock } from './virtual-clock.ts';

/** What the bootstrap policy lets each kind of caller do, with nothing bound by anyone else. */
test('with only the bootstrap policy, anonymous callers read health and version, authenticated users also discover APIs and review themselves, and neither reads objects', async () => {
  const c = await ReferenceCluster.start({ seed: 3, clock: new VirtualClock(), secure: { anonymous: true } });
  const status = async (method: string, url: string, clientCert?: ApiRequest['clientCert'], body?: unknown) => {
    const req: ApiRequest = { method, url, headers: { 'content-type': 'application/json' }, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)) };
    if (clientCert) req.clientCert = clientCert;
    return (await c.api.handle(req)).status;
  };
  const jane = { subjectCN: 'jane', subjectO: [] };
  const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } };
  try {
    assert.deepEqual(await Promise.all(['/healthz', '/livez', '/readyz', '/version'].map((u) => status('GET', u))), [200, 200, 200, 200]);
    assert.equal(await status('GET', '/apis'), 403);
    assert.equal(await status('GET', '/apis', jane), 200);
    assert.equal(await status('GET', '/api/v1', jane), 200);
    assert.equal(await status('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', jane, review), 201);
    assert.equal(await status('GET', '/api/v1/namespaces/default/configmaps', jane), 403);
    assert.equal(await status('GET', '/api/v1/namespaces/default/configmaps'), 403);
  } finally {
    await c.stop();
  }
});
