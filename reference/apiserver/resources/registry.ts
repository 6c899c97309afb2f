/**
 * The table of resources this API server serves. One row per resource: where it lives in the
 * API (group/version/resource), what discovery says about it, its schema, and the few
 * behaviours that differ between kinds (status subresource, generation on spec change).
 */
import type { Schema } from '../schema/types.ts';
import * as core from './schemas/core.ts';
import * as podSchemas from './schemas/pod.ts';
import * as workloads from './schemas/workloads.ts';
import * as cluster from './schemas/cluster.ts';
import { MORE_RESOURCES } from './more-resources.ts';
import { customResourceDefinition } from '../apiextensions/crd-schema.ts';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface SubresourceDef {
  name: 'status' | 'scale' | 'binding' | 'eviction' | 'finalize' | 'token' | 'log' | 'approval';
  /** The kind the subresource speaks, when not the parent's. */
  group?: string;
  version?: string;
  kind: string;
  verbs: Verb[];
}

export interface ResourceDef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: Verb[];
  subresources: SubresourceDef[];
  schema: Schema;
  /** metadata.generation moves when spec changes (workload controllers watch observedGeneration). */
  generationTracksSpec: boolean;
  /** Answered, never stored (the access reviews). */
  virtual: boolean;
  /** Set for a resource a CustomResourceDefinition serves (apiextensions/crd.ts). */
  custom?: import('../apiextensions/crd.ts').CustomInfo;
}

const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS: Verb[] = ['get', 'patch', 'update'];

type Row = Partial<ResourceDef> & Pick<ResourceDef, 'group' | 'version' | 'resource' | 'kind' | 'namespaced' | 'schema'>;

function def(row: Row): ResourceDef {
  return {
    singular: row.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    verbs: ALL_VERBS,
    subresources: [],
    generationTracksSpec: false,
    virtual: false,
    ...row,
  };
}

const status = (kind: string): SubresourceDef => ({ name: 'status', kind, verbs: STATUS_VERBS });
const scale: SubresourceDef = { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: STATUS_VERBS };

export const RESOURCES: readonly ResourceDef[] = [
  def({ group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], schema: core.namespace,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [status('Namespace'), { name: 'finalize', kind: 'Namespace', verbs: ['update'] }] }),
  def({ group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'], schema: podSchemas.pod,
    subresources: [status('Pod'), { name: 'binding', kind: 'Binding', verbs: ['create'] },
      { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] }, { name: 'log', kind: 'Pod', verbs: ['get'] }] }),
  def({ group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], schema: core.node, subresources: [status('Node')] }),
  def({ group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'], schema: core.service,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], subresources: [status('Service')] }),
  def({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], schema: core.configMap }),
  def({ group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, schema: core.secret }),
  def({ group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'], schema: core.serviceAccount,
    subresources: [{ name: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }] }),
  def({ group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], schema: core.event }),
  def({ group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'],
    schema: workloads.deployment, subresources: [scale, status('Deployment')], generationTracksSpec: true }),
  def({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'],
    schema: workloads.replicaSet, subresources: [scale, status('ReplicaSet')], generationTracksSpec: true }),
  def({ group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true, categories: ['all'], schema: workloads.job,
    subresources: [status('Job')], generationTracksSpec: true }),
  def({ group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, schema: cluster.endpointSlice }),
  def({ group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true, schema: cluster.lease }),
  def({ group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'],
    schema: cluster.priorityClass }),
  def({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'],
    schema: cluster.podDisruptionBudget, subresources: [status('PodDisruptionBudget')], generationTracksSpec: true }),
  def({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', namespaced: true, schema: cluster.role }),
  def({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, schema: cluster.clusterRole }),
  def({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, schema: cluster.roleBinding }),
  def({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false,
    schema: cluster.clusterRoleBinding }),
  def({ group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false,
    schema: cluster.selfSubjectAccessReview, verbs: ['create'], virtual: true }),
  def({ group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false,
    schema: cluster.subjectAccessReview, verbs: ['create'], virtual: true }),
  def({ group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration',
    namespaced: false, schema: cluster.mutatingWebhookConfiguration }),
  def({ group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration',
    namespaced: false, schema: cluster.validatingWebhookConfiguration }),
  ...MORE_RESOURCES.map(def),
  def({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false,
    shortNames: ['crd', 'crds'], categories: ['api-extensions'], schema: customResourceDefinition, subresources: [status('CustomResourceDefinition')] }),
];

/** Schemas of kinds only subresources speak. */
export const SUBRESOURCE_SCHEMAS: Record<string, Schema> = {
  Binding: podSchemas.binding,
  Eviction: podSchemas.eviction,
  Scale: workloads.scale,
  TokenRequest: core.tokenRequest,
};

export function findResource(group: string, version: string, resource: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** Groups in the order discovery lists them (core first, then by first appearance). */
export function groupVersions(defs: readonly ResourceDef[] = RESOURCES): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of defs) if (!seen.has(apiVersionOf(r))) seen.set(apiVersionOf(r), { group: r.group, version: r.version });
  return [...seen.values()];
}

export function hasSubresource(r: ResourceDef, name: string): boolean {
  return r.subresources.some((s) => s.name === name);
}
