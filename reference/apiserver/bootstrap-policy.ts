/**
 * The part of kube-apiserver's bootstrap RBAC policy the reference creates at start, as the
 * `rbac/bootstrap-roles` post-start hook does (pkg/registry/rbac/rest/storage_rbac.go, from the
 * roles and bindings of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go):
 *
 * - `cluster-admin` (`*` on every resource of every group, `*` on every non-resource URL), bound
 *   to the group `system:masters`;
 * - `system:discovery` (get on /api, /apis, /openapi and their subpaths, /healthz, /livez,
 *   /readyz, /version), bound to `system:authenticated`;
 * - `system:basic-user` (create selfsubjectaccessreviews and selfsubjectrulesreviews in
 *   authorization.k8s.io, and selfsubjectreviews in authentication.k8s.io — kubernetes/kubernetes
 *   PR 116274, what `kubectl auth whoami` needs), bound to `system:authenticated`;
 * - `system:public-info-viewer` (get on /healthz, /livez, /readyz, /version), bound to
 *   `system:authenticated` and `system:unauthenticated` — the only default grant anonymous
 *   callers have;
 * - `system:kube-controller-manager` and its binding to the user of the same name: the identity
 *   the reference's controllers act as (reference/wiring/controllers.ts), with upstream's rules;
 * - `system:kube-scheduler` and its binding to the user of the same name, likewise for the
 *   scheduler (reference/wiring/scheduler.ts).
 *
 * Upstream builds every list through a string set (rbacv1helpers.NewRule / combine in
 * pkg/apis/rbac/v1/helpers.go), so the stored objects hold verbs, groups, resources and URLs
 * sorted; they are written sorted here too. Every object carries the label
 * `kubernetes.io/bootstrapping: rbac-defaults` and the annotation
 * `rbac.authorization.kubernetes.io/autoupdate: "true"` (policy.go addDefaultMetadata).
 *
 * Upstream reconciles the bootstrap roles on every start (adding back missing rules); the
 * reference only creates what is missing, so an edited role stays edited across restarts.
 */
import { userFacingClusterRoles } from './bootstrap-user-roles.ts';
import type { PolicyRule } from './authz/types.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC_API_VERSION = `${RBAC_GROUP}/v1`;

/** What marks an object as part of the default policy (policy.go Label and Annotation). */
export const BOOTSTRAP_LABELS: Readonly<Record<string, string>> = Object.freeze({ 'kubernetes.io/bootstrapping': 'rbac-defaults' });
export const BOOTSTRAP_ANNOTATIONS: Readonly<Record<string, string>> = Object.freeze({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });

/** The user the controller manager authenticates as (user.KubeControllerManager upstream). */
export const KUBE_CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';

/** The user kube-proxy authenticates as (user.KubeProxy upstream), bound to system:node-proxier. */
export const KUBE_PROXY_USER = 'system:kube-proxy';
/** The user the scheduler authenticates as (user.KubeScheduler upstream). */
export const KUBE_SCHEDULER_USER = 'system:kube-scheduler';

export interface Subject {
  kind: 'Group' | 'User';
  name: string;
}

const get = ['get'];
const create = ['create'];

function resourceRule(verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule {
  return { verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) };
}

function metadata(name: string) {
  return { name, labels: { ...BOOTSTRAP_LABELS }, annotations: { ...BOOTSTRAP_ANNOTATIONS } };
}

export function clusterRole(name: string, rules: PolicyRule[]): any {
  return { apiVersion: RBAC_API_VERSION, kind: 'ClusterRole', metadata: metadata(name), rules };
}

/** A ClusterRoleBinding of the ClusterRole `role`; its name is the role's unless given. */
export function clusterRoleBinding(role: string, subjects: Subject[], name = role): any {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: metadata(name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: subjects.map((s) => ({ apiGroup: RBAC_GROUP, kind: s.kind, name: s.name })),
  };
}

export const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', name }));

/** policy.go eventsRule(): what every component that records events may do. */
const eventsRule = resourceRule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

/** policy.go, the ClusterRole "system:kube-controller-manager". */
function kubeControllerManagerRules(): PolicyRule[] {
  return [
    eventsRule,
    // Leader election (a Lease, formerly an Endpoints object, named after the component).
    resourceRule(create, ['coordination.k8s.io'], ['leases']),
    resourceRule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
    resourceRule(create, [''], ['endpoints']),
    resourceRule(['get', 'update'], [''], ['endpoints'], ['kube-controller-manager']),
    // Fundamental resources: enough to give each controller its own ServiceAccount identity.
    resourceRule(create, [''], ['secrets', 'serviceaccounts']),
    resourceRule(['delete'], [''], ['secrets']),
    resourceRule(get, [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
    resourceRule(['update'], [''], ['secrets', 'serviceaccounts']),
    resourceRule(create, ['authentication.k8s.io'], ['tokenreviews']),
    resourceRule(create, ['authorization.k8s.io'], ['subjectaccessreviews']),
    // Every shared informer lists and watches.
    resourceRule(['list', 'watch'], ['*'], ['*']),
    resourceRule(create, [''], ['serviceaccounts/token']),
  ];
}

/** policy.go, the ClusterRole "system:kube-scheduler" (the rules the reference's scheduler uses, and upstream's others). */
function kubeSchedulerRules(): PolicyRule[] {
  const read = ['get', 'list', 'watch'];
  return [
    eventsRule,
    // Leader election.
    resourceRule(create, ['coordination.k8s.io'], ['leases']),
    resourceRule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
    resourceRule(create, [''], ['endpoints']),
    resourceRule(['get', 'update'], [''], ['endpoints'], ['kube-scheduler']),
    // Fundamental resources.
    resourceRule(read, [''], ['nodes']),
    resourceRule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    resourceRule(create, [''], ['bindings', 'pods/binding']),
    resourceRule(['patch', 'update'], [''], ['pods/status']),
    // Things that select pods.
    resourceRule(['list', 'watch'], [''], ['replicationcontrollers', 'services']),
    resourceRule(['list', 'watch'], ['apps'], ['replicasets', 'statefulsets']),
    resourceRule(['list', 'watch'], ['policy'], ['poddisruptionbudgets']),
    // Volumes.
    resourceRule(['list', 'watch', 'get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    resourceRule(create, ['authentication.k8s.io'], ['tokenreviews']),
    resourceRule(create, ['authorization.k8s.io'], ['subjectaccessreviews']),
    resourceRule(read, ['storage.k8s.io'], ['csinodes']),
    resourceRule(['list', 'watch'], [''], ['namespaces']),
    resourceRule(read, ['storage.k8s.io'], ['csidrivers', 'csistoragecapacities']),
  ];
}
/**
 * The per-controller roles of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go
 * ("system:controller:<name>"), for the controllers the reference runs. Upstream binds each to
 * the ServiceAccount kube-system/<name>, which a controller manager started with
 * --use-service-account-credentials acts as. The reference's controller manager runs every
 * controller as one identity, system:kube-controller-manager, so each role is bound to that user
 * as well (a reference choice: the same rules, one subject more).
 */
const events = resourceRule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);
export const CONTROLLER_ROLES: Readonly<Record<string, PolicyRule[]>> = {
  'deployment-controller': [
    resourceRule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['deployments']),
    resourceRule(['update'], ['apps', 'extensions'], ['deployments/finalizers', 'deployments/status']),
    resourceRule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
    resourceRule(['get', 'list', 'update', 'watch'], [''], ['pods']),
    events,
  ],
  'replicaset-controller': [
    resourceRule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
    resourceRule(['update'], ['apps', 'extensions'], ['replicasets/finalizers', 'replicasets/status']),
    resourceRule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
    events,
  ],
  'node-controller': [
    resourceRule(['delete', 'get', 'list', 'patch', 'update', 'watch'], [''], ['nodes']),
    resourceRule(['patch', 'update'], [''], ['nodes/status', 'pods/status']),
    resourceRule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    events,
  ],
  'endpointslice-controller': [
    resourceRule(['get', 'list', 'watch'], [''], ['nodes', 'pods', 'services']),
    resourceRule(['update'], [''], ['services/finalizers']),
    resourceRule(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    events,
  ],
  'job-controller': [
    resourceRule(['get', 'list', 'update', 'watch'], ['batch'], ['jobs']),
    resourceRule(['update'], ['batch'], ['jobs/finalizers', 'jobs/status']),
    resourceRule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
    events,
  ],
  'ttl-after-finished-controller': [
    resourceRule(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']),
    events,
  ],
  'disruption-controller': [
    resourceRule(['get', 'list', 'watch'], ['apps', 'extensions'], ['deployments', 'replicasets']),
    resourceRule(['get', 'list', 'watch'], [''], ['replicationcontrollers']),
    resourceRule(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
    resourceRule(['get'], ['apps'], ['statefulsets']),
    resourceRule(['update'], ['policy'], ['poddisruptionbudgets/status']),
    resourceRule(['get'], ['*'], ['*/scale']),
    events,
  ],
  'endpoint-controller': [
    resourceRule(['get', 'list', 'watch'], [''], ['pods', 'services']),
    resourceRule(['create', 'delete', 'get', 'list', 'update'], [''], ['endpoints']),
    resourceRule(['create'], [''], ['endpoints/restricted']),
    events,
  ],
  'namespace-controller': [
    resourceRule(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
    resourceRule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
    resourceRule(['delete', 'deletecollection', 'get', 'list'], ['*'], ['*']),
  ],
  // Full rights on ClusterRoles, escalate included, so it may write any aggregated rule.
  'clusterrole-aggregation-controller': [
    resourceRule(['escalate', 'get', 'list', 'patch', 'update', 'watch'], ['rbac.authorization.k8s.io'], ['clusterroles']),
  ],
  // The pod garbage collector (reference/controllers/podgc/): force-deletes pods, marks them Failed first.
  'pod-garbage-collector': [
    resourceRule(['delete', 'list', 'watch'], [''], ['pods']),
    resourceRule(['get', 'list'], [''], ['nodes']),
    resourceRule(['patch'], [''], ['pods/status']),
  ],
  'generic-garbage-collector': [
    resourceRule(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']),
    events,
  ],
};

const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/**
 * policy.go, the ClusterRole "system:node-proxier": kube-proxy lists and watches Services,
 * Endpoints and EndpointSlices, reads Nodes, and records events
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go).
 */
function nodeProxierRules(): PolicyRule[] {
  return [
    resourceRule(['list', 'watch'], [''], ['services', 'endpoints']),
    resourceRule(['get', 'list', 'watch'], [''], ['nodes']),
    eventsRule,
    resourceRule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
  ];
}

export function bootstrapClusterRoles(): any[] {
  return [
    clusterRole('cluster-admin', [resourceRule(['*'], ['*'], ['*']), { verbs: ['*'], nonResourceURLs: ['*'] }]),
    clusterRole('system:discovery', [{ verbs: get, nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] }]),
    clusterRole('system:basic-user', [
      resourceRule(create, ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      resourceRule(create, ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:public-info-viewer', [{ verbs: get, nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }]),
    clusterRole(KUBE_CONTROLLER_MANAGER_USER, kubeControllerManagerRules()),
    clusterRole(KUBE_SCHEDULER_USER, kubeSchedulerRules()),
    ...Object.entries(CONTROLLER_ROLES).map(([name, rules]) => clusterRole(CONTROLLER_ROLE_PREFIX + name, rules)),
    clusterRole('system:node-proxier', nodeProxierRules()),
    ...userFacingClusterRoles(),
  ];
}

export function bootstrapClusterRoleBindings(): any[] {
  return [
    clusterRoleBinding('cluster-admin', groups('system:masters')),
    clusterRoleBinding('system:discovery', groups('system:authenticated')),
    clusterRoleBinding('system:basic-user', groups('system:authenticated')),
    clusterRoleBinding('system:public-info-viewer', groups('system:authenticated', 'system:unauthenticated')),
    clusterRoleBinding(KUBE_CONTROLLER_MANAGER_USER, [{ kind: 'User', name: KUBE_CONTROLLER_MANAGER_USER }]),
    clusterRoleBinding(KUBE_SCHEDULER_USER, [{ kind: 'User', name: KUBE_SCHEDULER_USER }]),
    ...Object.keys(CONTROLLER_ROLES).map((name) => controllerRoleBinding(name)),
    clusterRoleBinding('system:node-proxier', [{ kind: 'User', name: KUBE_PROXY_USER }]),
  ];
}

/** system:controller:<name> bound to kube-system/<name> (upstream) and to the controller manager's own user (see CONTROLLER_ROLES). */
function controllerRoleBinding(name: string): any {
  const binding = clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, [{ kind: 'User', name: KUBE_CONTROLLER_MANAGER_USER }]);
  binding.subjects.unshift({ kind: 'ServiceAccount', name, namespace: 'kube-system' });
  return binding;
}
