/**
 * CustomResourceDefinitions (apiextensions.k8s.io/v1): what a CRD must say to be accepted, the
 * status the API server gives it (accepted names, NamesAccepted and Established), and the
 * resources an established CRD serves.
 *
 * Upstream: validation in staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/
 * validation/validation.go (ValidateCustomResourceDefinition); names and conditions in
 * pkg/controller/status/naming_controller.go and pkg/controller/establish/establishing_controller.go;
 * serving in pkg/apiserver/customresource_handler.go (storage prefix `<group>/<plural>`).
 * Upstream's naming and establishing controllers run asynchronously; here the server computes the
 * same status as part of the CRD's write, so a CRD is Established in the response to its create.
 */
import type { ResourceDef, SubresourceDef, Verb } from '../resources/registry.ts';
import { free, type Schema } from '../schema/types.ts';
import { dns1123LabelErrors, nameErrors } from '../resources/names.ts';
import type { FieldError } from '../status.ts';
import type { JSONSchemaProps } from './structural.ts';

export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
}

/** What a served custom resource carries besides a built-in's row. */
export interface CustomInfo {
  crdName: string;
  /** The CRD's schema for this version. */
  openAPIV3Schema?: JSONSchemaProps;
  /** The key prefix under /registry: `<group>/<plural>`, whatever version is asked for. */
  storagePrefix: string;
  /** The version objects are written in (conversion None: only apiVersion changes). */
  storageVersion: string;
  /** spec.conversion: strategy None (the default) or Webhook with the webhook to call. */
  conversion?: { strategy: string; webhook?: import('./webhook-converter.ts').WebhookConversion };
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** The version's additionalPrinterColumns, for `kubectl get` (apiextensions/printer.ts). */
  printerColumns?: import('./printer.ts').PrinterColumn[];
}

const ALL_VERBS: Verb[] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const SUB_VERBS: Verb[] = ['get', 'patch', 'update'];

/** Defaults the API server fills in (SetDefaults_CustomResourceDefinitionSpec): singular, listKind, conversion. */
export function defaultCrd(crd: any): void {
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return;
  const names = spec.names;
  if (names && typeof names === 'object' && typeof names.kind === 'string') {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
  if (!spec.conversion) spec.conversion = { strategy: 'None' };
}

/** ValidateCustomResourceDefinition, the checks a manifest is likely to trip. */
export function validateCrd(crd: any): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const group = String(spec.group ?? '');
  if (crd.metadata?.name !== `${names.plural}.${group}`) {
    errs.push({ type: 'Invalid', field: 'metadata.name', value: crd.metadata?.name ?? '', detail: 'must be spec.names.plural+"."+spec.group' });
  }
  if (!group) errs.push({ type: 'Required', field: 'spec.group' });
  else if (!group.includes('.')) errs.push({ type: 'Invalid', field: 'spec.group', value: group, detail: 'should be a domain with at least one dot' });
  else for (const e of nameErrors('subdomain', group)) errs.push({ type: 'Invalid', field: 'spec.group', value: group, detail: e });
  errs.push(...validateNames(names));
  if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    errs.push(spec.scope ? { type: 'NotSupported', field: 'spec.scope', value: spec.scope, detail: 'supported values: "Cluster", "Namespaced"' } : { type: 'Required', field: 'spec.scope' });
  }
  errs.push(...validateVersions(spec.versions));
  if (spec.conversion?.strategy && spec.conversion.strategy !== 'None' && spec.conversion.strategy !== 'Webhook') {
    errs.push({ type: 'NotSupported', field: 'spec.conversion.strategy', value: spec.conversion.strategy, detail: 'supported values: "None", "Webhook"' });
  }
  errs.push(...conversionErrors(spec.conversion));
  return errs;
}

/**
 * validation.go validateCustomResourceConversion (create: requireRecognizedVersion). The paths are
 * upstream's internal ones, which is what it reports to a v1 client too: spec.conversion.webhook.
 * clientConfig is spec.conversion.webhookClientConfig, spec.conversion.webhook.conversionReviewVersions
 * is spec.conversion.conversionReviewVersions. Accepted review versions: v1, v1beta1.
 */
function conversionErrors(conversion: any): FieldError[] {
  const at = 'spec.conversion';
  if (!conversion || typeof conversion !== 'object') return [];
  const webhook = conversion.webhook;
  if (conversion.strategy !== 'Webhook') {
    const errs: FieldError[] = [];
    if (webhook?.clientConfig) errs.push({ type: 'Forbidden', field: `${at}.webhookClientConfig`, detail: 'should not be set when strategy is not set to Webhook' });
    if (Array.isArray(webhook?.conversionReviewVersions) && webhook.conversionReviewVersions.length > 0) errs.push({ type: 'Forbidden', field: `${at}.conversionReviewVersions`, detail: 'should not be set when strategy is not set to Webhook' });
    return errs;
  }
  const errs: FieldError[] = [];
  const cc = webhook?.clientConfig;
  if (!cc) errs.push({ type: 'Required', field: `${at}.webhookClientConfig`, detail: 'required when strategy is set to Webhook' });
  else if (!cc.url === !cc.service) errs.push({ type: 'Required', field: `${at}.webhookClientConfig`, detail: 'exactly one of url or service is required' });
  const versions: unknown = webhook?.conversionReviewVersions;
  if (!Array.isArray(versions) || versions.length === 0) errs.push({ type: 'Required', field: `${at}.conversionReviewVersions` });
  else if (!versions.some((v) => v === 'v1' || v === 'v1beta1')) {
    errs.push({ type: 'Invalid', field: `${at}.conversionReviewVersions`, value: versions, detail: 'must include at least one of v1, v1beta1' });
  }
  return errs;
}

/** ValidateCustomResourceDefinitionSpecUpdate: an established CRD keeps its group and scope. */
export function crdUpdateErrors(crd: any, old: any): FieldError[] {
  if (!isEstablished(old)) return [];
  const errs: FieldError[] = [];
  if (crd.spec?.group !== old.spec?.group) errs.push({ type: 'Invalid', field: 'spec.group', value: crd.spec?.group ?? '', detail: 'field is immutable' });
  if (crd.spec?.scope !== old.spec?.scope) errs.push({ type: 'Invalid', field: 'spec.scope', value: crd.spec?.scope ?? '', detail: 'field is immutable' });
  return errs;
}

function validateNames(names: any): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['plural', 'singular', 'kind', 'listKind'] as const) {
    const v = names[f];
    if (!v) {
      if (f === 'plural' || f === 'kind') errs.push({ type: 'Required', field: `spec.names.${f}` });
      continue;
    }
    const bad = f === 'kind' || f === 'listKind' ? dns1123LabelErrors(String(v).toLowerCase()) : dns1123LabelErrors(String(v));
    for (const e of bad) errs.push({ type: 'Invalid', field: `spec.names.${f}`, value: v, detail: e });
  }
  if (names.kind && names.kind === names.listKind) errs.push({ type: 'Invalid', field: 'spec.names.listKind', value: names.listKind, detail: 'kind and listKind cannot be the same' });
  return errs;
}

function validateVersions(versions: unknown): FieldError[] {
  if (!Array.isArray(versions) || versions.length === 0) return [{ type: 'Required', field: 'spec.versions', detail: 'must have exactly one version marked as storage version' }];
  const errs: FieldError[] = [];
  const storage = versions.filter((v: any) => v?.storage === true).length;
  if (storage !== 1) errs.push({ type: 'Invalid', field: 'spec.versions', value: versions.map((v: any) => v?.name), detail: 'must have exactly one version marked as storage version' });
  const seen = new Set<string>();
  versions.forEach((v: any, i: number) => {
    const at = `spec.versions[${i}]`;
    if (!v?.name) errs.push({ type: 'Required', field: `${at}.name` });
    else {
      for (const e of dns1123LabelErrors(v.name)) errs.push({ type: 'Invalid', field: `${at}.name`, value: v.name, detail: e });
      if (seen.has(v.name)) errs.push({ type: 'Invalid', field: 'spec.versions', value: v.name, detail: 'must contain unique version names' });
      seen.add(v.name);
    }
    const root = v?.schema?.openAPIV3Schema;
    if (!root) errs.push({ type: 'Required', field: `${at}.schema.openAPIV3Schema`, detail: 'schemas are required' });
    else errs.push(...structuralErrors(root, `${at}.schema.openAPIV3Schema`, true));
  });
  return errs;
}

/** The structural-schema rules a node breaks (pkg/apiserver/schema/validation.go): every specified node has a type. */
function structuralErrors(s: JSONSchemaProps, path: string, root: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const typeless = !s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields'];
  if (root && s.type !== 'object') errs.push(s.type ? { type: 'Invalid', field: `${path}.type`, value: s.type, detail: 'must be object at the root' } : { type: 'Required', field: `${path}.type`, detail: 'must not be empty at the root' });
  else if (!root && typeless) errs.push({ type: 'Required', field: `${path}.type`, detail: 'must not be empty for specified object fields' });
  for (const [k, child] of Object.entries(s.properties ?? {})) errs.push(...structuralErrors(child, `${path}.properties[${k}]`, false));
  if (s.items && typeof s.items === 'object') errs.push(...structuralErrors(s.items, `${path}.items`, false));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') errs.push(...structuralErrors(s.additionalProperties, `${path}.additionalProperties`, false));
  return errs;
}

/** A condition as the controllers set it: lastTransitionTime moves only when the status changes. */
function setCondition(conditions: any[], c: { type: string; status: string; reason: string; message: string }, now: string): any[] {
  const old = conditions.find((x) => x?.type === c.type);
  const next = { ...c, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now };
  return old ? conditions.map((x) => (x === old ? next : x)) : [...conditions, next];
}

/**
 * The naming controller's verdict (naming_controller.go calculateNamesAndConditions): a plural,
 * singular, short name or kind another CRD of the group already accepted is a conflict; and the
 * establishing controller's: a CRD whose names were accepted is Established.
 */
export function crdStatus(crd: any, others: any[], now: string): any {
  const spec = crd.spec;
  const status = { ...(crd.status ?? {}) };
  const taken = others.filter((o) => o.spec?.group === spec.group && o.metadata?.name !== crd.metadata.name).map((o) => o.status?.acceptedNames ?? {});
  const resources = new Set(taken.flatMap((n: any) => [n.plural, n.singular, ...(n.shortNames ?? [])].filter(Boolean)));
  const kinds = new Set(taken.flatMap((n: any) => [n.kind, n.listKind].filter(Boolean)));
  const names: CrdNames = spec.names;
  const conflict = resources.has(names.plural) ? { reason: 'PluralConflict', name: names.plural }
    : names.singular && resources.has(names.singular) ? { reason: 'SingularConflict', name: names.singular }
      : (names.shortNames ?? []).find((s) => resources.has(s)) ? { reason: 'ShortNamesConflict', name: (names.shortNames ?? []).find((s) => resources.has(s))! }
        : kinds.has(names.kind) ? { reason: 'KindConflict', name: names.kind }
          : names.listKind && kinds.has(names.listKind) ? { reason: 'ListKindConflict', name: names.listKind } : undefined;
  let conditions: any[] = Array.isArray(status.conditions) ? status.conditions : [];
  if (conflict) {
    conditions = setCondition(conditions, { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: `${JSON.stringify(conflict.name)} is already in use` }, now);
    if (!status.acceptedNames) conditions = setCondition(conditions, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
  } else {
    status.acceptedNames = { ...names };
    conditions = setCondition(conditions, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, now);
    conditions = setCondition(conditions, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
  }
  status.conditions = conditions;
  if (!status.acceptedNames) status.acceptedNames = { plural: '', kind: '' };
  const storage = (spec.versions ?? []).find((v: CrdVersion) => v.storage)?.name;
  const stored: string[] = Array.isArray(status.storedVersions) ? status.storedVersions : [];
  status.storedVersions = storage && !stored.includes(storage) ? [...stored, storage] : stored;
  return status;
}

export function isEstablished(crd: any): boolean {
  return (crd?.status?.conditions ?? []).some((c: any) => c?.type === 'Established' && c?.status === 'True');
}

/**
 * Kube-aware version order (k8s.io/apimachinery/pkg/version CompareKubeAwareVersionStrings):
 * GA before beta before alpha, higher numbers first, other names last alphabetically. The first
 * is a group's preferred version.
 */
export function versionPriority(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return { major: Number(m[1]), stage: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: Number(m[3] ?? 0) };
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  if (pa.stage !== pb.stage) return pb.stage - pa.stage;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

function subresourcesOf(v: CrdVersion, kind: string): SubresourceDef[] {
  const subs: SubresourceDef[] = [];
  if (v.subresources?.status) subs.push({ name: 'status', kind, verbs: SUB_VERBS });
  if (v.subresources?.scale) subs.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUB_VERBS });
  return subs;
}

/** The CRD's schema as the built-in Schema type, for the OpenAPI documents (kubectl explain). */
export function asSchema(s: JSONSchemaProps | undefined): Schema {
  if (!s) return free();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Record<string, JSONSchemaProps>).map(([pk, pv]) => [pk, asSchema(pv)]));
    else if (k === 'items' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = asSchema(v as JSONSchemaProps);
    else out[k] = v;
  }
  return out as Schema;
}

/** The resources an established CRD serves: one per served version, named by its accepted names. */
export function resourceDefsOf(crd: any): ResourceDef[] {
  if (!isEstablished(crd)) return [];
  const spec = crd.spec;
  const names: CrdNames = crd.status.acceptedNames;
  const storageVersion = (spec.versions as CrdVersion[]).find((v) => v.storage)?.name ?? '';
  const served = (spec.versions as CrdVersion[]).filter((v) => v.served).sort((a, b) => versionPriority(a.name, b.name));
  return served.map((v) => {
    const custom: CustomInfo = { crdName: crd.metadata.name, storagePrefix: `${spec.group}/${names.plural}`, storageVersion };
    if (spec.conversion?.strategy === 'Webhook') custom.conversion = { strategy: 'Webhook', webhook: spec.conversion.webhook };
    if (v.schema?.openAPIV3Schema) custom.openAPIV3Schema = v.schema.openAPIV3Schema;
    if (v.subresources?.scale) custom.scale = v.subresources.scale;
    if (Array.isArray((v as any).additionalPrinterColumns)) custom.printerColumns = (v as any).additionalPrinterColumns;
    return {
      group: spec.group,
      version: v.name,
      resource: names.plural,
      kind: names.kind,
      singular: names.singular ?? names.kind.toLowerCase(),
      namespaced: spec.scope === 'Namespaced',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: ALL_VERBS,
      subresources: subresourcesOf(v, names.kind),
      schema: asSchema(v.schema?.openAPIV3Schema),
      generationTracksSpec: true,
      virtual: false,
      custom,
    };
  });
}
