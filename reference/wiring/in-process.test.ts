import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessConnection, type ApiHandle } from './in-process.ts';
import type { ApiRequest, WatchSink } from '../apiserver/types.ts';

/** A server entry that records what it was handed and answers as told. */
function fakeHandle(answer: (req: ApiRequest) => Awaited<ReturnType<ApiHandle>>): { handle: ApiHandle; seen: ApiRequest[] } {
  const seen: ApiRequest[] = [];
  return { seen, handle: async (req) => (seen.push(req), answer(req)) };
}

test('a request reaches the server entry with its method, path, headers and body bytes; the answer comes back as HTTP would carry it', async () => {
  const { handle, seen } = fakeHandle(() => ({ status: 201, headers: { warning: 'w' }, answer: { kind: 'reply', status: 201, body: { kind: 'Pod' } } }));
  const conn = new InProcessConnection(handle);
  const answer = await conn.request('POST', '/api/v1/namespaces/a/pods', { authorization: 'Bearer t' }, '{"kind":"Pod"}');
  assert.equal(seen[0]!.method, 'POST');
  assert.equal(seen[0]!.url, '/api/v1/namespaces/a/pods');
  assert.equal(seen[0]!.headers.authorization, 'Bearer t');
  assert.equal(Buffer.from(seen[0]!.body).toString(), '{"kind":"Pod"}');
  assert.deepEqual({ status: answer.status, text: answer.text, headers: answer.headers }, { status: 201, text: '{"kind":"Pod"}\n', headers: { warning: 'w' } });
});

test('json() is what parsing the text gives, copied when the answer is made: a later change to the server\'s object is not seen, and each caller gets its own', async () => {
  const body = { kind: 'Pod', metadata: { name: 'a', gone: undefined }, spec: { containers: [{ name: 'c' }] } };
  const answerWith = (b: unknown) => new InProcessConnection(async () => ({ status: 200, headers: {}, answer: { kind: 'reply', status: 200, body: b } })).request('GET', '/x', {});
  const answer = await answerWith(body);
  body.spec.containers[0]!.name = 'changed after the answer';
  assert.deepStrictEqual(answer.json(), JSON.parse('{"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}]}}'));
  const twice = await answerWith({ metadata: { name: 'a' } });
  twice.json().metadata.name = 'mine';
  assert.equal(twice.json().metadata.name, 'a', 'a second caller gets an untouched copy');
  assert.equal(twice.text, '{"metadata":{"name":"a"}}\n', 'and the text is the untouched one');
  assert.equal((await answerWith('not json')).json(), undefined, 'a body that is not JSON reads as undefined, as parseJson gives it');
});

test('a server entry that throws is answered 500, as the HTTP handler answers it', async () => {
  const conn = new InProcessConnection(async () => { throw new Error('boom'); });
  assert.equal((await conn.request('GET', '/api', {})).status, 500);
});

test('an answer does not arrive inside the turn that wrote it: the caller resumes on a later turn', async () => {
  const { handle } = fakeHandle(() => ({ status: 200, headers: {}, answer: { kind: 'reply', status: 200, body: {} } }));
  const order: string[] = [];
  const done = new InProcessConnection(handle).request('GET', '/api', {}).then(() => order.push('answer'));
  setImmediate(() => order.push('next turn'));
  await done;
  assert.deepEqual(order, ['next turn', 'answer']);
});

test('a watch hands over each line, then its end; events written before an answer arrive before it', async () => {
  let sink: WatchSink | undefined;
  let stopped = 0;
  const conn = new InProcessConnection(async (req) => req.url.includes('watch')
    ? { status: 200, headers: {}, answer: { kind: 'stream', status: 200, headers: {}, start: (s) => ((sink = s), () => void stopped++) } }
    : { status: 200, headers: {}, answer: { kind: 'reply', status: 200, body: { ok: true } } });
  const got: string[] = [];
  let ended: Error | undefined | 'no' = 'no';
  conn.watch('/api/v1/pods?watch=true', {}, { onLine: (l) => got.push(`event ${JSON.parse(l).n}`), onRefused: () => assert.fail('refused'), onEnd: (e) => (ended = e) });
  while (!sink) await new Promise((r) => setImmediate(r));
  sink.write('{"n":1}\n');
  const answer = conn.request('GET', '/api', {}).then(() => got.push('answer'));
  sink.write('{"n":2}\n');
  await answer;
  assert.deepEqual(got.slice(0, 2), ['event 1', 'event 2']);
  sink.end();
  await new Promise((r) => setImmediate(r));
  assert.equal(ended, undefined, 'ended by the server, without an error');
  assert.equal(stopped, 1, 'the server side is released, as a closed response releases it');
});

test('a refused watch reports the status and body; closing the connection ends open watches with an error', async () => {
  const refusing = new InProcessConnection(async () => ({ status: 410, headers: {}, answer: { kind: 'reply', status: 410, body: { reason: 'Expired' } } }));
  const refused = await new Promise<[number, string]>((resolve) => refusing.watch('/w', {}, { onLine: () => undefined, onRefused: (s, t) => resolve([s, t]), onEnd: () => undefined }));
  assert.equal(refused[0], 410);
  assert.equal(JSON.parse(refused[1]).reason, 'Expired');

  const open = new InProcessConnection(async () => ({ status: 200, headers: {}, answer: { kind: 'stream', status: 200, headers: {}, start: () => () => undefined } }));
  const ended = new Promise<Error | undefined>((resolve) => open.watch('/w', {}, { onLine: () => undefined, onRefused: () => undefined, onEnd: resolve }));
  await new Promise((r) => setImmediate(r));
  open.close();
  assert.match(String((await ended)?.message), /closed/);
});

test('a watch stopped by its client hears nothing more and releases the server side', async () => {
  let sink: WatchSink | undefined;
  let stopped = 0;
  const conn = new InProcessConnection(async () => ({ status: 200, headers: {}, answer: { kind: 'stream', status: 200, headers: {}, start: (s) => ((sink = s), () => void stopped++) } }));
  const got: string[] = [];
  const stop = conn.watch('/w', {}, { onLine: (l) => got.push(l), onRefused: () => undefined, onEnd: () => got.push('end') });
  while (!sink) await new Promise((r) => setImmediate(r));
  sink.write('{"n":1}\n');
  stop();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(got, []);
  assert.equal(stopped, 1);
});

test('watchEvents parses each line as an event, ends once on a line that is not JSON, and maps a refusal to the client\'s error', async () => {
  let sink: WatchSink | undefined;
  const conn = new InProcessConnection(async () => ({ status: 200, headers: {}, answer: { kind: 'stream', status: 200, headers: {}, start: (s) => ((sink = s), () => undefined) } }));
  const events: unknown[] = [];
  const ends: (Error | undefined)[] = [];
  conn.watchEvents('/w', {}, { onEvent: (e) => events.push(e), onEnd: (e) => ends.push(e) }, () => new Error('refused'));
  while (!sink) await new Promise((r) => setImmediate(r));
  sink.write('{"type":"ADDED"}\n');
  sink.write('not json\n');
  sink.write('{"type":"MODIFIED"}\n');
  sink.end();
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(events, [{ type: 'ADDED' }]);
  assert.equal(ends.length, 1);
  assert.ok(ends[0] instanceof SyntaxError);

  const refusing = new InProcessConnection(async () => ({ status: 403, headers: {}, answer: { kind: 'reply', status: 403, body: { reason: 'Forbidden' } } }));
  const refusedEnd = await new Promise<Error | undefined>((resolve) => refusing.watchEvents('/w', {}, { onEvent: () => undefined, onEnd: resolve }, (status, text) => new Error(`${status} ${JSON.parse(text).reason}`)));
  assert.equal(refusedEnd?.message, '403 Forbidden');
});

test('watchEvents hands every watcher the server\'s own frozen object, copies one that is not frozen, and a watcher writing to a frozen one ends its watch', async () => {
  let sink: WatchSink | undefined;
  const conn = new InProcessConnection(async () => ({ status: 200, headers: {}, answer: { kind: 'stream', status: 200, headers: {}, start: (s) => ((sink = s), () => undefined) } }));
  const events: any[] = [];
  const ends: (Error | undefined)[] = [];
  conn.watchEvents('/w', {}, {
    onEvent: (e: any) => {
      events.push(e);
      if (e.object.metadata.name === 'written') e.object.metadata.name = 'changed';
    },
    onEnd: (e) => ends.push(e),
  }, () => new Error('refused'));
  while (!sink) await new Promise((r) => setImmediate(r));
  const frozen = Object.freeze({ metadata: Object.freeze({ name: 'a' }) });
  const loose = { metadata: { name: 'b' } };
  sink.writeEvent!({ type: 'ADDED', object: frozen });
  sink.writeEvent!({ type: 'ADDED', object: loose });
  sink.writeEvent!({ type: 'ADDED', object: Object.freeze({ metadata: Object.freeze({ name: 'written' }) }) });
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  assert.equal(events[0].object, frozen);
  assert.notEqual(events[1].object, loose);
  assert.deepEqual(events[1].object, loose);
  assert.equal(events.length, 3);
  assert.equal(ends.length, 1);
  assert.ok(ends[0] instanceof TypeError);
});
