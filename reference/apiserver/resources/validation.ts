/**
 * Semantic validation beyond the schema, with upstream's field paths and wording
 * (pkg/apis/core/validation, pkg/apis/apps/validation, apimachinery ValidateObjectMeta).
 * Only the checks a conformance scenario or a careless manifest is likely to hit.
 */
import { semanticEqual } from '../semantic-equal.ts';
import type { FieldError } from '../status.ts';
import { validateGeneratedSelector } from './jobs.ts';
import type { ResourceDef } from './registry.ts';
import { labelValueErrors, nameErrors, qualifiedNameErrors, type NameRule, dns1123LabelErrors } from './names.ts';
import { matchesLabels, requirementsOf } from '../selectors/labels.ts';

const NAME_RULES: Record<string, NameRule> = {
  namespaces: 'label',
  services: 'dns1035',
  roles: 'path-segment',
  clusterroles: 'path-segment',
  rolebindings: 'path-segment',
  clusterrolebindings: 'path-segment',
};

function validateMeta(def: ResourceDef, obj: any): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj.metadata ?? {};
  const name = meta.name;
  if (!name) errs.push({ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' });
  else for (const e of nameErrors(NAME_RULES[def.resource] ?? 'subdomain', name)) errs.push({ type: 'Invalid', field: 'metadata.name', value: name, detail: e });
  for (const [k, v] of Object.entries<unknown>(meta.labels ?? {})) {
    if (typeof v !== 'string') continue;
    for (const e of qualifiedNameErrors(k)) errs.push({ type: 'Invalid', field: 'metadata.labels', value: k, detail: e });
    for (const e of labelValueErrors(v)) errs.push({ type: 'Invalid', field: 'metadata.labels', value: v, detail: e });
  }
  for (const k of Object.keys(meta.annotations ?? {})) {
    for (const e of qualifiedNameErrors(k.toLowerCase())) errs.push({ type: 'Invalid', field: 'metadata.annotations', value: k, detail: e });
  }
  return errs;
}

function validateContainers(list: any[] | undefined, path: string, required: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!list || list.length === 0) {
    if (required) errs.push({ type: 'Required', field: path });
    return errs;
  }
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!c?.name) errs.push({ type: 'Required', field: `${at}.name` });
    else {
      for (const e of dns1123LabelErrors(c.name)) errs.push({ type: 'Invalid', field: `${at}.name`, value: c.name, detail: e });
      if (seen.has(c.name)) errs.push({ type: 'Duplicate', field: `${at}.name`, value: c.name });
      seen.add(c.name);
    }
    if (!c?.image) errs.push({ type: 'Required', field: `${at}.image` });
    errs.push(...validateProbes(c, at));
    (c?.ports ?? []).forEach((p: any, j: number) => {
      const port = p?.containerPort;
      if (typeof port === 'number' && (port < 1 || port > 65535)) {
        errs.push({ type: 'Invalid', field: `${at}.ports[${j}].containerPort`, value: port, detail: 'must be between 1 and 65535, inclusive' });
      }
    });
  });
  return errs;
}

/**
 * Probes (pkg/apis/core/validation/validation.go validateProbe, validateHandler and the checks in
 * validateContainers): exactly one handler; liveness and startup need successThreshold 1; a
 * readiness probe may not set terminationGracePeriodSeconds; the timings are positive.
 */
function validateProbes(c: any, at: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const p = c?.[kind];
    if (!p || typeof p !== 'object') continue;
    const path = `${at}.${kind}`;
    const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((h) => p[h] !== undefined && p[h] !== null);
    if (handlers.length === 0) errs.push({ type: 'Required', field: path, detail: 'must specify a handler type' });
    for (const extra of handlers.slice(1)) errs.push({ type: 'Forbidden', field: `${path}.${extra}`, detail: 'may not specify more than 1 handler type' });
    for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
      const v = p[f];
      if (typeof v !== 'number') continue;
      if (f === 'initialDelaySeconds' ? v < 0 : v < 1) errs.push({ type: 'Invalid', field: `${path}.${f}`, value: v, detail: f === 'initialDelaySeconds' ? 'must be greater than or equal to 0' : 'must be greater than or equal to 1' });
    }
    if (kind !== 'readinessProbe' && typeof p.successThreshold === 'number' && p.successThreshold !== 1) errs.push({ type: 'Invalid', field: `${path}.successThreshold`, value: p.successThreshold, detail: 'must be 1' });
    if (kind === 'readinessProbe' && p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null) errs.push({ type: 'Invalid', field: `${path}.terminationGracePeriodSeconds`, value: p.terminationGracePeriodSeconds, detail: 'must not be set for readinessProbes' });
  }
  return errs;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

export function validatePodSpec(spec: any, path: string): FieldError[] {
  if (!spec || typeof spec !== 'object') return [{ type: 'Required', field: path }];
  const errs = [...validateContainers(spec.containers, `${path}.containers`, true), ...validateContainers(spec.initContainers, `${path}.initContainers`, false)];
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    errs.push({ type: 'NotSupported', field: `${path}.restartPolicy`, value: spec.restartPolicy, detail: 'supported values: "Always", "Never", "OnFailure"' });
  }
  if (Array.isArray(spec.tolerations)) errs.push(...validateTolerations(spec.tolerations, `${path}.tolerations`));
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * pkg/apis/core/validation/validation.go validateTolerations: an empty key needs operator
 * Exists (it then matches every taint); tolerationSeconds only makes sense for NoExecute (it
 * bounds how long a pod stays after the taint appears); Exists takes no value; the operator and
 * the effect must be known ones.
 */
function validateTolerations(tolerations: any[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const at = `${path}[${i}]`;
    if (!t || typeof t !== 'object') return;
    if (!t.key && t.operator !== 'Exists') errs.push({ type: 'Invalid', field: `${at}.operator`, value: t.operator ?? '', detail: 'operator must be Exists when `key` is empty, which means "match all values and all keys"' });
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') errs.push({ type: 'Invalid', field: `${at}.effect`, value: t.effect ?? '', detail: "effect must be 'NoExecute' when `tolerationSeconds` is set" });
    if (t.operator === 'Exists' && t.value) errs.push({ type: 'Invalid', field: `${at}.operator`, value: t, detail: "value must be empty when `operator` is 'Exists'" });
    else if (t.operator !== undefined && t.operator !== '' && t.operator !== 'Equal' && t.operator !== 'Exists') errs.push({ type: 'NotSupported', field: `${at}.operator`, value: t.operator, detail: 'supported values: "Equal", "Exists"' });
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push({ type: 'NotSupported', field: `${at}.effect`, value: t.effect, detail: 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"' });
  });
  return errs;
}

function nonNegative(v: unknown, field: string): FieldError[] {
  return typeof v === 'number' && v < 0 ? [{ type: 'Invalid', field, value: v, detail: 'must be greater than or equal to 0' }] : [];
}

/** apps validation: a non-empty selector that selects the template's labels. */
function validateSelectorAndTemplate(spec: any, kind: string): FieldError[] {
  const errs: FieldError[] = [...nonNegative(spec?.replicas, 'spec.replicas')];
  const sel = spec?.selector;
  const reqs = requirementsOf(sel);
  if (sel && reqs.length === 0) errs.push({ type: 'Invalid', field: 'spec.selector', value: sel, detail: `empty selector is invalid for ${kind}` });
  const labels = spec?.template?.metadata?.labels;
  if (sel && reqs.length > 0 && !matchesLabels(reqs, labels)) {
    errs.push({ type: 'Invalid', field: 'spec.template.metadata.labels', value: labels ?? {}, detail: '`selector` does not match template `labels`' });
  }
  if (spec?.template) errs.push(...validatePodSpec(spec.template.spec, 'spec.template.spec'));
  return errs;
}

const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];

function validateService(spec: any): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec?.type ?? 'ClusterIP';
  if (!SERVICE_TYPES.includes(type)) errs.push({ type: 'NotSupported', field: 'spec.type', value: type, detail: 'supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"' });
  const ports: any[] = spec?.ports ?? [];
  if (ports.length === 0 && type !== 'ExternalName' && spec?.clusterIP !== 'None') errs.push({ type: 'Required', field: 'spec.ports' });
  ports.forEach((p, i) => {
    if (typeof p?.port === 'number' && (p.port < 1 || p.port > 65535)) errs.push({ type: 'Invalid', field: `spec.ports[${i}].port`, value: p.port, detail: 'must be between 1 and 65535, inclusive' });
    if (ports.length > 1 && !p?.name) errs.push({ type: 'Required', field: `spec.ports[${i}].name` });
  });
  errs.push(...validateAffinity(spec));
  return errs;
}

/** validateClientIPAffinityConfig (pkg/apis/core/validation): 0 < timeoutSeconds <= 86400, only with ClientIP. */
function validateAffinity(spec: any): FieldError[] {
  const timeout = spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  const field = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
  if (spec?.sessionAffinity === 'ClientIP') {
    if (typeof timeout === 'number' && (timeout <= 0 || timeout > 86400)) return [{ type: 'Invalid', field, value: timeout, detail: 'must be greater than 0 and less than 86400' }];
    return [];
  }
  if (spec?.sessionAffinityConfig) return [{ type: 'Forbidden', field: 'spec.sessionAffinityConfig', detail: 'must not be set when session affinity is None' }];
  return [];
}

/** core.MaxSecretSize (pkg/apis/core/types.go): what a ConfigMap's or a Secret's data may hold in total, 1 MiB. */
export const MAX_SECRET_SIZE_BYTES = 1024 * 1024;

/** field.TooLong's detail (k8s.io/apimachinery/pkg/util/validation/field/errors.go). */
const tooLong = (field: string): FieldError => ({ type: 'TooLong', field, detail: `may not be more than ${MAX_SECRET_SIZE_BYTES} bytes` });

function bytesOf(map: unknown, decode: (v: string) => number): number {
  if (typeof map !== 'object' || map === null) return 0;
  return Object.values(map).reduce((sum: number, v) => sum + (typeof v === 'string' ? decode(v) : 0), 0);
}

const utf8Bytes = (v: string) => Buffer.byteLength(v, 'utf8');
const base64Bytes = (v: string) => Buffer.byteLength(v, 'base64');

/**
 * pkg/apis/core/validation/validation.go: ValidateConfigMap sums the bytes of every data value and
 * every (decoded) binaryData value and reports field.TooLong on the whole object, whose path
 * field.NewPath("") prints as `[]`; ValidateSecret sums the decoded data values (stringData has
 * been merged into data by then) and reports it on `data`.
 */
function validateConfigMapSize(o: any): FieldError[] {
  return bytesOf(o.data, utf8Bytes) + bytesOf(o.binaryData, base64Bytes) > MAX_SECRET_SIZE_BYTES ? [tooLong('[]')] : [];
}

function validateSecretSize(o: any): FieldError[] {
  return bytesOf(o.data, base64Bytes) > MAX_SECRET_SIZE_BYTES ? [tooLong('data')] : [];
}

const KIND_VALIDATORS: Record<string, (obj: any) => FieldError[]> = {
  configmaps: validateConfigMapSize,
  secrets: validateSecretSize,
  pods: (o) => validatePodSpec(o.spec, 'spec'),
  deployments: (o) => validateSelectorAndTemplate(o.spec, 'deployment'),
  replicasets: (o) => validateSelectorAndTemplate(o.spec, 'replicaset'),
  jobs: (o) => [...validateGeneratedSelector(o), ...nonNegative(o.spec?.parallelism, 'spec.parallelism'), ...nonNegative(o.spec?.completions, 'spec.completions'), ...validateJobTemplate(o.spec)],
  services: (o) => validateService(o.spec),
};

function validateJobTemplate(spec: any): FieldError[] {
  const errs = validatePodSpec(spec?.template?.spec, 'spec.template.spec');
  const rp = spec?.template?.spec?.restartPolicy;
  if (rp !== 'Never' && rp !== 'OnFailure') {
    errs.push({ type: 'NotSupported', field: 'spec.template.spec.restartPolicy', value: rp ?? '', detail: 'supported values: "OnFailure", "Never"' });
  }
  return errs;
}

/** All field errors for an object about to be written; empty means valid. */
export function validateObject(def: ResourceDef, obj: any): FieldError[] {
  return [...validateMeta(def, obj), ...(KIND_VALIDATORS[def.resource]?.(obj) ?? [])];
}

/** The pod spec with the fields an update may change blanked out (pkg/apis/core/validation ValidatePodUpdate). */
function mutablePodFieldsCleared(spec: any): any {
  const copy = structuredClone(spec ?? {});
  for (const list of ['containers', 'initContainers']) for (const c of copy[list] ?? []) if (c && typeof c === 'object') delete c.image;
  delete copy.activeDeadlineSeconds;
  delete copy.tolerations;
  delete copy.terminationGracePeriodSeconds;
  return copy;
}

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const same = semanticEqual;

/** Update-only rules: immutable fields keep their values (422 otherwise). */
export function validateUpdate(def: ResourceDef, obj: any, old: any): FieldError[] {
  switch (def.resource) {
    case 'pods':
      return same(mutablePodFieldsCleared(obj.spec), mutablePodFieldsCleared(old.spec)) ? [] : [{ type: 'Forbidden', field: 'spec', detail: POD_UPDATE_FORBIDDEN }];
    case 'deployments':
    case 'replicasets':
    case 'jobs':
      return same(obj.spec?.selector, old.spec?.selector) ? [] : [{ type: 'Invalid', field: 'spec.selector', value: obj.spec?.selector ?? null, detail: 'field is immutable' }];
    case 'configmaps':
      return immutableDataErrors(obj, old, ['data', 'binaryData']);
    case 'secrets':
      return [...(obj.type === old.type ? [] : [{ type: 'Invalid' as const, field: 'type', value: obj.type, detail: 'field is immutable' }]), ...immutableDataErrors(obj, old, ['data'])];
    default:
      return [];
  }
}

const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/**
 * A Secret or ConfigMap marked `immutable: true` keeps its data and the mark itself, as upstream's
 * ValidateSecretUpdate / ValidateConfigMapUpdate (kubernetes/kubernetes pkg/apis/core/validation/
 * validation.go) say: Forbidden on `immutable` and on each changed data field. A Secret's `type`
 * is immutable in any case (ValidateImmutableField: Invalid, "field is immutable").
 */
function immutableDataErrors(obj: any, old: any, dataFields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push({ type: 'Forbidden', field: 'immutable', detail: IMMUTABLE_WHEN_SET });
  for (const f of dataFields) if (!semanticEqual(obj[f], old[f])) errs.push({ type: 'Forbidden', field: f, detail: IMMUTABLE_WHEN_SET });
  return errs;
}
