/**
 * POST to a collection: decode → namespace checks → PrepareForCreate → mutating admission →
 * schema validation → validating admission → compare-and-swap create (201). Upstream:
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go and registry/generic/registry/store.go Create.
 */
import { parseStored } from '../storage/codec.ts';
import { headerValue, decodeBody } from '../negotiation.ts';
import { findResource, type ResourceDef } from '../resources/registry.ts';
import { allocateServiceAddresses, usedAddresses } from '../resources/services.ts';
import { ApiError, errors } from '../status.ts';
import type { StoredObject } from '../storage/object-store.ts';
import type { Call, Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { admitAndValidate } from './admit.ts';
import { decodeResource, requestOptions } from './decode.ts';
import { generateName, prepareForCreate } from './prepare.ts';

const NAMESPACES = findResource('', 'v1', 'namespaces')!;

/** Decoding failures are recorded against schema validation: the body never reached admission. */
export function decodeStage<T>(call: ResourceCall, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    call.trace.reject('schema-validation', `decode: ${(e as Error).message}`);
    throw e;
  }
}

export async function ensureNamespaceExists(env: Env, namespace: string): Promise<void> {
  if (!(await env.store.exists(NAMESPACES, '', namespace))) throw errors.notFound('', 'namespaces', namespace);
}

/** Checks the object's namespace against the URL's and sets it (cluster-scoped objects have none). */
export function placeInNamespace(def: ResourceDef, obj: any, namespace: string): void {
  if (!def.namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  obj.metadata.namespace = namespace;
}

/**
 * A CertificateSigningRequest records who asked, whatever the body says, and starts with no
 * status: no one creates a pre-approved request (pkg/registry/certificates/certificates/strategy.go
 * PrepareForCreate). The approver and signer judge the request by this requester.
 */
function stampRequester(csr: any, user: Call['user']): void {
  csr.spec = { ...(csr.spec ?? {}), username: user.name, groups: [...user.groups] };
  if (user.uid) csr.spec.uid = user.uid;
  else delete csr.spec.uid;
  delete csr.spec.extra;
  delete csr.status;
}

/** Everything after decoding; shared with server-side apply's create-if-missing. */
export async function createDecoded(env: Env, call: ResourceCall, obj: any, dryRun: boolean): Promise<Reply> {
  const { def, info } = call;
  if (def.namespaced && !info.namespace) throw errors.methodNotSupported(def.group, def.resource, 'create');
  placeInNamespace(def, obj, info.namespace);
  const generated = !obj.metadata.name && Boolean(obj.metadata.generateName);
  prepareForCreate(env, def, obj);
  if (def.resource === 'certificatesigningrequests' && !def.custom) stampRequester(obj, call.user);
  if (def.namespaced) await ensureNamespaceExists(env, info.namespace);
  if (def.resource === 'services') return env.allocationLock.run(() => admitAndStore(env, call, obj, dryRun, generated));
  return admitAndStore(env, call, obj, dryRun, generated);
}

/** Admission, validation and the write (a module function, not a closure made per request). */
async function admitAndStore(env: Env, call: ResourceCall, obj: any, dryRun: boolean, generated: boolean): Promise<Reply> {
  const { def, info } = call;
  if (def.resource === 'services') {
    const all = await env.store.range(env.store.prefix(def, ''), {}, '');
    allocateServiceAddresses(obj, usedAddresses(all.kvs.map((kv) => parseStored(kv.value))));
  }
  const admitted = await admitAndValidate(env, call, def, {
    operation: 'CREATE',
    kind: { group: def.group, version: def.version, kind: def.kind },
    subresource: '',
    namespace: info.namespace,
    name: obj.metadata.name ?? '',
    object: obj,
    dryRun,
  });
  if (dryRun) {
    call.trace.pass('storage', 'dry run: not written');
    return reply(201, admitted);
  }
  const stored = await storageStage(call, () => storeWithGeneratedName(env, def, admitted, generated));
  call.trace.pass('storage', `created at revision ${stored.kv.modRevision}`);
  return reply(201, stored.obj);
}

/**
 * Upstream's Store.Create tries up to maxNameGenerationCreateAttempts (8) names when the client
 * gave only metadata.generateName (createWithGenerateNameRetry in
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go, feature RetryGenerateName,
 * on by default since 1.30): a taken name is the server's bad luck, not the client's collision.
 * When all are taken the answer is AlreadyExists saying the server could not generate a unique
 * name (rest.CheckGeneratedNameError). A controller creating pods by generateName must not read
 * a 409 as "already there": no pod was made. (Here admission ran once, on the first name drawn.)
 */
const MAX_NAME_GENERATION_CREATE_ATTEMPTS = 8;

async function storeWithGeneratedName(env: Env, def: ResourceDef, obj: any, generated: boolean): Promise<StoredObject> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await env.store.create(def, obj);
    } catch (e) {
      if (!generated || !(e instanceof ApiError) || e.reason !== 'AlreadyExists') throw e;
      if (attempt >= MAX_NAME_GENERATION_CREATE_ATTEMPTS) throw errors.generateNameConflict(def.group, def.resource, obj.metadata.name);
      obj = { ...obj, metadata: { ...obj.metadata, name: generateName(env, String(obj.metadata.generateName)) } };
    }
  }
}

/** Runs a store write, recording a refusal (AlreadyExists, Conflict) against the storage stage. */
export async function storageStage<T>(call: ResourceCall, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    call.trace.reject('storage', (e as Error).message);
    throw e;
  }
}

export async function create(env: Env, call: ResourceCall): Promise<Reply> {
  const opts = requestOptions(call, 'CreateOptions');
  const obj = decodeStage(call, () => decodeResource(call, call.def, decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body), opts.fieldValidation));
  return createDecoded(env, call, obj, opts.dryRun);
}
