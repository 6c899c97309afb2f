import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { EventEmitter } from 'node:events';
import { request as httpsRequest, Agent } from 'node:https';
import { connect as http2Connect } from 'node:http2';
import { LocalBackend } from '../store/local.ts';
import { createApiServer, seededRandom, uuidFrom } from './server.ts';
import { listen, realTimers } from './host/listen.ts';
import { tlsServerRecordingCredentials } from './testing/tls-fixture.ts';
import { createCa, issueClientCert, issueServerCert } from './pki/host/index.ts';
import { x509Authenticator } from './authn/x509.ts';

const clock = { now_ms: () => Date.now() };
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/**
 * A raw HTTP/1.1 watch: the response bytes exactly as they came off the wire. `ended`: the
 * response is over — its last chunk arrived, or (HTTP/1.0, no chunks) the server closed the
 * connection. Not the connection's end for HTTP/1.1: the server keeps it open for the next
 * request, for kube-apiserver's 90 s idle timeout (host/listen.ts).
 */
function rawWatch(port: number, path: string, version = '1.1'): { socket: Socket; bytes: () => string; ended: Promise<void> } {
  let text = '';
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => {
    text += c;
    if (text.includes('\r\n\r\n') && text.endsWith('\r\n0\r\n\r\n')) done();
  });
  socket.on('end', () => done());
  socket.write(`GET ${path} HTTP/${version}\r\nhost: test\r\naccept: application/json\r\n\r\n`);
  return { socket, bytes: () => text, ended };
}

/** Splits a chunked body into its chunks, checking every size line against its data (RFC 9112 § 7.1). */
function chunksOf(response: string): string[] {
  let rest = response.slice(response.indexOf('\r\n\r\n') + 4);
  const chunks: string[] = [];
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol < 0) return chunks;
    const size = parseInt(rest.slice(0, eol), 16);
    const data = rest.slice(eol + 2, eol + 2 + size);
    assert.equal(Buffer.byteLength(data, 'latin1'), size);
    assert.equal(rest.slice(eol + 2 + size, eol + 4 + size), '\r\n', 'every chunk ends in CRLF');
    chunks.push(data);
    if (size === 0) return chunks;
    rest = rest.slice(eol + 4 + size);
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'timed out');
}

test('every watcher of an event receives the same well-formed chunk, and the stream ends with the last chunk', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, timers: realTimers });
  const http = await listen(api.handler);
  try {
    const watchers = [1, 2, 3].map(() => rawWatch(http.port, `${CONFIGMAPS}?watch=true&resourceVersion=0&timeoutSeconds=1`));
    await until(() => watchers.every((w) => w.bytes().includes('\r\n\r\n')));
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'data-1' }, data: { k: 'vällue' } });
    const created = await fetch(`${http.url}${CONFIGMAPS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(created.status, 201);
    await Promise.all(watchers.map((w) => w.ended));
    const streams = watchers.map((w) => chunksOf(w.bytes()));
    for (const chunks of streams) {
      assert.equal(chunks.length, 2, 'one event, then the empty last chunk');
      assert.equal(chunks[1], '');
      const line = Buffer.from(chunks[0]!, 'latin1').toString('utf8');
      assert.ok(line.endsWith('\n'));
      const event = JSON.parse(line);
      assert.equal(event.type, 'ADDED');
      assert.equal(event.object.data.k, 'vällue');
    }
    assert.equal(streams[1]![0], streams[0]![0]);
    assert.equal(streams[2]![0], streams[0]![0]);
  } finally {
    await http.close();
  }
});

test('a watch from resourceVersion 0 sends every existing object first, in order, each in its own chunk', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, timers: realTimers });
  const http = await listen(api.handler);
  try {
    const names = Array.from({ length: 50 }, (_, i) => `cm-${String(i).padStart(2, '0')}`);
    for (const name of names) {
      const created = await api.handle({ method: 'POST', url: CONFIGMAPS, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ metadata: { name } })) });
      assert.equal(created.status, 201);
    }
    const watcher = rawWatch(http.port, `${CONFIGMAPS}?watch=true&resourceVersion=0&timeoutSeconds=1`);
    await watcher.ended;
    const chunks = chunksOf(watcher.bytes());
    assert.equal(chunks.at(-1), '');
    assert.deepEqual(chunks.slice(0, -1).map((c) => `${JSON.parse(c).type} ${JSON.parse(c).object.metadata.name}`), names.map((n) => `ADDED ${n}`));
  } finally {
    await http.close();
  }
});

test('a watch that ends in the same turn as its last event (410 for a compacted resourceVersion) still sends that event before the last chunk', async () => {
  const backend = new LocalBackend();
  const api = createApiServer({ backend, clock, timers: realTimers });
  const http = await listen(api.handler);
  try {
    for (const name of ['a', 'b', 'c']) {
      const created = await api.handle({ method: 'POST', url: CONFIGMAPS, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ metadata: { name } })) });
      assert.equal(created.status, 201);
    }
    await backend.compact(backend.currentRevision());
    const watcher = rawWatch(http.port, `${CONFIGMAPS}?watch=true&resourceVersion=2`);
    await watcher.ended;
    const chunks = chunksOf(watcher.bytes());
    assert.equal(chunks.length, 2, 'the ERROR event, then the empty last chunk');
    const event = JSON.parse(chunks[0]!);
    assert.equal(event.type, 'ERROR');
    assert.equal(event.object.code, 410);
    assert.equal(chunks[1], '');
  } finally {
    await http.close();
  }
});

test('an HTTP/1.0 watcher gets a body framed the way its response headers say', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, timers: realTimers });
  const http = await listen(api.handler);
  try {
    const watcher = rawWatch(http.port, `${CONFIGMAPS}?watch=true&resourceVersion=0&timeoutSeconds=1`, '1.0');
    await until(() => watcher.bytes().includes('\r\n\r\n'));
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old-client' } });
    await fetch(`${http.url}${CONFIGMAPS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await watcher.ended;
    const response = watcher.bytes();
    const head = response.slice(0, response.indexOf('\r\n\r\n'));
    const lines = /transfer-encoding: chunked/i.test(head) ? chunksOf(response).join('') : response.slice(head.length + 4);
    assert.equal(JSON.parse(lines.split('\n')[0]!).object.metadata.name, 'old-client');
  } finally {
    await http.close();
  }
});

test('every request on one TLS connection carries its client certificate to authentication', async () => {
  const { https, ca, client, seen } = await tlsServerRecordingCredentials(clock);
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: ca.certPem, cert: client.certPem, key: client.keyPem });
  const sockets = new Set<unknown>();
  try {
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = httpsRequest(`${https.url}/version`, { agent }, (res) => {
          sockets.add(res.socket);
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', reject);
        req.end();
      });
    }
    assert.equal(sockets.size, 1, 'the three requests shared one connection');
    assert.deepEqual(seen.map((c) => ({ subjectCN: c.clientCert?.subjectCN, subjectO: c.clientCert?.subjectO })), [0, 1, 2].map(() => ({ subjectCN: 'alice', subjectO: ['dev', 'ops'] })));
    assert.ok(seen.every((c) => c.clientCert?.notAfter_ms === seen[0]!.clientCert?.notAfter_ms && c.clientCert?.notAfter_ms! > Date.now()), 'and its dates');
    assert.ok(Object.isFrozen(seen[0]!.clientCert), 'the connection\'s certificate is shared, so nobody may change it');
  } finally {
    agent.destroy();
    await https.close();
  }
});

/** One HTTPS GET with the given client certificate (or none): its status and body. */
function httpsGet(url: string, opts: { ca: string; cert?: string; key?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ...opts, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One HTTP/2 GET on its own session: the status. */
function h2Get(url: string, path: string, opts: { ca: string; cert: string; key: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(url, opts);
    session.on('error', reject);
    const req = session.request({ ':path': path });
    req.on('response', (headers) => {
      req.resume();
      req.on('end', () => {
        session.close();
        resolve(Number(headers[':status']));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

test('a client certificate the cluster CA did not sign is 401, never a fallback to anonymous', async () => {
  const ca = await createCa();
  const rogue = await createCa({ commonName: 'rogue-ca' });
  const serving = await issueServerCert(ca);
  const trusted = await issueClientCert(ca, { commonName: 'alice', organizations: ['dev'] });
  const forged = await issueClientCert(rogue, { commonName: 'mallory', organizations: ['system:masters'] });
  // Anonymous on and no authorizer: anyone who is not refused by authentication gets a 200.
  const api = createApiServer({ backend: new LocalBackend(), clock, authenticators: [x509Authenticator()], anonymous: true });
  const https = await listen(api.handler, { tls: { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem } });
  try {
    const url = `${https.url}/api/v1/namespaces`;
    assert.equal((await httpsGet(url, { ca: ca.certPem })).status, 200, 'no certificate: anonymous');
    assert.equal((await httpsGet(url, { ca: ca.certPem, cert: trusted.certPem, key: trusted.keyPem })).status, 200, 'a certificate the CA signed');
    const refused = await httpsGet(url, { ca: ca.certPem, cert: forged.certPem, key: forged.keyPem });
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.body).reason, 'Unauthorized');
    const trace = api.traces.at(-1)!;
    assert.equal(trace.stages[0]!.outcome, 'rejected');
    assert.match(trace.stages[0]!.detail, /^verifying certificate failed: /);
    // HTTP/2 (what client-go negotiates) reads the connection's certificate through its session.
    assert.equal(await h2Get(https.url, '/api/v1/namespaces', { ca: ca.certPem, cert: forged.certPem, key: forged.keyPem }), 401);
    assert.equal(await h2Get(https.url, '/api/v1/namespaces', { ca: ca.certPem, cert: trusted.certPem, key: trusted.keyPem }), 200);
  } finally {
    await https.close();
  }
});

test('uids are version 4 UUIDs, and the same seed gives the same ones', () => {
  const a = uuidFrom(seededRandom(42));
  const b = uuidFrom(seededRandom(42));
  const first = Array.from({ length: 50 }, a);
  assert.deepEqual(Array.from({ length: 50 }, b), first);
  for (const uid of first) assert.match(uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(new Set(first).size, first.length);
});

test('a Status is written with upstream\'s bytes: its field order, no empty group, a trailing newline', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, timers: realTimers });
  const http = await listen(api.handler);
  try {
    const r = await fetch(`${http.url}${CONFIGMAPS}/missing`);
    assert.equal(r.status, 404);
    assert.equal(
      await r.text(),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"missing\\" not found","reason":"NotFound","details":{"name":"missing","kind":"configmaps"},"code":404}\n',
    );
  } finally {
    await http.close();
  }
});

test('every answer says no shared cache may keep it, as upstream\'s handler chain does: a read, a refusal, a watch', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock, timers: realTimers });
  const http = await listen(api.handler);
  try {
    for (const path of ['/api', `${CONFIGMAPS}/missing`, '/no/such/path']) {
      const r = await fetch(`${http.url}${path}`);
      await r.text();
      assert.equal(r.headers.get('cache-control'), 'no-cache, private', path);
    }
    const watch = rawWatch(http.port, `${CONFIGMAPS}?watch=true&timeoutSeconds=1`);
    await watch.ended;
    assert.match(watch.bytes(), /\r\ncache-control: no-cache, private\r\n/i);
  } finally {
    await http.close();
  }
});

test('replies finished in one turn of the event loop are written after it, together, in the order they finished', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock });
  await api.ready;
  const writes: string[] = [];
  const exchange = (name: string) => {
    const req = Object.assign(new EventEmitter(), { method: 'GET', url: `${CONFIGMAPS}/${name}`, headers: { accept: 'application/json' }, socket: {}, httpVersionMajor: 1 });
    const res = Object.assign(new EventEmitter(), {
      headersSent: false,
      writeHead(status: number) {
        writes.push(`${name} ${status}`);
        return res;
      },
      end(body?: string) {
        writes.push(`${name} ${JSON.parse(body!).reason}`);
      },
    });
    api.handler(req as never, res as never);
    req.emit('end');
  };
  const traced = api.traces.length;
  exchange('a');
  exchange('b');
  // Both answers are decided within this turn's microtasks (the in-memory store answers at once)...
  for (let i = 0; i < 100_000 && api.traces.length < traced + 2; i++) await Promise.resolve();
  assert.equal(api.traces.length, traced + 2);
  for (let i = 0; i < 1000; i++) await Promise.resolve();
  // ...and neither is written until the turn is over.
  assert.deepEqual(writes, []);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(writes, ['a 404', 'a NotFound', 'b 404', 'b NotFound']);
});
