import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { LocalBackend } from '../../store/local.ts';
import { createApiServer } from '../server.ts';
import { listen, realTimers } from './listen.ts';
import { tlsServerRecordingCredentials } from '../testing/tls-fixture.ts';

const clock = { now_ms: () => Date.now() };

test('over plain HTTP the server answers health checks and refuses an oversized body with 413', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, maxBodyBytes: 1024 });
  const http = await listen(api.handler);
  try {
    const health = await fetch(`${http.url}/healthz`);
    assert.equal(await health.text(), 'ok');
    const big = await fetch(`${http.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1 << 20) });
    assert.equal(big.status, 413);
    assert.equal((await big.json()).reason, 'RequestEntityTooLarge');
  } finally {
    await http.close();
  }
});

test('a watch over HTTP streams newline-delimited events in a chunked response, and close() ends open watches', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, timers: realTimers });
  const http = await listen(api.handler);
  const res = await fetch(`${http.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('transfer-encoding'), 'chunked');
  const reader = res.body!.getReader();
  await fetch(`${http.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }) });
  let text = '';
  while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
  assert.deepEqual(JSON.parse(text.split('\n')[0]!).type, 'ADDED');
  await http.close();
  await reader.cancel().catch(() => undefined);
});

test('over HTTPS a client certificate the CA signed reaches authentication as CN and O', async () => {
  const { api, https, ca, client, seen } = await tlsServerRecordingCredentials(clock);
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${https.url}/version`, { ca: ca.certPem, cert: client.certPem, key: client.keyPem }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 200);
    const { notBefore_ms, notAfter_ms, ...subject } = seen[0]!.clientCert!;
    assert.deepEqual(subject, { subjectCN: 'alice', subjectO: ['dev', 'ops'] });
    assert.ok(notBefore_ms! < Date.now() && Date.now() < notAfter_ms!, 'the certificate\'s dates reach authentication too');
    assert.equal(api.traces.at(-1)!.user, 'alice');
  } finally {
    await https.close();
  }
});
