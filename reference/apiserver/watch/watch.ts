/**
 * WATCH over HTTP: a chunked response of newline-delimited {"type","object"} events
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go).
 *
 * - resourceVersion N: events after N. If N is older than the store keeps history for, the
 *   answer is still HTTP 200, with one ERROR event whose object is a 410 Expired Status
 *   "too old resource version: N (M)" — what upstream's watch cache does: Cacher.Watch returns
 *   newErrWatcher(err) for the error of watchCache.getAllEventsSinceLocked
 *   (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go, watch_cache.go), M being the
 *   oldest resourceVersion a watch can still start from.
 * - resourceVersion "" or "0": the current objects as ADDED events first, then changes.
 *   sendInitialEvents=true does the same and ends the initial part with a BOOKMARK annotated
 *   k8s.io/initial-events-end.
 * - allowWatchBookmarks: periodic BOOKMARK events carrying only the latest resourceVersion.
 * - timeoutSeconds: the server ends the stream after that long (needs injected timers).
 */
import { customPrinter } from '../apiextensions/printer.ts';
import { convertsByWebhook, servedAs, servedAsNop } from '../apiextensions/convert.ts';
import { apiVersionOf, type ResourceDef } from '../resources/registry.ts';
import { queryBool, queryOptionalBool } from '../query-params.ts';
import { encodeWatchFrame, hasProtobuf, PROTOBUF_MEDIA_TYPE } from '../protobuf/codec.ts';
import { decodeObject } from '../storage/codec.ts';
import { ApiError, errors } from '../status.ts';
import type { Env, ResourceCall, StreamReply, WatchSink } from '../types.ts';
import { matches, parseFilter, parseResourceVersion, type Filter } from '../handlers/read.ts';
import { encodeEvent, encodeShared, sharedDecode, toWatchEvent, type ApiWatchEvent } from './events.ts';
import { fieldValue } from '../selectors/fields.ts';
import type { WatchTrigger } from '../../store/backend.ts';
import { includeObjectOf, toTable } from '../discovery/table.ts';

/** Upstream's default when the client sets no timeout: --min-request-timeout, 1800 s. */
const DEFAULT_WATCH_TIMEOUT_S = 1800;

type Transform = (ev: ApiWatchEvent) => ApiWatchEvent | Promise<ApiWatchEvent>;

interface WatchPlan {
  filter: Filter;
  prefix: string;
  /** Events before the stream goes live: initial ADDED events, or a single ERROR. */
  initial: ApiWatchEvent[];
  startRevision: number;
  expired: boolean;
  bookmarks: boolean;
  timeout_s: number;
  /** Applied to every event on its way out (version conversion, Table rendering); may be async. */
  transform?: Transform;
  /** How an event goes on the wire: a JSON line (default) or a protobuf frame. */
  encode?: (ev: ApiWatchEvent) => string | Uint8Array;
}

function bookmark(def: ResourceDef, revision: number, initialEnd = false): ApiWatchEvent {
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (initialEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  return { type: 'BOOKMARK', object: { kind: def.kind, apiVersion: apiVersionOf(def), metadata } };
}

/**
 * timeoutSeconds as apimachinery decodes it: absent is unset, but a present value, the empty one
 * too, must be a decimal integer (runtime/conversion.go Convert_Slice_string_To_Pointer_int64 →
 * strconv.ParseInt; a failure is 400 BadRequest, endpoints/handlers/get.go ListResource).
 */
function parseTimeout(raw: string | null): number {
  if (raw === null) return DEFAULT_WATCH_TIMEOUT_S;
  if (!/^\d{1,9}$/.test(raw)) throw errors.badRequest(`invalid timeoutSeconds ${JSON.stringify(raw)}`);
  return Number(raw) || DEFAULT_WATCH_TIMEOUT_S;
}

/**
 * The oldest resourceVersion a watch can start from: the store's compaction point, or the watch
 * cache's window when that has moved further (watch/cache-window.ts) — upstream answers from its
 * watch cache, so an RV that has left the window is 410 even though etcd still has it.
 */
function oldestWatchable(env: Env, def: ResourceDef): number {
  const compacted = env.backend.compactRevision() - 1;
  const windowed = env.watchCache?.oldestWatchable(env.store.prefix(def, ''));
  return windowed === undefined ? compacted : Math.max(compacted, windowed);
}

// Stryker disable all: the fault seams, switched by --fault models only (reference/faults.ts).
// Each has the form `f.has(FAULT) ? wrong : honest`, with `honest` the value it was handed, so a
// mutant here either leaves the honest value alone (nothing to catch) or turns the fault model on
// for every watch — which `kubespec selftest` shows the watch features catch — or changes only what
// the fault does. The call sites hold no seam condition of their own.
/** The watch's fault seams: each takes what the watch would do and, under its fault, does the wrong thing. */
function seams(env: Env) {
  const f = env.faults;
  return {
    /** watch-no-initial-events: a watch from "0" or no resourceVersion starts empty. */
    initialEvents: (wanted: boolean): boolean => (f.has('watch-no-initial-events') ? false : wanted),
    /** watch-never-410: a watch from a compacted resourceVersion starts silently from what is kept. */
    expired: (plan: WatchPlan): WatchPlan => (f.has('watch-never-410') ? neverExpired(plan, env.backend.compactRevision()) : plan),
    /** watch-drops-deletes: DELETED events are never sent. */
    delivers: (ev: ApiWatchEvent): boolean => (f.has('watch-drops-deletes') ? ev.type !== 'DELETED' : true),
    /** watch-no-bookmarks: no periodic BOOKMARK, whatever the client allows. */
    bookmarks: (allowed: boolean): boolean => (f.has('watch-no-bookmarks') ? false : allowed),
  };
}

/** watch-never-410's plan: an expired watch starts, without its 410, from the compaction. */
function neverExpired(plan: WatchPlan, compactRevision: number): WatchPlan {
  return plan.expired ? { ...plan, expired: false, initial: [], startRevision: compactRevision } : plan;
}
// Stryker restore all

async function planWatch(env: Env, call: ResourceCall): Promise<WatchPlan> {
  const { def, query } = call;
  const filter = parseFilter(call, env.faults);
  const prefix = env.store.prefix(def, call.info.namespace);
  const rv = parseResourceVersion(query.get('resourceVersion'));
  const sendInitial = queryOptionalBool(query, 'sendInitialEvents');
  const plan: WatchPlan = { filter, prefix, initial: [], startRevision: 0, expired: false, bookmarks: queryBool(query, 'allowWatchBookmarks'), timeout_s: parseTimeout(query.get('timeoutSeconds')) };
  const seam = seams(env);
  // Past the branch below the watch is from "now" (resourceVersion unset or "0", or sendInitialEvents=true):
  // it starts with the current objects unless sendInitialEvents=false.
  const from = rv ?? 0;
  if (from > 0 && sendInitial !== true) {
    const oldest = oldestWatchable(env, def);
    if (from < oldest) {
      plan.expired = true;
      plan.initial.push({ type: 'ERROR', object: errors.expired(`too old resource version: ${from} (${oldest})`).toStatus() });
    }
    plan.startRevision = from;
    return seam.expired(plan);
  }
  const page = await env.backend.range(prefix);
  plan.startRevision = page.revision;
  if (seam.initialEvents(sendInitial !== false)) {
    for (const kv of page.kvs) {
      const obj = decodeObject(kv);
      if (matches(filter, obj)) plan.initial.push({ type: 'ADDED', object: obj });
    }
    if (sendInitial === true) plan.initial.push(bookmark(def, page.revision, true));
  }
  return plan;
}

function startStream(env: Env, def: ResourceDef, plan: WatchPlan, sink: WatchSink): () => void {
  const seam = seams(env);
  let open = true;
  let lastRevision = plan.startRevision;
  const stops: (() => void)[] = [];
  const stop = (): void => {
    if (!open) return;
    open = false;
    for (const s of stops.splice(0)) s();
    sink.end();
  };
  const encode = plan.encode ?? encodeEvent;
  // A JSON stream to a client in this process hands over the event rather than its line.
  const writeEvent = plan.encode === undefined ? sink.writeEvent?.bind(sink) : undefined;
  const write = (ev: ApiWatchEvent): void => {
    if (!open) return;
    if (writeEvent) writeEvent(ev);
    else sink.write(encode(ev));
  };
  // Once one event waits for a conversion webhook, every later event queues behind it: order is kept.
  let queue: Promise<void> | undefined;
  const send = (ev: ApiWatchEvent): void => {
    if (!open) return;
    const out = plan.transform ? plan.transform(ev) : ev;
    if (!(out instanceof Promise) && !queue) return write(out);
    queue = (queue ?? Promise.resolve()).then(() => out).then(write, (e) => {
      // A conversion that failed ends the watch with the failure as an ERROR event.
      write({ type: 'ERROR', object: (e instanceof ApiError ? e : errors.internal(String((e as Error)?.message ?? e))).toStatus() });
      stop();
    }).catch(() => stop());
  };
  // Ends the stream once what waits in the queue has gone out: a 410 that goes through an
  // asynchronous transform (a webhook-converted custom resource's watch) is still sent, then the end.
  const finish = (): void => {
    if (queue) void queue.then(stop);
    else stop();
  };
  for (const ev of plan.initial) send(ev);
  if (plan.expired) {
    finish();
    return stop;
  }
  const trigger = nodeNameTrigger(def, plan.filter);
  const wanted = (obj: any): boolean => matches(plan.filter, obj);
  stops.push(env.backend.watch(plan.prefix, plan.startRevision + 1, {
    ...(trigger ? { trigger } : {}),
    onEvents(events, revision) {
      for (const e of events) {
        const ev = toWatchEvent(e, wanted);
        if (ev && seam.delivers(ev)) send(ev);
        lastRevision = Math.max(lastRevision, e.kv.modRevision);
      }
      lastRevision = Math.max(lastRevision, Math.min(revision, env.backend.currentRevision()));
    },
    onCancel(_reason, compactRevision) {
      const oldest = (compactRevision ?? env.backend.compactRevision()) - 1;
      send({ type: 'ERROR', object: errors.expired(`too old resource version: ${plan.startRevision} (${oldest})`).toStatus() });
      finish();
    },
  }));
  if (env.timers && open) {
    stops.push(env.timers.after(plan.timeout_s * 1000, stop));
    // A store that skipped this watcher for changes it did not want says how far it has offered them.
    const progress = () => Math.max(lastRevision, trigger?.offeredThrough?.() ?? 0);
    if (seam.bookmarks(plan.bookmarks)) stops.push(scheduleBookmarks(env, def, progress, send));
  }
  return stop;
}

/**
 * Pods' indexed trigger, as upstream's pod storage registers it (pkg/registry/core/pod/storage/
 * storage.go: TriggerFunc {"spec.nodeName": pod.NodeNameTriggerFunc}): a pod watch whose field
 * selector requires spec.nodeName to equal a value (the cacher's Watch takes the trigger value
 * from pred.Field.RequiresExactMatch, staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go)
 * asks the store for only the changes whose pod is on that node now or was before — the events
 * this watch's filter can pass. Each kubelet's watch is one such; the filter still decides.
 */
function nodeNameTrigger(def: ResourceDef, filter: Filter): WatchTrigger | undefined {
  // Stryker disable next-line all: equivalent, the trigger is an index: without it the store offers a watch every change and the filter decides the same (only pods take a spec.nodeName field selector)
  if (def.group !== '' || def.resource !== 'pods') return undefined;
  const exact = filter.fields.find((f) => f.field === NODE_NAME && f.equals);
  if (!exact) return undefined;
  return { index: NODE_NAME, value: exact.value, valueOf: (kv, revision) => fieldValue(sharedDecode(kv, revision), NODE_NAME) };
}

// Stryker disable next-line StringLiteral: equivalent, another index name matches no selector field, so no trigger (see above)
const NODE_NAME = 'spec.nodeName';

/** A BOOKMARK every interval until cancelled; returns the cancel function. */
function scheduleBookmarks(env: Env, def: ResourceDef, revision: () => number, send: (ev: ApiWatchEvent) => void): () => void {
  // Stryker disable next-line ArrowFunction: equivalent, replaced before anything can call it
  let cancelPending = (): void => {};
  const tick = (): void => {
    send(bookmark(def, revision()));
    cancelPending = env.timers!.after(env.bookmarkInterval_ms, tick);
  };
  cancelPending = env.timers!.after(env.bookmarkInterval_ms, tick);
  return () => cancelPending();
}

/** A custom resource's events in the version the watch asked for (apiextensions/convert.ts). */
function versionEvents(env: Env, def: ResourceDef): Transform {
  if (!convertsByWebhook(def)) return (ev) => (ev.type === 'BOOKMARK' || ev.type === 'ERROR' ? ev : { type: ev.type, object: servedAsNop(def, ev.object) });
  return async (ev) => (ev.type === 'BOOKMARK' || ev.type === 'ERROR' ? ev : { type: ev.type, object: await servedAs(def, ev.object, env.store.conversion) });
}

function compose(first: Transform | undefined, then: (ev: ApiWatchEvent) => ApiWatchEvent): Transform {
  if (!first) return then;
  return (ev) => {
    const out = first(ev);
    return out instanceof Promise ? out.then(then) : then(out);
  };
}

/** In Table mode each ADDED/MODIFIED/DELETED object becomes a one-row Table; only the first carries the columns. */
function tableEvents(env: Env, call: ResourceCall): (ev: ApiWatchEvent) => ApiWatchEvent {
  let first = true;
  return (ev) => {
    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
    // Stryker disable next-line OptionalChaining: equivalent, every ADDED/MODIFIED/DELETED object here is a stored one, with metadata
    const object = toTable([ev.object], { resourceVersion: (ev.object as any)?.metadata?.resourceVersion }, {
      apiVersion: call.output.tableApiVersion ?? 'meta.k8s.io/v1',
      resource: call.def.resource,
      ...(call.def.custom ? { printer: customPrinter(call.def) } : {}),
      now_ms: env.clock.now_ms(),
      includeObject: includeObjectOf(call.query.get('includeObject')),
      withColumns: first,
    });
    first = false;
    return { type: ev.type, object };
  };
}

export async function watch(env: Env, call: ResourceCall, asTable = false): Promise<StreamReply> {
  const plan = await planWatch(env, call);
  if (call.def.custom) plan.transform = versionEvents(env, call.def);
  if (asTable) plan.transform = compose(plan.transform, tableEvents(env, call));
  const protobuf = !asTable && call.output.preferred === 'protobuf' && hasProtobuf(apiVersionOf(call.def), call.def.kind);
  if (!asTable && !protobuf && !call.output.jsonOk) throw errors.notAcceptable(['application/json']);
  if (protobuf) plan.encode = protobufFrame;
  return {
    kind: 'stream',
    status: 200,
    headers: { 'content-type': protobuf ? `${PROTOBUF_MEDIA_TYPE};stream=watch` : 'application/json', 'cache-control': 'no-cache, private' },
    start: (sink) => startStream(env, call.def, plan, sink),
  };
}

/**
 * A protobuf watch frame, made once for all the watchers of a shared event (events.ts); an event
 * whose object has no protobuf form (a Status) is one still.
 */
function protobufFrame(ev: ApiWatchEvent): Uint8Array {
  // Stryker disable next-line StringLiteral: equivalent, the encode cache's key only ('' is still apart from 'json')
  return encodeShared(ev, 'protobuf', encodeProtobufFrame);
}

function encodeProtobufFrame(ev: ApiWatchEvent): Uint8Array {
  return encodeWatchFrame(ev.type, ev.object) ?? encodeWatchFrame(ev.type, errors.internal('object has no protobuf form').toStatus())!;
}
