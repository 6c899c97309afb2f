import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import nock from 'nock';
import { KubeHttpClient } from './http-client.ts';
import { retryOnConflict, withBackoff, type RetryPolicy } from './retry.ts';

const SERVER = 'http://kube.test:6443';
const status = (code: number, reason: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, ...extra });

function recordingPolicy(slept: number[]): RetryPolicy {
  return { attempts: 4, initialBackoff_ms: 100, maxBackoff_ms: 250, sleep: async (ms) => void slept.push(ms) };
}

afterEach(() => nock.cleanAll());

test('a 429 and then a 503 are retried with growing backoff until the request succeeds', async () => {
  nock(SERVER).get('/api/v1/pods').reply(429, status(429, 'TooManyRequests'))
    .get('/api/v1/pods').reply(503, status(503, 'ServiceUnavailable'))
    .get('/api/v1/pods').reply(200, { kind: 'PodList', items: [] });
  const client = new KubeHttpClient({ server: SERVER });
  const slept: number[] = [];
  const res = await withBackoff((r) => client.request(r), { method: 'GET', path: '/api/v1/pods' }, recordingPolicy(slept));
  assert.equal(res.status, 200);
  assert.deepEqual(slept, [100, 200]);
});

test('Retry-After from the server is honoured over the computed backoff', async () => {
  nock(SERVER).get('/api/v1/pods').reply(429, status(429, 'TooManyRequests'), { 'Retry-After': '2' })
    .get('/api/v1/pods').reply(200, { kind: 'PodList', items: [] });
  const slept: number[] = [];
  const client = new KubeHttpClient({ server: SERVER });
  await withBackoff((r) => client.request(r), { method: 'GET', path: '/api/v1/pods' }, recordingPolicy(slept));
  assert.deepEqual(slept, [2000]);
});

test('backoff gives up after the policy\'s attempts and returns the last answer', async () => {
  nock(SERVER).get('/api/v1/pods').times(4).reply(500, status(500, 'InternalError'));
  const slept: number[] = [];
  const client = new KubeHttpClient({ server: SERVER });
  const res = await withBackoff((r) => client.request(r), { method: 'GET', path: '/api/v1/pods' }, recordingPolicy(slept));
  assert.equal(res.status, 500);
  assert.deepEqual(slept, [100, 200, 250]);
});

test('a client error such as 404 is not retried', async () => {
  nock(SERVER).get('/api/v1/namespaces/x/pods/p').reply(404, status(404, 'NotFound'));
  const slept: number[] = [];
  const client = new KubeHttpClient({ server: SERVER });
  const res = await withBackoff((r) => client.request(r), { method: 'GET', path: '/api/v1/namespaces/x/pods/p' }, recordingPolicy(slept));
  assert.equal(res.status, 404);
  assert.deepEqual(slept, []);
});

test('a 409 Conflict re-runs the read-modify-write, which then succeeds on fresh state', async () => {
  nock(SERVER)
    .get('/api/v1/namespaces/x/configmaps/c').reply(200, { metadata: { name: 'c', resourceVersion: '5' } })
    .put('/api/v1/namespaces/x/configmaps/c').reply(409, status(409, 'Conflict'))
    .get('/api/v1/namespaces/x/configmaps/c').reply(200, { metadata: { name: 'c', resourceVersion: '7' } })
    .put('/api/v1/namespaces/x/configmaps/c', (body) => body.metadata.resourceVersion === '7').reply(200, { metadata: { name: 'c', resourceVersion: '8' } });
  const client = new KubeHttpClient({ server: SERVER });
  const path = '/api/v1/namespaces/x/configmaps/c';
  const res = await retryOnConflict(async () => {
    const current = (await client.request({ method: 'GET', path })).json;
    return client.request({ method: 'PUT', path, body: { ...current, data: { k: 'v' } } });
  });
  assert.equal(res.status, 200);
  assert.equal(res.json.metadata.resourceVersion, '8');
  assert.ok(nock.isDone());
});

test('a 409 AlreadyExists is not a conflict to retry', async () => {
  nock(SERVER).post('/api/v1/namespaces/x/configmaps').reply(409, status(409, 'AlreadyExists'));
  const client = new KubeHttpClient({ server: SERVER });
  let calls = 0;
  const res = await retryOnConflict(() => (calls++, client.request({ method: 'POST', path: '/api/v1/namespaces/x/configmaps', body: {} })));
  assert.equal(res.status, 409);
  assert.equal(calls, 1);
});
