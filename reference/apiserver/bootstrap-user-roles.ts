/**
 * The user-facing default ClusterRoles `admin`, `edit` and `view`, as upstream's bootstrap policy
 * defines them (kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go,
 * ClusterRoles()): each of the three is aggregated — its rules are the union of every ClusterRole
 * carrying its `aggregate-to-*` label — and the rules themselves come from
 * `system:aggregate-to-admin`, `-edit` and `-view`. `edit` is aggregated into `admin` and `view`
 * into `edit` by their own labels, so admin ⊇ edit ⊇ view.
 */
import { clusterRole } from './bootstrap-policy.ts';
import type { PolicyRule } from './authz/types.ts';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });
const AGGREGATE = (to: string) => `rbac.authorization.k8s.io/aggregate-to-${to}`;

function aggregated(name: string, selects: string, labels: Record<string, string> = {}): any {
  const role = clusterRole(name, []);
  role.metadata.labels = { ...role.metadata.labels, ...labels };
  role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE(selects)]: 'true' } }] };
  return role;
}

function labelled(name: string, to: string, rules: PolicyRule[]): any {
  const role = clusterRole(name, rules);
  role.metadata.labels = { ...role.metadata.labels, [AGGREGATE(to)]: 'true' };
  return role;
}

const viewRules: PolicyRule[] = [
  rule(READ, [''], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
  rule(READ, [''], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
  rule(READ, [''], ['namespaces']),
  rule(READ, ['apps'], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
  rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
  rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
  rule(READ, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
  rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
];

const editRules: PolicyRule[] = [
  rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
  rule(['create'], [''], ['pods/eviction']),
  // No write on endpoints since v1.22 (CVE-2021-25740).
  rule(WRITE, [''], ['configmaps', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
  rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
  rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
  rule(WRITE, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
  rule(WRITE, ['policy'], ['poddisruptionbudgets']),
  rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
];

const adminRules: PolicyRule[] = [
  rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
  rule([...READ, ...WRITE], ['rbac.authorization.k8s.io'], ['rolebindings', 'roles']),
];

export function userFacingClusterRoles(): any[] {
  return [
    aggregated('admin', 'admin'),
    aggregated('edit', 'edit', { [AGGREGATE('admin')]: 'true' }),
    aggregated('view', 'view', { [AGGREGATE('edit')]: 'true' }),
    labelled('system:aggregate-to-admin', 'admin', adminRules),
    labelled('system:aggregate-to-edit', 'edit', editRules),
    labelled('system:aggregate-to-view', 'view', viewRules),
  ];
}
