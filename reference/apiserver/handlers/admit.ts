/**
 * The stages between authorization and storage, in upstream's order: mutating admission →
 * object (schema) validation → validating admission. The notes (000 § API Server / 请求处理链)
 * put schema validation after validating admission; upstream does not: the create handler runs
 * the mutating chain, then registry Store.create calls rest.BeforeCreate — which runs the type's
 * strategy Validate — and only then createValidation, the validating admission chain
 * (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go, create and Update:
 * "at this point we have a fully formed object. It is time to call the validators that the
 * apiserver handling chain wants to enforce"). So a validating webhook only ever sees a valid
 * object. Each stage is recorded in the trace; a plugin denies by throwing AdmissionDenied.
 */
import { AdmissionDenied, type AdmissionAttributes, type Operation } from '../pipeline.ts';
import type { ResourceDef } from '../resources/registry.ts';
import { validateObject, validateUpdate } from '../resources/validation.ts';
import { ApiError, errors, invalid } from '../status.ts';
import type { Call, Env } from '../types.ts';
import { schemaFieldErrors } from './decode.ts';
import { preventEscalation } from './rbac-escalation.ts';
import { crdStatus } from '../apiextensions/crd.ts';
import { storedCrds } from '../apiextensions/served.ts';
import { rfc3339 } from '../../timestamps.ts';

export interface AdmissionTarget {
  operation: Operation;
  /** The kind the request speaks (Pod, or Binding/Scale/Eviction for those subresources). */
  kind: { group: string; version: string; kind: string };
  subresource: string;
  namespace: string;
  name: string;
  object: any;
  oldObject?: any;
  dryRun: boolean;
}

/**
 * The attributes' callbacks, made per stage: two closures cost less than a WeakMap entry per
 * request (an ephemeron the GC must trace). Returned unnamed from these helpers: tsx compiles
 * with esbuild's keepNames, which names a closure bound to a name (`const warn = …`, `{ warn: … }`)
 * through Object.defineProperty each time one is made.
 */
function warnerOf(call: Call): (message: string) => void {
  return (message) => void call.warnings.push(message);
}

function annotatorOf(call: Call): (key: string, value: string) => void {
  return (key, value) => call.trace.annotate(key, value);
}

function attributesFor(call: Call, def: ResourceDef, t: AdmissionTarget): AdmissionAttributes {
  const warn = warnerOf(call);
  const annotate = annotatorOf(call);
  const attrs: AdmissionAttributes = {
    operation: t.operation,
    kind: t.kind,
    resource: { group: def.group, version: def.version, resource: def.resource },
    subresource: t.subresource,
    namespace: t.namespace,
    name: t.name,
    user: call.user,
    object: t.object,
    dryRun: t.dryRun,
    warn,
    annotate,
  };
  if (t.oldObject !== undefined) attrs.oldObject = t.oldObject;
  return attrs;
}

function denial(e: unknown, plugin: string): ApiError {
  if (e instanceof AdmissionDenied) return new ApiError(e.code, e.reason, e.message);
  if (e instanceof ApiError) return e;
  return errors.internal(`admission plugin ${JSON.stringify(plugin)} failed: ${(e as Error)?.message ?? String(e)}`);
}

export async function mutatingAdmission(env: Env, call: Call, def: ResourceDef, t: AdmissionTarget): Promise<void> {
  const attrs = attributesFor(call, def, t);
  for (const p of env.mutating) {
    if (p.handles !== undefined && !p.handles(attrs)) continue;
    try {
      await p.admit(attrs);
    } catch (e) {
      call.trace.reject('mutating-admission', p.name);
      throw denial(e, p.name);
    }
  }
  t.object = attrs.object;
  call.trace.pass('mutating-admission', env.mutating.map((p) => p.name).join(',') || 'no plugins');
}

export async function validatingAdmission(env: Env, call: Call, def: ResourceDef, t: AdmissionTarget): Promise<void> {
  const attrs = attributesFor(call, def, t);
  for (const p of env.validating) {
    if (p.handles !== undefined && !p.handles(attrs)) continue;
    try {
      await p.validate(attrs);
    } catch (e) {
      call.trace.reject('validating-admission', p.name);
      throw denial(e, p.name);
    }
  }
  call.trace.pass('validating-admission', env.validating.map((p) => p.name).join(',') || 'no plugins');
}

/** The object's schema and semantic checks; 422 Invalid with one cause per field. */
export function schemaValidation(call: Call, def: ResourceDef, obj: any, old?: any): void {
  const schemaCheck = schemaFieldErrors(def, obj);
  // Semantic checks read fields by their declared types, so they only run on a well-typed object.
  const errs = schemaCheck.typesOk ? [...schemaCheck.errs, ...validateObject(def, obj), ...(old ? validateUpdate(def, obj, old) : [])] : schemaCheck.errs;
  if (errs.length > 0) {
    call.trace.reject('schema-validation', `${errs.length} field error(s)`);
    throw invalid(def.group, def.kind, String(obj?.metadata?.name ?? obj?.metadata?.generateName ?? ''), errs);
  }
  call.trace.pass('schema-validation', def.kind);
}

/** All three, for a write of the resource itself, in upstream's order (see the file comment). */
export async function admitAndValidate(env: Env, call: Call, def: ResourceDef, t: AdmissionTarget): Promise<any> {
  // Fault admission-order-swapped (reference/faults.ts): validators see the object before mutation.
  if (env.faults.has('admission-order-swapped')) await validatingAdmission(env, call, def, t);
  await mutatingAdmission(env, call, def, t);
  // Where upstream's RBAC policy-based storage sits: after mutation, before the object is validated.
  await preventEscalation(env, call, def, t);
  // Status and binding writes never touch spec, and binding is the one way to set spec.nodeName.
  const checkUpdate = t.operation === 'UPDATE' && t.subresource === '' ? t.oldObject : undefined;
  // Fault schema-validation-skipped: the object goes on to validating admission and storage unchecked.
  if (!env.faults.has('schema-validation-skipped')) schemaValidation(call, def, t.object, checkUpdate);
  if (!env.faults.has('admission-order-swapped')) await validatingAdmission(env, call, def, t);
  if (def.resource === 'customresourcedefinitions' && !def.custom && t.subresource === '') await establish(env, t.object);
  return t.object;
}

/**
 * What upstream's naming and establishing controllers write into a CRD's status after its write
 * (apiextensions/crd.ts crdStatus), done here as part of the write itself.
 */
async function establish(env: Env, crd: any): Promise<void> {
  crd.status = crdStatus(crd, await storedCrds(env), rfc3339(env.clock.now_ms()));
}
