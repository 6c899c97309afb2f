/**
 * Where Kubernetes keeps objects in etcd: `/registry/<resource prefix>/<namespace>/<name>`, or
 * `/registry/<resource prefix>/<name>` for cluster-scoped resources.
 *
 * The resource prefix is the lower-case resource name, except for a few historical names
 * compiled into kube-apiserver: kubernetes/kubernetes pkg/kubeapiserver/
 * default_storage_factory_builder.go `SpecialDefaultResourcePrefixes` maps nodes → "minions",
 * services → "services/specs", endpoints → "services/endpoints", replicationcontrollers →
 * "controllers" and ingresses → "ingress"; every other resource falls back to
 * `strings.ToLower(resource)` (staging/src/k8s.io/apiserver/pkg/server/storage/
 * storage_factory.go `ResourcePrefix`). The group is not part of the key.
 */

export const REGISTRY_ROOT = '/registry';

/** Resource (plural, lower case) → its etcd prefix under /registry, for the resources this project serves. */
export const RESOURCE_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  pods: 'pods',
  nodes: 'minions',
  services: 'services/specs',
  endpoints: 'services/endpoints',
  replicationcontrollers: 'controllers',
  ingresses: 'ingress',
  deployments: 'deployments',
  replicasets: 'replicasets',
  configmaps: 'configmaps',
  secrets: 'secrets',
  namespaces: 'namespaces',
  serviceaccounts: 'serviceaccounts',
  events: 'events',
  endpointslices: 'endpointslices',
  leases: 'leases',
  priorityclasses: 'priorityclasses',
  jobs: 'jobs',
  poddisruptionbudgets: 'poddisruptionbudgets',
  roles: 'roles',
  clusterroles: 'clusterroles',
  rolebindings: 'rolebindings',
  clusterrolebindings: 'clusterrolebindings',
  mutatingwebhookconfigurations: 'mutatingwebhookconfigurations',
  validatingwebhookconfigurations: 'validatingwebhookconfigurations',
  // Group-qualified, as every resource outside the legacy groups is stored by kube-apiserver's
  // apiextensions storage: /registry/apiextensions.k8s.io/customresourcedefinitions/<name>.
  customresourcedefinitions: 'apiextensions.k8s.io/customresourcedefinitions',
});

/** Resources whose objects have no namespace (their REST strategies say NamespaceScoped() == false). */
export const CLUSTER_SCOPED_RESOURCES: ReadonlySet<string> = new Set([
  'nodes',
  'namespaces',
  'priorityclasses',
  'clusterroles',
  'clusterrolebindings',
  'mutatingwebhookconfigurations',
  'validatingwebhookconfigurations',
  'persistentvolumes',
  'storageclasses',
  'customresourcedefinitions',
]);

export interface RegistryObjectRef {
  /** Plural lower-case resource name, e.g. "pods", "nodes". */
  resource: string;
  /** Absent (or empty) for cluster-scoped objects. */
  namespace?: string;
  name: string;
}

/** The prefix segment for a resource: the special name if it has one, else the lower-cased resource. */
export function resourcePrefix(resource: string): string {
  return RESOURCE_PREFIXES[resource] ?? resource.toLowerCase();
}

export function registryKey(ref: RegistryObjectRef): string {
  checkSegment('name', ref.name);
  const base = `${REGISTRY_ROOT}/${resourcePrefix(ref.resource)}`;
  if (ref.namespace === undefined || ref.namespace === '') return `${base}/${ref.name}`;
  checkSegment('namespace', ref.namespace);
  return `${base}/${ref.namespace}/${ref.name}`;
}

/**
 * The prefix to range or watch over for a list: every object of the resource, or of one
 * namespace. It ends in "/" so that namespace "a" does not also match namespace "ab" —
 * the apiserver's etcd3 store adds the same trailing slash before listing.
 */
export function registryPrefix(resource: string, namespace?: string): string {
  const base = `${REGISTRY_ROOT}/${resourcePrefix(resource)}/`;
  if (namespace === undefined || namespace === '') return base;
  checkSegment('namespace', namespace);
  return `${base}${namespace}/`;
}

/** Reads a key back into resource, namespace and name; undefined when it is not one of ours. */
export function parseRegistryKey(key: string): RegistryObjectRef | undefined {
  const root = `${REGISTRY_ROOT}/`;
  if (!key.startsWith(root)) return undefined;
  const rest = key.slice(root.length);
  const match = resourceForPath(rest);
  if (match === undefined) return undefined;
  const parts = rest.slice(match.prefix.length + 1).split('/');
  const scoped = !CLUSTER_SCOPED_RESOURCES.has(match.resource);
  if (scoped && parts.length === 2 && parts[0] && parts[1]) return { resource: match.resource, namespace: parts[0], name: parts[1] };
  if (!scoped && parts.length === 1 && parts[0]) return { resource: match.resource, name: parts[0] };
  return undefined;
}

/** The known resource whose prefix starts the path, preferring the longest ("services/specs" over a "services"). */
function resourceForPath(path: string): { resource: string; prefix: string } | undefined {
  let best: { resource: string; prefix: string } | undefined;
  for (const [resource, prefix] of Object.entries(RESOURCE_PREFIXES)) {
    if (path.startsWith(`${prefix}/`) && (best === undefined || prefix.length > best.prefix.length)) best = { resource, prefix };
  }
  return best;
}

function checkSegment(what: string, value: string): void {
  if (value === '' || value.includes('/') || value === '.' || value === '..') {
    throw new Error(`invalid ${what} ${JSON.stringify(value)} for a registry key`);
  }
}
