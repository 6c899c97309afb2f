import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import nock from 'nock';
import type { KubeFacet } from '../../contract/contract.ts';
import { KubeHttpClient } from './http-client.ts';
import { Reflector } from './reflector.ts';

const SERVER = 'http://kube.test:6443';
const PATH = '/api/v1/namespaces/x/configmaps';
const cm = (name: string, rv: string) => ({ kind: 'ConfigMap', metadata: { name, namespace: 'x', resourceVersion: rv } });
const expired = { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 5 (9)' };

function facet(): KubeFacet {
  const client = new KubeHttpClient({ server: SERVER });
  return { namespace: 'x', request: (r) => client.request(r), watch: (p) => client.watch(p) };
}

async function settle(reflector: Reflector): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setImmediate(r));
    await reflector.sync();
  }
}

afterEach(() => nock.cleanAll());

test('a watch answered with HTTP 410 Expired makes the reflector list again and resume from the new list', async () => {
  nock(SERVER)
    .get(PATH).reply(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [cm('a', '3')] })
    .get(`${PATH}?watch=true&resourceVersion=5&allowWatchBookmarks=true`).reply(410, expired)
    .get(PATH).reply(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '9' }, items: [cm('b', '8')] })
    .get(`${PATH}?watch=true&resourceVersion=9&allowWatchBookmarks=true`).reply(200, `${JSON.stringify({ type: 'ADDED', object: cm('c', '10') })}\n`);
  const reflector = new Reflector(facet(), PATH);
  await reflector.list();
  await reflector.watchFromLast();
  await settle(reflector);
  assert.equal(reflector.log.expired, 1);
  assert.equal(reflector.log.lists, 2);
  assert.deepEqual([...reflector.cache.keys()].sort(), ['x/b', 'x/c']);
  assert.equal(reflector.log.lastResourceVersion, '10');
});

test('an ERROR event carrying a 410 Expired Status is handled like an HTTP 410', async () => {
  nock(SERVER)
    .get(PATH).reply(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [] })
    .get(`${PATH}?watch=true&resourceVersion=5&allowWatchBookmarks=true`).reply(200, `${JSON.stringify({ type: 'ERROR', object: expired })}\n`)
    .get(PATH).reply(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '9' }, items: [cm('b', '8')] })
    .get(`${PATH}?watch=true&resourceVersion=9&allowWatchBookmarks=true`).reply(200, '');
  const reflector = new Reflector(facet(), PATH);
  await reflector.list();
  await reflector.watchFromLast();
  await settle(reflector);
  assert.equal(reflector.log.expired, 1);
  assert.deepEqual([...reflector.cache.keys()], ['x/b']);
});

test('an ERROR event that is not an expiry is reported, not swallowed', async () => {
  const forbidden = { kind: 'Status', code: 403, reason: 'Forbidden', message: 'no' };
  nock(SERVER)
    .get(PATH).reply(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [] })
    .get(`${PATH}?watch=true&resourceVersion=5&allowWatchBookmarks=true`).reply(200, `${JSON.stringify({ type: 'ERROR', object: forbidden })}\n`);
  const reflector = new Reflector(facet(), PATH);
  await reflector.list();
  await reflector.watchFromLast();
  await assert.rejects(async () => settle(reflector), /not an expiry/);
});

test('ADDED, MODIFIED and DELETED events keep the cache equal to the server', async () => {
  const lines = [
    { type: 'ADDED', object: cm('b', '6') },
    { type: 'MODIFIED', object: cm('a', '7') },
    { type: 'DELETED', object: cm('b', '8') },
    { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '12' } } },
  ].map((e) => JSON.stringify(e)).join('\n');
  nock(SERVER)
    .get(PATH).reply(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [cm('a', '3')] })
    .get(`${PATH}?watch=true&resourceVersion=5&allowWatchBookmarks=true`).reply(200, `${lines}\n`);
  const reflector = new Reflector(facet(), PATH);
  await reflector.list();
  await reflector.watchFromLast();
  await settle(reflector);
  assert.deepEqual([...reflector.cache.keys()], ['x/a']);
  assert.equal(reflector.cache.get('x/a').metadata.resourceVersion, '7');
  assert.equal(reflector.log.lastResourceVersion, '12');
});
