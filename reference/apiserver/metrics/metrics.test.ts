import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiServerMetrics, reportedVerb } from './metrics.ts';
import type { RequestInfo } from '../request-info.ts';

const info = (verb: string, name = ''): RequestInfo => ({
  isResourceRequest: true, path: '', verb, apiGroup: 'apps', apiVersion: 'v1', namespace: 'ns', resource: 'deployments', subresource: '', name, parts: [],
});

test('a request is counted under upstream labels, with its code, and timed in the latency histogram', () => {
  const m = new ApiServerMetrics();
  m.request('POST', info('create'), 201, 0.03, false);
  m.request('GET', info('get', 'web'), 404, 0.001, false);
  const text = m.render();
  assert.match(text, /^# TYPE apiserver_request_total counter$/m);
  assert.match(text, /^apiserver_request_total\{code="201",component="apiserver",dry_run="",group="apps",resource="deployments",scope="namespace",subresource="",verb="POST",version="v1"\} 1$/m);
  assert.match(text, /^apiserver_request_total\{code="404",[^}]*scope="resource"[^}]*verb="GET"[^}]*\} 1$/m);
  assert.match(text, /^apiserver_request_duration_seconds_bucket\{[^}]*le="0.025"[^}]*verb="POST"[^}]*\} 0$/m);
  assert.match(text, /^apiserver_request_duration_seconds_bucket\{[^}]*le="0.05"[^}]*verb="POST"[^}]*\} 1$/m);
  assert.match(text, /^apiserver_request_duration_seconds_count\{[^}]*verb="POST"[^}]*\} 1$/m);
});

test('watches are counted but not timed; store calls go to etcd_request_duration_seconds', () => {
  const m = new ApiServerMetrics();
  m.request('WATCH', info('watch'), 200, 300, false);
  m.storeCall('create', 'configmaps', 0.002);
  const text = m.render();
  assert.match(text, /apiserver_request_total\{[^}]*verb="WATCH"[^}]*\} 1/);
  assert.doesNotMatch(text, /apiserver_request_duration_seconds_count\{[^}]*verb="WATCH"/);
  assert.match(text, /^etcd_request_duration_seconds_count\{operation="create",type="configmaps"\} 1$/m);
});

test('the reported verb: LIST for a collection GET, WATCH for a watch, APPLY for server-side apply', () => {
  assert.equal(reportedVerb('GET', info('list'), ''), 'LIST');
  assert.equal(reportedVerb('GET', info('watch'), ''), 'WATCH');
  assert.equal(reportedVerb('PATCH', info('patch', 'x'), 'application/apply-patch+yaml'), 'APPLY');
  assert.equal(reportedVerb('delete', info('delete', 'x'), ''), 'DELETE');
});

test('repeated requests and store calls add up in their own series, which render in the order they first appeared', () => {
  const m = new ApiServerMetrics();
  for (let i = 0; i < 3; i++) m.request('POST', info('create'), 201, 0.01, false);
  m.request('POST', info('create'), 409, 0.3, false);
  m.request('POST', info('create'), 201, 0.01, true);
  m.request('GET', undefined, 200, 0.001, false);
  for (let i = 0; i < 2; i++) m.storeCall('create', 'configmaps', 0.002);
  m.storeCall('get', 'configmaps', 0.03);
  const text = m.render();
  const totals = text.split('\n').filter((l) => l.startsWith('apiserver_request_total{'));
  assert.deepEqual(totals.map((l) => [/code="(\d+)"/.exec(l)![1], /dry_run="(\w*)"/.exec(l)![1], l.split(' ')[1]]), [['201', '', '3'], ['409', '', '1'], ['201', 'All', '1'], ['200', '', '1']]);
  assert.match(text, /^apiserver_request_duration_seconds_bucket\{[^}]*dry_run=""[^}]*le="0.025"[^}]*verb="POST"[^}]*\} 3$/m);
  assert.match(text, /^apiserver_request_duration_seconds_bucket\{[^}]*dry_run=""[^}]*le="0.4"[^}]*verb="POST"[^}]*\} 4$/m);
  assert.match(text, /^apiserver_request_duration_seconds_count\{component="apiserver",dry_run="",group="",resource="",scope="",subresource="",verb="GET",version=""\} 1$/m);
  assert.match(text, /^etcd_request_duration_seconds_count\{operation="create",type="configmaps"\} 2$/m);
  assert.match(text, /^etcd_request_duration_seconds_bucket\{le="0.025",operation="get",type="configmaps"\} 0$/m);
});
