/** Routes a resource request to its handler by verb and subresource; unknown paths are 404, unsupported verbs 405. */
import { customPrinter } from '../apiextensions/printer.ts';
import { hasProtobuf, PROTOBUF_MEDIA_TYPE } from '../protobuf/codec.ts';
import { apiVersionOf, findResource, type ResourceDef } from '../resources/registry.ts';
import { errors } from '../status.ts';
import { includeObjectOf, toTable } from '../discovery/table.ts';
import type { Answer, Call, Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { watch } from '../watch/watch.ts';
import { deleteCollection } from './collection.ts';
import { create } from './create.ts';
import { remove } from './delete.ts';
import { patch } from './patch.ts';
import { bind, evict } from './pod-subresources.ts';
import { podLog } from './pod-log.ts';
import { get, list } from './read.ts';
import { accessReview } from './reviews.ts';
import { getScale, writeScale } from './scale.ts';
import { requestToken } from './serviceaccount-token.ts';
import { update } from './update.ts';
import { findCustomResource } from '../apiextensions/served.ts';

export async function resolveResource(env: Env, call: Call): Promise<ResourceDef> {
  const { info } = call;
  // Built-ins first; a path none of them serves may be a custom resource (apiextensions/served.ts).
  const def = !info.isResourceRequest ? undefined
    : (findResource(info.apiGroup, info.apiVersion, info.resource) ?? (await findCustomResource(env, info.apiGroup, info.apiVersion, info.resource)));
  if (!def) throw errors.pathNotFound(call.path);
  // A cluster-scoped resource has no namespaced path (namespaces themselves aside).
  if (!def.namespaced && info.namespace && def.resource !== 'namespaces') throw errors.pathNotFound(call.path);
  return def;
}

/** Turns a get or list reply into a Table (errors pass through unchanged). */
function asTable(env: Env, call: ResourceCall, r: Reply): Reply {
  if (r.status !== 200) return r;
  const body = r.body as any;
  const isList = Array.isArray(body?.items);
  const objects = isList ? body.items : [body];
  const meta = isList ? body.metadata : { resourceVersion: body?.metadata?.resourceVersion };
  return reply(200, toTable(objects, meta, {
    apiVersion: call.output.tableApiVersion ?? 'meta.k8s.io/v1',
    resource: call.def.resource,
    ...(call.def.custom ? { printer: customPrinter(call.def) } : {}),
    now_ms: env.clock.now_ms(),
    includeObject: includeObjectOf(call.query.get('includeObject')),
    withColumns: true,
  }));
}

function notAllowed(call: ResourceCall, action: string): never {
  throw errors.methodNotSupported(call.def.group, call.def.resource, action);
}

async function subresource(env: Env, call: ResourceCall): Promise<Answer> {
  const { def, info, method } = call;
  const sub = def.subresources.find((s) => s.name === info.subresource);
  if (!sub || !info.name) throw errors.pathNotFound(call.path);
  const m = method === 'HEAD' ? 'GET' : method;
  switch (`${sub.name} ${m}`) {
    case 'status GET':
      return get(env, call);
    case 'status PUT':
      return update(env, call, 'status');
    case 'status PATCH':
      return patch(env, call, 'status');
    case 'scale GET':
      return getScale(env, call);
    case 'scale PUT':
    case 'scale PATCH':
      return writeScale(env, call, m);
    case 'binding POST':
      return bind(env, call);
    case 'eviction POST':
      return evict(env, call);
    case 'log GET':
      return podLog(env, call);
    case 'token POST':
      return requestToken(env, call);
    case 'finalize PUT':
      return update(env, call, 'finalize');
    // A CertificateSigningRequest's approval writes its status conditions (pkg/registry/certificates).
    case 'approval GET':
      return get(env, call);
    case 'approval PUT':
      return update(env, call, 'status');
    case 'approval PATCH':
      return patch(env, call, 'status');
    default:
      return notAllowed(call, info.verb);
  }
}

/** get, list and watch may answer with a Table; everything else speaks JSON only. */
function readsAsTable(call: ResourceCall): boolean {
  const reads = !call.info.subresource && ['get', 'list', 'watch'].includes(call.info.verb);
  if (!reads && !call.output.jsonOk && !call.output.protobufOk) throw errors.notAcceptable(['application/json', PROTOBUF_MEDIA_TYPE]);
  // A client that takes protobuf only, for a kind with no protobuf form here, is refused before
  // anything is done (upstream negotiates the output before the handler runs).
  if (call.output.preferred === 'protobuf' && !call.output.jsonOk && !answersInProtobuf(call)) throw errors.notAcceptable(['application/json']);
  return reads && call.output.preferred === 'table';
}

/** Whether the kind this request answers with (the subresource's, if it speaks another) has a protobuf form. */
function answersInProtobuf(call: ResourceCall): boolean {
  const sub = call.def.subresources.find((x) => x.name === call.info.subresource);
  if (sub?.group !== undefined || (sub && sub.kind !== call.def.kind)) return hasProtobuf(apiVersionOf({ group: sub.group ?? call.def.group, version: sub.version ?? call.def.version }), sub.kind);
  return hasProtobuf(apiVersionOf(call.def), call.def.kind);
}

export async function handleResource(env: Env, base: Call): Promise<Answer> {
  const call: ResourceCall = { ...base, def: await resolveResource(env, base) };
  const { def, info } = call;
  const table = readsAsTable(call);
  if (info.subresource) return subresource(env, call);
  const verb = info.verb;
  if (!(def.verbs as string[]).includes(verb)) return notAllowed(call, verb);
  const named = info.name !== '';
  switch (verb) {
    case 'get':
      return table ? asTable(env, call, await get(env, call)) : get(env, call);
    case 'list':
      return table ? asTable(env, call, await list(env, call)) : list(env, call);
    case 'watch':
      return watch(env, call, table);
    case 'create':
      if (named) return notAllowed(call, verb);
      return def.virtual ? accessReview(env, call) : create(env, call);
    case 'update':
      return named ? update(env, call, '') : notAllowed(call, verb);
    case 'patch':
      return named ? patch(env, call, '') : notAllowed(call, verb);
    case 'delete':
      return remove(env, call);
    case 'deletecollection':
      // Upstream serves deletecollection only on a namespace's collection for namespaced kinds.
      if (def.namespaced && !info.namespace) return notAllowed(call, verb);
      return deleteCollection(env, call);
    default:
      return notAllowed(call, verb);
  }
}
