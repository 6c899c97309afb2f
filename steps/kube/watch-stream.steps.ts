/**
 * Steps for the watch stream (features/apiserver/watch-stream.feature): which events a watch from
 * a resourceVersion delivers, in which order, and what the wire carries (one chunked response of
 * newline-delimited {"type","object"} lines). The watch itself is opened by the shared steps
 * ("a client watches ConfigMaps from …"), which keep it as 'watch'.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubeRawStream, KubeWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath, createConfigMap, expandNs, expectSuccess } from './api.ts';
import { lengthDelimited } from '../support/stored-value.ts';
import { TABLE_ACCEPT } from '../support/table-accept.ts';

function described(watch: KubeWatch): string {
  return watch.events.map((e) => `${e.type} "${e.object?.metadata?.name}"@${e.object?.metadata?.resourceVersion}`).join(', ') || '(none)';
}

Then(/^within (\d+) s the watch delivers exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const watch = this.recall<KubeWatch>('watch');
  const expected = [...list.matchAll(/(ADDED|MODIFIED|DELETED) "([^"]*)"/g)].map((m) => `${m[1]} "${m[2]}"`);
  assert.ok(expected.length > 0, `no events named in "${list}"`);
  const seen = () => watch.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} "${e.object?.metadata?.name}"`);
  await this.eventually(`the watch to deliver ${expected.length} events`, () => seen().length >= expected.length, Number(seconds) * 1000);
  assert.deepEqual(seen(), expected, `events: ${described(watch)}`);
});

Then(/^within (\d+) s the watch "([^"]*)" delivers exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, name: string, list: string) {
  const watch = this.recall<KubeWatch>(`watch ${name}`);
  const expected = [...list.matchAll(/(ADDED|MODIFIED|DELETED) "([^"]*)"/g)].map((m) => `${m[1]} "${m[2]}"`);
  const seen = () => watch.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} "${e.object?.metadata?.name}"`);
  await this.eventually(`the watch "${name}" to deliver ${expected.length} events`, () => seen().length >= expected.length, Number(seconds) * 1000);
  assert.deepEqual(seen(), expected, `watch "${name}": ${described(watch)}`);
});

Then("the resourceVersions of the watch's events strictly increase as integers", function (this: KubespecWorld) {
  const watch = this.recall<KubeWatch>('watch');
  const versions = watch.events.filter((e) => e.type !== 'BOOKMARK').map((e) => BigInt(e.object?.metadata?.resourceVersion ?? '0'));
  assert.ok(versions.every((v, i) => i === 0 || v > versions[i - 1]!), `events: ${described(watch)}`);
});

Then('the DELETED event for {string} carries data {string} = {string}', function (this: KubespecWorld, name: string, key: string, value: string) {
  const watch = this.recall<KubeWatch>('watch');
  const ev = watch.events.find((e) => e.type === 'DELETED' && e.object?.metadata?.name === name);
  assert.ok(ev, `no DELETED event for "${name}": ${described(watch)}`);
  assert.equal(ev.object?.data?.[key], value, `the DELETED object should be the last state: ${JSON.stringify(ev.object)}`);
});

Then('no event carries a resourceVersion at or below {string}', function (this: KubespecWorld, label: string) {
  const watch = this.recall<KubeWatch>('watch');
  const floor = BigInt(this.recall<string>(label));
  const low = watch.events.filter((e) => e.type !== 'BOOKMARK' && BigInt(e.object?.metadata?.resourceVersion ?? '0') <= floor);
  assert.equal(low.length, 0, `events at or below ${floor}: ${described(watch)}`);
});

Then('the watch has not ended', function (this: KubespecWorld) {
  const watch = this.recall<KubeWatch>('watch');
  assert.equal(watch.ended, false, 'the watch response ended');
});

When(/^ConfigMap "([^"]*)" is updated (\d+) times, setting "([^"]*)" to 1, 2, … \d+$/, async function (this: KubespecWorld, name: string, times: string, key: string) {
  for (let i = 1; i <= Number(times); i++) {
    const path = configMapsPath(this.kube(), name);
    const current = expectSuccess(await this.kube().request({ method: 'GET', path }), `get ConfigMap "${name}"`);
    expectSuccess(await this.kube().request({ method: 'PUT', path, body: { ...current, data: { [key]: String(i) } } }), `update ${i} of ConfigMap "${name}"`);
  }
});

Then(/^within (\d+) s the watch delivers (\d+) MODIFIED events whose "([^"]*)" values are 1 to \d+ in order$/, async function (this: KubespecWorld, seconds: string, count: string, key: string) {
  const watch = this.recall<KubeWatch>('watch');
  const modified = () => watch.events.filter((e) => e.type === 'MODIFIED');
  await this.eventually(`${count} MODIFIED events`, () => modified().length >= Number(count), Number(seconds) * 1000);
  const values = modified().map((e) => e.object?.data?.[key]);
  assert.deepEqual(values, Array.from({ length: Number(count) }, (_, i) => String(i + 1)), `events: ${described(watch)}`);
  this.note('ordered events', modified());
});

Then('their resourceVersions strictly increase as integers', function (this: KubespecWorld) {
  const events = this.recall<{ object: any }[]>('ordered events');
  const versions = events.map((e) => BigInt(e.object.metadata.resourceVersion));
  assert.ok(versions.every((v, i) => i === 0 || v > versions[i - 1]!), `resourceVersions: ${versions.join(', ')}`);
});

// ---- the wire -------------------------------------------------------------------------------------

function rawStream(world: KubespecWorld): KubeRawStream {
  return world.recall<KubeRawStream>('raw stream');
}

When('the client opens GET {string} over HTTP\\/1.1', async function (this: KubespecWorld, rawPath: string) {
  const kube = this.kube();
  assert.ok(kube.stream, 'this target declares kube.watch but offers no stream()');
  const stream = await kube.stream(expandNs(kube, rawPath));
  this.note('raw stream', stream);
  assert.equal(stream.httpVersion, '1.1', 'the response should be HTTP/1.1');
});

When('the client opens GET {string} over HTTP\\/2', async function (this: KubespecWorld, rawPath: string) {
  const kube = this.kube();
  assert.ok(kube.stream, 'this target declares kube.http2 but offers no stream()');
  const stream = await kube.stream(expandNs(kube, rawPath), { http2: true });
  this.onCleanup(() => stream.close());
  this.note('raw stream', stream);
  assert.equal(stream.httpVersion, '2.0', 'the response should come over HTTP/2');
});

Then('the watch response status is {int} without a {string} header', function (this: KubespecWorld, code: number, header: string) {
  const stream = rawStream(this);
  assert.equal(stream.status, code, `HTTP ${stream.status}: ${stream.body.slice(0, 300)}`);
  assert.equal(stream.headers[header.toLowerCase()], undefined, `headers: ${JSON.stringify(stream.headers)}`);
});

When('ConfigMaps {names} are created', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) await createConfigMap(this.kube(), name);
  this.note('created configmaps', names);
});

Then('the watch response status is {int} with header {string}', function (this: KubespecWorld, code: number, header: string) {
  const stream = rawStream(this);
  const [name, value] = header.split(/:\s*/) as [string, string];
  assert.equal(stream.status, code, `HTTP ${stream.status}: ${stream.body.slice(0, 300)}`);
  assert.equal(stream.headers[name.toLowerCase()], value, `headers: ${JSON.stringify(stream.headers)}`);
});

// A cluster may add objects of its own to the namespace (kube-root-ca.crt): lines beyond the
// created objects' are allowed, as long as every line is one complete event.
Then(/^within (\d+) s the response body holds a line for each of them, every line a JSON object with keys "([^"]*)" and "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, a: string, b: string) {
  const stream = rawStream(this);
  const names = this.recall<string[]>('created configmaps');
  const complete = () => stream.body.split('\n').slice(0, -1).filter((l) => l.trim() !== '');
  const named = () => complete().map((l) => JSON.parse(l).object?.metadata?.name);
  await this.eventually(`a line for each of ${names.join(', ')}`, () => names.every((n) => named().includes(n)), Number(seconds) * 1000);
  for (const line of complete()) assert.deepEqual(Object.keys(JSON.parse(line)).sort(), [a, b].sort(), `line: ${line}`);
});

Then('the response has not ended', async function (this: KubespecWorld) {
  const stream = rawStream(this);
  assert.equal(stream.ended, false, 'the streamed response ended');
  await stream.close();
});

// ---- the serialization a client negotiates (WATCH-SERIALIZATION) ---------------------------------


When('a client watches ConfigMaps labelled {string} as Tables with {string}', async function (this: KubespecWorld, selector: string, query: string) {
  const q = new URLSearchParams(query);
  q.set('watch', 'true');
  q.set('labelSelector', selector);
  const watch = await this.kube().watch(`${configMapsPath(this.kube())}?${q.toString()}`, { accept: TABLE_ACCEPT });
  this.onCleanup(() => watch.close());
  this.note('table watch', watch);
});

/** A client that asks for meta.k8s.io/v1beta1 Tables only (with JSON as the fallback, as kubectl's list has). */
When('a client watches ConfigMaps labelled {string} as meta.k8s.io\\/v1beta1 Tables', async function (this: KubespecWorld, selector: string) {
  const q = new URLSearchParams({ watch: 'true', labelSelector: selector });
  const watch = await this.kube().watch(`${configMapsPath(this.kube())}?${q.toString()}`, { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' });
  this.onCleanup(() => watch.close());
  this.note('table watch', watch);
});

function tableRowsShown(watch: KubeWatch): string[] {
  return watch.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} "${e.object?.rows?.[0]?.cells?.[0]}"`);
}

Then(/^within (\d+) s the Table watch delivers rows for: (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const watch = this.recall<KubeWatch>('table watch');
  const expected = [...list.matchAll(/(ADDED|MODIFIED|DELETED) "([^"]*)"/g)].map((m) => `${m[1]} "${m[2]}"`);
  await this.eventually(`the Table watch to deliver ${expected.length} events`, () => tableRowsShown(watch).length >= expected.length, Number(seconds) * 1000);
  assert.deepEqual(tableRowsShown(watch), expected, `events: ${JSON.stringify(watch.events).slice(0, 2000)}`);
});

Then(/^each of its events is a (meta\.k8s\.io\/v1|meta\.k8s\.io\/v1beta1) Table of one row: the name in the first cell, the object as PartialObjectMetadata at the Table's resourceVersion$/, function (this: KubespecWorld, apiVersion: string) {
  const watch = this.recall<KubeWatch>('table watch');
  for (const e of watch.events.filter((x) => x.type !== 'BOOKMARK')) {
    const t = e.object;
    const shown = JSON.stringify(t);
    assert.equal(t?.kind, 'Table', shown);
    assert.equal(t?.apiVersion, apiVersion, shown);
    assert.equal(t.rows?.length, 1, `one row per event: ${shown}`);
    const obj = t.rows[0].object;
    assert.equal(obj?.kind, 'PartialObjectMetadata', `the row's object by default is its metadata only: ${shown}`);
    assert.equal(obj?.metadata?.name, t.rows[0].cells[0], shown);
    assert.equal(obj?.data, undefined, shown);
    assert.match(String(t.metadata?.resourceVersion ?? ''), /^\d+$/, `the Table carries the object's resourceVersion: ${shown}`);
    assert.equal(obj.metadata.resourceVersion, t.metadata.resourceVersion, shown);
  }
});

Then('only the first of its Tables carries column definitions, {string} first', function (this: KubespecWorld, first: string) {
  const tables = this.recall<KubeWatch>('table watch').events.filter((x) => x.type !== 'BOOKMARK').map((e) => e.object);
  assert.ok(tables.length > 1, 'at least two Tables');
  assert.equal(tables[0].columnDefinitions?.[0]?.name, first, `the first Table's columns: ${JSON.stringify(tables[0].columnDefinitions)}`);
  assert.equal(tables[0].columnDefinitions.length, tables[0].rows[0].cells.length, 'a cell per column');
  // NoHeaders leaves the field nil: null, absent or empty on the wire.
  for (const t of tables.slice(1)) assert.ok((t.columnDefinitions ?? []).length === 0, `a later Table carries columns: ${JSON.stringify(t)}`);
});

Then('each of its rows carries the whole ConfigMap, data included', function (this: KubespecWorld) {
  const watch = this.recall<KubeWatch>('table watch');
  for (const e of watch.events.filter((x) => x.type !== 'BOOKMARK')) {
    const obj = e.object?.rows?.[0]?.object;
    assert.equal(obj?.kind, 'ConfigMap', JSON.stringify(e.object));
    assert.equal(obj?.apiVersion, 'v1', JSON.stringify(e.object));
    assert.deepEqual(obj?.data, { v: '0' }, JSON.stringify(e.object));
  }
});

When('the client opens GET {string} over HTTP\\/1.1 accepting {string}', async function (this: KubespecWorld, rawPath: string, accept: string) {
  const kube = this.kube();
  assert.ok(kube.stream, 'this target declares kube.watch but offers no stream()');
  const stream = await kube.stream(expandNs(kube, rawPath), { accept });
  this.onCleanup(() => stream.close());
  this.note('raw stream', stream);
});

/**
 * A protobuf watch stream, read from the wire format alone: each frame is a 4-byte big-endian
 * length, then a meta.k8s.io/v1 WatchEvent (type = 1, object = 2: a RawExtension, raw = 1) whose
 * object is the protobuf serializer's output — the magic "k8s\0", then a runtime.Unknown
 * (typeMeta = 1: apiVersion = 1, kind = 2; raw = 2, here a ConfigMap: metadata = 1, name = 1)
 * (apimachinery pkg/runtime/serializer/streaming, pkg/runtime/serializer/protobuf/protobuf.go,
 * pkg/apis/meta/v1/generated.proto, pkg/runtime/generated.proto).
 */
function protobufFrames(body: string): { complete: boolean; events: { type: string; apiVersion: string; kind: string; name: string; magic: boolean }[] } {
  const bytes = Buffer.from(body, 'latin1');
  const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('utf8') : '');
  const events = [];
  let at = 0;
  while (at + 4 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    if (at + 4 + length > bytes.length) return { complete: false, events };
    const event = bytes.subarray(at + 4, at + 4 + length);
    const raw = lengthDelimited(lengthDelimited(event, 2) ?? new Uint8Array(), 1) ?? new Uint8Array();
    const magic = Buffer.from(raw.subarray(0, 4)).toString('latin1') === 'k8s\u0000';
    const unknown = raw.subarray(4);
    const typeMeta = lengthDelimited(unknown, 1) ?? new Uint8Array();
    const metadata = lengthDelimited(lengthDelimited(unknown, 2) ?? new Uint8Array(), 1) ?? new Uint8Array();
    events.push({ type: text(lengthDelimited(event, 1)), apiVersion: text(lengthDelimited(typeMeta, 1)), kind: text(lengthDelimited(typeMeta, 2)), name: text(lengthDelimited(metadata, 1)), magic });
    at += 4 + length;
  }
  return { complete: at === bytes.length, events };
}

// A cluster may add objects of its own to the namespace (kube-root-ca.crt): frames beyond the
// created objects' are allowed, as long as the stream is whole frames.
Then(/^within (\d+) s the response body holds a protobuf frame for each of them: an ADDED WatchEvent whose object is a v1 ConfigMap in the k8s envelope$/, async function (this: KubespecWorld, seconds: string) {
  const stream = rawStream(this);
  const names = this.recall<string[]>('created configmaps');
  const named = () => protobufFrames(stream.body).events.map((e) => e.name);
  await this.eventually(`a frame for each of ${names.join(', ')}`, () => names.every((n) => named().includes(n)), Number(seconds) * 1000);
  const { complete, events } = protobufFrames(stream.body);
  assert.ok(complete, `the body should be whole length-prefixed frames: ${JSON.stringify(events)}`);
  for (const name of names) {
    const ev = events.find((e) => e.name === name);
    assert.deepEqual(ev, { type: 'ADDED', apiVersion: 'v1', kind: 'ConfigMap', name, magic: true }, `frames: ${JSON.stringify(events)}`);
  }
});
