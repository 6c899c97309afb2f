/**
 * HA-APISERVER-PROTOCOL (erratum): the API server speaks REST — JSON over HTTP/1.1 (and HTTP/2),
 * watches as chunked streams of JSON lines — not gRPC. Only the API is needed, so these run on
 * any cluster.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubeRawStream, KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';

const expand = (world: KubespecWorld, path: string) => path.replace('/namespaces/default/', `/namespaces/${world.kube().namespace}/`);

When(/^I send "GET ([^"]+)" over HTTP\/1\.1 with "Accept: ([^"]+)"$/, async function (this: KubespecWorld, path: string, accept: string) {
  this.note('protocol answer', await this.kube().request({ method: 'GET', path, headers: { accept } }));
});

Then('the answer is {int} with content type {string} and a body whose kind is {string}', function (this: KubespecWorld, status: number, type: string, kind: string) {
  const res = this.recall<KubeResponse>('protocol answer');
  assert.equal(res.status, status, res.text.slice(0, 300));
  assert.ok((res.headers['content-type'] ?? '').startsWith(type), `content-type ${res.headers['content-type']}`);
  assert.equal(res.json?.kind, kind);
});

When(/^I send "GET ([^"]+)" over HTTP\/1\.1$/, async function (this: KubespecWorld, path: string) {
  const stream = this.kube().stream;
  assert.ok(stream, 'this target cannot read a raw stream (kube.watch)');
  const s = await stream(expand(this, path));
  this.onCleanup(() => s.close());
  this.note('protocol stream', s);
});

When('I create ConfigMap {string} in namespace {string}', async function (this: KubespecWorld, name: string, _ns: string) {
  const res = await this.kube().request({ method: 'POST', path: `/api/v1/namespaces/${this.kube().namespace}/configmaps`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
  assert.equal(res.status, 201, res.text.slice(0, 300));
});

Then('the watch answer has {string} and delivers a line whose type is {string}', async function (this: KubespecWorld, header: string, type: string) {
  const s = this.recall<KubeRawStream>('protocol stream');
  const [name, value] = header.split(':').map((x) => x.trim().toLowerCase());
  assert.equal(s.httpVersion, '1.1');
  assert.equal(s.headers[name!]?.toLowerCase(), value, JSON.stringify(s.headers));
  await this.eventually(`a ${type} line`, () => s.body.split('\n').some((line) => line.trim() !== '' && JSON.parse(line).type === type), 10_000);
});

When('I call gRPC method {string} on the API server\'s port', async function (this: KubespecWorld, method: string) {
  // A gRPC call is an HTTP POST of a length-prefixed message to /<service>/<method> with
  // content-type application/grpc; an empty RangeRequest is the 5-byte frame 00 00000000.
  this.note('protocol answer', await this.kube().request({ method: 'POST', path: `/${method}`, headers: { 'content-type': 'application/grpc', te: 'trailers' }, body: '\u0000\u0000\u0000\u0000\u0000' }));
});

Then('the call fails and no object is returned', function (this: KubespecWorld) {
  const res = this.recall<KubeResponse>('protocol answer');
  assert.ok(res.status >= 400, `the API server answered ${res.status}`);
  assert.ok(!(res.headers['content-type'] ?? '').startsWith('application/grpc'), `a gRPC answer: ${res.headers['content-type']}`);
  assert.equal(res.headers['grpc-status'], undefined);
  assert.ok(!Array.isArray(res.json?.kvs), 'a key-value answer came back');
});
