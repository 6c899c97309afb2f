/** Steps for the watch mechanism (features/apiserver/watch.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeFacet, KubeWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, configMapsPath, createConfigMap, expandNs, expectSuccess, getConfigMap } from './api.ts';
import { TABLE_ACCEPT } from '../support/table-accept.ts';

Given('a ConfigMap {string} exists', async function (this: KubespecWorld, name: string) {
  await createConfigMap(this.kube(), name);
});

Given('ConfigMaps {names} exist', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) await createConfigMap(this.kube(), name);
});

Given('the resourceVersion of ConfigMap {string} is noted as {string}', async function (this: KubespecWorld, name: string, label: string) {
  this.note(label, (await getConfigMap(this.kube(), name)).metadata.resourceVersion);
});

async function updateConfigMap(world: KubespecWorld, name: string, i: number): Promise<void> {
  const current = await getConfigMap(world.kube(), name);
  const res = await world.kube().request({ method: 'PUT', path: configMapsPath(world.kube(), name), body: { ...current, data: { v: String(i) } } });
  expectSuccess(res, `update ${i} of ConfigMap "${name}"`);
}

Given('the ConfigMap {string} is updated {int} times', async function (this: KubespecWorld, name: string, times: number) {
  for (let i = 1; i <= times; i++) await updateConfigMap(this, name, i);
});

/**
 * WATCH-CACHE-WINDOW: churn until a watch from the noted resourceVersion is answered 410, trying a
 * watch after every 25 updates. How many it takes depends on the server's watch cache (upstream:
 * 100 events once the older ones are stale, more if the cache has grown), so the scenario gives
 * only a bound; the last watch is kept as "watch".
 */
When('the ConfigMap {string} is updated until a watch from resourceVersion {string} is answered 410, at most {int} times', async function (this: KubespecWorld, name: string, label: string, max: number) {
  const path = `${configMapsPath(this.kube())}?watch=true&resourceVersion=${encodeURIComponent(this.recall<string>(label))}`;
  for (let updates = 0; ;) {
    const batch = Math.min(25, max - updates);
    for (let i = 1; i <= batch; i++) await updateConfigMap(this, name, updates + i);
    updates += batch;
    const watch = await this.kube().watch(path);
    await this.eventually('the watch to answer', () => watch.status !== 200 || watch.events.length > 0);
    const expired = watch.status === 410 || (watch.events[0]?.type === 'ERROR' && watch.events[0].object?.code === 410);
    if (expired || updates >= max) {
      this.note('watch', watch);
      this.onCleanup(() => watch.close());
      return;
    }
    await watch.close();
  }
});

When("the API server's store is compacted", async function (this: KubespecWorld) {
  const compact = this.kube().compact;
  assert.ok(compact, 'this target declares kube.compaction but offers no compact()');
  await compact.call(this.kube());
});

When('a client watches ConfigMaps from resourceVersion {string}', async function (this: KubespecWorld, label: string) {
  const rv = this.recall<string>(label);
  this.note('watch', await this.kube().watch(`${configMapsPath(this.kube())}?watch=true&resourceVersion=${encodeURIComponent(rv)}`));
});

Then('the watch is answered with code {int} and reason {string}', async function (this: KubespecWorld, code: number, reason: string) {
  const watch = this.recall<KubeWatch>('watch');
  await this.eventually('the watch to answer', () => watch.status !== 200 ? watch.error !== undefined : watch.events.length > 0);
  const status = watch.status !== 200 ? watch.error : watch.events[0]?.type === 'ERROR' ? watch.events[0].object : undefined;
  assert.ok(status, `expected a ${code} Status, got HTTP ${watch.status} with first event ${JSON.stringify(watch.events[0])}`);
  assert.equal(status.kind, 'Status', `the answer should be a Status: ${JSON.stringify(status)}`);
  // A core v1 Status, whatever the watched resource's group and version: client-go takes an ERROR
  // event's object for an API error only at apiVersion v1 (or meta.k8s.io/v1), otherwise it is an
  // unexpected object and no 410 (apimachinery pkg/api/errors FromObject).
  assert.ok(status.apiVersion === 'v1' || status.apiVersion === 'meta.k8s.io/v1', `the Status's apiVersion: ${JSON.stringify(status)}`);
  assert.equal(status.code, code, `Status code: ${JSON.stringify(status)}`);
  assert.equal(status.reason, reason, `Status reason: ${JSON.stringify(status)}`);
  if (watch.status !== 200) assert.equal(watch.status, code, 'an HTTP error answer must carry the same code as its Status');
});

/**
 * The watch cache's words for it (staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go:
 * "too old resource version: %d (%d)", the resourceVersion asked for and, after it, the one a
 * watch can still start from), the line client-go's reflector logs when its watch ends with 410.
 */
Then('its message names resourceVersion {string} as too old, then the oldest one a watch can start from', function (this: KubespecWorld, label: string) {
  const watch = this.recall<KubeWatch>('watch');
  const status = watch.status !== 200 ? watch.error : watch.events[0]?.object;
  const rv = this.recall<string>(label);
  const m = /^too old resource version: (\d+) \((\d+)\)$/.exec(String(status?.message));
  assert.ok(m, `the 410's message: ${JSON.stringify(status)}`);
  assert.equal(m[1], rv, `the resourceVersion asked for: ${status.message}`);
  assert.ok(BigInt(m[2]!) > BigInt(rv), `the oldest resourceVersion served comes after the one asked for: ${status.message}`);
});

Then('the watch is not answered with code {int}', function (this: KubespecWorld, code: number) {
  const watch = this.recall<KubeWatch>('watch');
  assert.equal(watch.status, 200, `watch answered HTTP ${watch.status}: ${JSON.stringify(watch.error)}`);
  assert.ok(!watch.events.some((e) => e.type === 'ERROR' && e.object?.code === code), `an ERROR event with code ${code} arrived`);
});

Then('the watch delivers {int} MODIFIED events for {string} with increasing resourceVersions', async function (this: KubespecWorld, count: number, name: string) {
  const watch = this.recall<KubeWatch>('watch');
  const modified = () => watch.events.filter((e) => e.type === 'MODIFIED' && e.object?.metadata?.name === name);
  await this.eventually(`${count} MODIFIED events for "${name}"`, () => modified().length >= count);
  const values = modified().map((e) => e.object.data?.v);
  assert.deepEqual(values, Array.from({ length: count }, (_, i) => String(i + 1)), 'the updates, in order, each once');
  const versions = modified().map((e) => BigInt(e.object.metadata.resourceVersion));
  assert.ok(versions.every((v, i) => i === 0 || v > versions[i - 1]!), `resourceVersions must increase: ${versions.join(', ')}`);
  await watch.close();
});

When('ConfigMap {string} is created and ConfigMap {string} is deleted', async function (this: KubespecWorld, created: string, deleted: string) {
  await createConfigMap(this.kube(), created);
  expectSuccess(await this.kube().request({ method: 'DELETE', path: configMapsPath(this.kube(), deleted) }), `delete ConfigMap "${deleted}"`);
});

When('ConfigMap {string} is created', async function (this: KubespecWorld, name: string) {
  await createConfigMap(this.kube(), name);
});


// ---- where a watch starts, and bookmarks (WATCH-INITIAL-STATE, WATCH-BOOKMARKS, WATCH-410) --------

function watchPath(world: KubespecWorld, selector: string, query: string): string {
  const q = new URLSearchParams(query);
  q.set('watch', 'true');
  q.set('labelSelector', selector);
  return `${configMapsPath(world.kube())}?${q.toString()}`;
}

When(/^a client watches ConfigMaps labelled "([^"]*)" (with no resourceVersion|from resourceVersion "0")$/, async function (this: KubespecWorld, selector: string, from: string) {
  this.note('watch', await this.kube().watch(watchPath(this, selector, from.includes('"0"') ? 'resourceVersion=0' : '')));
});

When('a client watches ConfigMaps labelled {string} with {string}', async function (this: KubespecWorld, selector: string, query: string) {
  this.note('watch', await this.kube().watch(watchPath(this, selector, query)));
});

When('a client watches ConfigMaps labelled {string} from resourceVersion {string} with {string}', async function (this: KubespecWorld, selector: string, label: string, query: string) {
  this.note('watch', await this.kube().watch(watchPath(this, selector, `${query}&resourceVersion=${encodeURIComponent(this.recall<string>(label))}`)));
});

When("a client watches ConfigMaps labelled {string} from the list's resourceVersion", async function (this: KubespecWorld, selector: string) {
  const rv = this.recall<any>('list').metadata.resourceVersion as string;
  this.note('watch', await this.kube().watch(watchPath(this, selector, `resourceVersion=${encodeURIComponent(rv)}`)));
});

Given("the list's resourceVersion is noted as {string}", function (this: KubespecWorld, label: string) {
  this.note(label, this.recall<any>('list').metadata.resourceVersion);
});

Given('a client watches ConfigMaps labelled {string} from the current resourceVersion with {string}, kept as {string}', async function (this: KubespecWorld, selector: string, query: string, name: string) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: `${configMapsPath(this.kube())}?labelSelector=${encodeURIComponent(selector)}` }), 'list ConfigMaps');
  const watch = await this.kube().watch(watchPath(this, selector, `${query}&resourceVersion=${list.metadata.resourceVersion}`));
  this.onCleanup(() => watch.close());
  this.note(`watch ${name}`, watch);
});

function shownEvents(watch: KubeWatch): string {
  return watch.events.map((e) => `${e.type} "${e.object?.metadata?.name ?? ''}"@${e.object?.metadata?.resourceVersion}`).join(', ') || '(none)';
}

/** The initial ADDED events, in any order, then what follows, as "TYPE "name"" strings. */
async function initialThen(world: KubespecWorld, seconds: number, initial: string[], rest: number): Promise<{ head: string[]; tail: string[] }> {
  const watch = world.recall<KubeWatch>('watch');
  const want = initial.length + rest;
  await world.eventually(`${want} watch events`, () => watch.events.length >= want || watch.ended, seconds * 1000);
  const shown = watch.events.map((e) => (e.type === 'BOOKMARK' ? 'BOOKMARK' : `${e.type} "${e.object?.metadata?.name}"`));
  const head = shown.slice(0, initial.length);
  assert.deepEqual([...head].sort(), initial.map((n) => `ADDED "${n}"`).sort(), `the first events should be one ADDED per existing object: ${shownEvents(watch)}`);
  return { head, tail: shown.slice(initial.length) };
}

Then(/^within (\d+) s the watch delivers ADDED for ((?:"[^"]*"(?:, | and )?)+) in any order, then exactly: (.+)$/, async function (this: KubespecWorld, seconds: string, names: string, after: string) {
  const initial = [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const expected = [...after.matchAll(/(ADDED|MODIFIED|DELETED) "([^"]*)"/g)].map((m) => `${m[1]} "${m[2]}"`);
  const { tail } = await initialThen(this, Number(seconds), initial, expected.length);
  assert.deepEqual(tail.filter((e) => e !== 'BOOKMARK'), expected, `events: ${shownEvents(this.recall<KubeWatch>('watch'))}`);
});

Then(/^within (\d+) s the watch delivers ADDED for ((?:"[^"]*"(?:, | and )?)+) in any order, then a BOOKMARK$/, async function (this: KubespecWorld, seconds: string, names: string) {
  const initial = [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const { tail } = await initialThen(this, Number(seconds), initial, 1);
  assert.equal(tail[0], 'BOOKMARK', `events: ${shownEvents(this.recall<KubeWatch>('watch'))}`);
});

/** A bookmark's object: the kind, apiVersion and a metadata of resourceVersion (and the allowed annotation) only. */
function assertBareBookmark(ev: { object: any }, kind: string, apiVersion: string, annotation?: string): void {
  const o = ev.object ?? {};
  const shown = JSON.stringify(o);
  assert.deepEqual(Object.keys(o).sort(), ['apiVersion', 'kind', 'metadata'], `a BOOKMARK carries only kind, apiVersion and metadata: ${shown}`);
  assert.equal(o.kind, kind, shown);
  assert.equal(o.apiVersion, apiVersion, shown);
  assert.match(String(o.metadata?.resourceVersion ?? ''), /^\d+$/, `a BOOKMARK carries a resourceVersion: ${shown}`);
  const allowed = annotation ? ['annotations', 'resourceVersion'] : ['resourceVersion'];
  assert.deepEqual(Object.keys(o.metadata).sort(), allowed, `a BOOKMARK's metadata is only its resourceVersion${annotation ? ' and the annotation' : ''}: ${shown}`);
  if (annotation) assert.deepEqual(o.metadata.annotations, { [annotation]: 'true' }, shown);
}

Then('every BOOKMARK carries only kind {string}, apiVersion {string} and metadata.resourceVersion, and annotation {string}', function (this: KubespecWorld, kind: string, apiVersion: string, annotation: string) {
  const bookmarks = this.recall<KubeWatch>('watch').events.filter((e) => e.type === 'BOOKMARK');
  assert.ok(bookmarks.length > 0, 'no BOOKMARK arrived');
  for (const b of bookmarks) assertBareBookmark(b, kind, apiVersion, annotation);
});

Then("the BOOKMARK's resourceVersion is at least that of every ADDED event before it", function (this: KubespecWorld) {
  const events = this.recall<KubeWatch>('watch').events;
  const at = events.findIndex((e) => e.type === 'BOOKMARK');
  const rv = BigInt(events[at]!.object.metadata.resourceVersion);
  for (const e of events.slice(0, at)) assert.ok(BigInt(e.object.metadata.resourceVersion) <= rv, `bookmark ${rv} is older than ${shownEvents(this.recall<KubeWatch>('watch'))}`);
});

Then('the watch {string} has delivered at least {int} BOOKMARK(s), each carrying only kind {string}, apiVersion {string} and metadata.resourceVersion', function (this: KubespecWorld, name: string, min: number, kind: string, apiVersion: string) {
  const watch = this.recall<KubeWatch>(`watch ${name}`);
  const bookmarks = watch.events.filter((e) => e.type === 'BOOKMARK');
  assert.ok(bookmarks.length >= min, `bookmarks: ${bookmarks.length}; events: ${shownEvents(watch)}`);
  for (const b of bookmarks) assertBareBookmark(b, kind, apiVersion);
});

Then('the watch {string} has delivered no BOOKMARK', function (this: KubespecWorld, name: string) {
  const watch = this.recall<KubeWatch>(`watch ${name}`);
  assert.equal(watch.events.filter((e) => e.type === 'BOOKMARK').length, 0, `events: ${shownEvents(watch)}`);
});

// ---- a watch with a selector (WATCH-SELECTOR) ---------------------------------------------------

Given('a client watches ConfigMaps labelled {string} from the current resourceVersion', async function (this: KubespecWorld, selector: string) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: configMapsPath(this.kube()) }), 'list ConfigMaps');
  const watch = await this.kube().watch(watchPath(this, selector, `resourceVersion=${list.metadata.resourceVersion}`));
  this.onCleanup(() => watch.close());
  this.note('watch', watch);
});

When('ConfigMap {string} is relabelled {string}', async function (this: KubespecWorld, name: string, labels: string) {
  const current = await getConfigMap(this.kube(), name);
  const metadata = { ...current.metadata, labels: Object.fromEntries(labels.split(',').map((p) => p.split('=') as [string, string])) };
  const res = await this.kube().request({ method: 'PUT', path: configMapsPath(this.kube(), name), body: { ...current, metadata } });
  this.note(`relabelled ${name}`, expectSuccess(res, `relabel ConfigMap "${name}"`).metadata.resourceVersion);
});

Then('the DELETED event for {string} carries label {string} and the resourceVersion of its relabelling', function (this: KubespecWorld, name: string, label: string) {
  const watch = this.recall<KubeWatch>('watch');
  const ev = watch.events.find((e) => e.type === 'DELETED' && e.object?.metadata?.name === name);
  assert.ok(ev, `no DELETED event for "${name}": ${shownEvents(watch)}`);
  const [k, v] = label.split('=') as [string, string];
  assert.equal(ev.object.metadata.labels?.[k], v, `the DELETED object should be the last state that matched: ${JSON.stringify(ev.object.metadata)}`);
  assert.equal(ev.object.metadata.resourceVersion, this.recall<string>(`relabelled ${name}`), 'the DELETED event should carry the resourceVersion of the write that took the object out');
});

// ---- the server ends a watch at its timeoutSeconds (WATCH-TIMEOUT) -------------------------------

Then(/^the watch "([^"]*)" (has|has not) ended$/, function (this: KubespecWorld, name: string, has: string) {
  const watch = this.recall<KubeWatch>(`watch ${name}`);
  assert.equal(watch.ended, has === 'has', `watch "${name}" ${watch.ended ? 'ended' : 'is still open'}; events: ${shownEvents(watch)}`);
});

Then(/^the watch "([^"]*)" has delivered only BOOKMARKs, the last at a resourceVersion at least that of (ConfigMap|pod) "([^"]*)"(?: at its creation)?$/, async function (this: KubespecWorld, name: string, kind: string, other: string) {
  const watch = this.recall<KubeWatch>(`watch ${name}`);
  assert.ok(watch.events.length > 0 && watch.events.every((e) => e.type === 'BOOKMARK'), `events: ${shownEvents(watch)}`);
  // A pod bound to a node that does not exist may be gone by now (the pod garbage collector's
  // orphan sweep): its creation's resourceVersion is the one the bookmark must have passed.
  const rv = BigInt(kind === 'pod' ? this.recall<string>(`created pod ${other}`) : (await getConfigMap(this.kube(), other)).metadata.resourceVersion);
  const last = BigInt(watch.events.at(-1)!.object.metadata.resourceVersion);
  assert.ok(last >= rv, `the last BOOKMARK is at ${last}, behind ConfigMap "${other}" at ${rv}: a client resuming from it would replay (or lose, to a 410) what it has already been past`);
});

/**
 * WATCH-410: upstream's errWatcher (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go,
 * newErrWatcher) sends its one ERROR event and closes, and the handler ends the response when
 * the result channel closes (endpoints/handlers/watch.go): nothing follows the 410.
 */
Then('the watch ends with that answer, and nothing follows it', async function (this: KubespecWorld) {
  const watch = this.recall<KubeWatch>('watch');
  await this.eventually('the watch to end', () => watch.ended);
  assert.equal(watch.events.length, watch.status === 200 ? 1 : 0, `nothing may follow the 410: HTTP ${watch.status}; events: ${shownEvents(watch)}`);
});

Then('the watch has delivered no BOOKMARK', function (this: KubespecWorld) {
  const watch = this.recall<KubeWatch>('watch');
  assert.equal(watch.events.filter((e) => e.type === 'BOOKMARK').length, 0, `events: ${shownEvents(watch)}`);
});

// ---- pods by spec.nodeName: the kubelet's and the scheduler's watches (WATCH-SELECTOR) ----------

/** The scenario's namespace by default; another one named (with "{ns}" expanded), or '' for every namespace. */
function podsPath(kube: KubeFacet, name?: string, namespace: string = kube.namespace): string {
  const base = collectionPath('', 'pods', namespace);
  return name ? `${base}/${encodeURIComponent(name)}` : base;
}

/**
 * A kubelet watches the pods bound to its node (spec.nodeName=<node>), the scheduler the unbound
 * ones (spec.nodeName=), both in every namespace; a client that got a BOOKMARK resumes from its
 * resourceVersion.
 */
Given(/^a client watches pods( in all namespaces)? with field selector "([^"]*)" from (?:the current resourceVersion|the last BOOKMARK of the watch "([^"]*)")(?: with "([^"]*)")?, kept as "([^"]*)"$/, async function (this: KubespecWorld, everywhere: string | null, selector: string, resumed: string | null, query: string | null, name: string) {
  const kube = this.kube();
  const collection = podsPath(kube, undefined, everywhere ? '' : kube.namespace);
  let rv: string;
  if (resumed) {
    const watch = this.recall<KubeWatch>(`watch ${resumed}`);
    const last = watch.events.filter((e) => e.type === 'BOOKMARK').at(-1);
    assert.ok(last, `the watch "${resumed}" has delivered no BOOKMARK: ${shownEvents(watch)}`);
    rv = String(last.object.metadata.resourceVersion);
  } else {
    rv = expectSuccess(await kube.request({ method: 'GET', path: `${collection}?fieldSelector=${encodeURIComponent(selector)}` }), 'list pods').metadata.resourceVersion;
  }
  const q = new URLSearchParams(query ?? '');
  q.set('watch', 'true');
  q.set('fieldSelector', selector);
  q.set('resourceVersion', rv);
  const watch = await kube.watch(`${collection}?${q.toString()}`);
  this.onCleanup(() => watch.close());
  this.note(`watch ${name}`, watch);
});

function podBody(name: string, spec: Record<string, unknown>): unknown {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { ...spec, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } };
}

async function createPod(world: KubespecWorld, name: string, spec: Record<string, unknown>, namespace?: string): Promise<void> {
  const kube = world.kube();
  const collection = podsPath(kube, undefined, namespace);
  const created = expectSuccess(await kube.request({ method: 'POST', path: collection, body: podBody(name, spec) }), `create pod "${name}"`);
  world.note(`created pod ${name}`, created.metadata.resourceVersion);
  // No kubelet runs these pods: a deletion at once is what removes them.
  world.onCleanup(() => kube.request({ method: 'DELETE', path: `${podsPath(kube, name, namespace)}?gracePeriodSeconds=0` }));
}

When(/^pods? "([^"]*)" (?:is|are) created bound to node "([^"]*)"(?: in Namespace "([^"]*)")?$/, async function (this: KubespecWorld, name: string, node: string, namespace: string | null) {
  await createPod(this, name, { nodeName: node }, namespace ? expandNs(this.kube(), namespace) : undefined);
});

// A scheduler name no scheduler answers to keeps the pod unbound on a real cluster too.
When('pod {string} is created unbound, for a scheduler named {string}', async function (this: KubespecWorld, name: string, scheduler: string) {
  await createPod(this, name, { schedulerName: scheduler });
});

/** What a scheduler does with its decision: POST the pod's binding subresource. */
When('pod {string} is bound to node {string}', async function (this: KubespecWorld, name: string, node: string) {
  const kube = this.kube();
  const body = { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
  expectSuccess(await kube.request({ method: 'POST', path: `${podsPath(kube, name)}/binding`, body }), `bind pod "${name}" to "${node}"`);
});

When(/^the client deletes pod "([^"]*)"(?: in Namespace "([^"]*)")? at once$/, async function (this: KubespecWorld, name: string, namespace: string | null) {
  const kube = this.kube();
  const path = podsPath(kube, name, namespace ? expandNs(kube, namespace) : kube.namespace);
  expectSuccess(await kube.request({ method: 'DELETE', path: `${path}?gracePeriodSeconds=0` }), `delete pod "${name}"`);
});

/** A watch as kubectl get --watch asks for it (TABLE_ACCEPT). */
When('a client watches ConfigMaps as Tables from resourceVersion {string}', async function (this: KubespecWorld, label: string) {
  const rv = this.recall<string>(label);
  const watch = await this.kube().watch(`${configMapsPath(this.kube())}?watch=true&resourceVersion=${encodeURIComponent(rv)}`, { accept: TABLE_ACCEPT });
  this.onCleanup(() => watch.close());
  this.note('watch', watch);
});
