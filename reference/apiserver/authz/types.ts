/** The rbac.authorization.k8s.io/v1 objects RBAC reads, as plain Kubernetes JSON. */
import type { LabelSelector } from './labels.ts';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}

export interface Role {
  metadata: ObjectMeta;
  rules?: PolicyRule[];
}

export interface ClusterRole extends Role {
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

export interface RoleBinding {
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

type MaybePromise<T> = T | Promise<T>;

/** How RBAC reads its objects; the server core backs it with its store. */
export interface RbacLister {
  roles(namespace: string): MaybePromise<Role[]>;
  clusterRoles(): MaybePromise<ClusterRole[]>;
  roleBindings(namespace: string): MaybePromise<RoleBinding[]>;
  clusterRoleBindings(): MaybePromise<ClusterRoleBinding[]>;
}
