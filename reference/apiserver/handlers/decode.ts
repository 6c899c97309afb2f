/**
 * From request body to a typed-enough object: the envelope (apiVersion/kind) must be the
 * resource's, wrong JSON types are decode errors, and unknown fields are handled by the
 * request's fieldValidation directive (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
 * rest.go; the strict error text is runtime.NewStrictDecodingError's
 * `strict decoding error: unknown field "spec.foo"`, wrapped as
 * `Pod in version "v1" cannot be handled as a Pod: ...`). Duplicate keys count as strict errors too
 * (`duplicate field "data.a"`, see duplicate-fields.ts).
 */
import { duplicateFieldsOf } from '../duplicate-fields.ts';
import { isPlainObject } from '../negotiation.ts';
import type { ResourceDef } from '../resources/registry.ts';
import { checkAgainstSchema } from '../schema/validate.ts';
import type { Schema } from '../schema/types.ts';
import { kindSchema, objectMeta } from '../resources/schemas/meta.ts';
import { prune, validate as validateStructural } from '../apiextensions/structural.ts';

/** What a custom resource shares with every kind: apiVersion, kind, ObjectMeta; the rest is the CRD's. */
const CUSTOM_ENVELOPE: Schema = { ...kindSchema({}), 'x-kubernetes-preserve-unknown-fields': true };

import { ApiError, errors, invalid, type FieldError } from '../status.ts';
import type { Call } from '../types.ts';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** CreateOptions / UpdateOptions / PatchOptions validation (apimachinery meta/v1/validation). */
export function requestOptions(call: Call, optionsKind: string): { fieldValidation: FieldValidation; dryRun: boolean } {
  const errs: FieldError[] = [];
  const fv = call.query.get('fieldValidation') ?? '';
  if (fv !== '' && fv !== 'Ignore' && fv !== 'Warn' && fv !== 'Strict') {
    errs.push({ type: 'NotSupported', field: 'fieldValidation', value: fv, detail: 'supported values: "Ignore", "Strict", "Warn"' });
  }
  const dryRun = call.query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) errs.push({ type: 'NotSupported', field: 'dryRun', value: dryRun, detail: 'supported values: "All"' });
  const fm = call.query.get('fieldManager') ?? '';
  if (fm.length > 128) errs.push({ type: 'TooLong', field: 'fieldManager', detail: 'may not be more than 128 characters' });
  if (errs.length > 0) throw invalid('meta.k8s.io', optionsKind, '', errs);
  return { fieldValidation: (fv || 'Warn') as FieldValidation, dryRun: dryRun.length > 0 };
}

export function cannotHandle(kind: string, version: string, why: string): ApiError {
  return errors.badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${why}`);
}

/** Checks envelope and schema; returns the object with unknown fields pruned (or throws under Strict). */
export function decodeTyped(call: Call, body: unknown, kind: string, group: string, version: string, schema: Schema, fv: FieldValidation): any {
  if (!isPlainObject(body)) throw errors.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type struct { APIVersion string; Kind string }`);
  const expectedApiVersion = group ? `${group}/${version}` : version;
  if (body.apiVersion !== undefined && body.apiVersion !== expectedApiVersion) {
    throw errors.badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expectedApiVersion})`);
  }
  if (body.kind !== undefined && body.kind !== kind) {
    throw errors.badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (${kind})`);
  }
  const checked = checkAgainstSchema(body, schema);
  if (checked.typeErrors.length > 0) throw cannotHandle(kind, version, checked.typeErrors[0]!.message);
  const problems = strictProblems(checked.unknownFields, duplicateFieldsOf(body));
  if (problems.length > 0 && fv === 'Strict') throw cannotHandle(kind, version, `strict decoding error: ${problems.join(', ')}`);
  if (fv === 'Warn') call.warnings.push(...problems);
  const obj = checked.value as any;
  obj.apiVersion = expectedApiVersion;
  obj.kind = kind;
  if (!isPlainObject(obj.metadata)) obj.metadata = {};
  return obj;
}

/**
 * What the strict decoder reports: unknown fields, then duplicated ones (duplicate-fields.ts).
 * A key repeated inside an unknown field is not decoded at all, so only the unknown field counts
 * (as upstream's field-validation tests expect: `unknown field "spec.unknownDupe"` once).
 */
function strictProblems(unknownFields: readonly string[], duplicates: readonly string[]): string[] {
  // Nearly every body has neither: no arrays, no closures (tsx's keepNames names a bound closure per call).
  if (unknownFields.length === 0 && duplicates.length === 0) return [];
  return [
    ...unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`),
    ...duplicates.filter((d) => !insideUnknown(unknownFields, d)).map((d) => `duplicate field ${JSON.stringify(d)}`),
  ];
}

function insideUnknown(unknownFields: readonly string[], path: string): boolean {
  return unknownFields.some((u) => path === u || path.startsWith(`${u}.`) || path.startsWith(`${u}[`));
}

export function decodeResource(call: Call, def: ResourceDef, body: unknown, fv: FieldValidation): any {
  if (def.custom) return decodeCustom(call, def, body, fv);
  return decodeTyped(call, body, def.kind, def.group, def.version, def.schema, fv);
}

/**
 * A custom resource: the envelope as for a built-in, metadata typed as ObjectMeta, everything
 * else pruned against the CRD's structural schema (apiextensions/structural.ts). A value of the
 * wrong type is not a decode error here but a 422 from validation, as upstream's unstructured
 * decoding leaves types to the schema validator.
 */
function decodeCustom(call: Call, def: ResourceDef, body: unknown, fv: FieldValidation): any {
  const withMeta = decodeTyped(call, body, def.kind, def.group, def.version, CUSTOM_ENVELOPE, 'Ignore');
  const obj = { ...(body as Record<string, unknown>), apiVersion: withMeta.apiVersion, kind: withMeta.kind, metadata: withMeta.metadata };
  const unknownMeta = checkAgainstSchema((body as any).metadata ?? {}, objectMeta, false).unknownFields.map((f) => `metadata.${f}`);
  const problems = strictProblems([...unknownMeta, ...prune(obj, def.custom!.openAPIV3Schema)], duplicateFieldsOf(body));
  if (problems.length > 0 && fv === 'Strict') throw cannotHandle(def.kind, def.version, `strict decoding error: ${problems.join(', ')}`);
  if (fv === 'Warn') call.warnings.push(...problems);
  return obj;
}

/**
 * What the schema says about an object after admission: wrong types (a mutating plugin may have
 * introduced them) and missing required fields, as field errors for the validation stage.
 */
export function schemaFieldErrors(def: ResourceDef, obj: unknown): { errs: FieldError[]; typesOk: boolean } {
  if (def.custom) return { errs: validateStructural(obj, def.custom.openAPIV3Schema), typesOk: true };
  const checked = checkAgainstSchema(obj, def.schema, false);
  const typeErrs: FieldError[] = checked.typeErrors.map((t) => ({ type: 'Invalid', field: t.path || '<root>', detail: t.message }));
  return { errs: [...typeErrs, ...checked.fieldErrors], typesOk: typeErrs.length === 0 };
}

