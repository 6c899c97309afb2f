/**
 * The /scale subresource of deployments and replicasets: an autoscaling/v1 Scale view of
 * spec.replicas, status.replicas and the selector (pkg/registry/apps/deployment/storage
 * ScaleREST). Writing it changes spec.replicas under the same optimistic concurrency.
 */
import { decodeBody, headerValue, isPlainObject, mediaType, parseJsonBody } from '../negotiation.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { PATCH_TYPES, patchFailure } from './patch.ts';
import { SUBRESOURCE_SCHEMAS, type ResourceDef } from '../resources/registry.ts';
import { formatRequirements, requirementsOf } from '../selectors/labels.ts';
import { errors } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { decodeStage } from './create.ts';
import { decodeTyped, requestOptions } from './decode.ts';
import { guaranteedUpdate } from './guaranteed-update.ts';

/** A JSON path of the form CRDs use for scale (`.spec.replicas`), read or written. */
function pathParts(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function readPath(obj: any, path: string): unknown {
  return pathParts(path).reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), obj);
}

function writePath(obj: any, path: string, value: unknown): any {
  const parts = pathParts(path);
  const out = { ...obj };
  let cur = out;
  parts.forEach((k, i) => {
    if (i === parts.length - 1) cur[k] = value;
    else cur = cur[k] = { ...(cur[k] && typeof cur[k] === 'object' ? cur[k] : {}) };
  });
  return out;
}

/**
 * A custom resource's Scale, from the paths its CRD names (customresource/scale.go): replicas at
 * specReplicasPath and statusReplicasPath, the selector as the string at labelSelectorPath.
 */
function customScaleOf(def: ResourceDef, obj: any): any {
  const paths = def.custom!.scale!;
  const meta = obj.metadata;
  const status: Record<string, unknown> = { replicas: readPath(obj, paths.statusReplicasPath) ?? 0 };
  const selector = paths.labelSelectorPath ? readPath(obj, paths.labelSelectorPath) : undefined;
  if (typeof selector === 'string') status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp },
    spec: { replicas: readPath(obj, paths.specReplicasPath) ?? 0 },
    status,
  };
}

function scaleFor(def: ResourceDef, obj: any): any {
  return def.custom?.scale ? customScaleOf(def, obj) : scaleOf(obj);
}

export function scaleOf(obj: any): any {
  const meta = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp },
    spec: { replicas: obj.spec?.replicas ?? 0 },
    status: { replicas: obj.status?.replicas ?? 0, selector: formatRequirements(requirementsOf(obj.spec?.selector)) },
  };
}

export async function getScale(env: Env, call: ResourceCall): Promise<Reply> {
  const found = await env.store.mustGet(call.def, call.info.namespace, call.info.name);
  return reply(200, scaleFor(call.def, found.obj));
}

function scaleFromBody(call: ResourceCall, current: any, method: string): any {
  const body = call.req.body;
  const contentType = headerValue(call.req.headers, 'content-type');
  if (method === 'PUT') return decodeBody(contentType, body);
  const type = mediaType(contentType);
  if (!PATCH_TYPES.includes(type) || type === 'application/apply-patch+yaml') throw errors.unsupportedMediaType(contentType, PATCH_TYPES.filter((t) => !t.includes('apply')));
  const patch = parseJsonBody(Buffer.from(body).toString('utf8'), 'json: cannot unmarshal patch');
  try {
    if (type === 'application/json-patch+json') return applyJsonPatch(scaleFor(call.def, current), patch);
    if (!isPlainObject(patch)) throw errors.badRequest('json: cannot unmarshal patch into Go value of type map[string]interface {}');
    return applyMergePatch(scaleFor(call.def, current), patch);
  } catch (e) {
    return patchFailure(e);
  }
}

export async function writeScale(env: Env, call: ResourceCall, method: string): Promise<Reply> {
  const opts = requestOptions(call, method === 'PUT' ? 'UpdateOptions' : 'PatchOptions');
  const result = await guaranteedUpdate(env, call, {
    name: call.info.name,
    namespace: call.info.namespace,
    subresource: '',
    dryRun: opts.dryRun,
    compute: (current) => {
      const scale = decodeStage(call, () => decodeTyped(call, scaleFromBody(call, current, method), 'Scale', 'autoscaling', 'v1', SUBRESOURCE_SCHEMAS.Scale!, opts.fieldValidation));
      const replicas = scale.spec?.replicas;
      if (typeof replicas === 'number' && replicas < 0) throw errors.badRequest(`Scale.autoscaling "${call.info.name}" is invalid: spec.replicas: Invalid value: ${replicas}: must be greater than or equal to 0`);
      const rv = scale.metadata?.resourceVersion;
      const metadata = { ...current.metadata, resourceVersion: rv || current.metadata.resourceVersion };
      if (call.def.custom?.scale) return writePath({ ...current, metadata }, call.def.custom.scale.specReplicasPath, replicas ?? 0);
      return { ...current, metadata, spec: { ...current.spec, replicas: replicas ?? 0 } };
    },
  });
  return reply(result.status, scaleFor(call.def, result.body));
}
