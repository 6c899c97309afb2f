/**
 * PATCH (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go): JSON Patch, JSON merge
 * patch, strategic merge patch and server-side apply. The patched object goes through the same
 * decode, admission, validation and compare-and-swap as an update; a conflicting concurrent
 * write makes the patch re-apply to the fresh object (patches carry no resourceVersion unless
 * the client put one in).
 */
import { headerValue, isPlainObject, mediaType, parseJsonBody, parseYamlBody } from '../negotiation.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { applyStrategicMergePatch } from '../patch/strategic-merge.ts';
import { serverSideApply } from '../patch/apply.ts';
import { PatchError } from '../patch/errors.ts';
import { apiVersionOf } from '../resources/registry.ts';
import { ApiError, errors, invalid } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { createDecoded, decodeStage } from './create.ts';
import { decodeResource, requestOptions, type FieldValidation } from './decode.ts';
import { guaranteedUpdate } from './guaranteed-update.ts';
import { rfc3339 } from './prepare.ts';

export const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml', 'application/strategic-merge-patch+json'];

type PatchFn = (current: any) => unknown;

function patchFailure(e: unknown): never {
  if (e instanceof PatchError) {
    if (e.kind === 'malformed') throw errors.badRequest(e.message);
    throw new ApiError(422, 'Invalid', e.message);
  }
  throw e;
}

function patcherFor(call: ResourceCall, type: string, text: string): PatchFn {
  const { def } = call;
  if (type === 'application/json-patch+json') {
    const ops = parseJsonBody(text, 'json: cannot unmarshal patch');
    return (current) => applyJsonPatch(current, ops);
  }
  const patch = parseJsonBody(text, 'json: cannot unmarshal patch');
  if (!isPlainObject(patch)) throw errors.badRequest(`json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`);
  if (type === 'application/merge-patch+json') return (current) => applyMergePatch(current, patch);
  return (current) => applyStrategicMergePatch(current, patch, def.schema);
}

/** Re-checks the patched object as if it had been sent whole; identity must not move. */
function checkPatched(call: ResourceCall, patched: unknown, fv: FieldValidation): any {
  const { def, info } = call;
  const obj = decodeStage(call, () => decodeResource(call, def, patched, fv));
  if (obj.metadata.name !== info.name) {
    throw errors.badRequest(`the name of the object (${String(obj.metadata.name ?? '')}) does not match the name on the URL (${info.name})`);
  }
  if (def.namespaced && (obj.metadata.namespace ?? '') !== info.namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  return obj;
}

export async function patch(env: Env, call: ResourceCall, subresource: '' | 'status'): Promise<Reply> {
  const contentType = headerValue(call.req.headers, 'content-type');
  const type = mediaType(contentType);
  // Custom resources have no strategic-merge metadata: upstream's CR handler refuses the type (415)
  // and lists the other three (customresource_handler.go: supportedTypes).
  const accepted = call.def.custom ? PATCH_TYPES.filter((t) => t !== 'application/strategic-merge-patch+json') : PATCH_TYPES;
  if (!accepted.includes(type)) throw errors.unsupportedMediaType(contentType, accepted);
  const opts = requestOptions(call, 'PatchOptions');
  const text = Buffer.from(call.req.body).toString('utf8');
  if (type === 'application/apply-patch+yaml') return apply(env, call, subresource, text, opts);
  const patcher = decodeStage(call, () => patcherFor(call, type, text));
  return guaranteedUpdate(env, call, {
    name: call.info.name,
    namespace: call.info.namespace,
    subresource,
    dryRun: opts.dryRun,
    compute: (current) => {
      let patched: unknown;
      try {
        patched = patcher(current);
      } catch (e) {
        call.trace.reject('schema-validation', `patch: ${(e as Error).message}`);
        patchFailure(e);
      }
      return checkPatched(call, patched, opts.fieldValidation);
    },
  });
}

async function apply(env: Env, call: ResourceCall, subresource: '' | 'status', text: string, opts: { fieldValidation: FieldValidation; dryRun: boolean }): Promise<Reply> {
  const { def, info } = call;
  const manager = call.query.get('fieldManager') ?? '';
  if (!manager) throw invalid('meta.k8s.io', 'PatchOptions', '', [{ type: 'Required', field: 'fieldManager', detail: 'is required for apply patch' }]);
  const applied = decodeStage(call, () => {
    const body = parseYamlBody(text);
    if (!isPlainObject(body)) throw errors.badRequest('error decoding YAML: the applied configuration must be an object');
    if (!body.apiVersion) throw errors.badRequest('apiVersion must be set in the applied configuration');
    if (!body.kind) throw errors.badRequest('kind must be set in the applied configuration');
    return decodeResource(call, def, body, opts.fieldValidation);
  });
  if (applied.metadata.name && applied.metadata.name !== info.name) {
    throw errors.badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${info.name})`);
  }
  applied.metadata.name = info.name;
  const time = rfc3339(env.clock.now_ms());
  const base = { manager, schema: def.schema, apiVersion: apiVersionOf(def), time };
  return guaranteedUpdate(env, call, {
    name: info.name,
    namespace: info.namespace,
    subresource,
    dryRun: opts.dryRun,
    compute: (current) => checkPatched(call, serverSideApply({ ...base, live: current, applied }), opts.fieldValidation),
    whenMissing: async () => {
      const created = serverSideApply({ ...base, live: undefined, applied });
      return createDecoded(env, call, created, opts.dryRun);
    },
  });
}

export { patchFailure };
