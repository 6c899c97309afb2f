import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUrl } from './core.ts';

const viaUrl = (raw: string) => new URL(raw.startsWith('/') ? raw : `/${raw}`, 'http://apiserver.invalid');

test('a request target reads as WHATWG URL parsing reads it, on the hand-split path and off it', () => {
  const targets = [
    '/api/v1/namespaces/bench/configmaps',
    '/api/v1/namespaces/bench/configmaps?watch=true&resourceVersion=12',
    '/apis/apps/v1/deployments?labelSelector=app%3Dweb%2Ctier+in+(a,b)&limit=5',
    '/api/v1/pods?fieldSelector=spec.nodeName=node-1&x=%zz&y=a+b&y=c',
    '/api/v1/namespaces/a/../b/pods',
    '/api/./v1/pods',
    '/api/v1/pods/..',
    '/api/v1/a b',
    '/api/v1/pods?q="x"&r=<y>&s=\'z\'',
    '/api/v1/pods?a=b#frag',
    '/api/v1/pods?é=ü',
    '//evil/api',
    'api/v1/pods',
    '/api//v1/pods',
    '/api/v1/pods?',
    '/api/v1/pods?&&a',
  ];
  for (const raw of targets) {
    const got = parseUrl(raw);
    const want = viaUrl(raw);
    assert.equal(got.pathname, want.pathname, raw);
    assert.deepEqual([...got.searchParams], [...want.searchParams], raw);
  }
});
