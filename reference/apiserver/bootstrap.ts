/**
 * What a fresh kube-apiserver creates for itself, written straight to the store since these are
 * the server's own objects:
 * - its bootstrap controller's (pkg/controlplane/controller): the namespaces default,
 *   kube-system, kube-public and kube-node-lease, and the `kubernetes` service in default at the
 *   first address of the service range;
 * - its `rbac/bootstrap-roles` post-start hook's: the default RBAC policy (bootstrap-policy.ts);
 * - its `scheduling/bootstrap-system-priority-classes` hook's: system-node-critical and
 *   system-cluster-critical (pkg/registry/scheduling/rest/storage_scheduling.go).
 *
 * Each object is created only when missing, so a server started over a store that already
 * holds them (kubespec serve --data-dir) writes nothing.
 */
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, RBAC_GROUP } from './bootstrap-policy.ts';
import { prepareForCreate } from './handlers/prepare.ts';
import { findResource } from './resources/registry.ts';
import { ApiError } from './status.ts';
import { systemPriorityClasses } from './admission/priority.ts';
import type { Env } from './types.ts';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

async function ensure(env: Env, group: string, resource: string, obj: any): Promise<void> {
  const def = findResource(group, 'v1', resource)!;
  if (await env.store.get(def, obj.metadata.namespace ?? '', obj.metadata.name)) return;
  prepareForCreate(env, def, obj);
  try {
    await env.store.create(def, obj);
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 409)) throw e;
  }
}

export async function bootstrapCluster(env: Env): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) await ensure(env, '', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await ensure(env, '', 'services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
  });
  for (const role of bootstrapClusterRoles()) await ensure(env, RBAC_GROUP, 'clusterroles', role);
  for (const binding of bootstrapClusterRoleBindings()) await ensure(env, RBAC_GROUP, 'clusterrolebindings', binding);
  for (const pc of systemPriorityClasses()) await ensure(env, 'scheduling.k8s.io', 'priorityclasses', pc);
}
