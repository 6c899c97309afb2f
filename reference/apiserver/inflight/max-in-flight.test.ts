import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MaxInFlight } from './max-in-flight.ts';
import type { RequestInfo } from '../request-info.ts';

const info = (verb: string, subresource = ''): RequestInfo => ({
  isResourceRequest: true, path: '/api/v1/namespaces/ns/configmaps', verb, apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'configmaps', subresource, name: '', parts: [],
});
const q = new URLSearchParams();

test('a mutating request beyond the mutating seats is refused 429 with Retry-After 1, and a released seat is reused', () => {
  const limit = new MaxInFlight({ mutating: 2, readOnly: 5 });
  const a = limit.admit(info('create'), q, ['system:authenticated']);
  const b = limit.admit(info('update'), q, ['system:authenticated']);
  const c = limit.admit(info('delete'), q, ['system:authenticated']);
  assert.ok('release' in a && 'release' in b);
  assert.ok('refused' in c);
  assert.equal(c.refused.status, 429);
  assert.equal(c.refused.headers?.['retry-after'], '1');
  assert.equal(c.refused.body, 'Too many requests, please try again later.\n');
  a.release();
  a.release(); // twice frees one seat only
  assert.ok('release' in limit.admit(info('create'), q, []));
  assert.ok('refused' in limit.admit(info('create'), q, []));
});

test('read-only requests have their own pool: a full mutating pool does not refuse a get', () => {
  const limit = new MaxInFlight({ mutating: 1, readOnly: 1 });
  limit.admit(info('create'), q, []);
  assert.ok('release' in limit.admit(info('get'), q, []));
  assert.ok('refused' in limit.admit(info('list'), q, []));
});

test('system:masters and long-running requests (watch, exec, a followed log) take no seat', () => {
  const limit = new MaxInFlight({ mutating: 0, readOnly: 0 });
  assert.ok('release' in limit.admit(info('create'), q, ['system:masters']));
  assert.ok('release' in limit.admit(info('watch'), q, []));
  assert.ok('release' in limit.admit(info('create', 'exec'), q, []));
  assert.ok('release' in limit.admit(info('get', 'log'), new URLSearchParams('follow=true'), []));
  assert.ok('refused' in limit.admit(info('get', 'log'), q, []));
  assert.deepEqual(limit.inFlight(), { mutating: 0, readOnly: 0 });
});
