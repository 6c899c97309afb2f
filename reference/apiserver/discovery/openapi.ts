/**
 * /openapi/v3: the index of group-version documents and each document, generated from the
 * reference's own schemas. kubectl's apply needs two things from it
 * (k8s.io/cli-runtime/pkg/resource/query_param_verifier_v3.go and kubectl's apply patcher):
 * a PATCH operation tagged `x-kubernetes-group-version-kind` that lists a `fieldValidation`
 * query parameter (so it validates server-side with fieldValidation=Strict), and component
 * schemas tagged with the same extension, whose patch-merge-key/strategy extensions drive its
 * strategic merge patches. /openapi/v2 is not served (404).
 */
import { createHash } from 'node:crypto';
import { groupVersions, RESOURCES, SUBRESOURCE_SCHEMAS, type ResourceDef } from '../resources/registry.ts';
import type { Schema } from '../schema/types.ts';
import { objectMeta } from '../resources/schemas/meta.ts';
import { describeSchema, packageOf, type TypeDocs } from './describe.ts';

const NO_DOCS: TypeDocs = new Map();

const GROUP_PACKAGES: Record<string, string> = {
  '': 'core',
  'discovery.k8s.io': 'discovery',
  'coordination.k8s.io': 'coordination',
  'scheduling.k8s.io': 'scheduling',
  'rbac.authorization.k8s.io': 'rbac',
  'authorization.k8s.io': 'authorization',
  'admissionregistration.k8s.io': 'admissionregistration',
};

const STATUS_REF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const PATCH_REF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';

export function schemaName(group: string, version: string, kind: string): string {
  return `io.k8s.api.${GROUP_PACKAGES[group] ?? group}.${version}.${kind}`;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });
const query = (name: string, type = 'string') => ({ name, in: 'query', schema: { type, uniqueItems: true } });
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', uniqueItems: true } });

const patchBody = (types: string[]) => ({ content: Object.fromEntries(types.map((t) => [t, { schema: ref(PATCH_REF) }])), required: true });
const PATCH_BODY = patchBody(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
/**
 * A custom resource takes no strategic merge patch; kubectl's apply reads this list to choose
 * between a strategic and a JSON merge patch (apply/patcher.go gvkSupportsPatchOpenAPIV3).
 */
const CUSTOM_PATCH_BODY = patchBody(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);

/** Custom resources are named by the reversed group, as upstream's CRD OpenAPI builder does (com.example.stable.v1.CronTab). */
function kindSchemaName(def: ResourceDef, kind: { group: string; version: string; kind: string }): string {
  if (def.custom && kind.group === def.group) return `${kind.group.split('.').reverse().join('.')}.${kind.version}.${kind.kind}`;
  return schemaName(kind.group, kind.version, kind.kind);
}

function operation(def: ResourceDef, action: string, kind: { group: string; version: string; kind: string }, responseRef: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const params = action === 'patch'
    ? [query('dryRun'), query('fieldManager'), query('fieldValidation'), query('force', 'boolean')]
    : action === 'put' || action === 'post'
      ? [query('dryRun'), query('fieldManager'), query('fieldValidation')]
      : action === 'list' || action === 'watch'
        ? ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'watch', 'timeoutSeconds', 'allowWatchBookmarks', 'sendInitialEvents'].map((n) => query(n))
        : [];
  return {
    operationId: `${action}${def.kind}`,
    parameters: params,
    responses: { '200': json(responseRef), '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': kind,
    ...extra,
  };
}

function pathsFor(def: ResourceDef): Record<string, unknown> {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const collection = def.namespaced ? `${base}/namespaces/{namespace}/${def.resource}` : `${base}/${def.resource}`;
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const name = kindSchemaName(def, gvk);
  const common = def.namespaced ? [pathParam('namespace')] : [];
  const paths: Record<string, unknown> = {};
  const coll: Record<string, unknown> = { parameters: common };
  if (def.verbs.includes('list')) coll.get = operation(def, 'list', gvk, `${name}List`);
  if (def.verbs.includes('create')) coll.post = operation(def, 'post', gvk, name, { requestBody: json(name) });
  if (def.verbs.includes('deletecollection')) coll.delete = operation(def, 'deletecollection', gvk, STATUS_REF);
  paths[collection] = coll;
  if (def.virtual) return paths;
  paths[`${collection}/{name}`] = {
    parameters: [pathParam('name'), ...common],
    get: operation(def, 'get', gvk, name),
    put: operation(def, 'put', gvk, name, { requestBody: json(name) }),
    patch: operation(def, 'patch', gvk, name, { requestBody: def.custom ? CUSTOM_PATCH_BODY : PATCH_BODY }),
    delete: operation(def, 'delete', gvk, STATUS_REF),
  };
  for (const s of def.subresources) {
    const skind = { group: s.group ?? def.group, version: s.version ?? def.version, kind: s.kind };
    const sname = kindSchemaName(def, skind);
    const ops: Record<string, unknown> = { parameters: [pathParam('name'), ...common] };
    if (s.verbs.includes('get')) ops.get = operation(def, 'get', skind, sname);
    if (s.verbs.includes('update')) ops.put = operation(def, 'put', skind, sname, { requestBody: json(sname) });
    if (s.verbs.includes('patch')) ops.patch = operation(def, 'patch', skind, sname, { requestBody: def.custom ? CUSTOM_PATCH_BODY : PATCH_BODY });
    if (s.verbs.includes('create')) ops.post = operation(def, 'post', skind, sname, { requestBody: json(sname) });
    paths[`${collection}/{name}/${s.name}`] = ops;
  }
  return paths;
}

function componentsFor(group: string, version: string, docs: TypeDocs): Record<string, Schema | Record<string, unknown>> {
  const out: Record<string, Schema | Record<string, unknown>> = {
    [STATUS_REF]: { type: 'object', 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Status' }] },
    [PATCH_REF]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
  };
  for (const def of RESOURCES.filter((r) => r.group === group && r.version === version)) {
    const name = schemaName(group, version, def.kind);
    const described = describeSchema(def.schema, docs, `${packageOf(group)}/${version}.${def.kind}`);
    out[name] = { ...described, 'x-kubernetes-group-version-kind': [{ group, version, kind: def.kind }] };
    out[`${name}List`] = {
      type: 'object',
      required: ['items'],
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, items: { type: 'array', items: ref(name) } },
      'x-kubernetes-group-version-kind': [{ group, version, kind: `${def.kind}List` }],
    };
    for (const s of def.subresources) {
      const schema = SUBRESOURCE_SCHEMAS[s.kind];
      const sg = s.group ?? group;
      const sv = s.version ?? version;
      if (schema) out[schemaName(sg, sv, s.kind)] = { ...schema, 'x-kubernetes-group-version-kind': [{ group: sg, version: sv, kind: s.kind }] };
    }
  }
  return out;
}

/** The documents never change while the process runs: build each once. */
const documents = new Map<string, unknown>();

export function openApiDocument(group: string, version: string, gitVersion: string, docs: TypeDocs = NO_DOCS): unknown | undefined {
  const key = `${gitVersion} ${group}/${version} ${docs.size}`;
  if (!documents.has(key)) documents.set(key, buildDocument(group, version, gitVersion, docs));
  return documents.get(key);
}

function buildDocument(group: string, version: string, gitVersion: string, docs: TypeDocs): unknown | undefined {
  const defs = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (defs.length === 0) return undefined;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths: Object.assign({}, ...defs.map(pathsFor)),
    components: { schemas: componentsFor(group, version, docs) },
  };
}

/**
 * The document of a group-version custom resources serve, built from the CRDs' schemas (never
 * cached: a CRD can change). apiVersion, kind and metadata are the envelope every kind shares.
 */
export function customOpenApiDocument(defs: readonly ResourceDef[], gitVersion: string): unknown {
  const schemas: Record<string, unknown> = {
    [STATUS_REF]: { type: 'object', 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Status' }] },
    [PATCH_REF]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
  };
  for (const def of defs) {
    const gvk = { group: def.group, version: def.version, kind: def.kind };
    const name = kindSchemaName(def, gvk);
    const envelope = { apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { ...objectMeta, description: "Standard object's metadata." } };
    schemas[name] = { ...def.schema, type: 'object', properties: { ...envelope, ...(def.schema.properties ?? {}) }, 'x-kubernetes-group-version-kind': [gvk] };
    schemas[`${name}List`] = { type: 'object', required: ['items'], properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, items: { type: 'array', items: ref(name) } },
      'x-kubernetes-group-version-kind': [{ ...gvk, kind: `${def.kind}List` }] };
    if (def.custom?.scale) schemas[schemaName('autoscaling', 'v1', 'Scale')] = { ...SUBRESOURCE_SCHEMAS.Scale, 'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }] };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes CRD Swagger', version: gitVersion }, paths: Object.assign({}, ...defs.map(pathsFor)), components: { schemas } };
}

/** The index with the custom group-versions added after the built-in ones. */
export function openApiIndexWith(gitVersion: string, docs: TypeDocs, custom: readonly ResourceDef[]): unknown {
  const base = openApiIndex(gitVersion, docs) as { paths: Record<string, unknown> };
  if (custom.length === 0) return base;
  const paths = { ...base.paths };
  for (const gv of groupVersions(custom)) {
    const doc = customOpenApiDocument(custom.filter((d) => d.group === gv.group && d.version === gv.version), gitVersion);
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
    paths[indexKey(gv)] = { serverRelativeURL: `/openapi/v3/${indexKey(gv)}?hash=${hash}` };
  }
  return { paths };
}

/** The path key the index uses for a group-version: `api/v1`, `apis/apps/v1`. */
export function indexKey(gv: { group: string; version: string }): string {
  return gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
}

const indexes = new Map<string, unknown>();

export function openApiIndex(gitVersion: string, docs: TypeDocs = NO_DOCS): unknown {
  const key = `${gitVersion} ${docs.size}`;
  if (!indexes.has(key)) indexes.set(key, buildIndex(gitVersion, docs));
  return indexes.get(key);
}

function buildIndex(gitVersion: string, docs: TypeDocs): unknown {
  const paths: Record<string, unknown> = {};
  for (const gv of groupVersions()) {
    const doc = openApiDocument(gv.group, gv.version, gitVersion, docs);
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
    paths[indexKey(gv)] = { serverRelativeURL: `/openapi/v3/${indexKey(gv)}?hash=${hash}` };
  }
  return { paths };
}

